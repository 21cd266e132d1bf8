"""Test fixtures: a real PostgreSQL + pgvector, migrated once, each test inside a rolled-back transaction.

The server is the embedded one (started here under a temporary directory) unless
GENEBANK_TEST_DATABASE_URL names a server; either way fresh databases are created for the session
and dropped at the end: a template migrated once to the head revision, which nothing ever connects
to, and the session's database, a copy of it. Tests that must commit get a copy of their own
(`migrated_url`, `migrated_database`) or an empty database (`scratch_url`: the migration tests).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi import FastAPI
from pgvector.psycopg import register_vector_async
from psycopg import sql
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from app import embedded_pg, migrate
from app.auth.principal import Role
from app.auth.service import key_service
from app.config import Settings
from app.db import create_engine, create_sessionmaker, get_session
from app.embeddings import EmbeddingService
from app.embeddings.torch_backend import SentenceTransformerEmbedder
from app.main import create_app
from app.state import Runtime
from genebank.client import AsyncClient as GenebankClient

# Child processes (servers, workers, commands the tests start) import app.cli, which imports
# genebank.client: they find this checkout's copy whatever an installed one points at.
CLIENT_PATH = str(Path(__file__).resolve().parent.parent / "clients" / "python")
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [CLIENT_PATH, os.environ.get("PYTHONPATH")]))


@dataclass
class DatabaseInfo:
    url: str
    admin_conninfo: str
    name: str
    # A database at the head revision that nothing connects to: CREATE DATABASE ... TEMPLATE copies it
    # (a copy needs no other session on its template).
    template: str


def _conninfo(url: str) -> str:
    """A libpq conninfo for psycopg from a SQLAlchemy-style URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _create_database(admin_conninfo: str, name: str, template: str | None = None) -> None:
    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template is not None:
        statement = sql.SQL("{} TEMPLATE {}").format(statement, sql.Identifier(template))
    with psycopg.connect(admin_conninfo, autocommit=True) as conn:
        conn.execute(statement)


def _drop_database(admin_conninfo: str, name: str) -> None:
    with psycopg.connect(admin_conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def database() -> Iterator[DatabaseInfo]:
    suffix = uuid.uuid4().hex[:8]
    name = f"genebank_test_{suffix}"
    template = f"genebank_template_{suffix}"
    server_url = os.environ.get("GENEBANK_TEST_DATABASE_URL")
    embedded = None
    tmp = None
    if server_url:
        admin = _conninfo(server_url)
        url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="genebank-test-"))
        embedded = embedded_pg.start(tmp / "pgdata", database="postgres")
        admin = embedded.admin_conninfo()
        url = embedded.url(name)
    created: list[str] = []
    try:
        _create_database(admin, template)
        created.append(template)
        # migrate.upgrade disposes of its engine: no session is left on the template.
        migrate.upgrade(make_url(url).set(database=template).render_as_string(hide_password=False))
        _create_database(admin, name, template)
        created.append(name)
        yield DatabaseInfo(url=url, admin_conninfo=admin, name=name, template=template)
    finally:
        for each in reversed(created):
            _drop_database(admin, each)
        if embedded is not None:
            embedded.stop()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def settings(database: DatabaseInfo) -> Settings:
    return Settings(
        database_url=database.url,
        migrate_on_start=False,
        data_dir=Path(tempfile.gettempdir()),
        # Tests make many calls a minute; the rate-limit tests set their own, small limits.
        rate_limit_reads="100000/minute",
        rate_limit_search="100000/minute",
        rate_limit_writes="100000/minute",
        # The authorization matrix alone sends ~40 refused calls from one address in a test.
        rate_limit_unauthenticated="100000/minute",
    )


@pytest.fixture(scope="session")
def embeddings() -> Iterator[EmbeddingService]:
    """The real model (all-MiniLM-L6-v2, offline), loaded once for the whole session."""
    service = EmbeddingService(SentenceTransformerEmbedder())
    yield service
    service.close()


@pytest.fixture(scope="session")
async def engine(database: DatabaseInfo, settings: Settings) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(database.url, settings)
    yield engine
    await engine.dispose()


