"""Search reads a version's summary and signal patterns from columns of their own

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-03 16:00:00

The candidates query of every search (app/search/repository.py) returned each candidate's summary
and `signals_match` by extracting them from the JSONB document, which PostgreSQL detoasts (the
document is one of the row's wide values) once for each extraction: twice a candidate, some fifty
candidates a search. Upgrade adds both as stored generated columns of `gene_versions`
(`summary` text, `signals_match` JSONB), computed by PostgreSQL from the document on every insert
and update, so no writer changes and they cannot disagree with it. Adding them rewrites the table
(and rebuilds its indexes) once. Downgrade drops the columns.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE gene_versions"
        " ADD COLUMN summary text GENERATED ALWAYS AS (document ->> 'summary') STORED,"
        " ADD COLUMN signals_match jsonb GENERATED ALWAYS AS (document -> 'signals_match') STORED"
    )


def downgrade() -> None:
    op.execute("ALTER TABLE gene_versions DROP COLUMN signals_match, DROP COLUMN summary")
