"""faults and floods: job leases on trajectories, repeat counts on audit entries

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 17:00:00

A worker counts an attempt and takes a lease (`claimed_until`) in a short transaction of its own
before it processes a trajectory, so a job that kills its worker still counts. Identical refusals
(401, 403, 413, 429 from one client) are written once per flush as one audit entry with a repeat
count and the first and last time they happened.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("trajectories", sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True))
    op.add_column("audit_log", sa.Column("repeat_count", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("audit_log", sa.Column("first_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("audit_log", sa.Column("last_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE audit_log SET first_at = at, last_at = at")
    for column in ("first_at", "last_at"):
        op.alter_column("audit_log", column, nullable=False, server_default=sa.text("now()"))
    op.create_check_constraint("ck_audit_log_repeat_count_positive", "audit_log", "repeat_count >= 1")


def downgrade() -> None:
    op.drop_constraint("ck_audit_log_repeat_count_positive", "audit_log", type_="check")
    for column in ("last_at", "first_at", "repeat_count"):
        op.drop_column("audit_log", column)
    op.drop_column("trajectories", "claimed_until")
