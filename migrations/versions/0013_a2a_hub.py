"""a2a: GEP nodes (principals of the evolver client), their published assets, seen message ids

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 08:00:00

A node belongs to an API key and acts with its role; its secret is kept as sha256 and HMAC midstates
only (app/a2a/node_secrets.py). Bundles' Capsules and EvolutionEvents are stored as sent, linked to
their Gene. A state-changing message id is remembered per node so that a replay is refused.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "a2a_nodes",
        sa.Column("node_id", sa.Text(), nullable=False),
        sa.Column("key_id", sa.UUID(), nullable=False),
        sa.Column("name", sa.Text(), nullable=True),
        sa.Column("secret_hash", sa.Text(), nullable=False),
        sa.Column("hmac_inner", sa.Text(), nullable=False),
        sa.Column("hmac_outer", sa.Text(), nullable=False),
        sa.Column("secret_version", sa.Integer(), server_default="1", nullable=False),
        sa.Column("open_registration", sa.Boolean(), server_default="false", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("rotated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["key_id"], ["api_keys.id"], name="fk_a2a_nodes_key_id_api_keys", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("node_id", name="pk_a2a_nodes"),
        sa.UniqueConstraint("secret_hash", name="uq_a2a_nodes_secret_hash"),
    )
    op.create_index("ix_a2a_nodes_key_id", "a2a_nodes", ["key_id"])
    op.create_table(
        "a2a_assets",
        sa.Column("seq", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("asset_id", sa.Text(), nullable=False),
        sa.Column("asset_type", sa.Text(), nullable=False),
        sa.Column("local_id", sa.Text(), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=True),
        sa.Column("gene_asset_id", sa.Text(), nullable=True),
        sa.Column("document", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("node_id", sa.Text(), nullable=False),
        sa.Column("bundle_id", sa.Text(), nullable=False),
        sa.Column("trajectory_id", sa.UUID(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name="fk_a2a_assets_gene_id_genes", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["node_id"], ["a2a_nodes.node_id"], name="fk_a2a_assets_node_id_a2a_nodes", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["trajectory_id"],
            ["trajectories.id"],
            name="fk_a2a_assets_trajectory_id_trajectories",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("seq", name="pk_a2a_assets"),
        sa.UniqueConstraint("asset_id", name="uq_a2a_assets_asset_id"),
    )
    op.create_index("ix_a2a_assets_gene_id", "a2a_assets", ["gene_id"])
    op.create_index("ix_a2a_assets_node_id_seq", "a2a_assets", ["node_id", "seq"])
    op.create_table(
        "a2a_messages",
        sa.Column("node_id", sa.Text(), nullable=False),
        sa.Column("message_id", sa.Text(), nullable=False),
        sa.Column("message_type", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["node_id"], ["a2a_nodes.node_id"], name="fk_a2a_messages_node_id_a2a_nodes", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("node_id", "message_id", name="pk_a2a_messages"),
    )


def downgrade() -> None:
    op.drop_table("a2a_messages")
    op.drop_index("ix_a2a_assets_node_id_seq", table_name="a2a_assets")
    op.drop_index("ix_a2a_assets_gene_id", table_name="a2a_assets")
    op.drop_table("a2a_assets")
    op.drop_index("ix_a2a_nodes_key_id", table_name="a2a_nodes")
    op.drop_table("a2a_nodes")
