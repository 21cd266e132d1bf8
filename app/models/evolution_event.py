from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Identity, Index, Integer, Text, text
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column


class EventKind(StrEnum):
    published = "published"  # a version sent to POST /v1/genes
    founded = "founded"  # the worker created the Gene from a trajectory
    merged = "merged"  # the worker merged a trajectory into an existing Gene
    reviewed = "reviewed"  # the owner or an admin approved or rejected a guard


class EvolutionEvent(Base):
    """The audit record of one change to a Gene: what came in, what it did to the guards, which versions.

    A merge that only adds evidence (the document does not change) is recorded too, with
    `new_asset_id` equal to `old_asset_id` and no new version.
    """

    __tablename__ = "evolution_events"
    __table_args__ = (
        CheckConstraint("kind IN ('published', 'founded', 'merged', 'reviewed')", name="kind_valid"),
        Index("ix_evolution_events_gene_id_id", "gene_id", "id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    gene_id: Mapped[str] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), nullable=False)
    kind: Mapped[str] = mapped_column(Text, nullable=False)
    trajectory_ids: Mapped[list[uuid.UUID]] = mapped_column(
        ARRAY(UUID(as_uuid=True)), nullable=False, server_default=text("'{}'::uuid[]")
    )
    guards_added: Mapped[list[Any]] = mapped_column(JSONB, nullable=False, server_default=text("'[]'::jsonb"))
    guards_merged: Mapped[list[Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'[]'::jsonb")
    )
    guards_dropped: Mapped[list[Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'[]'::jsonb")
    )
    old_asset_id: Mapped[str | None] = mapped_column(Text)
    new_asset_id: Mapped[str] = mapped_column(Text, nullable=False)
    old_version: Mapped[int | None] = mapped_column(Integer)
    new_version: Mapped[int] = mapped_column(Integer, nullable=False)
    # Which process wrote it (host:pid for the worker, "api" for a publish): for operators.
    actor: Mapped[str] = mapped_column(Text, nullable=False)
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = utcnow_column()
