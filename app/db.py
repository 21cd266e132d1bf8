"""Engine and session factories, and the request's session dependency (the only commit on the API side)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from typing import Annotated, Any

import orjson
import psycopg
from fastapi import Depends, Request
from pgvector.psycopg import register_vector_async
from psycopg import sql
from psycopg.types.json import set_json_dumps
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import URL, Connection, make_url, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings
from app.state import runtime

# JSONB parameters (a trajectory's steps: up to a megabyte) are serialized on the event loop when a
# statement runs; the standard library took ~30 ms a megabyte there, orjson takes a tenth of it.
# Values are plain JSON already (app/jsonbody.py refuses NaN and out-of-range integers).
set_json_dumps(orjson.dumps)


def normalize_url(url: str) -> URL:
    """Accept plain postgres:// URLs too; Genebank always talks through psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql", "postgresql+psycopg2", "postgresql+asyncpg"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername != "postgresql+psycopg":
        raise ValueError(f"unsupported database URL scheme {parsed.drivername!r}: Genebank needs PostgreSQL")
    return parsed


def create_engine(url: str, settings: Settings) -> AsyncEngine:
    return create_async_engine(
        normalize_url(url),
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        # No pre-ping: it costs a round trip per request. A connection that died with a database
        # restart fails one request (503) and is discarded by the pool.
        pool_recycle=1800,
        connect_args={"application_name": "genebank"},
    )


@contextmanager
def advisory_lock(conn: Connection, key: int) -> Iterator[None]:
    """A session-level advisory lock on a synchronous connection, committed on release."""
    conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
    try:
        yield
    finally:
        conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
        conn.commit()


async def schema_revision(engine: AsyncEngine) -> str | None:
    """The Alembic revision the database is at (for the readiness probe)."""
    async with engine.connect() as conn:
        revision: str | None = await conn.scalar(text("SELECT version_num FROM alembic_version"))
    return revision


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One transaction per request: committed after the handler returns, rolled back on any error."""
    async with runtime(request).sessionmaker() as session:
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        else:
            await session.commit()


def libpq_conninfo(url: str) -> str:
    return normalize_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def create_read_pool(url: str, settings: Settings) -> AsyncConnectionPool:
    """Autocommit psycopg connections for the hot read path (fetch by id, by asset).

    Measured in bench/fetch.py: SQLAlchemy's async engine adds more per-request CPU than the
    query itself costs, so single-statement reads go straight to psycopg; statements are still
    built with SQLAlchemy Core, compiled once.
    """
    return AsyncConnectionPool(
        libpq_conninfo(url),
        # A fixed-size pool: growing on demand makes the first bursts wait for new connections.
        min_size=settings.db_pool_size,
        max_size=settings.db_pool_size,
        kwargs={"autocommit": True, "application_name": "genebank-read"},
        configure=partial(configure_read_connection, ef_search=settings.search_ef_search),
        open=False,
    )


async def configure_read_connection(conn: psycopg.AsyncConnection[Any], *, ef_search: int) -> None:
    """Vectors travel in binary; HNSW scans are deep enough for recall and continue past filters.

    random_page_cost 1.1 (solid-state storage): at 4, a deep ef_search made the planner prefer a
    sequential scan and sort over the HNSW index on small corpora (21 ms instead of 1 ms at 10,000).
    Generic plans: psycopg prepares a statement once it ran 5 times on a connection, but PostgreSQL
    kept planning the search statement afresh for every vector (0.6 ms of its 3 ms at 10,000
    Genes, bench/search.py); the plan is the same for every value these statements take.
    """
    await register_vector_async(conn)
    settings = sql.SQL(
        "SET hnsw.ef_search = {}; SET hnsw.iterative_scan = relaxed_order; SET random_page_cost = 1.1;"
        " SET plan_cache_mode = force_generic_plan"
    )
    await conn.execute(settings.format(sql.Literal(ef_search)))


@asynccontextmanager
async def read_connection(request: Request) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """A plain context manager rather than a dependency: see the fetch endpoints in app/genes/router.py."""
    async with runtime(request).read_pool.connection() as conn:
        yield conn


# scope="function": the commit happens before the response is sent, so a 2xx means the data is durable.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]
