"""Typed application state: what the lifespan builds and every request may use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fastapi import Request
from psycopg_pool import AsyncConnectionPool
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.cpu import CpuPool
from app.embedded_pg import EmbeddedPostgres
from app.embeddings import EmbeddingService
from app.metrics import Metrics

if TYPE_CHECKING:
    from app.replicas import Replicas


@dataclass
class Runtime:
    settings: Settings
    database_url: str
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    read_pool: AsyncConnectionPool
    embeddings: EmbeddingService
    embedded: EmbeddedPostgres | None
    expected_migration: str | None
    cpu: CpuPool = field(default_factory=CpuPool)
    # Streaming standbys for reads (GENEBANK_READ_DATABASE_URL), or None: everything on the primary.
    replicas: Replicas | None = None


def runtime(request: Request) -> Runtime:
    state: Runtime = request.app.state.runtime
    return state


def settings_of(request: Request) -> Settings:
    """Settings are set at create_app() time, so they are there even before the lifespan runs."""
    settings: Settings = request.app.state.settings
    return settings


def metrics_of(request: Request) -> Metrics:
    """The application's metrics, made at create_app() time like its settings."""
    metrics: Metrics = request.app.state.metrics
    return metrics