@pytest.fixture
async def session(engine: AsyncEngine) -> AsyncIterator[AsyncSession]:
    """A session inside an outer transaction that is rolled back after the test; commits become savepoints."""
    async with engine.connect() as conn:
        outer = await conn.begin()
        session = AsyncSession(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
        try:
            yield session
        finally:
            await session.close()
            await outer.rollback()


class SessionBoundPool:
    """Stands in for the read pool: hands out the test's own connection, so reads see its rows."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        # The bound connection itself, not session.connection(): that would open a SAVEPOINT the next
        # request's rollback takes down, with whatever (e.g. an audit entry) was written in it.
        bound = self.session.bind
        assert isinstance(bound, AsyncConnection)
        raw = await bound.get_raw_connection()
        conn = raw.driver_connection
        await register_vector_async(conn)
        yield conn


def build_app(
    settings: Settings,
    engine: AsyncEngine,
    session: AsyncSession,
    database: DatabaseInfo,
    embeddings: EmbeddingService,
) -> FastAPI:
    """An app configured by `settings` whose requests run in the test's session (its transaction)."""
    app = create_app(settings)
    app.state.runtime = Runtime(
        settings=settings,
        database_url=database.url,
        engine=engine,
        sessionmaker=create_sessionmaker(engine),
        read_pool=SessionBoundPool(session),  # type: ignore[arg-type]
        embeddings=embeddings,
        embedded=None,
        expected_migration=migrate.head_revision(),
    )

    async def test_session() -> AsyncIterator[AsyncSession]:
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        else:
            await session.commit()

    app.dependency_overrides[get_session] = test_session
    return app


@pytest.fixture
def app(
    settings: Settings,
    engine: AsyncEngine,
    session: AsyncSession,
    database: DatabaseInfo,
    embeddings: EmbeddingService,
) -> FastAPI:
    return build_app(settings, engine, session, database, embeddings)


@pytest.fixture
async def keys(session: AsyncSession) -> dict[str, str]:
    """A key per role, and a revoked one, inside the test's transaction."""
    tokens = {}
    for role in (Role.consumer, Role.producer, Role.admin):
        created = await key_service.create(session, name=f"test {role.name}", role=role, created_by=None)
        tokens[role.name] = created.token
    revoked = await key_service.create(session, name="test revoked", role=Role.admin, created_by=None)
    await key_service.revoke(session, revoked.key.id)
    tokens["revoked"] = revoked.token
    # Released like any committed request: a later refused request's rollback keeps the keys.
    await session.commit()
    return tokens


@pytest.fixture
async def client_as(
    app: FastAPI, keys: dict[str, str]
) -> AsyncIterator[Callable[[str | None], httpx.AsyncClient]]:
    """Clients by role name ("consumer", "producer", "admin", "revoked"), or None for no key at all."""
    opened: list[httpx.AsyncClient] = []

    def make(role: str | None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {keys[role]}"} if role else {}
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://genebank.test", headers=headers
        )
        opened.append(client)
        return client

    yield make
    for client in opened:
        await client.aclose()


@pytest.fixture
async def genebank_as(app: FastAPI, keys: dict[str, str]) -> AsyncIterator[Callable[..., GenebankClient]]:
    """genebank.client's AsyncClient by role name (or None for no key), on the in-process app.

    Tests that are about what the API answers call it the way agents do, through the client, so that
    the client cannot drift from the server. `genebank_as("admin", event_hooks=...)` passes options on.
    """
    opened: list[GenebankClient] = []

    def make(role: str | None, **options: Any) -> GenebankClient:
        client = GenebankClient(
            "http://genebank.test",
            keys[role] if role else "",
            transport=httpx.ASGITransport(app=app),
            **options,
        )
        opened.append(client)
        return client

    yield make
    for client in opened:
        await client.aclose()


@pytest.fixture
async def genebank(genebank_as: Callable[..., GenebankClient]) -> GenebankClient:
    """The admin's genebank.client, like `client` is its raw httpx client."""
    return genebank_as("admin")


class KeyClient(httpx.AsyncClient):
    """A test client that knows the id of its key."""

    key_id: str


@pytest.fixture
async def new_key_client(
    app: FastAPI, session: AsyncSession
) -> AsyncIterator[Callable[..., Awaitable[KeyClient]]]:
    """A client with a key of its own: `await new_key_client("consumer", consumer_model="m")`."""
    opened: list[httpx.AsyncClient] = []

    async def make(
        role: str = "consumer",
        *,
        name: str | None = None,
        consumer_model: str | None = None,
        owner: str | None = None,
    ) -> KeyClient:
        created = await key_service.create(
            session,
            name=name or f"test {role} {len(opened) + 1}",
            role=Role[role],
            created_by=None,
            consumer_model=consumer_model,
            owner=owner,
        )
        await session.commit()
        client = KeyClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://genebank.test",
            headers={"Authorization": f"Bearer {created.token}"},
        )
        client.key_id = str(created.key.id)
        opened.append(client)
        return client

    yield make
    for client in opened:
        await client.aclose()


@pytest.fixture
async def client(client_as: Callable[[str | None], httpx.AsyncClient]) -> httpx.AsyncClient:
    """The admin's client: most tests are about what the API does, not who may ask."""
    return client_as("admin")


# Copies of the template are made one at a time: a test's threads may ask for several at once.
_copying = threading.Lock()


@contextmanager
def empty_database(database: DatabaseInfo, prefix: str = "genebank_migrations") -> Iterator[str]:
    """The URL of a new empty database on the test server, dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    _create_database(database.admin_conninfo, name)
    try:
        yield make_url(database.url).set(database=name).render_as_string(hide_password=False)
    finally:
        _drop_database(database.admin_conninfo, name)


@contextmanager
def migrated_database(database: DatabaseInfo, prefix: str = "genebank_scratch") -> Iterator[str]:
    """The URL of a new database at the head revision (a copy of the session's template), dropped
    afterwards: what `migrate.upgrade` makes of an empty one, without running the migrations again."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with _copying:
        _create_database(database.admin_conninfo, name, database.template)
    try:
        yield make_url(database.url).set(database=name).render_as_string(hide_password=False)
    finally:
        _drop_database(database.admin_conninfo, name)


@pytest.fixture
def scratch_url(database: DatabaseInfo) -> Iterator[str]:
    """An empty database of its own (the migration tests upgrade and downgrade it)."""
    with empty_database(database) as url:
        yield url


@pytest.fixture
def migrated_url(database: DatabaseInfo) -> Iterator[str]:
    """A migrated database of its own, for tests that must commit (CLI loaders, workers, servers)."""
    with migrated_database(database) as url:
        yield url
