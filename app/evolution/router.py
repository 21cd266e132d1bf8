"""HTTP layer of a Gene's evolution: its events, lineage and guards."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request

from app.auth.dependencies import ProducerKey
from app.auth.principal import Principal
from app.db import ReadSessionDep, SessionDep
from app.evolution.schemas import EventPage, GuardList, LineagePage, ReviewIn, ReviewRead
from app.evolution.service import evolution_service
from app.evolution.timeline import timeline_service
from app.genes.schemas import GeneIdPath
from app.jsonbody import JSONRoute
from app.schemas import CursorParam, Limit, page_size
from app.state import runtime, settings_of

router = APIRouter(prefix="/v1/genes", tags=["evolution"], route_class=JSONRoute)


@router.get("/{gene_id}/events", response_model=EventPage)
async def list_events(
    gene_id: GeneIdPath,
    session: ReadSessionDep,
    request: Request,
    limit: Limit = None,
    cursor: CursorParam = None,
) -> EventPage:
    """Every change to the Gene, oldest first: trajectories merged, guards added / merged / dropped."""
    return await timeline_service.events(
        session, gene_id, limit=page_size(settings_of(request), limit), cursor=cursor
    )


@router.get("/{gene_id}/lineage", response_model=LineagePage)
async def get_lineage(
    gene_id: GeneIdPath,
    session: ReadSessionDep,
    request: Request,
    limit: Limit = None,
    cursor: CursorParam = None,
) -> LineagePage:
    """The chain of versions (parent links), each with the trajectories behind it and what changed."""
    return await timeline_service.lineage(
        session, gene_id, limit=page_size(settings_of(request), limit), cursor=cursor
    )


@router.get("/{gene_id}/guards", response_model=GuardList)
async def list_guards(gene_id: GeneIdPath, session: ReadSessionDep, request: Request) -> GuardList:
    """The Gene's failure guards: kept ones first in `avoid` order, then proposed ones (waiting for
    backing or review), dropped and rejected ones; each with its state, evidence and backing keys."""
    return await timeline_service.guards(session, gene_id, settings_of(request).guard_quorum)


GuardIdPath = Annotated[int, Path(ge=1, le=2**63 - 1, description="the guard's id (see /guards)")]


async def _review(
    request: Request,
    session: SessionDep,
    gene_id: str,
    guard_id: int,
    decision: Literal["approve", "reject"],
    body: ReviewIn | None,
    caller: Principal,
) -> ReviewRead:
    reviewed = await evolution_service.review_guard(
        session,
        gene_id,
        guard_id,
        decision,
        body.note if body else None,
        caller,
        runtime(request).embeddings,
    )
    listing = await timeline_service.guards(session, gene_id, settings_of(request).guard_quorum)
    guard = next(item for item in listing.items if item.id == guard_id)
    return ReviewRead(
        gene_id=gene_id,
        guard=guard,
        version=reviewed.version,
        asset_id=reviewed.asset_id,
        new_version=reviewed.new_version,
    )


@router.post("/{gene_id}/guards/{guard_id}/approve", response_model=ReviewRead)
async def approve_guard(
    gene_id: GeneIdPath,
    guard_id: GuardIdPath,
    session: SessionDep,
    request: Request,
    caller: ProducerKey,
    body: ReviewIn | None = None,
) -> ReviewRead:
    """The Gene's owner or an admin lets a proposed (or rejected) guard be served; it takes a place
    in `avoid` by its evidence like any active guard, in a new version when the list changes."""
    return await _review(request, session, gene_id, guard_id, "approve", body, caller)


@router.post("/{gene_id}/guards/{guard_id}/reject", response_model=ReviewRead)
async def reject_guard(
    gene_id: GeneIdPath,
    guard_id: GuardIdPath,
    session: SessionDep,
    request: Request,
    caller: ProducerKey,
    body: ReviewIn | None = None,
) -> ReviewRead:
    """The Gene's owner or an admin refuses a guard: it is never served, whatever backs it later."""
    return await _review(request, session, gene_id, guard_id, "reject", body, caller)
