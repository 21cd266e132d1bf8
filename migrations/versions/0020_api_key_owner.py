"""Keys record their owner: runs of one owner's keys are not independent for founding

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-03 16:00:00

`api_keys.owner` (text, nullable): who holds the key, as the admin who issued it recorded. Founding a
Gene on a second run (GENEBANK_FOUND_MIN_RUNS) counts runs of distinct owners; a key without an owner
is its own. Downgrade drops the column.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("api_keys", sa.Column("owner", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("api_keys", "owner")
