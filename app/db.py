"""Engine and session factories, and the request's session dependency (the only commit on the API side).

When the database restarts, every pooled connection dies with it. Both pools hand out only live
connections afterwards, so the first requests after a restart do not fail. Each looks at the socket
of the idle connection it is about to hand out: a connection the server closed has its goodbye (or
end of file) waiting to be read. That costs a poll(2), 0.7 µs, where a round trip to ask the server
(psycopg_pool's `check_connection`, SQLAlchemy's `pool_pre_ping`) cost 114-203 µs on the loaded test
machine (bench/pool_checks.py, two runs): a checkout and fetch by id took 1.20-1.30x as long with the
round trip, 0.85-1.00x with the socket check (noise); an engine checkout and primary-key SELECT
1.13-1.26x with pre-ping, 0.98x with the socket check. What it cannot see is a server whose
host vanished without closing its connections; a request then fails (503) and its connection is
discarded. The read pool also probes the server when it finds a closed connection, and while the
server is down answers 503 at once instead of letting every request wait for the pool.
"""

from __future__ import annotations

import asyncio
import logging
import select
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from functools import partial
from typing import Annotated, Any

import orjson
import psycopg
from fastapi import Depends, Request
from pgvector.psycopg import register_vector_async
from psycopg import pq, sql
from psycopg.types.json import set_json_dumps
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy import URL, Connection, event, func, make_url, text
from sqlalchemy import select as sql_select
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings
from app.errors import DatabaseUnavailable
from app.state import runtime

# JSONB parameters (a trajectory's steps: up to a megabyte) are serialized on the event loop when a
# statement runs; the standard library took ~30 ms a megabyte there, orjson takes a tenth of it.
# Values are plain JSON already (app/jsonbody.py refuses NaN and out-of-range integers).
set_json_dumps(orjson.dumps)

log = logging.getLogger(__name__)

# While the database is known to be down, a request tries a fresh connection (refused at once by a
# server that is down) rather than waiting for the pool.
_PROBE_CONNECT_TIMEOUT_SECONDS = 3


def normalize_url(url: str) -> URL:
    """Accept plain postgres:// URLs too; Genebank always talks through psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql", "postgresql+psycopg2", "postgresql+asyncpg"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername != "postgresql+psycopg":
        raise ValueError(f"unsupported database URL scheme {parsed.drivername!r}: Genebank needs PostgreSQL")
    return parsed


def create_engine(url: str, settings: Settings) -> AsyncEngine:
    engine = create_async_engine(
        normalize_url(url),
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_timeout=settings.db_pool_timeout_seconds,
        pool_recycle=1800,
        connect_args={"application_name": "genebank"},
    )
    event.listen(engine.sync_engine, "checkout", _discard_if_closed_by_server)
    return engine


def _discard_if_closed_by_server(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """A connection that died with a database restart is replaced before a request uses it.

    Raising DisconnectionError makes the pool drop it and check out another (a new one if need be).
    """
    if _closed_by_server(dbapi_connection.driver_connection):
        raise DisconnectionError("the server closed this connection")


@contextmanager
def advisory_lock(conn: Connection, key: int) -> Iterator[None]:
    """A session-level advisory lock on a synchronous connection, committed on release."""
    conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
    try:
        yield
    finally:
        conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
        conn.commit()


async def set_local(session: AsyncSession, settings: dict[str, str]) -> None:
    """PostgreSQL settings for the session's current transaction only (SET LOCAL)."""
    await session.execute(
        sql_select(*(func.set_config(name, value, True) for name, value in settings.items()))
    )


