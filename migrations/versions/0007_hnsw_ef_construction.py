"""search: rebuild the HNSW index with ef_construction 200

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 12:40:00

bench/search.py at 100,000 Genes: with ef_construction 64 the index needed ef_search 800 for a
recall@10 of 0.988 against an exact scan; built with 200 it reaches 0.985 at ef_search 400
(2.3 ms a query instead of 3.7), for a build about twice as slow.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _hnsw(ef_construction: int) -> None:
    op.drop_index("ix_gene_versions_embedding_hnsw", table_name="gene_versions")
    op.create_index(
        "ix_gene_versions_embedding_hnsw",
        "gene_versions",
        ["embedding"],
        postgresql_using="hnsw",
        postgresql_with={"m": 16, "ef_construction": ef_construction},
        postgresql_ops={"embedding": "vector_cosine_ops"},
        postgresql_where=sa.text("valid_to IS NULL"),
    )


def upgrade() -> None:
    _hnsw(200)


def downgrade() -> None:
    _hnsw(64)
