"""search: the number of current Gene versions (signal IDF), and Genes' task keys (experience expansion)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 07:45:00

A consumer signal's hit counts by its specificity, an IDF over the current Genes (app/search/service.py):
ln((N + 1) / (df + 0.5)). df comes from signal_term_stats (0004); N, from this one-row view, refreshed
at the same moment so that the two agree. Counting the current versions on every search would cost
milliseconds at 100,000 Genes; reading this row costs nothing.

gene_task_keys holds one embedded task description per distinct phrasing a Gene met: its versions' own
tasks and those of the verified trajectories merged into it. Search scores a candidate by the best cosine
between the query and these vectors: the way real users phrased the problem. Existing versions' tasks
are filled in by `genebank reembed` (vectors need the model, which a migration does not load).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE MATERIALIZED VIEW search_corpus_size AS SELECT 1 AS id, count(*) AS n "
        "FROM public.gene_versions WHERE valid_to IS NULL"
    )
    # REFRESH ... CONCURRENTLY needs a unique index.
    op.execute("CREATE UNIQUE INDEX ix_search_corpus_size_id ON search_corpus_size (id)")
    op.create_table(
        "gene_task_keys",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("text_sha256", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("embedding", Vector(384), nullable=False),
        sa.Column("embedding_model", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "source IN ('version', 'trajectory')", name=op.f("ck_gene_task_keys_source_valid")
        ),
        sa.ForeignKeyConstraint(
            ["gene_id"], ["genes.id"], name=op.f("fk_gene_task_keys_gene_id_genes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gene_task_keys")),
        sa.UniqueConstraint("gene_id", "text_sha256", name=op.f("uq_gene_task_keys_gene_text")),
    )


def downgrade() -> None:
    op.drop_table("gene_task_keys")
    op.execute("DROP MATERIALIZED VIEW IF EXISTS search_corpus_size")
