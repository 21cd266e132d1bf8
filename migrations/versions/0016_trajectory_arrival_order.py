"""trajectories.received_at defaults to clock_timestamp(): runs are taken in the order they arrived

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 12:45:00

`now()` is the transaction's start time, so runs received in one transaction (a batch, a test's
setup) shared one `received_at` and the worker, which takes the oldest pending run first, took them
in the order of their random ids. `clock_timestamp()` advances within the transaction.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.alter_column("trajectories", "received_at", server_default=sa.text("clock_timestamp()"))


def downgrade() -> None:
    op.alter_column("trajectories", "received_at", server_default=sa.text("now()"))
