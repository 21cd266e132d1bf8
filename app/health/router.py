"""Liveness and readiness probes, and the Prometheus metrics (app/metrics.py) for an admin key."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from app.auth.dependencies import AdminKey
from app.db import SessionDep, schema_revision
from app.errors import ServiceUnavailable
from app.metrics import QueueSnapshot
from app.state import metrics_of, runtime
from app.trajectories.repository import TrajectoryRepository

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str


class Readiness(BaseModel):
    status: str
    database: str
    migration: str | None
    expected_migration: str | None


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The process is up; says nothing about the database."""
    return Health(status="ok")


@router.get("/readyz", response_model=Readiness, responses={503: {"description": "not ready"}})
async def readyz(request: Request) -> Readiness:
    """Ready when the database answers and its schema is at the migration this code expects."""
    state = runtime(request)
    expected = state.expected_migration
    try:
        current = await schema_revision(state.engine)
    except SQLAlchemyError:
        raise ServiceUnavailable("database unreachable", extra={"database": "unreachable"}) from None
    if current != expected:
        raise ServiceUnavailable(
            f"database schema is at {current}, this code expects {expected}: run `genebank migrate`",
            extra={"database": "ok", "migration": current, "expected_migration": expected},
        )
    return Readiness(status="ready", database="ok", migration=current, expected_migration=expected)


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {}}, "description": "Prometheus text format"}},
)
async def metrics(request: Request, session: SessionDep, _: AdminKey) -> Response:
    """Prometheus metrics of this process and the trajectory queue (an admin key; see docs/operations.md)."""
    registry = metrics_of(request)
    counts, oldest, retrying = await TrajectoryRepository(session).queue()
    registry.queue.snapshot = QueueSnapshot(counts, oldest, retrying)
    return Response(generate_latest(registry.registry), media_type=CONTENT_TYPE_LATEST)
