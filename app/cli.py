"""The `genebank` command: serve, migrate, demo, worker, reembed, keys, nodes; and the client verbs
(search, get, publish, submit, report, mcp) from genebank.client.cli."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
import uuid
from collections.abc import Awaitable, Callable
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeVar

import httpx
import psycopg
import typer
import uvicorn
from prometheus_client import start_http_server
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import migrate as migrations
from app.a2a.errors import A2AError
from app.a2a.service import node_service
from app.admin.secret import SecretUnavailable, session_secret
from app.auth.principal import SYSTEM, Role
from app.auth.service import key_service
from app.config import Settings
from app.db import create_engine, create_sessionmaker, libpq_conninfo
from app.embeddings import EmbeddingService, create_embedding_service
from app.embeddings.factory import served_model
from app.embeddings.model import ModelUnavailable
from app.errors import AppError, ValidationFailed
from app.evolution.service import EvolutionService
from app.evolution.worker import EvolutionWorker, WorkerStats
from app.feed.mirror import Applied, Importer, Mirror, MirrorError, cursor_file, export_lines
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.logs import configure_logging
from app.main import create_app, resolve_database
from app.metrics import Metrics
from app.search import vector_index as vector_indexes
from app.search.reembed import reembed as reembed_versions
from app.webhooks.dispatcher import BackgroundDispatcher, WebhookDispatcher
from genebank.client.cli import register as register_client_verbs

T = TypeVar("T")
# Plain help output: Typer's rich panels print flags as `--drain <bool>`, as if they took a value.
cli = typer.Typer(
    help="Genebank: a shared registry of verified agent experience.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
log = logging.getLogger("genebank")


def _configure_logging(settings: Settings) -> None:
    configure_logging(settings.log_level, settings.log_format)


def _check_model(settings: Settings) -> None:
    """A configured model that cannot be served (no weights, no fusion.json) is one line, not a traceback."""
    try:
        served_model(settings)
    except ModelUnavailable as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None


@cli.command()
def serve(
    host: Annotated[str | None, typer.Option(help="interface to bind (default GENEBANK_HOST)")] = None,
    port: Annotated[int | None, typer.Option(help="port to bind (default GENEBANK_PORT)")] = None,
    ssl_certfile: Annotated[
        str | None, typer.Option(help="serve HTTPS with this certificate (PEM), e.g. for GEP clients")
    ] = None,
    ssl_keyfile: Annotated[str | None, typer.Option(help="the private key (PEM) of --ssl-certfile")] = None,
) -> None:
    """Start the API (on the embedded database unless GENEBANK_DATABASE_URL is set)."""
    if (ssl_certfile is None) != (ssl_keyfile is None):
        typer.echo("error: --ssl-certfile and --ssl-keyfile go together", err=True)
        raise typer.Exit(2)
    overrides: dict[str, Any] = {}
    if host is not None:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    settings = Settings(**overrides)
    _configure_logging(settings)
    try:
        # The lifespan checks this too; here it is one line instead of a traceback.
        session_secret(settings)
    except SecretUnavailable as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    _check_model(settings)
    app = create_app(settings)
    # X-Forwarded-For only from GENEBANK_TRUSTED_PROXIES: uvicorn would otherwise believe any local
    # process, and the audit log and the per-address limits would key on what the client claims.
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies or None,
        ssl_certfile=ssl_certfile,
        ssl_keyfile=ssl_keyfile,
        log_config=None,  # uvicorn's lines go through our handler, with the request id
    )
    uvicorn.Server(config).run()


@cli.command()
def migrate(revision: Annotated[str, typer.Argument(help="target revision")] = "head") -> None:
    """Upgrade the database schema (Alembic) to REVISION."""
    settings = Settings()
    _configure_logging(settings)
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


DEMO_ACTION = "publish_gene"  # the action name the API's own audit entries use for POST /v1/genes


async def load_demo(
    database_url: str, settings: Settings, embeddings: EmbeddingService
) -> list[tuple[str, int, bool]]:
    """Publish the sample Genes (and one evolved version), audited; publishing them again changes nothing.

    Every publish is audited like the API's (action publish_gene, status 201 or 200 when unchanged),
    with the command line as the actor, in the same transaction as the version it records.
    """
    engine = create_engine(database_url, settings)
    sessionmaker = create_sessionmaker(engine)
    genes, evolved = _demo_payloads()
    gene_doc = dict(evolved["gene"])
    results = []
    try:
        parents: dict[str, str] = {}
        for payload in [*genes, {**evolved, "gene": gene_doc}]:
            if payload["gene"] is gene_doc:
                gene_doc["parent"] = parents.get(gene_doc["id"])
            async with sessionmaker.begin() as session:
                published = await gene_service.publish(
                    session, PublishRequest.model_validate(payload), embeddings
                )
                version = published.version
                await key_service.audit(
                    session,
                    SYSTEM,
                    DEMO_ACTION,
                    version.gene_id,
                    method="POST",
                    path="/v1/genes",
                    status=201 if published.created else 200,
                    detail={
                        "gene_id": version.gene_id,
                        "version": version.version,
                        "asset_id": version.asset_id,
                        "created": published.created,
                        "via": "genebank demo",
                    },
                )
            parents[version.gene_id] = version.asset_id
            results.append((version.gene_id, version.version, published.created))
    finally:
        await engine.dispose()
    return results


@cli.command()
def demo() -> None:
    """Load a dozen realistic sample Genes with provenance, across the four task families.

    A running `genebank serve` may keep running: the Genes are published through the same rules,
    recorded in the audit log, and served (and searchable) at once. Loading them again changes nothing.
    """
    settings = Settings()
    _configure_logging(settings)
    database_url, embedded = resolve_database(settings)
    where = f"the embedded PostgreSQL in {embedded.pgdata}" if embedded else "GENEBANK_DATABASE_URL"
    typer.echo(f"Loading the demo Genes into {where}; a running `genebank serve` may keep running.")
    try:
        migrations.upgrade(database_url)
        embeddings = create_embedding_service(settings)
        results = asyncio.run(load_demo(database_url, settings, embeddings))
    finally:
        if embedded is not None:
            embedded.stop()
    for gene_id, version, created in results:
        typer.echo(f"{'published' if created else 'unchanged'}  {gene_id} v{version}")
    typer.echo("Each publish is in the audit log (action publish_gene, actor cli).")


@cli.command()
def reembed(
    everything: Annotated[
        bool, typer.Option("--all", help="re-embed every version, not only those from another model")
    ] = False,
) -> None:
    """Recompute Gene embeddings with the configured model/backend (after changing either)."""
    from tqdm import tqdm

    settings = Settings()
    _configure_logging(settings)
    _check_model(settings)
    database_url, embedded = resolve_database(settings)
    try:
        migrations.upgrade(database_url)
        embeddings = create_embedding_service(settings)
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


class VectorIndexKind(StrEnum):
    hnsw = "hnsw"
    ivfflat = "ivfflat"


@cli.command("vector-index")
def vector_index(
    kind: Annotated[
        VectorIndexKind | None,
        typer.Argument(help="the index to serve the vector stage from; omit to show the current ones"),
    ] = None,
    probes: Annotated[
        int, typer.Option(min=1, help="IVFFlat lists scanned per query (set on the database)")
    ] = vector_indexes.DEFAULT_PROBES,
    lists: Annotated[
        int | None,
        typer.Option(min=1, help="IVFFlat lists of the main index; default rows/1000 (sqrt(rows) past 1M)"),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help=f"build IVFFlat below {vector_indexes.MIN_IVFFLAT_ROWS:,} Genes")
    ] = False,
    maintenance_work_mem: Annotated[
        str, typer.Option(help="PostgreSQL's maintenance_work_mem for the builds (this session only)")
    ] = "1GB",
) -> None:
    """Serve vector search from HNSW (the default) or IVFFlat (for large registries: docs/scaling.md).

    Builds the new indexes concurrently (searches go on), then drops the other kind's. Run
    `ivfflat` again after the registry has grown several times over to re-cluster its lists.
    Restart the API processes and workers afterwards: their open connections keep the settings
    they started with.
    """
    settings = Settings()
    _configure_logging(settings)
    database_url, embedded = resolve_database(settings)
    try:
        migrations.upgrade(database_url)
        conninfo = libpq_conninfo(database_url)
        if kind is not None:
            vector_indexes.switch(
                conninfo,
                kind.value,
                probes=probes,
                lists=lists,
                force=force,
                maintenance_work_mem=maintenance_work_mem,
                say=typer.echo,
            )
        with psycopg.connect(conninfo) as conn:
            indexes = vector_indexes.vector_indexes(conn)
            configured = vector_indexes.database_settings(conn)
    except AppError as error:
        typer.echo(f"error: {error.detail}", err=True)
        raise typer.Exit(1) from None
    except psycopg.Error as error:
        typer.echo(f"error: {str(error).strip()}", err=True)
        raise typer.Exit(1) from None
    finally:
        if embedded is not None:
            embedded.stop()
    for index in indexes:
        options = ", ".join(index.options)
        state = "" if index.valid else "  (invalid)"
        typer.echo(f"{index.name}  {index.method} ({options})  {index.size_bytes / 2**20:.1f} MiB{state}")
    ivfflat = [item for item in configured if item.startswith("ivfflat.")]
    typer.echo(f"database settings: {', '.join(ivfflat) or 'none for ivfflat'}")
    if kind is not None:
        typer.echo("restart the API processes and workers: open connections keep their settings")


@cli.command("export-model")
def export_model(
    int8: Annotated[
        bool, typer.Option("--int8", help="also write the int8 model (GENEBANK_EMBEDDING_BACKEND=onnx-int8)")
    ] = False,
) -> None:
    """Export the embedding model to ONNX in GENEBANK_MODELS_DIR (default <data dir>/models), once.

    The model is GENEBANK_EMBEDDING_MODEL_DIR's when set (a fine-tune, exported under a file name of
    its own beside the stock model's), and GENEBANK_GUARD_MODEL_DIR's guard-pair cross-encoder when
    set. The Docker image runs this at build time, so a container never exports (nor falls back to
    torch) when it starts. An existing export is kept.
    """
    # A one-shot command, not a server: it exports in its own process (torch is gone when it exits).
    from app.embeddings.export import export, export_guard_model

    settings = Settings()
    _configure_logging(settings)
    _check_model(settings)
    target = settings.embedding_models_dir
    with_int8 = int8 or settings.embedding_backend == "onnx-int8"
    try:
        written = export(target, int8=with_int8, model_dir=settings.embedding_model_dir)
        if settings.guard_model_dir is not None:
            written.append(export_guard_model(target, settings.guard_model_dir))
    except OSError as error:
        typer.echo(f"error: cannot write the ONNX model in {target}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None
    for path in written:
        typer.echo(f"{path}  {path.stat().st_size / 2**20:.1f} MiB")


@cli.command("export")
def export_registry(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="the JSON-lines file to write ('-': standard output)")
    ] = Path("-"),
    with_embeddings: Annotated[
        bool,
        typer.Option(
            "--embeddings", help="with each version's vector, for `genebank import --trust-embeddings`"
        ),
    ] = False,
) -> None:
    """Write every version (document, provenance, status) and status change as JSON lines, in feed order."""

    async def job(sessionmaker: async_sessionmaker[AsyncSession], database_url: str) -> int:
        written = 0
        stream = sys.stdout if str(out) == "-" else out.open("w", encoding="utf-8")
        try:
            async for line in export_lines(sessionmaker, database_url, embeddings=with_embeddings):
                stream.write(line + "\n")
                written += 1
        finally:
            if stream is not sys.stdout:
                stream.close()
        return written

    count = _with_database_url(job)
    typer.echo(f"exported {count} records", err=True)


@cli.command("import")
def import_registry(
    path: Annotated[
        Path, typer.Argument(help="a file written by `genebank export`", exists=True, dir_okay=False)
    ],
    trust_embeddings: Annotated[
        bool,
        typer.Option(
            "--trust-embeddings",
            help="load first versions that carry this registry's embedder's vectors in batches (COPY),"
            " without re-embedding them: only for a source you trust",
        ),
    ] = False,
) -> None:
    """Apply an export: every asset_id verified, what is already here left as it is (so it resumes)."""
    from tqdm import tqdm

    from app.feed.bulk import BulkImporter, bulk_candidate, parse

    with path.open("rb") as counting:
        total = sum(1 for line in counting if line.strip())
    settings = Settings()
    embeddings = create_embedding_service(settings)

    async def job(sessionmaker: async_sessionmaker[AsyncSession], database_url: str) -> Applied:
        importer = Importer(sessionmaker, embeddings)
        async with BulkImporter(database_url, embeddings, importer.applied) as bulk:
            with path.open(encoding="utf-8") as lines:
                bar = tqdm(lines, total=total, unit="record", desc=f"importing {path.name}")
                number = 0
                try:
                    for number, text in enumerate(bar, start=1):  # noqa: B007 (reported on error)
                        if not text.strip():
                            continue
                        line = parse(text)
                        if trust_embeddings and bulk_candidate(line):
                            await bulk.add(line)
                        else:
                            await bulk.finish()  # what came before it is applied first
                            await importer.apply(line)
                    await bulk.finish()
                except (ValueError, KeyError, MirrorError) as error:
                    raise typer.BadParameter(f"line {number} (or its batch): {error}") from None
        return importer.applied

    _apply_with(embeddings, job)


def _apply_with(
    embeddings: EmbeddingService,
    job: Callable[[async_sessionmaker[AsyncSession], str], Awaitable[Applied]],
) -> None:
    """Run an import or a mirror against this registry's database, then say what it applied."""
    try:
        applied = _with_database_url(job)
    finally:
        embeddings.close()
    typer.echo(applied.summary())


