"""The change feed: what a mirror, a cache or a search index elsewhere follows (GET /v1/feed)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.feed.repository import FeedRepository
from app.feed.schemas import FeedCursor, FeedItem, FeedPage
from app.schemas import CursorCodec

FEED_CURSOR = CursorCodec(FeedCursor)


class FeedService:
    async def page(self, session: AsyncSession, since: str | None, limit: int) -> FeedPage:
        position = FEED_CURSOR.decode(since)
        events = await FeedRepository(session).after(
            None if position is None else (position.xid, position.id), limit
        )
        items = [
            FeedItem(
                kind=event.kind,
                gene_id=event.gene_id,
                version=event.version,
                asset_id=event.asset_id,
                status=event.status,
                status_message=event.status_message,
                occurred_at=event.occurred_at,
            )
            for event in events
        ]
        if events:
            next_cursor = FEED_CURSOR.encode(FeedCursor(xid=events[-1].xid, id=events[-1].id))
        else:
            next_cursor = since or FEED_CURSOR.encode(FeedCursor(xid=0, id=0))
        return FeedPage(items=items, next_cursor=next_cursor)


feed_service = FeedService()
