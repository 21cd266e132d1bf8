"""Reading a Gene's evolution: its events, its lineage of versions, its guards with their evidence."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import ValidationFailed
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
from app.genes.service import GeneNotFound, GeneRevoked
from app.models import Gene, GeneStatus
from app.schemas import decode_cursor, encode_cursor


async def _live_gene(session: AsyncSession, gene_id: str) -> Gene:
    gene = await GeneRepository(session).get_gene(gene_id)
    if gene is None:
        raise GeneNotFound(f"no gene with id {gene_id!r}")
    if gene.status == GeneStatus.revoked:
        message = f": {gene.status_message}" if gene.status_message else ""
        raise GeneRevoked(f"gene {gene_id} was revoked{message}", extra={"gene_id": gene_id})
    return gene


def _after(cursor: str | None) -> int | None:
    if not cursor:
        return None
    value = decode_cursor(cursor).get("n")
    if not isinstance(value, int):
        raise ValidationFailed("cursor is not one this service issued")
    return value


class HistoryService:
    async def events(
        self, session: AsyncSession, gene_id: str, *, limit: int, cursor: str | None
    ) -> EventPage:
        await _live_gene(session, gene_id)
        rows = await EvolutionRepository(session).events(gene_id, after=_after(cursor), limit=limit + 1)
        items = [EventRead.model_validate(row, from_attributes=True) for row in rows[:limit]]
        next_cursor = encode_cursor({"n": items[-1].id}) if len(rows) > limit else None
        return EventPage(gene_id=gene_id, items=items, next_cursor=next_cursor)

    async def lineage(
        self, session: AsyncSession, gene_id: str, *, limit: int, cursor: str | None
    ) -> LineagePage:
        gene = await _live_gene(session, gene_id)
        rows = await EvolutionRepository(session).lineage(gene_id, after=_after(cursor), limit=limit + 1)
        items = []
        for version, trajectory_ids, guard_ids, publisher, event in rows[:limit]:
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
        next_cursor = encode_cursor({"n": items[-1].version}) if len(rows) > limit else None
        return LineagePage(gene_id=gene_id, status=gene.status, items=items, next_cursor=next_cursor)

    async def guards(self, session: AsyncSession, gene_id: str, quorum: int) -> GuardList:
        gene = await _live_gene(session, gene_id)
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


history_service = HistoryService()