@cli.command()
def mirror(
    url: Annotated[str, typer.Argument(help="the registry to follow, e.g. https://genebank.example.org")],
    key: Annotated[str, typer.Option(envvar="GENEBANK_SOURCE_KEY", help="a consumer key of that registry")],
    once: Annotated[bool, typer.Option("--once", help="stop when its feed has nothing new")] = False,
    interval: Annotated[float, typer.Option(min=0.1, help="seconds between polls when up to date")] = 5.0,
) -> None:
    """Follow another registry's feed into this one (resumes where it stopped)."""
    settings = Settings()
    embeddings = create_embedding_service(settings)
    position = cursor_file(settings.data_dir, url)

    async def job(sessionmaker: async_sessionmaker[AsyncSession], _: str) -> Applied:
        importer = Importer(sessionmaker, embeddings)
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as source:
            follower = Mirror(source, importer, position)
            while True:
                try:
                    count = await follower.step()
                except (httpx.HTTPError, MirrorError) as error:
                    if once:
                        raise typer.BadParameter(str(error)) from None
                    log.warning("mirror of %s: %s (retrying)", url, error)
                    count = 0
                if count == 0:
                    if once:
                        return importer.applied
                    await asyncio.sleep(interval)

    _apply_with(embeddings, job)


@cli.command()
def worker(
    concurrency: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="job slots in this process (default GENEBANK_WORKER_CONCURRENCY)"),
    ] = None,
    drain: Annotated[bool, typer.Option("--drain", help="exit once no trajectory is pending")] = False,
    metrics_port: Annotated[
        int | None,
        typer.Option(
            min=1, max=65535, help="serve this worker's Prometheus metrics on this port (loopback by default)"
        ),
    ] = None,
    metrics_host: Annotated[str, typer.Option(help="interface for --metrics-port")] = "127.0.0.1",
) -> None:
    """Run the evolution worker: merge pending trajectories into Genes until SIGTERM / Ctrl-C."""
    settings = Settings()
    _configure_logging(settings)
    _check_model(settings)
    database_url, embedded = resolve_database(settings)
    try:
        if settings.migrate_on_start:
            migrations.upgrade(database_url)
        metrics = Metrics()
        embeddings = create_embedding_service(settings, wrap=metrics.timed)
        if metrics_port is not None:
            start_http_server(metrics_port, metrics_host, registry=metrics.registry)
            log.info("worker metrics on http://%s:%d/metrics", metrics_host, metrics_port)
        try:
            stats = asyncio.run(
                _run_worker(
                    database_url,
                    settings,
                    embeddings,
                    concurrency or settings.worker_concurrency,
                    drain,
                    metrics,
                )
            )
        finally:
            embeddings.close()
        typer.echo(f"worker stopped: {stats.merged} merged, {stats.rejected} rejected, {stats.failed} failed")
    finally:
        if embedded is not None:
            embedded.stop()


