"""Shared benchmark plumbing: a scratch database, servers in subprocesses, and a lean HTTP load generator.

The load generator speaks keep-alive HTTP/1.1 over raw asyncio streams: a full HTTP client library
would spend more CPU per request than the servers under test, and on a 2-core machine that would
flatten every ratio towards 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql
from sqlalchemy import make_url

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import embedded_pg, migrate  # noqa: E402
from app.embeddings.base import Embedder  # noqa: E402


@contextlib.contextmanager
def scratch_database(
    prefix: str = "genebank_bench", server_settings: dict[str, str] | None = None
) -> Iterator[str]:
    """A fresh, migrated database on GENEBANK_DATABASE_URL's server, or on an embedded one.

    `server_settings` are set on the embedded server (restarted to apply them), or on the database.
    """
    server_url = os.environ.get("GENEBANK_DATABASE_URL")
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    embedded = None
    if server_url:
        admin = make_url(server_url).set(drivername="postgresql").render_as_string(hide_password=False)
        url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="genebank-bench-"))
        embedded = embedded_pg.start(tmp / "pgdata", database="postgres")
        admin = embedded.admin_conninfo()
        url = embedded.url(name)
        if server_settings:
            with psycopg.connect(admin, autocommit=True) as conn:
                for key, value in server_settings.items():
                    conn.execute(
                        sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(key), sql.Literal(value))
                    )
            embedded.server.stop()
            embedded.server.ensure_postgres_running()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        if server_settings and embedded is None:
            for key, value in server_settings.items():
                conn.execute(
                    sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                        sql.Identifier(name), sql.Identifier(key), sql.Literal(value)
                    )
                )
    migrate.upgrade(url)
    try:
        yield url
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if embedded is not None:
            embedded.stop()
            shutil.rmtree(tmp, ignore_errors=True)


def api_key(url: str, role: str = "consumer") -> str:
    """A fresh API key in the scratch database; requests send it as every client would."""
    from app.auth.principal import Role
    from app.auth.service import key_service
    from app.config import Settings
    from app.db import create_engine, create_sessionmaker

    async def create() -> str:
        engine = create_engine(url, Settings(database_url=url))
        try:
            async with create_sessionmaker(engine).begin() as session:
                created = await key_service.create(
                    session, name=f"bench {role}", role=Role[role], created_by=None
                )
        finally:
            await engine.dispose()
        return created.token

    return asyncio.run(create())


# Benchmarks measure the service, not the rate limiter's refusals.
UNLIMITED = {f"GENEBANK_RATE_LIMIT_{kind}": "100000000/minute" for kind in ("READS", "SEARCH", "WRITES")}


def bearer(token: str) -> str:
    return f"Authorization: Bearer {token}\r\n"


def conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def server(
    args: Sequence[str],
    port: int,
    env: dict[str, str],
    ready_path: str = "/healthz",
    root: Path = ROOT,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run `args` (a uvicorn command line) until it answers `ready_path`, stop it afterwards.

    `root`: the checkout whose code it runs (another one's, e.g. main's, for a before/after).
    """
    if root != ROOT:
        env = {**env, "PYTHONPATH": f"{root}{os.pathsep}{root / 'clients' / 'python'}"}
    process = subprocess.Popen(
        list(args),
        env={**os.environ, **env},
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(
                    f"server exited: {process.stderr.read().decode() if process.stderr else ''}"
                )
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(
                        f"GET {ready_path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode()
                    )
                    if sock.recv(64).startswith(b"HTTP/1.1 200"):
                        break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            raise RuntimeError("server did not become ready")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its threads so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def api_server(
    url: str, port: int, backend: str, data_dir: Path, root: Path = ROOT, **settings: str
) -> Iterator[subprocess.Popen[bytes]]:
    """One API process (uvicorn, no worker, no migrations, limits off) on `url` at `port`, running
    the code of `root`; `settings` are further GENEBANK_* variables (e.g.
    GENEBANK_EMBEDDING_CACHE_SIZE="0")."""
    env = {
        "GENEBANK_DATABASE_URL": url,
        "GENEBANK_MIGRATE_ON_START": "false",
        "GENEBANK_RUN_WORKER": "false",
        "GENEBANK_EMBEDDING_BACKEND": backend,
        "GENEBANK_DATA_DIR": str(data_dir),
        **UNLIMITED,
        **settings,
    }
    command = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log"]
    args = [*command, "--factory", "app.main:create_app", "--port", str(port)]
    with server(args, port, env, root=root) as process:
        yield process


@dataclass
class LoadResult:
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]
    first_error: bytes = b""

    @property
    def throughput(self) -> float:
        return self.requests / self.seconds

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    body = await reader.readexactly(length) if length else b""
    return status, body


async def _client(
    port: int,
    make_request: Callable[[random.Random], bytes],
    stop_at: float,
    seed: int,
    result: LoadResult,
    warmup_until: float,
) -> None:
    rng = random.Random(seed)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while (now := time.perf_counter()) < stop_at:
            writer.write(make_request(rng))
            status, body = await _read_response(reader)
            elapsed = (time.perf_counter() - now) * 1000
            if now >= warmup_until:
                result.requests += 1
                result.latencies_ms.append(elapsed)
                if status >= 400:
                    result.errors += 1
                    result.first_error = result.first_error or b"%d " % status + body[:500]
    finally:
        writer.close()


def run_load(
    port: int,
    make_request: Callable[[random.Random], bytes],
    *,
    clients: int,
    seconds: float,
    warmup: float = 1.0,
) -> LoadResult:
    """Closed-loop load: `clients` connections, each sending its next request as soon as one answers."""

    async def main() -> LoadResult:
        result = LoadResult(requests=0, errors=0, seconds=seconds, latencies_ms=[])
        start = time.perf_counter()
        stop_at = start + warmup + seconds
        await asyncio.gather(
            *(_client(port, make_request, stop_at, i, result, start + warmup) for i in range(clients))
        )
        return result

    return asyncio.run(main())


def get_request(path: str, headers: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: bench\r\n{headers}\r\n".encode()


def post_json(path: str, body: bytes, headers: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{headers}\r\n"
    ).encode() + body


def encode_latencies(embedder: Embedder, texts: Sequence[str]) -> list[float]:
    """The embedder's time (ms) to encode each text alone, as a server meets a query, after a warm-up."""
    for text in texts[:10]:
        embedder.encode([text])
    latencies = []
    for text in texts:
        start = time.perf_counter()
        embedder.encode([text])
        latencies.append((time.perf_counter() - start) * 1000)
    return latencies


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
