from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Table,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import EMBEDDING_DIM, Base, utcnow_column
from app.models.vector import Vector


class GuardState(StrEnum):
    active = "active"  # may be served: backed by the owner, by a quorum of other keys, or approved
    proposed = "proposed"  # waits for more backers or for a human
    rejected = "rejected"  # refused by the owner or an admin; more evidence does not revive it


class Guard(Base):
    """One failure guard of a Gene with its evidence: registry facts, outside the hashed document.

    The kept guards, in order, are the Gene document's `avoid` list; only active guards are kept.
    Dropped ones stay (with their evidence) so that a warning seen again keeps counting and can
    come back.
    """

    __tablename__ = "guards"
    __table_args__ = (
        UniqueConstraint("gene_id", "text", name="uq_guards_gene_id_text"),
        CheckConstraint("evidence_count >= 1", name="evidence_positive"),
        CheckConstraint("state IN ('active', 'proposed', 'rejected')", name="state_valid"),
        CheckConstraint("NOT kept OR state = 'active'", name="kept_is_active"),
        Index("ix_guards_gene_id_kept", "gene_id", "kept"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    gene_id: Mapped[str] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    embedding: Mapped[list[float]] = mapped_column(Vector(EMBEDDING_DIM), nullable=False)
    embedding_model: Mapped[str] = mapped_column(Text, nullable=False)
    evidence_count: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")
    kept: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="true")
    first_seen_at: Mapped[datetime] = utcnow_column()
    last_seen_at: Mapped[datetime] = utcnow_column()
    dropped_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(Text, nullable=False, server_default=GuardState.active.value)
    # Why it waits for a human whatever its backing (text that looks like fetching or running code).
    hold_reason: Mapped[str | None] = mapped_column(Text)
    # Extracted by the registry from a run's steps (not a producer's words): a producer's guard that
    # means the same replaces its text.
    extracted: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="false")
    # The failure keys (app/evolution/extraction.py, rule 7) of the failed steps the guard came from:
    # a guard of another run that met the same error and fixed it the same way merges into it.
    failure_keys: Mapped[list[str]] = mapped_column(ARRAY(Text), nullable=False, server_default="{}")
    reviewed_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("api_keys.id"))
    reviewed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    review_note: Mapped[str | None] = mapped_column(Text)


# Which trajectories carried (a paraphrase of) which guard: one row per trajectory and guard, so a
# guard's evidence can always be traced back to the runs behind it.
guard_evidence = Table(
    "guard_evidence",
    Base.metadata,
    Column("guard_id", ForeignKey("guards.id", ondelete="CASCADE"), primary_key=True),
    Column("trajectory_id", ForeignKey("trajectories.id", ondelete="CASCADE"), primary_key=True, index=True),
)


# Which keys back a guard: the submitters of the runs that carried it, and the owner for a guard of
# a document the owner published. Distinct keys, not runs, decide whether a guard may be served.
guard_backers = Table(
    "guard_backers",
    Base.metadata,
    Column("guard_id", ForeignKey("guards.id", ondelete="CASCADE"), primary_key=True),
    Column("key_id", ForeignKey("api_keys.id"), primary_key=True, index=True),
    Column("first_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
