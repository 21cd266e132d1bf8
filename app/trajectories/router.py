"""HTTP layer of the trajectories API: producers submit runs; anyone can follow what became of them."""

from __future__ import annotations

import re
import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi import status as http
from fastapi.responses import JSONResponse
from pydantic import AwareDatetime

from app.auth.dependencies import ProducerKey
from app.batch import (
    TRAJECTORIES_PATH,
    BatchAnswer,
    Item,
    batch_response,
    each_in_savepoint,
    read_items,
    request_body_doc,
)
from app.db import ReadSessionDep, SessionDep
from app.errors import ValidationFailed
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

KEY_PATTERN = r"^[\x21-\x7e]{1,200}$"
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=KEY_PATTERN,
        description="retry-safe submission: the same key returns the same trajectory",
    ),
]
BatchIdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=180,
        pattern=KEY_PATTERN,
        description="retry-safe batch: item i without a key of its own is sent with `<key>/<i>`",
    ),
]
_KEY = re.compile(KEY_PATTERN)


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


def _take_key(item: dict[str, Any]) -> dict[str, Any]:
    """A batch item may carry its own `idempotency_key` beside the trajectory's fields."""
    if "idempotency_key" not in item:
        return {}
    key = item.pop("idempotency_key")
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValidationFailed("idempotency_key must be 1-200 printable ASCII characters without spaces")
    return {"idempotency_key": key}


@router.post(
    TRAJECTORIES_PATH.removeprefix("/v1/trajectories"),
    response_model=BatchAnswer,
    openapi_extra=request_body_doc("TrajectoryIn"),
)
async def submit_trajectories(
    request: Request,
    session: SessionDep,
    producer: ProducerKey,
    idempotency_key: BatchIdempotencyKey = None,
) -> JSONResponse:
    """Submit many runs: a JSON array of POST /v1/trajectories bodies, or NDJSON (app/batch.py).

    One result per item, in order: `{"index", "status": 202, "id", "state", "created"}` as the single
    submission answers, or the item's problem document. An item may add `idempotency_key` (what the
    single endpoint takes as the Idempotency-Key header); with an Idempotency-Key header on the
    batch, item i without its own key is sent with `<header>/<i>`. Identical content from one key is
    one run anyway, so re-sending a batch creates nothing and answers the same ids. The runs are
    stored in the order sent, and the worker takes them in that order.
    """
    items = await read_items(request, TrajectoryIn, take=_take_key)
    cpu = runtime(request).cpu

    async def submit(item: Item[TrajectoryIn]) -> dict[str, Any]:
        assert item.model is not None
        key = (item.extra or {}).get("idempotency_key")
        if key is None and idempotency_key is not None:
            key = f"{idempotency_key}/{item.index}"
        submitted = await trajectory_service.submit(session, item.model, key, submitter=producer, cpu=cpu)
        return {
            "status": http.HTTP_202_ACCEPTED,
            "id": str(submitted.id),
            "state": submitted.state,
            "created": submitted.created,
        }

    results = await each_in_savepoint(session, items, submit, instance=request.url.path)
    return batch_response(request, results)


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
