"""HTTP layer of the trajectories API: producers submit runs; anyone can follow what became of them."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi import status as http
from fastapi.responses import JSONResponse

from app.auth.dependencies import ProducerKey
from app.db import SessionDep
from app.jsonbody import JSONRoute
from app.state import runtime
from app.trajectories.schemas import TrajectoryAccepted, TrajectoryIn, TrajectoryRead
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


@router.get("/{trajectory_id}", response_model=TrajectoryRead)
async def get_trajectory(
    trajectory_id: uuid.UUID, session: SessionDep, producer: ProducerKey
) -> TrajectoryRead:
    """Where one of your runs stands: pending, merged (into which Gene and version) or rejected (and why).

    Runs are private to the key that sent them (admins read any): another key's run is a 404.
    """
    return await trajectory_service.get(session, trajectory_id, producer)
