"""Reading a Gene's evolution: its events, its lineage of versions, its guards with their evidence."""

from __future__ import annotations

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
from app.models import Gene
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
                    guards_added=[g["text"] for g in event.guards_added] if event else [],
                    guards_dropped=[g["text"] for g in event.guards_dropped] if event else [],
                )
            )
        return LineagePage(gene_id=gene_id, status=gene.status, items=items, next_cursor=next_cursor)

    async def guards(self, session: AsyncSession, gene_id: str, quorum: int) -> GuardList:
        gene = await GeneRepository(session).live_gene(gene_id)
        return GuardList(gene_id=gene_id, quorum=quorum, items=await guard_reads(session, gene))


async def guard_reads(session: AsyncSession, gene: Gene) -> list[GuardRead]:
    """A Gene's guards with their state, evidence, backers and review (the API's and the admin's)."""
    rows = await EvolutionRepository(session).guard_listing(gene.id)
    return [
        GuardRead(
            id=guard.id,
            text=guard.text,
            state=guard.state,
            evidence=guard.evidence_count,
            kept=guard.kept,
            trajectories=trajectories,
            backers=[
                Backer(key_id=key_id, name=name, owner=str(key_id) == str(gene.owner_key_id))
                for key_id, name in backers or []
            ],
            hold_reason=guard.hold_reason,
            reviewed_by=reviewer,
            reviewed_at=guard.reviewed_at,
            review_note=guard.review_note,
            first_seen_at=guard.first_seen_at,
            last_seen_at=guard.last_seen_at,
            dropped_at=guard.dropped_at,
        )
        for guard, trajectories, backers, reviewer in rows
    ]


timeline_service = TimelineService()
