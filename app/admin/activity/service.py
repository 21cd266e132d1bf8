"""The events feed and the audit log pages: newest first, one typed cursor each.

A busy Gene takes many runs that only add evidence to guards it already serves (no new version):
listed one by one they bury every other change. Consecutive such events of one Gene are shown as one
entry ("12 runs added evidence to 2 guards"), on the dashboard and in the feed alike; the events
themselves stay one click away.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.activity.repository import ActivityRepository
from app.auth.schemas import AuditRead
from app.auth.service import key_service
from app.models import ApiKey, EvolutionEvent
from app.schemas import CursorCodec, CursorModel


def evidence_only(event: EvolutionEvent) -> bool:
    """A merge that changed no document and added or dropped no guard: evidence for served guards."""
    return (
        event.kind == "merged"
        and event.old_asset_id == event.new_asset_id
        and not event.guards_added
        and not event.guards_dropped
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


@dataclass
class EvidenceGroup:
    """Consecutive evidence-only events of one Gene, newest first."""

    events: list[EvolutionEvent] = field(default_factory=list)

    @property
    def gene_id(self) -> str:
        return self.events[0].gene_id

    @property
    def version(self) -> int:
        return self.events[0].new_version

    @property
    def newest(self) -> datetime:
        return self.events[0].created_at

    @property
    def oldest(self) -> datetime:
        return self.events[-1].created_at

    @property
    def runs(self) -> int:
        return len({tid for event in self.events for tid in event.trajectory_ids}) or len(self.events)

    @property
    def guards(self) -> int:
        return len({g.get("guard_id") or g.get("text") for event in self.events for g in event.guards_merged})

    @property
    def summary(self) -> str:
        runs = _plural(self.runs, "run")
        if not self.guards:
            return f"{runs} merged without changing a guard"
        return f"{runs} added evidence to {_plural(self.guards, 'guard')}"


@dataclass
class FeedEntry:
    """One line of an events list: an event, or a group of evidence-only events."""

    event: EvolutionEvent | None = None
    group: EvidenceGroup | None = None


def group_evidence(events: Sequence[EvolutionEvent]) -> list[FeedEntry]:
    """Consecutive evidence-only events of one Gene (two or more) become one entry."""
    runs: list[list[EvolutionEvent]] = []
    for event in events:
        previous = runs[-1][-1] if runs else None
        if (
            previous is not None
            and evidence_only(event)
            and evidence_only(previous)
            and previous.gene_id == event.gene_id
        ):
            runs[-1].append(event)
        else:
            runs.append([event])
    return [FeedEntry(group=EvidenceGroup(run)) if len(run) > 1 else FeedEntry(event=run[0]) for run in runs]


@dataclass
class EventFeed:
    entries: list[FeedEntry]
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
        return EventFeed(group_evidence(page), next_cursor)

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
