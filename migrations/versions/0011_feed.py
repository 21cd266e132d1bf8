"""feed_events: every new version and status change, written by triggers, read in transaction order

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 08:00:00

GET /v1/feed serves these rows ordered by (xid, id), and only those whose transaction id is below
the current snapshot's xmin: every transaction with a smaller id has ended (committed or rolled
back), so no row can later appear before a position a reader has passed. A sequence alone cannot
promise that (ids are taken in statement order, committed in another). A long transaction holds the
feed back until it ends, never loses rows.

Existing versions and non-default statuses are copied in (one transaction, in version order).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.types import UserDefinedType

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


class Xid8(UserDefinedType[int]):
    cache_ok = True

    def get_col_spec(self, **_: object) -> str:
        return "xid8"


def upgrade() -> None:
    op.create_table(
        "feed_events",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=True), nullable=False),
        sa.Column("xid", Xid8(), server_default=sa.text("pg_current_xact_id()"), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("gene_id", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("asset_id", sa.Text(), nullable=True),
        sa.Column("status", sa.Text(), nullable=True),
        sa.Column("status_message", sa.Text(), nullable=True),
        sa.Column("occurred_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint("kind IN ('version', 'status')", name=op.f("ck_feed_events_kind_valid")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_feed_events")),
    )
    op.create_index("ix_feed_events_xid_id", "feed_events", ["xid", "id"])
    op.execute(
        """
        CREATE FUNCTION genebank_feed_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO feed_events (kind, gene_id, version, asset_id)
            VALUES ('version', NEW.gene_id, NEW.version, NEW.asset_id);
            RETURN NULL;
        END $$;
        CREATE TRIGGER feed_version AFTER INSERT ON gene_versions
            FOR EACH ROW EXECUTE FUNCTION genebank_feed_version();

        CREATE FUNCTION genebank_feed_status() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO feed_events (kind, gene_id, status, status_message)
            VALUES ('status', NEW.id, NEW.status, NEW.status_message);
            RETURN NULL;
        END $$;
        CREATE TRIGGER feed_status AFTER UPDATE OF status ON genes
            FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
            EXECUTE FUNCTION genebank_feed_status();

        INSERT INTO feed_events (kind, gene_id, version, asset_id, occurred_at)
        SELECT 'version', gene_id, version, asset_id, valid_from FROM gene_versions
        ORDER BY valid_from, gene_id, version;
        INSERT INTO feed_events (kind, gene_id, status, status_message, occurred_at)
        SELECT 'status', id, status, status_message, updated_at FROM genes
        WHERE status <> 'candidate' ORDER BY updated_at, id;
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DROP TRIGGER feed_status ON genes;
        DROP FUNCTION genebank_feed_status();
        DROP TRIGGER feed_version ON gene_versions;
        DROP FUNCTION genebank_feed_version();
        """
    )
    op.drop_index("ix_feed_events_xid_id", table_name="feed_events")
    op.drop_table("feed_events")
