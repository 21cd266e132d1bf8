"""Reads of feed_events (written by triggers, migration 0011)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import cast, func, literal, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import FeedEvent
from app.models.feed import Xid8


class FeedRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def after(self, position: tuple[int, int] | None, limit: int) -> Sequence[FeedEvent]:
        """Events after `position` (xid, id), of transactions older than any still running."""
        settled = FeedEvent.xid < func.pg_snapshot_xmin(func.pg_current_snapshot())
        stmt = select(FeedEvent).where(settled)
        if position is not None:
            bound = tuple_(cast(literal(str(position[0])), Xid8()), literal(position[1]))
            stmt = stmt.where(tuple_(FeedEvent.xid, FeedEvent.id) > bound)
        stmt = stmt.order_by(FeedEvent.xid, FeedEvent.id).limit(limit)
        return (await self.session.scalars(stmt)).all()

    async def last(self) -> tuple[int, int] | None:
        """The position of the newest event (settled or not): where a new follower starts."""
        row = (
            await self.session.execute(
                select(FeedEvent.xid, FeedEvent.id)
                .order_by(FeedEvent.xid.desc(), FeedEvent.id.desc())
                .limit(1)
            )
        ).first()
        return None if row is None else (row[0], row[1])
