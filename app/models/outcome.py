from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Double,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column


class Outcome(Base):
    """A consumer's report: it used version V for task T with model M, and this is what happened."""

    __tablename__ = "outcomes"
    __table_args__ = (
        # One report per (reporter, task, asset, attempt); a missing attempt id counts as one attempt.
        Index(
            "uq_outcomes_report",
            "reporter",
            "task_id",
            "asset_id",
            text("coalesce(attempt_id, '')"),
            unique=True,
        ),
        Index("ix_outcomes_gene_id_created_at", "gene_id", "created_at"),
        CheckConstraint("score IS NULL OR (score >= 0 AND score <= 1)", name="score_range"),
        CheckConstraint(
            "reason IS NULL OR reason IN ('failed', 'partial', 'irrelevant')", name="reason_valid"
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    gene_id: Mapped[str] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), nullable=False)
    version_id: Mapped[int] = mapped_column(
        ForeignKey("gene_versions.id", ondelete="CASCADE"), nullable=False
    )
    asset_id: Mapped[str] = mapped_column(Text, nullable=False)
    producer_model: Mapped[str] = mapped_column(Text, nullable=False)
    reporter: Mapped[str] = mapped_column(Text, nullable=False)
    consumer_model: Mapped[str] = mapped_column(Text, nullable=False, index=True)
    task_id: Mapped[str] = mapped_column(Text, nullable=False)
    attempt_id: Mapped[str | None] = mapped_column(Text)
    success: Mapped[bool] = mapped_column(Boolean, nullable=False)
    score: Mapped[float | None] = mapped_column(Double)
    tokens_used: Mapped[int | None] = mapped_column(BigInteger)
    baseline_tokens: Mapped[int | None] = mapped_column(BigInteger)
    baseline_success: Mapped[bool | None] = mapped_column(Boolean)
    # failed, partial or irrelevant (the wrong Gene for the task: a retrieval miss, not counted).
    reason: Mapped[str | None] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    # Reported by a key bound to `consumer_model`: only such reports count in per-model figures.
    model_bound: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="false")
    created_at: Mapped[datetime] = utcnow_column()


class GeneQuality(Base):
    """Decayed success evidence of a Gene, overall (consumer_model '') and per consumer model.

    `successes` and `failures` are weighted sums as of `as_of`: each report weighs
    0.5^(age / half-life), so at a later time t both are scaled by 0.5^((t - as_of) / half-life).
    """

    __tablename__ = "gene_quality"

    gene_id: Mapped[str] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), primary_key=True)
    consumer_model: Mapped[str] = mapped_column(Text, primary_key=True)
    successes: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    failures: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    reports: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    # Distinct keys whose reports count here (each capped, see app/outcomes/quality.py).
    reporters: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    as_of: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    # Reports that also gave the consumer's result without the Gene (for negative transfer), each key
    # capped like the evidence above (hence fractional).
    paired_reports: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    paired_successes: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    paired_baseline_successes: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    lower_bound: Mapped[float] = mapped_column(Double, nullable=False)
    demoted: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="false")
    updated_at: Mapped[datetime] = utcnow_column()


class ProducerReputation(Base):
    """Decayed success evidence of all Genes a producer model wrote (the prior for their new Genes)."""

    __tablename__ = "producer_reputation"

    producer_model: Mapped[str] = mapped_column(Text, primary_key=True)
    successes: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    failures: Mapped[float] = mapped_column(Double, nullable=False, server_default="0")
    reports: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    as_of: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class GeneStatusChange(Base):
    """Every lifecycle transition, by rule or by hand, with its reason."""

    __tablename__ = "gene_status_changes"

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    gene_id: Mapped[str] = mapped_column(
        ForeignKey("genes.id", ondelete="CASCADE"), nullable=False, index=True
    )
    from_status: Mapped[str] = mapped_column(Text, nullable=False)
    to_status: Mapped[str] = mapped_column(Text, nullable=False)
    reason: Mapped[str] = mapped_column(Text, nullable=False)
    actor: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = utcnow_column()
