"""foundation: genes, versions, trajectories

Revision ID: 0001
Revises:
Create Date: 2026-12-02 10:22:02.508647

The vector extension is created here; downgrade leaves it installed, since other schemas may use it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.create_table(
        "genes",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("category", sa.Text(), nullable=False),
        sa.Column("task_family", sa.Text(), nullable=True),
        sa.Column("status", sa.Text(), server_default="candidate", nullable=False),
        sa.Column("status_message", sa.Text(), nullable=True),
        sa.Column("current_version", sa.Integer(), nullable=False),
        sa.Column("current_asset_id", sa.Text(), nullable=False),
        sa.Column("producer_model", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "status IN ('candidate', 'promoted', 'deprecated', 'revoked')", name=op.f("ck_genes_status_valid")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_genes")),
    )
    op.create_index(op.f("ix_genes_category"), "genes", ["category"], unique=False)
    op.create_index(op.f("ix_genes_producer_model"), "genes", ["producer_model"], unique=False)
    op.create_index(op.f("ix_genes_task_family"), "genes", ["task_family"], unique=False)
    op.create_index("ix_genes_updated_at_id", "genes", ["updated_at", "id"], unique=False)
    op.create_table(
        "trajectories",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("content_hash", sa.Text(), nullable=False),
        sa.Column("task_id", sa.Text(), nullable=False),
        sa.Column("task_family", sa.Text(), nullable=True),
        sa.Column("task_description", sa.Text(), nullable=False),
        sa.Column("producer_model", sa.Text(), nullable=False),
        sa.Column("producer_agent", sa.Text(), nullable=True),
        sa.Column("steps", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("verifier", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("verifier_passed", sa.Boolean(), nullable=False),
        sa.Column("cost_tokens", sa.BigInteger(), nullable=True),
        sa.Column("cost_attempts", sa.Integer(), nullable=True),
        sa.Column("cost_seconds", sa.Double(), nullable=True),
        sa.Column("guards", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("gene_draft", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("target_gene_id", sa.Text(), nullable=True),
        sa.Column("redaction_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("state", sa.Text(), server_default="pending", nullable=False),
        sa.Column("state_reason", sa.Text(), nullable=True),
        sa.Column("result_gene_id", sa.Text(), nullable=True),
        sa.Column("result_asset_id", sa.Text(), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "state IN ('pending', 'merged', 'rejected')", name=op.f("ck_trajectories_state_valid")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trajectories")),
        sa.UniqueConstraint("content_hash", name=op.f("uq_trajectories_content_hash")),
    )
    op.create_table(
        "gene_versions",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("asset_id", sa.Text(), nullable=False),
        sa.Column("parent_asset_id", sa.Text(), nullable=True),
        sa.Column("canonical_json", sa.Text(), nullable=False),
        sa.Column("document_json", sa.Text(), nullable=False),
        sa.Column("document", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("producer_model", sa.Text(), nullable=False),
        sa.Column("provenance_kind", sa.Text(), nullable=False),
        sa.Column("verifier", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("task_id", sa.Text(), nullable=True),
        sa.Column("task_family", sa.Text(), nullable=True),
        sa.Column("task_description", sa.Text(), nullable=True),
        sa.Column("cost_tokens", sa.BigInteger(), nullable=True),
        sa.Column("cost_attempts", sa.Integer(), nullable=True),
        sa.Column("cost_seconds", sa.Double(), nullable=True),
        sa.Column("embedding", Vector(384), nullable=True),
        sa.Column("embedding_model", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column("valid_to", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "provenance_kind IN ('verified_trajectory', 'manual', 'reference')",
            name=op.f("ck_gene_versions_provenance_kind_valid"),
        ),
        sa.CheckConstraint("version >= 1", name=op.f("ck_gene_versions_version_positive")),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_gene_versions_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gene_versions")),
        sa.UniqueConstraint("asset_id", name=op.f("uq_gene_versions_asset_id")),
        sa.UniqueConstraint("gene_id", "version", name="uq_gene_versions_gene_id_version"),
    )
    op.create_index(
        "ix_gene_versions_gene_id_valid_from", "gene_versions", ["gene_id", "valid_from"], unique=False
    )
    op.create_table(
        "version_trajectories",
        sa.Column("version_id", sa.BigInteger(), nullable=False),
        sa.Column("trajectory_id", sa.UUID(), nullable=False),
        sa.ForeignKeyConstraint(
            ["trajectory_id"],
            ["trajectories.id"],
            name=op.f("fk_version_trajectories_trajectory_id_trajectories"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["gene_versions.id"],
            name=op.f("fk_version_trajectories_version_id_gene_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("version_id", "trajectory_id", name=op.f("pk_version_trajectories")),
    )
    op.create_index(
        op.f("ix_version_trajectories_trajectory_id"), "version_trajectories", ["trajectory_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_version_trajectories_trajectory_id"), table_name="version_trajectories")
    op.drop_table("version_trajectories")
    op.drop_index("ix_gene_versions_gene_id_valid_from", table_name="gene_versions")
    op.drop_table("gene_versions")
    op.drop_table("trajectories")
    op.drop_index("ix_genes_updated_at_id", table_name="genes")
    op.drop_index(op.f("ix_genes_task_family"), table_name="genes")
    op.drop_index(op.f("ix_genes_producer_model"), table_name="genes")
    op.drop_index(op.f("ix_genes_category"), table_name="genes")
    op.drop_table("genes")
