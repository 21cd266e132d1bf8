"""HTTP layer of a Gene's evolution: its events, lineage and guards."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.db import SessionDep
from app.evolution.history import history_service
from app.evolution.schemas import EventPage, GuardList, LineagePage
from app.genes.router import GeneIdPath
from app.jsonbody import JSONRoute
from app.state import settings_of

router = APIRouter(prefix="/v1/genes", tags=["evolution"], route_class=JSONRoute)

Limit = Annotated[int | None, Query(ge=1, description="page size (capped by the server)")]
Cursor = Annotated[str | None, Query(max_length=512)]


def _page_size(request: Request, limit: int | None) -> int:
    settings = settings_of(request)
    return min(limit or settings.page_size_default, settings.page_size_max)


@router.get("/{gene_id}/events", response_model=EventPage)
async def list_events(
    gene_id: GeneIdPath, session: SessionDep, request: Request, limit: Limit = None, cursor: Cursor = None
) -> EventPage:
    """Every change to the Gene, oldest first: trajectories merged, guards added / merged / dropped."""
    return await history_service.events(session, gene_id, limit=_page_size(request, limit), cursor=cursor)


@router.get("/{gene_id}/lineage", response_model=LineagePage)
async def get_lineage(
    gene_id: GeneIdPath, session: SessionDep, request: Request, limit: Limit = None, cursor: Cursor = None
) -> LineagePage:
    """The chain of versions (parent links), each with the trajectories behind it and what changed."""
    return await history_service.lineage(session, gene_id, limit=_page_size(request, limit), cursor=cursor)


@router.get("/{gene_id}/guards", response_model=GuardList)
async def list_guards(gene_id: GeneIdPath, session: SessionDep) -> GuardList:
    """The Gene's failure guards with their evidence counts, kept ones first in `avoid` order."""
    return await history_service.guards(session, gene_id)
