from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column

# The command line's own principal (`genebank demo`, loaders, benchmarks): a key row that owns what
# those paths write, with a prefix and hash that no bearer token can ever match.
SYSTEM_KEY_ID = uuid.UUID("00000000-0000-4000-8000-000000000001")
SYSTEM_KEY_NAME = "system"


class ApiKey(Base):
    """A bearer key. Only its SHA-256 is stored; `prefix` (public, in the key itself) finds the row."""

    __tablename__ = "api_keys"
    __table_args__ = (CheckConstraint("role IN ('consumer', 'producer', 'admin')", name="role_valid"),)

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    name: Mapped[str] = mapped_column(Text, nullable=False)
    role: Mapped[str] = mapped_column(Text, nullable=False)
    prefix: Mapped[str] = mapped_column(Text, nullable=False, unique=True)
    key_hash: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = utcnow_column()
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("api_keys.id", ondelete="SET NULL"))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A consumer key bound to the model it runs: its outcome reports count for that model only, and
    # per-model statistics count only such reports (any other model name is self-declared).
    consumer_model: Mapped[str | None] = mapped_column(Text)
    # Who holds the key (a person, a team, an organisation), as the admin who issued it recorded: keys
    # of one owner are not independent of each other (founding a Gene on a second run asks for
    # another owner). A key without one is its own owner.
    owner: Mapped[str | None] = mapped_column(Text)
