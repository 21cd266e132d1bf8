"""evolution: guards with evidence, evolution events, idempotency keys, the worker's queue index

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("trajectories", sa.Column("attempts", sa.Integer(), server_default="0", nullable=False))
    op.add_column("trajectories", sa.Column("last_error", sa.Text(), nullable=True))
    op.create_index(
        "ix_trajectories_pending",
        "trajectories",
        ["received_at", "id"],
        unique=False,
        postgresql_where=sa.text("state = 'pending'"),
    )

    op.create_table(
        "guards",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("embedding", Vector(384), nullable=False),
        sa.Column("embedding_model", sa.Text(), nullable=False),
        sa.Column("evidence_count", sa.Integer(), server_default="1", nullable=False),
        sa.Column("kept", sa.Boolean(), server_default="true", nullable=False),
        sa.Column(
            "first_seen_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
        sa.Column(
            "last_seen_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
        sa.Column("dropped_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("evidence_count >= 1", name=op.f("ck_guards_evidence_positive")),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_guards_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_guards")),
        sa.UniqueConstraint("gene_id", "text", name="uq_guards_gene_id_text"),
    )
    op.create_index("ix_guards_gene_id_kept", "guards", ["gene_id", "kept"], unique=False)

    op.create_table(
        "guard_evidence",
        sa.Column("guard_id", sa.BigInteger(), nullable=False),
        sa.Column("trajectory_id", sa.UUID(), nullable=False),
        sa.ForeignKeyConstraint(
            ["guard_id"], ["guards.id"], name=op.f("fk_guard_evidence_guard_id_guards"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["trajectory_id"],
            ["trajectories.id"],
            name=op.f("fk_guard_evidence_trajectory_id_trajectories"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("guard_id", "trajectory_id", name=op.f("pk_guard_evidence")),
    )
    op.create_index(
        op.f("ix_guard_evidence_trajectory_id"), "guard_evidence", ["trajectory_id"], unique=False
    )

    op.create_table(
        "evolution_events",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column(
            "trajectory_ids",
            postgresql.ARRAY(sa.UUID()),
            server_default=sa.text("'{}'::uuid[]"),
            nullable=False,
        ),
        sa.Column("guards_added", postgresql.JSONB(), server_default=sa.text("'[]'::jsonb"), nullable=False),
        sa.Column("guards_merged", postgresql.JSONB(), server_default=sa.text("'[]'::jsonb"), nullable=False),
        sa.Column(
            "guards_dropped", postgresql.JSONB(), server_default=sa.text("'[]'::jsonb"), nullable=False
        ),
        sa.Column("old_asset_id", sa.Text(), nullable=True),
        sa.Column("new_asset_id", sa.Text(), nullable=False),
        sa.Column("old_version", sa.Integer(), nullable=True),
        sa.Column("new_version", sa.Integer(), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("details", postgresql.JSONB(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "kind IN ('published', 'founded', 'merged')", name=op.f("ck_evolution_events_kind_valid")
        ),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_evolution_events_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evolution_events")),
    )
    op.create_index("ix_evolution_events_gene_id_id", "evolution_events", ["gene_id", "id"], unique=False)

    op.create_table(
        "trajectory_keys",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("trajectory_id", sa.UUID(), nullable=False),
        sa.Column("content_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["trajectory_id"],
            ["trajectories.id"],
            name=op.f("fk_trajectory_keys_trajectory_id_trajectories"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_trajectory_keys")),
    )
    op.create_index(
        op.f("ix_trajectory_keys_trajectory_id"), "trajectory_keys", ["trajectory_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_trajectory_keys_trajectory_id"), table_name="trajectory_keys")
    op.drop_table("trajectory_keys")
    op.drop_index("ix_evolution_events_gene_id_id", table_name="evolution_events")
    op.drop_table("evolution_events")
    op.drop_index(op.f("ix_guard_evidence_trajectory_id"), table_name="guard_evidence")
    op.drop_table("guard_evidence")
    op.drop_index("ix_guards_gene_id_kept", table_name="guards")
    op.drop_table("guards")
    op.drop_index(
        "ix_trajectories_pending", table_name="trajectories", postgresql_where=sa.text("state = 'pending'")
    )
    op.drop_column("trajectories", "last_error")
    op.drop_column("trajectories", "attempts")
