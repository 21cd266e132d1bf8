from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column


class TrajectoryKey(Base):
    """An `Idempotency-Key` a producer sent with POST /v1/trajectories, and what it was used for.

    Its own table rather than a column: a key sent with content already stored under another key (or
    none) must still be remembered, so that reusing it for different content is refused.
    """

    __tablename__ = "trajectory_keys"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    trajectory_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("trajectories.id", ondelete="CASCADE"), nullable=False, index=True
    )
    content_hash: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = utcnow_column()
