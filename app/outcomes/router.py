"""HTTP layer of outcome reports, Gene stats, producers and lifecycle actions."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.auth.dependencies import ConsumerKey
from app.db import ReadSessionDep, SessionDep
from app.genes.schemas import GeneIdPath
from app.jsonbody import JSONRoute
from app.outcomes.lifecycle import lifecycle_service
from app.outcomes.schemas import LifecycleChange, OutcomeIn, OutcomeRead, ProducerRead, StatsRead, StatusIn
from app.outcomes.service import outcome_service
from app.state import settings_of

router = APIRouter(prefix="/v1", tags=["outcomes"], route_class=JSONRoute)


@router.post(
    "/genes/{gene_id}/outcomes",
    status_code=201,
    response_model=OutcomeRead,
    responses={200: {"model": OutcomeRead, "description": "the same report was already made"}},
)
async def report_outcome(
    gene_id: GeneIdPath, body: OutcomeIn, session: SessionDep, request: Request, consumer: ConsumerKey
) -> JSONResponse:
    """Report what happened when a consumer used a version of this Gene; updates its quality and status.

    Quality counts keys, not reports: each key weighs at most GENEBANK_QUALITY_MAX_WEIGHT_PER_KEY
    reports on one Gene. The Gene's owner cannot report on it (403), and a key bound to a consumer
    model reports for that model only (403 otherwise).
    """
    # Idempotency and the weight of evidence are per reporting key.
    reported = await outcome_service.report(session, gene_id, body, consumer, settings_of(request))
    return JSONResponse(
        reported.outcome.model_dump(mode="json"), status_code=201 if reported.created else 200
    )


@router.get("/genes/{gene_id}/stats", response_model=StatsRead)
async def gene_stats(gene_id: GeneIdPath, session: ReadSessionDep, request: Request) -> StatsRead:
    """Quality (overall, per consumer model, per version), reuse, tokens saved, discovery cost, history."""
    return await outcome_service.stats(session, gene_id, settings_of(request))


@router.get("/producers", response_model=list[ProducerRead])
async def producers(session: ReadSessionDep, request: Request) -> list[ProducerRead]:
    """Producer models ranked by the verified outcomes of their Genes."""
    return await outcome_service.producers(session, settings_of(request))


@router.post("/genes/{gene_id}/status", response_model=LifecycleChange)
async def set_status(
    gene_id: GeneIdPath, body: StatusIn, session: SessionDep, caller: ConsumerKey
) -> LifecycleChange:
    """Promote, deprecate or reinstate a Gene (admin), or revoke it (admin or its owner), with a reason."""
    return await lifecycle_service.set_status(session, gene_id, body.status, body.reason, caller)
