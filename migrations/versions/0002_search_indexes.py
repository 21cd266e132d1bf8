"""search: full-text vectors and HNSW / GIN indexes over current Gene versions

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 11:00:00

Every search index is partial (WHERE valid_to IS NULL): only current versions are searched, and
superseded versions would otherwise crowd the HNSW graph and dilute its recall.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CURRENT = sa.text("valid_to IS NULL")


def upgrade() -> None:
    op.add_column("gene_versions", sa.Column("search_tsv", postgresql.TSVECTOR(), nullable=True))
    op.add_column("gene_versions", sa.Column("signals_tsv", postgresql.TSVECTOR(), nullable=True))
    op.create_index(
        "ix_gene_versions_embedding_hnsw",
        "gene_versions",
        ["embedding"],
        postgresql_using="hnsw",
        postgresql_with={"m": 16, "ef_construction": 64},
        postgresql_ops={"embedding": "vector_cosine_ops"},
        postgresql_where=CURRENT,
    )
    op.create_index(
        "ix_gene_versions_search_tsv",
        "gene_versions",
        ["search_tsv"],
        postgresql_using="gin",
        postgresql_where=CURRENT,
    )
    op.create_index(
        "ix_gene_versions_signals_tsv",
        "gene_versions",
        ["signals_tsv"],
        postgresql_using="gin",
        postgresql_where=CURRENT,
    )


def downgrade() -> None:
    op.drop_index("ix_gene_versions_signals_tsv", table_name="gene_versions")
    op.drop_index("ix_gene_versions_search_tsv", table_name="gene_versions")
    op.drop_index("ix_gene_versions_embedding_hnsw", table_name="gene_versions")
    op.drop_column("gene_versions", "signals_tsv")
    op.drop_column("gene_versions", "search_tsv")