async def _run_worker(
    database_url: str,
    settings: Settings,
    embeddings: EmbeddingService,
    concurrency: int,
    drain: bool,
    metrics: Metrics,
) -> WorkerStats:
    engine = create_engine(database_url, settings)
    sessionmaker = create_sessionmaker(engine)
    evolution_worker = EvolutionWorker(
        sessionmaker=sessionmaker,
        database_url=database_url,
        embeddings=embeddings,
        concurrency=concurrency,
        poll_seconds=settings.worker_poll_seconds,
        max_attempts=settings.worker_max_attempts,
        claim_batch=settings.worker_claim_batch,
        service=EvolutionService.from_settings(settings),
        job_timeout=settings.worker_job_timeout_seconds,
    )
    metrics.worker.stats = evolution_worker.stats
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
    # Webhooks are planned and sent beside the merges (not in --drain runs, which end when idle).
    dispatcher = None if drain else BackgroundDispatcher(WebhookDispatcher(sessionmaker, settings))
    try:
        return await evolution_worker.run(drain=drain)
    finally:
        if dispatcher is not None:
            await dispatcher.shutdown()
        await engine.dispose()


keys_cli = typer.Typer(
    help="Manage API keys (consumer, producer, admin).", no_args_is_help=True, rich_markup_mode=None
)
cli.add_typer(keys_cli, name="keys")


