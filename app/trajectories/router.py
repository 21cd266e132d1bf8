"""HTTP layer of the trajectories API: producers submit runs; anyone can follow what became of them."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from fastapi import status as http
from fastapi.responses import JSONResponse
from pydantic import AwareDatetime

from app.auth.dependencies import ProducerKey
from app.db import ReadSessionDep, SessionDep
from app.gep.document import GENE_ID_PATTERN
from app.jsonbody import JSONRoute
from app.schemas import CursorParam, Limit, TaskFamily, page_size
from app.state import runtime, settings_of
from app.trajectories.schemas import (
    RunFilters,
    TrajectoryAccepted,
    TrajectoryIn,
    TrajectoryPage,
    TrajectoryRead,
    TrajectoryStateName,
)
from app.trajectories.service import trajectory_service

router = APIRouter(prefix="/v1/trajectories", tags=["trajectories"], route_class=JSONRoute)

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="retry-safe submission: the same key returns the same trajectory",
    ),
]


@router.post(
    "",
    status_code=http.HTTP_202_ACCEPTED,
    response_model=TrajectoryAccepted,
    responses={422: {"description": "invalid payload, or an Idempotency-Key reused for other content"}},
)
async def submit_trajectory(
    body: TrajectoryIn,
    session: SessionDep,
    request: Request,
    producer: ProducerKey,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Accept a verified run as pending evidence; the evolution worker merges it into a Gene."""
    submitted = await trajectory_service.submit(
        session, body, idempotency_key, submitter=producer, cpu=runtime(request).cpu
    )
    answer = TrajectoryAccepted(id=submitted.id, state=submitted.state, created=submitted.created)
    location = str(request.url_for("get_trajectory", trajectory_id=submitted.id).path)
    return JSONResponse(
        answer.model_dump(mode="json"), status_code=http.HTTP_202_ACCEPTED, headers={"Location": location}
    )


@router.get("", response_model=TrajectoryPage)
async def list_trajectories(
    session: ReadSessionDep,
    request: Request,
    producer: ProducerKey,
    state: Annotated[TrajectoryStateName | None, Query()] = None,
    gene_id: Annotated[
        str | None,
        Query(
            pattern=GENE_ID_PATTERN,
            description="runs merged into this Gene, sent for it (gene_id), or compared with it when routed",
        ),
    ] = None,
    task_family: Annotated[TaskFamily | None, Query()] = None,
    since: Annotated[AwareDatetime | None, Query(description="received at or after (RFC 3339)")] = None,
    until: Annotated[AwareDatetime | None, Query(description="received before (RFC 3339)")] = None,
    key_id: Annotated[uuid.UUID | None, Query(description="admins: the runs of this key only")] = None,
    limit: Limit = None,
    cursor: CursorParam = None,
) -> TrajectoryPage:
    """Your runs, newest first, with how many are pending, merged and rejected under the same filters.

    A rejected run says why (`reason`) and, when the worker compared it with a Gene, which one was
    closest and how close (`closest_gene_id`, `closest_similarity`): name that Gene as `gene_id` when
    sending the run again if it belongs there. Runs are private to their key: a producer lists its
    own; an admin lists every key's, or one key's with `key_id`.
    """
    filters = RunFilters(
        key_id=key_id, state=state, gene_id=gene_id, task_family=task_family, since=since, until=until
    )
    return await trajectory_service.list_runs(
        session, producer, filters, limit=page_size(settings_of(request), limit), cursor=cursor
    )


@router.get("/{trajectory_id}", response_model=TrajectoryRead)
async def get_trajectory(
    trajectory_id: uuid.UUID, session: ReadSessionDep, producer: ProducerKey
) -> TrajectoryRead:
    """Where one of your runs stands: pending, merged (into which Gene and version) or rejected (and why).

    Runs are private to the key that sent them (admins read any): another key's run is a 404.
    """
    return await trajectory_service.get(session, trajectory_id, producer)
