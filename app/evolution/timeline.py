"""Reading a Gene's evolution: its events, its lineage of versions, its guards with their evidence.

The current document's `avoid` list is the truth about what is served (app/evolution/ledger.py); the
guard rows catch up with it only at the worker's next change to the Gene. So `/guards` reads both:
a row's `kept` is whether the current document carries its text, and a guard the document carries
with no row yet (a published Gene before its first merge, or a guard a later published version
added) is listed as the ledger will record it: active, backed by the version's publisher, with no
merge evidence. The guards listed as kept are then exactly `avoid`, in its order.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.evolution.repository import EvolutionRepository
from app.evolution.schemas import (
    Backer,
    EventPage,
    EventRead,
    GuardList,
    GuardRead,
    LineageEntry,
    LineagePage,
)
from app.genes.repository import GeneRepository
from app.genes.schemas import KeyRef
from app.gep.document import guards_of
from app.models import Gene, GuardState
from app.schemas import CursorCodec, CursorModel


class SequenceCursor(CursorModel):
    """Where a page of events (by id) or of versions (by number) ended."""

    after: int


SEQUENCE_CURSOR = CursorCodec(SequenceCursor)


def _after(cursor: str | None) -> int | None:
    position = SEQUENCE_CURSOR.decode(cursor)
    return position.after if position else None


class TimelineService:
    async def events(
        self, session: AsyncSession, gene_id: str, *, limit: int, cursor: str | None
    ) -> EventPage:
        await GeneRepository(session).live_gene(gene_id)
        rows = await EvolutionRepository(session).events(gene_id, after=_after(cursor), limit=limit + 1)
        page, next_cursor = SEQUENCE_CURSOR.page(rows, limit, lambda row: SequenceCursor(after=row.id))
        items = [EventRead.model_validate(row, from_attributes=True) for row in page]
        return EventPage(gene_id=gene_id, items=items, next_cursor=next_cursor)

    async def lineage(
        self, session: AsyncSession, gene_id: str, *, limit: int, cursor: str | None
    ) -> LineagePage:
        gene = await GeneRepository(session).live_gene(gene_id)
        rows = await EvolutionRepository(session).lineage(gene_id, after=_after(cursor), limit=limit + 1)
        page, next_cursor = SEQUENCE_CURSOR.page(
            rows, limit, lambda row: SequenceCursor(after=row[0].version)
        )
        items = []
        for version, trajectory_ids, guard_ids, publisher, event in page:
            items.append(
                LineageEntry(
                    version=version.version,
                    asset_id=version.asset_id,
                    parent_asset_id=version.parent_asset_id,
                    provenance_kind=version.provenance_kind,
                    producer_model=version.producer_model,
                    published_by=KeyRef(key_id=version.published_by, name=publisher),
                    valid_from=version.valid_from,
                    valid_to=version.valid_to,
                    trajectory_ids=list(trajectory_ids or []),
                    guard_trajectory_ids=list(guard_ids or []),
                    event_id=event.id if event else None,
                    change=event.kind if event else None,
                    reason=version.reason,
                    guards_added=[g["text"] for g in event.guards_added] if event else [],
                    guards_dropped=[g["text"] for g in event.guards_dropped] if event else [],
                )
            )
        return LineagePage(gene_id=gene_id, status=gene.status, items=items, next_cursor=next_cursor)

    async def guards(self, session: AsyncSession, gene_id: str, quorum: int) -> GuardList:
        gene = await GeneRepository(session).live_gene(gene_id)
        return GuardList(gene_id=gene_id, quorum=quorum, items=await guard_reads(session, gene))


def _origin(origins: dict[str, tuple[int, str | None, datetime]], text: str) -> dict[str, Any]:
    """Where a guard came from: the first version that served it, and whether a publish wrote it."""
    first = origins.get(text)
    if first is None:
        return {"origin": "trajectory", "since_version": None}
    version, kind, _ = first
    return {"origin": "published" if kind in (None, "published") else "trajectory", "since_version": version}


async def guard_reads(session: AsyncSession, gene: Gene) -> list[GuardRead]:
    """A Gene's guards with their state, evidence, backers and review (the API's and the admin's):
    the served ones first, in `avoid` order, then proposed, dropped and rejected ones."""
    evolution = EvolutionRepository(session)
    rows = await evolution.guard_listing(gene.id)
    document, publisher_id, publisher_name, current_since = await evolution.served_guards(gene)
    avoid = guards_of(document)
    served = set(avoid)
    origins = await evolution.guard_origins(gene.id)

    def backer(key_id: Any, name: str | None) -> Backer:
        return Backer(key_id=key_id, name=name or str(key_id), owner=str(key_id) == str(gene.owner_key_id))

    publisher = backer(publisher_id, publisher_name)
    reads: dict[str, GuardRead] = {}
    for guard, trajectories, backers, reviewer in rows:
        kept = guard.text in served
        backing = [backer(key_id, name) for key_id, name in backers or []]
        state, dropped_at = guard.state, guard.dropped_at
        if kept and not guard.kept:  # carried again by a published version: its publisher serves it
            state, dropped_at = GuardState.active.value, None
            if all(b.key_id != publisher.key_id for b in backing):
                backing.append(publisher)
        elif guard.kept and not kept:  # no longer carried by the current version
            dropped_at = current_since
        reads[guard.text] = GuardRead(
            id=guard.id,
            text=guard.text,
            **_origin(origins, guard.text),
            state=state,
            evidence=guard.evidence_count,
            kept=kept,
            trajectories=trajectories,
            backers=backing,
            hold_reason=guard.hold_reason,
            reviewed_by=reviewer,
            reviewed_at=guard.reviewed_at,
            review_note=guard.review_note,
            first_seen_at=guard.first_seen_at,
            last_seen_at=guard.last_seen_at,
            dropped_at=dropped_at,
        )
    for text in avoid:
        if text in reads:
            continue
        seen = origins[text][2] if text in origins else current_since
        reads[text] = GuardRead(
            id=None,
            text=text,
            **_origin(origins, text),
            state=GuardState.active.value,
            evidence=0,
            kept=True,
            trajectories=0,
            backers=[publisher],
            hold_reason=None,
            reviewed_by=None,
            reviewed_at=None,
            review_note=None,
            first_seen_at=seen,
            last_seen_at=seen,
            dropped_at=None,
        )
    kept_first = [reads[text] for text in avoid]
    return kept_first + [read for read in reads.values() if not read.kept]


timeline_service = TimelineService()