def _with_database(job: Callable[[async_sessionmaker[AsyncSession]], Awaitable[T]]) -> T:
    """Run one job against the configured (or embedded) database, migrated first."""
    return _with_database_url(lambda sessionmaker, _: job(sessionmaker))


def _with_database_url(job: Callable[[async_sessionmaker[AsyncSession], str], Awaitable[T]]) -> T:
    """The same, for a job that also needs the database's URL."""
    settings = Settings()
    _configure_logging(settings)
    database_url, embedded = resolve_database(settings)
    try:
        migrations.upgrade(database_url)

        async def run() -> T:
            engine = create_engine(database_url, settings)
            try:
                return await job(create_sessionmaker(engine), database_url)
            finally:
                await engine.dispose()

        return asyncio.run(run())
    except AppError as error:
        typer.echo(f"error: {error.detail}", err=True)
        raise typer.Exit(1) from None
    finally:
        if embedded is not None:
            embedded.stop()


class KeyRole(StrEnum):
    consumer = "consumer"
    producer = "producer"
    admin = "admin"


@keys_cli.command("create")
def keys_create(
    role: Annotated[KeyRole, typer.Option(help="what the key may do", case_sensitive=False)],
    name: Annotated[str, typer.Option(help="who or what the key is for")],
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="bind the key to the consumer model it runs (its outcome reports count for that model only)",
        ),
    ] = None,
    owner: Annotated[
        str | None,
        typer.Option(
            help="who holds the key: keys of one owner are not independent runs for founding a Gene"
        ),
    ] = None,
) -> None:
    """Create a key and print it (the only time it is shown)."""

    async def create(sessionmaker: async_sessionmaker[AsyncSession]) -> str:
        async with sessionmaker.begin() as session:
            created = await key_service.create(
                session,
                name=name,
                role=Role[role.value],
                created_by=None,
                consumer_model=model,
                owner=owner,
            )
            await key_service.audit(session, SYSTEM, "create_key", str(created.key.id))
            bound = f"  bound to {model}" if model else ""
            return f"{created.key.id}  {role.value}  {name}{bound}\n{created.token}"

    typer.echo(_with_database(create))


