"""HTTP layer of the change feed."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.db import SessionDep
from app.feed.schemas import FeedPage
from app.feed.service import feed_service
from app.jsonbody import JSONRoute
from app.schemas import Limit, page_size
from app.state import settings_of

router = APIRouter(prefix="/v1", tags=["feed"], route_class=JSONRoute)

Since = Annotated[
    str | None,
    Query(max_length=512, description="`next_cursor` of the previous page; omit to start at the beginning"),
]


@router.get("/feed", response_model=FeedPage)
async def feed(request: Request, session: SessionDep, since: Since = None, limit: Limit = None) -> FeedPage:
    """Every new version and status change (revocations included), in transaction order, resumable.

    A page holds only changes of transactions that have ended, so nothing ever appears behind a
    position already read: keep `next_cursor` and poll with it (docs/scaling.md, mirrors).
    """
    return await feed_service.page(session, since, page_size(settings_of(request), limit))
