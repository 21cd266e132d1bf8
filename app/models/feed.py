"""The registry's change feed: every new version and every status change, in transaction order.

Rows are written by triggers on `gene_versions` (insert) and `genes` (status update), so they are in
the same transaction as the change, whichever code path made it (a publish, a merge, a lifecycle
rule, an admin). `xid` is the writing transaction's id: GET /v1/feed orders by (xid, id) and serves
only rows of transactions older than every transaction still running, so a row can never appear
behind a position a reader has already passed (migration 0011 explains the rule).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, Dialect, Identity, Index, Integer, Text, text
from sqlalchemy.dialects.postgresql.base import ischema_names
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import UserDefinedType

from app.models.base import Base, utcnow_column


class Xid8(UserDefinedType[int]):
    """PostgreSQL's 64-bit transaction id (never wraps around); travels as text, read as an int."""

    cache_ok = True

    def get_col_spec(self, **_: object) -> str:
        return "xid8"

    def bind_processor(self, dialect: Dialect) -> Callable[[int | None], str | None]:
        return lambda value: None if value is None else str(value)

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[object], int | None]:
        return lambda value: None if value is None else int(str(value))


# Reflection (Alembic's model/migration comparison) knows the type by name.
ischema_names["xid8"] = Xid8


class FeedEvent(Base):
    __tablename__ = "feed_events"
    __table_args__ = (
        CheckConstraint("kind IN ('version', 'status')", name="kind_valid"),
        Index("ix_feed_events_xid_id", "xid", "id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    xid: Mapped[int] = mapped_column(Xid8(), nullable=False, server_default=text("pg_current_xact_id()"))
    kind: Mapped[str] = mapped_column(Text, nullable=False)
    gene_id: Mapped[str] = mapped_column(Text, nullable=False)
    version: Mapped[int | None] = mapped_column(Integer)
    asset_id: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str | None] = mapped_column(Text)
    status_message: Mapped[str | None] = mapped_column(Text)
    occurred_at: Mapped[datetime] = utcnow_column()
