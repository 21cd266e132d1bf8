"""The ASGI application: `create_app()` wires routers, error handlers and the lifespan resources."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from asgi_correlation_id import CorrelationIdMiddleware
from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from app import embedded_pg, migrate, openapi
from app.a2a.errors import A2AError, a2a_error_response
from app.a2a.router import admin_router as nodes_router
from app.a2a.router import router as a2a_router
from app.admin import MOUNT_PATH, create_admin_app
from app.admin.secret import session_secret
from app.auth.audit import AuditTrail
from app.auth.bootstrap import bootstrap_admin
from app.auth.middleware import AccessMiddleware
from app.auth.router import router as keys_router
from app.auth.service import KeyCache
from app.batch import BULK_PATHS
from app.config import Settings
from app.db import create_engine, create_read_pool, create_sessionmaker, libpq_conninfo
from app.embeddings import create_embedding_service
from app.embeddings.factory import served_model
from app.errors import install_error_handlers
from app.evolution.router import router as evolution_router
from app.evolution.worker import start_in_process_worker
from app.favicon import FaviconMiddleware
from app.feed.router import router as feed_router
from app.genes.router import router as genes_router
from app.gep.router import router as gep_router
from app.health.router import router as health_router
from app.jsonbody import BodyLimitMiddleware
from app.logs import REQUEST_ID_HEADER, valid_request_id
from app.metrics import Metrics
from app.outcomes.router import router as outcomes_router
from app.replicas import Replicas
from app.search.router import router as search_router
from app.search.term_stats import refresh_periodically
from app.state import Runtime
from app.trajectories.router import router as trajectories_router
from app.webhooks.dispatcher import BackgroundDispatcher, WebhookDispatcher
from app.webhooks.router import router as webhooks_router

log = logging.getLogger(__name__)

DOCS_ASSETS = "/docs/assets"


def resolve_database(settings: Settings) -> tuple[str, embedded_pg.EmbeddedPostgres | None]:
    """The configured server, or the embedded one started under the data directory."""
    if settings.database_url is not None:
        return settings.database_url.get_secret_value(), None
    embedded = embedded_pg.start(settings.pgdata_dir)
    return embedded.url(), embedded


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    # First, before any database starts: a session secret that cannot be stored is a clear start-up
    # error (SecretUnavailable names the directory and the fix), not a 500 on every admin page.
    await asyncio.to_thread(session_secret, settings)
    # Then the embedding model: a fine-tuned one without the fusion fitted for it is refused here
    # (ModelUnavailable names the directory and the fix), before its weights load.
    await asyncio.to_thread(served_model, settings)
    database_url, embedded = await asyncio.to_thread(resolve_database, settings)
    if settings.migrate_on_start:
        await asyncio.to_thread(migrate.upgrade, database_url)
    metrics: Metrics = app.state.metrics
    embeddings = await asyncio.to_thread(create_embedding_service, settings, metrics.timed)
    engine = create_engine(database_url, settings)
    read_pool = create_read_pool(database_url, settings)
    await read_pool.open()
    replicas = Replicas(settings.read_database_urls, settings) if settings.read_database_urls else None
    if replicas is not None:
        if embedded is not None:
            raise RuntimeError(
                "GENEBANK_READ_DATABASE_URL needs GENEBANK_DATABASE_URL (a primary they stream from)"
            )
        await replicas.open()
    app.state.runtime = Runtime(
        settings=settings,
        database_url=database_url,
        engine=engine,
        sessionmaker=create_sessionmaker(engine),
        read_pool=read_pool,
        embeddings=embeddings,
        embedded=embedded,
        expected_migration=migrate.head_revision(),
        replicas=replicas,
    )
    # The process that redacts and hashes large submissions starts now, not on the first one.
    app.state.runtime.cpu.warm("app.trajectories.content")
    await bootstrap_admin(app.state.runtime.sessionmaker, settings, embedded=embedded is not None)
    where = f"embedded PostgreSQL in {embedded.pgdata}" if embedded else "the configured PostgreSQL server"
    log.info(
        "Genebank ready on http://%s:%s (API docs at /docs), database: %s",
        settings.host,
        settings.port,
        where,
    )
    background_worker = start_in_process_worker(app.state.runtime)
    dispatcher = None
    if background_worker is not None:
        metrics.worker.stats = background_worker.worker.stats
        # Webhooks are sent by the processes that run workers.
        dispatcher = BackgroundDispatcher(WebhookDispatcher(app.state.runtime.sessionmaker, settings))
    term_stats = asyncio.create_task(
        refresh_periodically(libpq_conninfo(database_url), settings.search_stats_refresh_seconds)
    )
    audit_flush = asyncio.create_task(app.state.audit.run(read_pool))
    try:
        yield
    finally:
        term_stats.cancel()
        audit_flush.cancel()
        await app.state.audit.flush(read_pool)  # the repeats counted since the last flush
        # Before the engine goes: the worker finishes (and commits) the jobs in hand.
        if background_worker is not None:
            await background_worker.shutdown()
        if dispatcher is not None:
            await dispatcher.shutdown()
        await read_pool.close()
        if replicas is not None:
            await replicas.close()
        embeddings.close()
        app.state.runtime.cpu.close()
        await engine.dispose()
        if embedded is not None:
            await asyncio.to_thread(embedded.stop)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    # /docs and /redoc load Swagger UI and ReDoc from the installed fastapi-offline package, never a
    # CDN; the assets live under /docs/, which the access middleware leaves open like the pages.
    app = FastAPIOffline(
        title="Genebank",
        version="0.1.0",
        summary="A shared registry of verified agent experience (GEP-compatible Genes)",
        lifespan=lifespan,
        static_url=DOCS_ASSETS,
    )
    # Added last, runs first: an oversized body is refused before anyone is authenticated.
    app.add_middleware(AccessMiddleware)
    app.add_middleware(
        BodyLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        bulk_max_bytes=settings.batch_max_bytes,
        bulk_paths=BULK_PATHS,
    )
    app.add_middleware(FaviconMiddleware)  # browsers ask for it without a key
    # Outermost: every request counted and timed per route, 401s and 429s included (app/metrics.py),
    # and every log line of a request carries its id (X-Request-ID in, or a new one, and out).
    app.state.metrics = Metrics()
    app.state.metrics.instrument(app)
    app.add_middleware(CorrelationIdMiddleware, header_name=REQUEST_ID_HEADER, validator=valid_request_id)
    app.state.settings = settings
    # Verified keys, shared by the access middleware and key revocation in this process.
    app.state.key_cache = KeyCache(settings.key_cache_seconds)
    # Audit entries of this process, repeated refusals aggregated (app/auth/audit.py).
    app.state.audit = AuditTrail(settings.audit_flush_seconds)
    install_error_handlers(app)
    app.add_exception_handler(A2AError, a2a_error_response)
    openapi.install(app)
    app.include_router(health_router)
    app.include_router(gep_router)
    app.include_router(genes_router)
    app.include_router(search_router)
    app.include_router(outcomes_router)
    app.include_router(keys_router)
    app.include_router(trajectories_router)
    app.include_router(evolution_router)
    app.include_router(feed_router)
    app.include_router(webhooks_router)
    # The GEP hub for EvoMap's evolver client (docs/a2a.md) and its nodes' admin API.
    app.include_router(a2a_router)
    app.include_router(nodes_router)
    # Server-rendered admin pages: a sub-app with its own login (admin key → session cookie).
    app.mount(MOUNT_PATH, create_admin_app(app))
    return app
