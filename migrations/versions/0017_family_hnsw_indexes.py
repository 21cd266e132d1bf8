"""search: a partial HNSW index per research task family, for searches filtered by family

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03 13:05:00

A search filtered by task family walked the one HNSW index with an iterative scan. The family's
Genes are a quarter of its nodes, and a query near another family passes thousands of others
before it has its candidates: 190 ms at 100,000 Genes (bench/million.py), against 20 ms in the
family's own index. The vector stage adds the family as a literal on the version's column
(app/search/repository.py, Filters.vector_sql), which is what lets the planner choose these.
Other families are served by the main index as before; docs/scaling.md shows how to add theirs.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FAMILIES = ("code_generation", "math_reasoning", "rule_following", "agent_environment")


def upgrade() -> None:
    for family in FAMILIES:
        op.create_index(
            f"ix_gene_versions_embedding_hnsw_{family}",
            "gene_versions",
            ["embedding"],
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 200},
            postgresql_ops={"embedding": "vector_cosine_ops"},
            postgresql_where=sa.text(f"valid_to IS NULL AND task_family = '{family}'"),
        )


def downgrade() -> None:
    for family in FAMILIES:
        op.drop_index(f"ix_gene_versions_embedding_hnsw_{family}", table_name="gene_versions")