@keys_cli.command("list")
def keys_list(all_keys: Annotated[bool, typer.Option("--all", help="include revoked keys")] = False) -> None:
    """List keys (never the keys themselves: only their public prefix)."""

    async def listing(sessionmaker: async_sessionmaker[AsyncSession]) -> list[str]:
        async with sessionmaker() as session:
            keys = await key_service.list_keys(session, include_revoked=all_keys)
        return [
            f"{k.id}  {k.role:<8}  gb_{k.prefix}_…  {k.name}"
            + (f"  revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "")
            + (f"  last used {k.last_used_at:%Y-%m-%d %H:%M}" if k.last_used_at else "")
            for k in keys
        ]

    for line in _with_database(listing) or ["no keys"]:
        typer.echo(line)


@keys_cli.command("revoke")
def keys_revoke(key_id: Annotated[uuid.UUID, typer.Argument(help="the key's id (see `keys list`)")]) -> None:
    """Revoke a key: refused from then on (other API processes follow within GENEBANK_KEY_CACHE_SECONDS)."""

    async def revoke(sessionmaker: async_sessionmaker[AsyncSession]) -> str:
        async with sessionmaker.begin() as session:
            key = await key_service.revoke(session, key_id)
            await key_service.audit(session, SYSTEM, "revoke_key", str(key_id))
            return f"revoked {key.id} ({key.role}, {key.name})"

    typer.echo(_with_database(revoke))


nodes_cli = typer.Typer(
    help="Manage GEP nodes: the evolver client's identities on this hub (docs/a2a.md).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
cli.add_typer(nodes_cli, name="nodes")


@nodes_cli.command("create")
def nodes_create(
    key_id: Annotated[uuid.UUID, typer.Option(help="the key that owns the node (its role applies)")],
    name: Annotated[str | None, typer.Option(help="who or what the node is for")] = None,
) -> None:
    """Mint a node id and its 64-hex secret (shown this once) for A2A_NODE_ID / A2A_NODE_SECRET."""

    async def create(sessionmaker: async_sessionmaker[AsyncSession]) -> str:
        async with sessionmaker.begin() as session:
            try:
                node, secret = await node_service.create(session, key_id, name=name)
            except A2AError as error:
                raise ValidationFailed(error.message) from None
            await key_service.audit(
                session, SYSTEM, "create_node", node.node_id, detail={"key_id": str(key_id)}
            )
            return f"A2A_NODE_ID={node.node_id}\nA2A_NODE_SECRET={secret}"

    typer.echo(_with_database(create))


@nodes_cli.command("list")
def nodes_list() -> None:
    """List nodes with their owning key (never their secrets)."""

    async def listing(sessionmaker: async_sessionmaker[AsyncSession]) -> list[str]:
        async with sessionmaker() as session:
            nodes = await node_service.list(session)
        return [
            f"{n['node_id']}  key {n['key_id']}  v{n['secret_version']}"
            + ("  open" if n["open_registration"] else "")
            + (f"  revoked {n['revoked_at']:%Y-%m-%d}" if n["revoked_at"] else "")
            + (f"  {n['name']}" if n["name"] else "")
            for n in nodes
        ]

    for line in _with_database(listing) or ["no nodes"]:
        typer.echo(line)


@nodes_cli.command("revoke")
def nodes_revoke(node_id: Annotated[str, typer.Argument(help="the node's id (see `nodes list`)")]) -> None:
    """Revoke a node: its secret is refused from then on."""

    async def revoke(sessionmaker: async_sessionmaker[AsyncSession]) -> str:
        async with sessionmaker.begin() as session:
            try:
                await node_service.revoke(session, node_id)
            except A2AError as error:
                raise ValidationFailed(error.message) from None
            await key_service.audit(session, SYSTEM, "revoke_node", node_id)
            return f"revoked {node_id}"

    typer.echo(_with_database(revoke))


# search, get, publish, submit, report, mcp: clients of a running registry over HTTP (GENEBANK_URL,
# GENEBANK_KEY). They live in genebank.client, which also ships them without the server.
register_client_verbs(cli)


def main() -> None:
    cli()
