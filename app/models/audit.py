from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, Identity, Index, Integer, Text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column


class AuditEntry(Base):
    """One write, lifecycle or key action: who, what, when, from where, and how it ended."""

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_at_id", "at", "id"),
        Index("ix_audit_log_key_id_at", "key_id", "at"),
        Index("ix_audit_log_action_at", "action", "at"),
        CheckConstraint("repeat_count >= 1", name="repeat_count_positive"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    at: Mapped[datetime] = utcnow_column()
    key_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    actor: Mapped[str] = mapped_column(Text, nullable=False)
    role: Mapped[str] = mapped_column(Text, nullable=False)
    action: Mapped[str] = mapped_column(Text, nullable=False)
    target: Mapped[str | None] = mapped_column(Text)
    client: Mapped[str | None] = mapped_column(Text)
    method: Mapped[str | None] = mapped_column(Text)
    path: Mapped[str | None] = mapped_column(Text)
    status: Mapped[int] = mapped_column(Integer, nullable=False)
    detail: Mapped[dict[str, Any] | None] = mapped_column()
    # Identical refusals (same client, key, action, target and status) are written once per flush:
    # how many there were, and when the first and the last of them happened.
    repeat_count: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")
    first_at: Mapped[datetime] = utcnow_column()
    last_at: Mapped[datetime] = utcnow_column()
