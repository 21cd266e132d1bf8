"""search: document frequencies of the lexemes of current Gene versions

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 12:30:00

The keyword and signal stages query only a query's discriminative terms (see
app/search/repository.py): an OR of every word in a sentence matches half the corpus and ranking
that half costs more than the whole rest of a search. These views hold how many current versions
contain each lexeme; they are refreshed periodically (app/search/stats.py), so a lexeme newer
than the last refresh counts as rare, which is what it most likely is.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = {"search_term_stats": "search_tsv", "signal_term_stats": "signals_tsv"}


def upgrade() -> None:
    for view, column in VIEWS.items():
        # Schema-qualified: materialized views are built with a restricted search_path.
        op.execute(
            f"CREATE MATERIALIZED VIEW {view} AS SELECT word AS lexeme, ndoc FROM ts_stat("  # noqa: S608 (constants)
            f"'SELECT {column} FROM public.gene_versions WHERE valid_to IS NULL AND {column} IS NOT NULL')"
        )
        op.execute(f"CREATE UNIQUE INDEX ix_{view}_lexeme ON {view} (lexeme)")


def downgrade() -> None:
    for view in VIEWS:
        op.execute(f"DROP MATERIALIZED VIEW IF EXISTS {view}")
