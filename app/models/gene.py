from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column


class GeneStatus(StrEnum):
    candidate = "candidate"
    promoted = "promoted"
    deprecated = "deprecated"
    revoked = "revoked"


class Gene(Base):
    """A lineage: one stable id and a pointer to its current immutable version."""

    __tablename__ = "genes"
    __table_args__ = (
        CheckConstraint("status IN ('candidate', 'promoted', 'deprecated', 'revoked')", name="status_valid"),
        Index("ix_genes_updated_at_id", "updated_at", "id"),
    )

    id: Mapped[str] = mapped_column(Text, primary_key=True)
    category: Mapped[str] = mapped_column(Text, nullable=False, index=True)
    task_family: Mapped[str | None] = mapped_column(Text, index=True)
    status: Mapped[str] = mapped_column(Text, nullable=False, server_default=GeneStatus.candidate.value)
    status_message: Mapped[str | None] = mapped_column(Text)
    current_version: Mapped[int] = mapped_column(Integer, nullable=False)
    current_asset_id: Mapped[str] = mapped_column(Text, nullable=False)
    producer_model: Mapped[str] = mapped_column(Text, nullable=False, index=True)
    # The key that owns the lineage (the one that founded it, or the one it was transferred to): only
    # it (or an admin) publishes its next versions, and its reports never count for its own Gene.
    owner_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_keys.id"), nullable=False, index=True)
    created_at: Mapped[datetime] = utcnow_column()
    updated_at: Mapped[datetime] = utcnow_column()
