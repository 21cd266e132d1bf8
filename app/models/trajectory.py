from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    Table,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class TrajectoryState(StrEnum):
    pending = "pending"
    merged = "merged"
    rejected = "rejected"


class Trajectory(Base):
    """The evidence behind Gene versions: one producer run with its steps and verifier result."""

    __tablename__ = "trajectories"
    __table_args__ = (
        CheckConstraint("state IN ('pending', 'merged', 'rejected')", name="state_valid"),
        # Identical content is one trajectory per submitting key: another key sending the same run
        # gets a trajectory of its own (and learns nothing of the first one's).
        UniqueConstraint("submitted_by", "content_hash", name="uq_trajectories_submitted_by_content_hash"),
        # The worker's queue: pending rows in arrival order, a small index however long the history.
        Index(
            "ix_trajectories_pending",
            "received_at",
            "id",
            postgresql_where=text("state = 'pending'"),
        ),
        # A producer's runs, newest first (GET /v1/trajectories), and its counts per state from the
        # index alone: bench/trajectory_list.py measured pages 24-34x and counts 5x faster for a key
        # with 50,000 runs.
        Index(
            "ix_trajectories_submitted_by_received",
            "submitted_by",
            "received_at",
            "id",
            postgresql_include=["state"],
        ),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    content_hash: Mapped[str] = mapped_column(Text, nullable=False)
    task_id: Mapped[str] = mapped_column(Text, nullable=False)
    task_family: Mapped[str | None] = mapped_column(Text)
    task_description: Mapped[str] = mapped_column(Text, nullable=False)
    producer_model: Mapped[str] = mapped_column(Text, nullable=False)
    producer_agent: Mapped[str | None] = mapped_column(Text)
    steps: Mapped[list[Any]] = mapped_column(nullable=False)
    verifier: Mapped[dict[str, Any]] = mapped_column(nullable=False)
    verifier_passed: Mapped[bool] = mapped_column(Boolean, nullable=False)
    cost_tokens: Mapped[int | None] = mapped_column(BigInteger)
    cost_attempts: Mapped[int | None] = mapped_column(Integer)
    cost_seconds: Mapped[float | None] = mapped_column(Double)
    guards: Mapped[list[Any] | None] = mapped_column()
    gene_draft: Mapped[dict[str, Any] | None] = mapped_column()
    target_gene_id: Mapped[str | None] = mapped_column(Text)
    redaction_count: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    # The producer key that sent it: only it (and admins) may read it or cite it as evidence, a Gene
    # founded from it belongs to that key, and a guard it carries is backed by that key.
    submitted_by: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_keys.id"), nullable=False)

    state: Mapped[str] = mapped_column(Text, nullable=False, server_default=TrajectoryState.pending.value)
    state_reason: Mapped[str | None] = mapped_column(Text)
    result_gene_id: Mapped[str | None] = mapped_column(Text)
    result_asset_id: Mapped[str | None] = mapped_column(Text)
    # The closest Gene the worker found when routing (or checking a named gene_id), merged or not:
    # what a rejection says the producer could name.
    route_gene_id: Mapped[str | None] = mapped_column(Text)
    route_similarity: Mapped[float | None] = mapped_column(Double)
    # clock_timestamp(), not now(): runs received in one transaction keep the order they arrived in,
    # which is the order the worker takes them (oldest first).
    received_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.clock_timestamp()
    )
    processed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Processing attempts, counted when a worker claims the trajectory (in a transaction of its own, so
    # a job that crashes or kills its worker counts too); after the worker's limit it is rejected.
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text)
    # The claim's lease: no other worker claims the trajectory before then (its job holds a row lock
    # while it runs; the lease covers the moment between the claim and that lock).
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


# Which trajectories stand behind which Gene version (a version may merge many, a trajectory may
# back versions of several Genes over time).
class EvidenceRole(StrEnum):
    strategy = "strategy"  # the run the version's strategy came from
    guards = "guards"  # a run whose failure guards changed the version (the strategy is older)


version_trajectories = Table(
    "version_trajectories",
    Base.metadata,
    Column("version_id", ForeignKey("gene_versions.id", ondelete="CASCADE"), primary_key=True),
    Column("trajectory_id", ForeignKey("trajectories.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("role", Text, nullable=False, server_default=EvidenceRole.strategy.value),
    CheckConstraint("role IN ('strategy', 'guards')", name="role_valid"),
)
