"""HTTP layer of search and match."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.db import read_connection
from app.jsonbody import JSONRoute
from app.search.schemas import MatchRequest, MatchResponse, SearchRequest, SearchResponse
from app.search.service import search_service
from app.state import metrics_of, runtime

router = APIRouter(prefix="/v1", tags=["search"], route_class=JSONRoute)


@router.post("/search", response_model=SearchResponse)
async def search(body: SearchRequest, request: Request) -> SearchResponse:
    """Hybrid search (vector + full text + signals, fused by reciprocal rank), with a relevance band."""
    state = runtime(request)
    async with read_connection(request) as conn:
        answer = await search_service.search(conn, body, state.embeddings, state.settings)
    metrics_of(request).count_answer("search", answer.band)
    return answer


@router.post("/match", response_model=MatchResponse)
async def match(body: MatchRequest, request: Request) -> MatchResponse:
    """The best Gene(s) for a task, rendered for a prompt within `max_tokens`, with their asset_ids."""
    state = runtime(request)
    async with read_connection(request) as conn:
        answer = await search_service.match(conn, body, state.embeddings, state.settings)
    metrics_of(request).count_answer("match", answer.band)
    return answer
