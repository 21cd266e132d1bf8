"""outcomes: consumer reports, decayed quality per Gene and consumer model, producer reputation, status changes

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 13:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outcomes",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("version_id", sa.BigInteger(), nullable=False),
        sa.Column("asset_id", sa.Text(), nullable=False),
        sa.Column("producer_model", sa.Text(), nullable=False),
        sa.Column("reporter", sa.Text(), nullable=False),
        sa.Column("consumer_model", sa.Text(), nullable=False),
        sa.Column("task_id", sa.Text(), nullable=False),
        sa.Column("attempt_id", sa.Text(), nullable=True),
        sa.Column("success", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Double(), nullable=True),
        sa.Column("tokens_used", sa.BigInteger(), nullable=True),
        sa.Column("baseline_tokens", sa.BigInteger(), nullable=True),
        sa.Column("baseline_success", sa.Boolean(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "score IS NULL OR (score >= 0 AND score <= 1)", name=op.f("ck_outcomes_score_range")
        ),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_outcomes_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["gene_versions.id"],
            name=op.f("fk_outcomes_version_id_gene_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outcomes")),
    )
    op.create_index("ix_outcomes_gene_id_created_at", "outcomes", ["gene_id", "created_at"])
    op.create_index(op.f("ix_outcomes_consumer_model"), "outcomes", ["consumer_model"])
    op.create_index(
        "uq_outcomes_report",
        "outcomes",
        ["reporter", "task_id", "asset_id", sa.text("coalesce(attempt_id, '')")],
        unique=True,
    )
    op.create_table(
        "gene_quality",
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("consumer_model", sa.Text(), nullable=False),
        sa.Column("successes", sa.Double(), server_default="0", nullable=False),
        sa.Column("failures", sa.Double(), server_default="0", nullable=False),
        sa.Column("reports", sa.Integer(), server_default="0", nullable=False),
        sa.Column("as_of", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paired_reports", sa.Integer(), server_default="0", nullable=False),
        sa.Column("paired_successes", sa.Integer(), server_default="0", nullable=False),
        sa.Column("paired_baseline_successes", sa.Integer(), server_default="0", nullable=False),
        sa.Column("lower_bound", sa.Double(), nullable=False),
        sa.Column("demoted", sa.Boolean(), server_default="false", nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_gene_quality_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("gene_id", "consumer_model", name=op.f("pk_gene_quality")),
    )
    op.create_table(
        "producer_reputation",
        sa.Column("producer_model", sa.Text(), nullable=False),
        sa.Column("successes", sa.Double(), server_default="0", nullable=False),
        sa.Column("failures", sa.Double(), server_default="0", nullable=False),
        sa.Column("reports", sa.Integer(), server_default="0", nullable=False),
        sa.Column("as_of", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("producer_model", name=op.f("pk_producer_reputation")),
    )
    op.create_table(
        "gene_status_changes",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("from_status", sa.Text(), nullable=False),
        sa.Column("to_status", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_gene_status_changes_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gene_status_changes")),
    )
    op.create_index(op.f("ix_gene_status_changes_gene_id"), "gene_status_changes", ["gene_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_gene_status_changes_gene_id"), table_name="gene_status_changes")
    op.drop_table("gene_status_changes")
    op.drop_table("producer_reputation")
    op.drop_table("gene_quality")
    op.drop_index("uq_outcomes_report", table_name="outcomes")
    op.drop_index(op.f("ix_outcomes_consumer_model"), table_name="outcomes")
    op.drop_index("ix_outcomes_gene_id_created_at", table_name="outcomes")
    op.drop_table("outcomes")
