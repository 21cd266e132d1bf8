"""The events feed and the audit log pages: newest first, one typed cursor each."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.activity.repository import ActivityRepository
from app.auth.schemas import AuditRead
from app.auth.service import key_service
from app.models import ApiKey, EvolutionEvent
from app.schemas import CursorCodec, CursorModel


@dataclass
class EventFeed:
    events: Sequence[EvolutionEvent]
    next_cursor: str | None


@dataclass
class AuditList:
    entries: Sequence[AuditRead]
    next_cursor: str | None
    keys: Sequence[ApiKey]


class EventCursor(CursorModel):
    before: int


EVENT_CURSOR = CursorCodec(EventCursor)


class ActivityPages:
    async def events(
        self, session: AsyncSession, *, gene_id: str | None, kind: str | None, cursor: str | None, size: int
    ) -> EventFeed:
        position = EVENT_CURSOR.decode(cursor)
        events = await ActivityRepository(session).events(
            gene_id=gene_id, kind=kind, before=position.before if position else None, limit=size + 1
        )
        page, next_cursor = EVENT_CURSOR.page(events, size, lambda event: EventCursor(before=event.id))
        return EventFeed(page, next_cursor)

    async def audit_log(
        self,
        session: AsyncSession,
        *,
        key_id: uuid.UUID | None,
        action: str | None,
        target: str | None,
        failed: bool | None,
        cursor: str | None,
        size: int,
    ) -> AuditList:
        page = await key_service.audit_page(
            session,
            limit=size,
            cursor=cursor,
            key_id=key_id,
            action=action,
            target=target,
            since=None,
            until=None,
            failed=failed,
        )
        keys = await key_service.list_keys(session, include_revoked=True)
        return AuditList(page.items, page.next_cursor, keys)


activity_pages = ActivityPages()
