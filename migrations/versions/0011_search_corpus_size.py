"""search: the number of current Gene versions, refreshed with the lexeme statistics

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 07:45:00

A consumer signal's hit counts by its specificity, an IDF over the current Genes (app/search/service.py):
ln((N + 1) / (df + 0.5)). df comes from signal_term_stats (0004); N, from this one-row view, refreshed
at the same moment so that the two agree. Counting the current versions on every search would cost
milliseconds at 100,000 Genes; reading this row costs nothing.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE MATERIALIZED VIEW search_corpus_size AS SELECT 1 AS id, count(*) AS n "
        "FROM public.gene_versions WHERE valid_to IS NULL"
    )
    # REFRESH ... CONCURRENTLY needs a unique index.
    op.execute("CREATE UNIQUE INDEX ix_search_corpus_size_id ON search_corpus_size (id)")


def downgrade() -> None:
    op.execute("DROP MATERIALIZED VIEW IF EXISTS search_corpus_size")
