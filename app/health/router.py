"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from app.db import schema_revision
from app.errors import ServiceUnavailable
from app.state import runtime

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
