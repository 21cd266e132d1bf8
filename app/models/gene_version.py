from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Computed,
    DateTime,
    Double,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB, TSVECTOR
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import EMBEDDING_DIM, Base, utcnow_column
from app.models.vector import Vector

# The task families with a partial HNSW index of their own (migration 0017).
HNSW_FAMILIES = ("code_generation", "math_reasoning", "rule_following", "agent_environment")


class ProvenanceKind(StrEnum):
    verified_trajectory = "verified_trajectory"
    manual = "manual"
    reference = "reference"


class GeneVersion(Base):
    """One immutable, content-addressed Gene document and the provenance it was published with.

    `canonical_json` holds the exact bytes that were hashed into `asset_id`, so any version can be
    re-verified later; `document_json` is the canonical document with its asset_id, served as is;
    `document` (JSONB) is the same document for queries and filters.
    """

    __tablename__ = "gene_versions"
    __table_args__ = (
        UniqueConstraint("gene_id", "version", name="uq_gene_versions_gene_id_version"),
        CheckConstraint(
            "provenance_kind IN ('verified_trajectory', 'manual', 'reference')", name="provenance_kind_valid"
        ),
        CheckConstraint("version >= 1", name="version_positive"),
        CheckConstraint(
            "reason IS NULL OR reason IN "
            "('published', 'founded', 'guards_added', 'guards_merged', 'reordered', 'dropped', 'gep_format')",
            name="reason_valid",
        ),
        Index("ix_gene_versions_gene_id_valid_from", "gene_id", "valid_from"),
        Index(
            "ix_gene_versions_embedding_hnsw",
            "embedding",
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 200},
            postgresql_ops={"embedding": "vector_cosine_ops"},
            postgresql_where=text("valid_to IS NULL"),
        ),
        # One per research task family, for searches filtered by family (migration 0017).
        *(
            Index(
                f"ix_gene_versions_embedding_hnsw_{family}",
                "embedding",
                postgresql_using="hnsw",
                postgresql_with={"m": 16, "ef_construction": 200},
                postgresql_ops={"embedding": "vector_cosine_ops"},
                postgresql_where=text(f"valid_to IS NULL AND task_family = '{family}'"),
            )
            for family in HNSW_FAMILIES
        ),
        Index(
            "ix_gene_versions_search_tsv",
            "search_tsv",
            postgresql_using="gin",
            postgresql_where=text("valid_to IS NULL"),
        ),
        Index(
            "ix_gene_versions_signals_tsv",
            "signals_tsv",
            postgresql_using="gin",
            postgresql_where=text("valid_to IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    gene_id: Mapped[str] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    asset_id: Mapped[str] = mapped_column(Text, nullable=False, unique=True)
    parent_asset_id: Mapped[str | None] = mapped_column(Text)
    canonical_json: Mapped[str] = mapped_column(Text, nullable=False)
    document_json: Mapped[str] = mapped_column(Text, nullable=False)
    document: Mapped[dict[str, Any]] = mapped_column(nullable=False)
    # Copies of two document fields PostgreSQL keeps (generated columns, migration 0019): the search
    # candidates query reads them without detoasting the document.
    summary: Mapped[str | None] = mapped_column(
        Text, Computed("document ->> 'summary'", persisted=True), deferred=True
    )
    signals_match: Mapped[list[str] | None] = mapped_column(
        JSONB, Computed("document -> 'signals_match'", persisted=True), deferred=True
    )

    producer_model: Mapped[str] = mapped_column(Text, nullable=False)
    provenance_kind: Mapped[str] = mapped_column(Text, nullable=False)
    verifier: Mapped[dict[str, Any] | None] = mapped_column()
    task_id: Mapped[str | None] = mapped_column(Text)
    task_family: Mapped[str | None] = mapped_column(Text)
    task_description: Mapped[str | None] = mapped_column(Text)
    cost_tokens: Mapped[int | None] = mapped_column(BigInteger)
    cost_attempts: Mapped[int | None] = mapped_column(Integer)
    cost_seconds: Mapped[float | None] = mapped_column(Double)
    # The key that published this version, or whose run (or guard review) made the worker write it.
    published_by: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_keys.id"), nullable=False)
    # Why this version exists: published, founded, guards_added, guards_merged, reordered, dropped,
    # gep_format
    # (app/genes/versions.py, VersionReason); null for versions written before it was recorded.
    reason: Mapped[str | None] = mapped_column(Text)
    # How the worker made the document (source, task id, errors overcome): registry facts, not hashed.
    generation_meta: Mapped[dict[str, Any] | None] = mapped_column()

    embedding: Mapped[list[float] | None] = mapped_column(Vector(EMBEDDING_DIM))
    embedding_model: Mapped[str | None] = mapped_column(Text)
    # Weighted full-text vector (summary and signals A, strategy B, preconditions C, guards D) and a
    # separate unstemmed vector of signal words; see app/genes/indexing.py.
    search_tsv: Mapped[str | None] = mapped_column(TSVECTOR)
    signals_tsv: Mapped[str | None] = mapped_column(TSVECTOR)

    created_at: Mapped[datetime] = utcnow_column()
    # The version the registry served at time T is the one with valid_from <= T < valid_to.
    valid_from: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    valid_to: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


# A version's provenance as every reader of a version's facts loads it: the strategy's producer, kind,
# verifier, task and cost (what a version that only changes guards keeps from the one before).
PROVENANCE_COLUMNS = (
    GeneVersion.producer_model,
    GeneVersion.provenance_kind,
    GeneVersion.verifier,
    GeneVersion.task_id,
    GeneVersion.task_family,
    GeneVersion.task_description,
    GeneVersion.cost_tokens,
    GeneVersion.cost_attempts,
    GeneVersion.cost_seconds,
)


class GeneTaskKey(Base):
    """A way a task was phrased by someone the Gene helped: a search key beside the Gene's own text.

    One row per distinct task description of the Gene's versions (`version`) and of the verified
    trajectories merged into it (`trajectory`); search scores a Gene by the best cosine between the
    query and these vectors (app/search/service.py, experience expansion).
    """

    __tablename__ = "gene_task_keys"
    __table_args__ = (
        UniqueConstraint("gene_id", "text_sha256", name="uq_gene_task_keys_gene_text"),
        CheckConstraint("source IN ('version', 'trajectory')", name="source_valid"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    gene_id: Mapped[str] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), nullable=False)
    source: Mapped[str] = mapped_column(Text, nullable=False)
    text_sha256: Mapped[str] = mapped_column(Text, nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False)
    embedding: Mapped[list[float]] = mapped_column(Vector(EMBEDDING_DIM), nullable=False)
    embedding_model: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = utcnow_column()
