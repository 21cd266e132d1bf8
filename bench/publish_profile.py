"""Where a single publish's CPU goes outside encoding: the whole API path in this process, profiled.

The application (create_app, its lifespan, middleware, auth, rate limits, audit) runs in this process
and takes --genes `POST /v1/genes` requests (corpus Genes under fresh ids, as bench/publish.py sends
them) straight through ASGI, one at a time, each with a producer key; the process's embedding service
is swapped for a zero-cost embedder (a one-hot vector from the text's hash), so that only what is not
encoding is measured. Work handed to threads (asyncio.to_thread) runs inline, so the CPU of this
process and cProfile's listing (--top functions by own time, and by cumulative time) both see it.
The CPU of the scratch PostgreSQL server (its postmaster and all its children) is read from /proc
around the same requests (so run it against the embedded server bench/harness.py starts, not a shared
one).

    python bench/publish_profile.py [--genes 300] [--top 25] [--no-profile] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import json
import os
import pstats
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from harness import UNLIMITED, api_key, conninfo, cpu_seconds, scratch_database

from app.config import Settings
from app.embeddings import EmbeddingService
from app.embeddings.base import EMBEDDING_DIM
from app.genes.schemas import PublishRequest
from app.genes.service import _scrub
from app.main import create_app

DATA = Path(__file__).resolve().parent / "data"


class ZeroCost:
    name = "zero-cost"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            vectors[row, hashlib.sha256(text.encode()).digest()[0] % EMBEDDING_DIM] = 1.0
        return vectors


async def _inline(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def postgres_cpu(url: str) -> float:
    """User + system CPU seconds so far of the PostgreSQL server behind `url`: its postmaster and
    every process it started (backends, WAL writer, checkpointer...)."""
    with psycopg.connect(conninfo(url)) as conn:
        row = conn.execute("SELECT setting FROM pg_settings WHERE name = 'data_directory'").fetchone()
    assert row is not None
    postmaster = int((Path(row[0]) / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            total += cpu_seconds(int(entry.name))
    return total


async def call(app: Any, body: bytes, token: str, path: str = "/v1/genes") -> tuple[int, bytes]:
    """One POST through the ASGI application, as uvicorn hands it over."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"authorization", f"Bearer {token}".encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


async def run(url: str, token: str, bodies: list[bytes], top: int, profiled: bool, out: str | None) -> None:
    for key, value in UNLIMITED.items():
        os.environ[key] = value
    settings = Settings(database_url=url, migrate_on_start=False, run_worker="false")
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        served = runtime.embeddings
        runtime.embeddings = EmbeddingService(ZeroCost(), 0, lanes=1, batch_size=8)
        served.close()
        for body in bodies[:20]:  # warm-up: first-use imports, statement caches, pools
            status, answer = await call(app, body, token)
            if status != 201:
                raise RuntimeError(f"publish refused: {status} {answer[:500]!r}")
        measured = bodies[20:]
        profile = cProfile.Profile(time.process_time)  # CPU, not wall: the machine may be busy
        pg, cpu, wall = postgres_cpu(url), time.process_time(), time.perf_counter()
        if profiled:
            profile.enable()
        for body in measured:
            status, answer = await call(app, body, token)
            if status != 201:
                raise RuntimeError(f"publish refused: {status} {answer[:500]!r}")
        if profiled:
            profile.disable()
        pg, cpu, wall = postgres_cpu(url) - pg, time.process_time() - cpu, time.perf_counter() - wall
        runtime.embeddings.close()
    n = len(measured)
    print(
        f"{n} publishes (profiler {'on' if profiled else 'off'}): API process CPU {cpu * 1000 / n:.2f} ms"
        f" a publish, PostgreSQL CPU {pg * 1000 / n:.2f} ms, wall {wall * 1000 / n:.2f} ms"
    )
    if profiled:
        stats = pstats.Stats(profile)
        if out:
            stats.dump_stats(out)
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top * 2)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--genes", type=int, default=300)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--out", help="also write the profile here (pstats format)")
    args = parser.parse_args()
    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    corpus = [
        payload
        for payload in corpus
        if not _scrub(PublishRequest.model_validate(payload), payload["gene"]).document_secrets
    ]
    bodies = []
    for n in range(args.genes + 20):
        payload = corpus[n % len(corpus)]
        gene = {**payload["gene"], "id": f"{payload['gene']['id'][:50]}_p{n}"}
        gene.pop("asset_id", None)
        bodies.append(json.dumps({**payload, "gene": gene}).encode())
    asyncio.to_thread = _inline  # type: ignore[assignment]
    with scratch_database("genebank_bench_publish_profile") as url:
        token = api_key(url, "producer")
        asyncio.run(run(url, token, bodies, args.top, not args.no_profile, args.out))


if __name__ == "__main__":
    main()
