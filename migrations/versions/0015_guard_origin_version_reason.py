"""guards.extracted and gene_versions.reason: evolution that says what it did

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03 08:00:00

A guard extracted by the registry from a run's steps is marked, so a producer's guard that means the
same can take its place with the producer's wording. Each version records why it exists (published,
founded, guards_added, guards_merged, reordered, dropped). Existing guards are taken as producers'
(false) and existing versions have no recorded reason (null).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REASONS = ("published", "founded", "guards_added", "guards_merged", "reordered", "dropped")


def upgrade() -> None:
    op.add_column("guards", sa.Column("extracted", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("gene_versions", sa.Column("reason", sa.Text(), nullable=True))
    op.create_check_constraint(
        op.f("ck_gene_versions_reason_valid"),
        "gene_versions",
        "reason IS NULL OR reason IN (" + ", ".join(f"'{r}'" for r in REASONS) + ")",
    )


def downgrade() -> None:
    op.drop_constraint(op.f("ck_gene_versions_reason_valid"), "gene_versions", type_="check")
    op.drop_column("gene_versions", "reason")
    op.drop_column("guards", "extracted")
