"""Guards record the failure keys of the failed steps they came from

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-03 19:00:00

`guards.failure_keys` (text[], default empty): digests of the error signature and correction of each
failed step a guard was taken from or grounded on (app/evolution/extraction.py, rule 7). The merge
treats a new guard whose run shares a key with a guard of the Gene as the same lesson. Guards
written before have none and merge as before. Downgrade drops the column.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "guards",
        sa.Column("failure_keys", postgresql.ARRAY(sa.Text()), nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    op.drop_column("guards", "failure_keys")
