"""access control: hashed API keys, the audit log, Gene ownership and trajectory submitters

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("role", sa.Text(), nullable=False),
        sa.Column("prefix", sa.Text(), nullable=False),
        sa.Column("key_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("created_by", sa.UUID(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("role IN ('consumer', 'producer', 'admin')", name=op.f("ck_api_keys_role_valid")),
        sa.ForeignKeyConstraint(
            ["created_by"], ["api_keys.id"], name=op.f("fk_api_keys_created_by_api_keys"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("prefix", name=op.f("uq_api_keys_prefix")),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("key_id", sa.UUID(), nullable=True),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("role", sa.Text(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("target", sa.Text(), nullable=True),
        sa.Column("client", sa.Text(), nullable=True),
        sa.Column("method", sa.Text(), nullable=True),
        sa.Column("path", sa.Text(), nullable=True),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("detail", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index("ix_audit_log_at_id", "audit_log", ["at", "id"])
    op.create_index("ix_audit_log_key_id_at", "audit_log", ["key_id", "at"])
    op.create_index("ix_audit_log_action_at", "audit_log", ["action", "at"])
    op.add_column("genes", sa.Column("owner_key_id", sa.UUID(), nullable=True))
    op.create_index(op.f("ix_genes_owner_key_id"), "genes", ["owner_key_id"])
    op.create_foreign_key(
        op.f("fk_genes_owner_key_id_api_keys"),
        "genes",
        "api_keys",
        ["owner_key_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.add_column("trajectories", sa.Column("submitted_by", sa.UUID(), nullable=True))
    op.create_foreign_key(
        op.f("fk_trajectories_submitted_by_api_keys"),
        "trajectories",
        "api_keys",
        ["submitted_by"],
        ["id"],
        ondelete="SET NULL",
    )


def downgrade() -> None:
    op.drop_constraint(op.f("fk_trajectories_submitted_by_api_keys"), "trajectories", type_="foreignkey")
    op.drop_column("trajectories", "submitted_by")
    op.drop_constraint(op.f("fk_genes_owner_key_id_api_keys"), "genes", type_="foreignkey")
    op.drop_index(op.f("ix_genes_owner_key_id"), table_name="genes")
    op.drop_column("genes", "owner_key_id")
    op.drop_index("ix_audit_log_action_at", table_name="audit_log")
    op.drop_index("ix_audit_log_key_id_at", table_name="audit_log")
    op.drop_index("ix_audit_log_at_id", table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_table("api_keys")