async def schema_revision(engine: AsyncEngine) -> str | None:
    """The Alembic revision the database is at (for the readiness probe)."""
    async with engine.connect() as conn:
        revision: str | None = await conn.scalar(text("SELECT version_num FROM alembic_version"))
    return revision


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One transaction per request: committed after the handler returns, rolled back on any error.

    With read replicas, a write's WAL position is remembered for its key (app/replicas.py).
    """
    state = runtime(request)
    async with state.sessionmaker() as session:
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        else:
            await session.commit()
            if state.replicas is not None and request.method not in ("GET", "HEAD"):
                key_id = _caller(request)
                if key_id is not None:
                    state.replicas.wrote(key_id, await wal_position(session))


def libpq_conninfo(url: str) -> str:
    return normalize_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def create_read_pool(url: str, settings: Settings) -> ReadPool:
    """Autocommit psycopg connections for the hot read path (fetch by id, by asset).

    Measured in bench/fetch.py: SQLAlchemy's async engine adds more per-request CPU than the
    query itself costs, so single-statement reads go straight to psycopg; statements are still
    built with SQLAlchemy Core, compiled once.
    """
    return ReadPool(
        libpq_conninfo(url),
        # A fixed-size pool: growing on demand makes the first bursts wait for new connections.
        min_size=settings.db_pool_size,
        max_size=settings.db_pool_size,
        kwargs={"autocommit": True, "application_name": "genebank-read"},
        configure=partial(configure_read_connection, ef_search=settings.search_ef_search),
        timeout=settings.db_pool_timeout_seconds,
        # Give up reconnecting in the background soon: a waiting request starts a new attempt at
        # once, where a long backoff would keep the pool empty well after the database is back.
        reconnect_timeout=max(2.0, settings.db_pool_timeout_seconds),
        open=False,
    )


def _closed_by_server(conn: psycopg.AsyncConnection[Any]) -> bool:
    """An idle connection with something to read: the server said goodbye (or sent a notice)."""
    pgconn = conn.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        return True
    poller = select.poll()
    poller.register(pgconn.socket, select.POLLIN)
    return bool(poller.poll(0))


class ReadPool(AsyncConnectionPool[psycopg.AsyncConnection[Any]]):
    """The read pool, handing out live connections only, and refusing at once while the database is down."""

    def __init__(self, conninfo: str, **kwargs: Any) -> None:
        super().__init__(conninfo, **kwargs)
        self._probe_conninfo = conninfo
        self.down = False
        self._probing: asyncio.Future[bool] | None = None
        self._last_check = 0.0
        self._recovering = asyncio.Lock()

    async def getconn(self, timeout: float | None = None) -> psycopg.AsyncConnection[Any]:  # noqa: ASYNC109
        if self.down:
            await self._probe()
        conn = await self._getconn(timeout)
        if not _closed_by_server(conn):
            return conn
        found_at = time.monotonic()
        try:
            await conn.execute("")  # a notice or a parameter change is harmless: the connection answers
            return conn
        except psycopg.Error:
            await self.putconn(conn)  # broken: the pool replaces it
        # The server restarted (or is going away): probe it, then replace every stale connection at once.
        async with self._recovering:
            await self._probe()
            if self._last_check < found_at:
                await self.check()
                self._last_check = time.monotonic()
        return await self._getconn(timeout)

    async def _getconn(self, timeout: float | None) -> psycopg.AsyncConnection[Any]:  # noqa: ASYNC109
        try:
            return await super().getconn(timeout)
        except PoolTimeout as exc:
            if not self.down:
                # No connection in time: the pool is exhausted, or cannot reach the server.
                await self._probe()
            raise DatabaseUnavailable("no database connection is free; retry shortly") from exc

    async def _probe(self) -> None:
        """Raise DatabaseUnavailable unless a fresh connection to the server succeeds.

        Requests that arrive while a probe is under way share its answer; any later one probes
        afresh, so no request is refused for an outage that ended before it arrived.
        """
        if self._probing is None:
            self._probing = asyncio.ensure_future(self._connect_once())
        probing = self._probing
        try:
            reachable = await asyncio.shield(probing)
        finally:
            if self._probing is probing and probing.done():
                self._probing = None
        if not reachable:
            raise DatabaseUnavailable()

    async def _connect_once(self) -> bool:
        try:
            probe = await psycopg.AsyncConnection.connect(
                self._probe_conninfo,
                connect_timeout=_PROBE_CONNECT_TIMEOUT_SECONDS,
                application_name="genebank-probe",
            )
        except psycopg.OperationalError as exc:
            if not self.down:
                log.warning("the database is unreachable: %s", exc)
            self.down = True
            return False
        await probe.close()
        if self.down:
            log.warning("the database is reachable again")
            self.down = False
            # Connections that were idle through the outage are dead: replace them.
            await self.check()
            self._last_check = time.monotonic()
        return True


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


def _caller(request: Request) -> uuid.UUID | None:
    principal = getattr(request.state, "principal", None)
    return getattr(principal, "key_id", None)


@asynccontextmanager
async def read_connection(request: Request) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """A plain context manager rather than a dependency: see the fetch endpoints in app/genes/router.py.

    A read replica's connection when one is configured and has caught up with the caller's own
    writes (app/replicas.py), else the primary's.
    """
    state = runtime(request)
    if state.replicas is None:
        async with state.read_pool.connection() as conn:
            yield conn
        return
    async with AsyncExitStack() as stack:
        replica = await state.replicas.connection(stack, _caller(request))
        if replica is not None:
            yield replica
        else:
            yield await stack.enter_async_context(state.read_pool.connection())


async def replayed(conn: psycopg.AsyncConnection[Any], lsn: str | None) -> bool:
    """Whether this standby has replayed the primary's WAL up to `lsn` (no position: yes)."""
    if lsn is None:
        return True
    row = await (await conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (lsn,))).fetchone()
    return bool(row and row[0])


async def session_replayed(session: AsyncSession, lsn: str | None) -> bool:
    """The same on a session; with no position to reach, a round trip that connects it."""
    if lsn is None:
        await session.execute(text("SELECT 1"))
        return True
    caught_up = await session.scalar(
        text("SELECT pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn)"), {"lsn": lsn}
    )
    return bool(caught_up)


async def wal_position(session: AsyncSession) -> str:
    """The primary's current WAL position: what a standby must replay to show this session's commits."""
    lsn: str = (await session.execute(text("SELECT pg_current_wal_lsn()::text"))).scalar_one()
    return lsn


# scope="function": the commit happens before the response is sent, so a 2xx means the data is durable.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


async def get_read_session(request: Request, primary: SessionDep) -> AsyncIterator[AsyncSession]:
    """A session for a read-only handler: on a read replica when one is configured and has caught up
    with the caller's own writes (app/replicas.py), else the request's session on the primary (which
    opens no connection when unused)."""
    state = runtime(request)
    if state.replicas is None:
        yield primary
        return
    async with AsyncExitStack() as stack:
        replica = await state.replicas.session(stack, _caller(request))
        yield primary if replica is None else replica


# Read-only handlers (listings): a replica's session where one is configured.
ReadSessionDep = Annotated[AsyncSession, Depends(get_read_session, scope="function")]
