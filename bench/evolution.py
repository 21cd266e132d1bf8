"""Evolution worker: merge throughput beside raw embedding throughput, and publish→merged lag.

1. Merge throughput. 20 published Genes; each round, `--trajectories` pending trajectories (each
   naming its Gene and carrying `--guards` producer guards, every guard text unique: no embedding
   is ever served from a cache and nearly every merge writes a new version, the slow path) are
   committed at once while 1 or 2 `genebank worker` processes (default 4 job slots each) wait on
   LISTEN. Throughput = trajectories / (last merge − commit), from database timestamps.
   Baseline, measured in the same rounds: the embedder encoding, as one bulk request to an
   EmbeddingService configured as the workers' (lanes, threads, token budget: its best batched rate,
   bench/embedding.py), exactly the texts the workers' jobs embed for those trajectories (their
   guards, routing text, failed steps and task: `EvolutionService.texts_to_embed`, read back from
   the database after the round), expressed as trajectories/s. Target (issue 19): merging ≥ 0.8 ×
   raw embedding throughput. The former baseline (the producer guards alone, a subset of that work)
   is printed beside it.
2. Lag. A Genebank API server and one worker process; trajectories are POSTed at a steady
   `--rate` per second for `--lag-seconds`; lag = merged (end of the worker's job) − received (start
   of the POST's transaction), p50 and p95. Target: p95 ≤ 1 s at 20 trajectories/s.

Rounds alternate baseline and workers so drift on a shared machine hits both alike; medians.
Workers and baseline use the same embedder configuration (GENEBANK_EMBEDDING_* settings).

    python bench/evolution.py [--rounds 3] [--trajectories 600] [--guards 2] [--rate 20] [--lag-seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import psycopg
from harness import ROOT, UNLIMITED, api_key, conninfo, free_port, median, scratch_database, server
from sqlalchemy import select

from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService, create_embedding_service
from app.evolution.service import EvolutionService
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.models import Trajectory
from app.trajectories.schemas import TrajectoryIn
from app.trajectories.service import trajectory_service

GENES = 20
_ERRORS = ["ConnectionError", "TimeoutError", "KeyError", "AssertionError", "PermissionError", "ValueError"]
_SUBJECTS = [
    "the billing client",
    "the CSV importer",
    "the auth middleware",
    "the cache layer",
    "the job queue",
]
_MISTAKES = [
    "retrying the request in a tight loop",
    "raising the global timeout",
    "catching every exception in the handler",
    "editing the generated schema by hand",
    "skipping the failing test",
]
_FIXES = [
    "mock the transport and assert on the request",
    "bound the wait and poll for readiness",
    "catch the specific error and re-raise the rest",
    "regenerate the schema from its source",
    "fix the fixture that leaks state",
]


def guard_text(rng: random.Random, index: int, slot: int) -> str:
    """A unique, realistic extracted-style guard (the numbers make each text distinct)."""
    return (
        f"when {rng.choice(_ERRORS)} in {rng.choice(_SUBJECTS)} (case {index}-{slot}), "
        f"avoid {rng.choice(_MISTAKES)}; instead {rng.choice(_FIXES)}"
    )


def trajectory_body(rng: random.Random, index: int, guards: int) -> TrajectoryIn:
    return TrajectoryIn.model_validate(
        {
            "task": {
                "id": f"bench-{index:06d}",
                "family": "code_generation",
                # Close to its Gene's summary: the resemblance floor refuses runs about something else.
                "description": f"Benchmark Gene {index % GENES}, task {index}",
            },
            "producer": {"model": "claude-opus-4-5"},
            "steps": [{"action": "run the suite", "ok": True, "observation": "passed"}],
            "verifier": {"name": "pytest", "passed": True, "score": 1.0},
            "guards": [guard_text(rng, index, slot) for slot in range(guards)],
            "gene_id": f"gene_bench_evolution_{index % GENES:02d}",
        }
    )


async def publish_genes(url: str, embeddings: EmbeddingService) -> None:
    engine = create_engine(url, Settings(database_url=url))
    sessionmaker = create_sessionmaker(engine)
    try:
        for index in range(GENES):
            payload = {
                "gene": {
                    "type": "Gene",
                    "schema_version": "1.13.0",
                    "id": f"gene_bench_evolution_{index:02d}",
                    "category": "repair",
                    "summary": f"Benchmark Gene {index}",
                    "signals_match": ["bench"],
                    "strategy": ["Do the benchmark thing"],
                    "constraints": {"max_files": 5, "forbidden_paths": [".git"]},
                    "validation": ["pytest -q"],
                },
                "provenance": {"kind": "manual", "producer_model": "bench"},
            }
            async with sessionmaker.begin() as session:
                await gene_service.publish(session, PublishRequest.model_validate(payload), embeddings)
    finally:
        await engine.dispose()


async def commit_batch(url: str, bodies: list[TrajectoryIn]) -> None:
    engine = create_engine(url, Settings(database_url=url))
    try:
        async with create_sessionmaker(engine).begin() as session:
            for body in bodies:
                await trajectory_service.submit(session, body)
    finally:
        await engine.dispose()


def db_now(url: str) -> float:
    with psycopg.connect(conninfo(url)) as conn:
        row = conn.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()
        assert row is not None
        return float(row[0])


def wait_merged(url: str, ids_from: int, count: int, timeout: float = 600) -> float:
    """Seconds-since-epoch of the last merge once every trajectory of the batch is processed."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE state = 'pending'), "
                "count(*) FILTER (WHERE state = 'rejected'), extract(epoch FROM max(processed_at)) "
                "FROM trajectories WHERE task_id >= %s",
                (f"bench-{ids_from:06d}",),
            ).fetchone()
            assert row is not None
            pending, rejected, last = row
            if rejected:
                reasons = conn.execute(
                    "SELECT state_reason FROM trajectories WHERE task_id >= %s AND state = 'rejected'",
                    (f"bench-{ids_from:06d}",),
                ).fetchall()
                raise RuntimeError(f"{rejected} trajectories rejected: {reasons[:3]}")
            if pending == 0:
                return float(last)
            time.sleep(0.05)
    raise RuntimeError("workers did not finish in time")


def listening(url: str) -> int:
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'genebank-worker-listen' "
            "AND datname = current_database()"
        ).fetchone()
        assert row is not None
        return int(row[0])


@contextmanager
def workers(url: str, count: int, data_dir: str) -> Iterator[None]:
    env = {
        **os.environ,
        "GENEBANK_DATABASE_URL": url,
        "GENEBANK_MIGRATE_ON_START": "false",
        "GENEBANK_DATA_DIR": data_dir,
        "GENEBANK_LOG_LEVEL": "warning",
    }
    command = [os.path.join(os.path.dirname(sys.executable), "genebank"), "worker"]
    processes = [
        subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(count)
    ]
    try:
        deadline = time.monotonic() + 180
        while listening(url) < count:
            for process in processes:
                if process.poll() is not None:
                    raise RuntimeError(process.stderr.read().decode() if process.stderr else "worker exited")
            if time.monotonic() > deadline:
                raise RuntimeError("workers did not start")
            time.sleep(0.2)
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()


def raw_embedding(embeddings: EmbeddingService, bodies: list[TrajectoryIn]) -> float:
    """Trajectories/s of the embedder on the producer guards alone (the former baseline)."""
    return raw_rate(embeddings, [guard for body in bodies for guard in body.guards or []], len(bodies))


def raw_rate(embeddings: EmbeddingService, texts: list[str], trajectories: int) -> float:
    async def encode() -> float:
        start = time.perf_counter()
        await embeddings.embed_texts(texts)
        return trajectories / (time.perf_counter() - start)

    return asyncio.run(encode())


def worker_texts(url: str, first: int, count: int) -> list[str]:
    """What the workers' jobs embedded for trajectories `first`.. (each job's texts once, as the
    worker sends them), from the rows they were claimed from."""

    async def read() -> list[str]:
        engine = create_engine(url, Settings(database_url=url))
        service = EvolutionService(matcher=None)
        try:
            async with create_sessionmaker(engine)() as session:
                rows = await session.scalars(
                    select(Trajectory)
                    .where(
                        Trajectory.task_id >= f"bench-{first:06d}",
                        Trajectory.task_id < f"bench-{first + count:06d}",
                    )
                    .order_by(Trajectory.task_id)
                )
                return [text for row in rows for text in dict.fromkeys(service.texts_to_embed(row))]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def merge_round(url: str, count: int, first: int, bodies: list[TrajectoryIn], data_dir: str) -> float:
    with workers(url, count, data_dir):
        asyncio.run(commit_batch(url, bodies))
        committed = db_now(url)
        last = wait_merged(url, first, len(bodies))
    return len(bodies) / (last - committed)


async def steady_load(port: int, bodies: list[TrajectoryIn], rate: float, token: str) -> list[str]:
    ids: list[str] = []
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30, headers=headers) as client:
        start = time.perf_counter()

        async def post(at: float, body: TrajectoryIn) -> None:
            await asyncio.sleep(max(0.0, at - (time.perf_counter() - start)))
            response = await client.post(
                "/v1/trajectories",
                content=body.model_dump_json(exclude_none=True),
                headers={"Content-Type": "application/json"},
            )
            response.raise_for_status()
            ids.append(response.json()["id"])

        await asyncio.gather(*(post(i / rate, body) for i, body in enumerate(bodies)))
    return ids


def lags(url: str, ids: list[str]) -> list[float]:
    with psycopg.connect(conninfo(url)) as conn:
        rows = conn.execute(
            "SELECT extract(epoch FROM processed_at - received_at) FROM trajectories "
            "WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchall()
    return [float(row[0]) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--trajectories", type=int, default=600)
    parser.add_argument("--guards", type=int, default=2)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--lag-seconds", type=float, default=20.0)
    args = parser.parse_args()

    rng = random.Random(20261202)
    settings = Settings()
    with scratch_database("genebank_bench_evolution") as url, tempfile.TemporaryDirectory() as data_dir:
        embeddings = create_embedding_service(settings.model_copy(update={"embedding_cache_size": 0}))
        asyncio.run(publish_genes(url, embeddings))
        print(
            f"merge throughput: {args.trajectories} trajectories x {args.guards} unique guards, "
            f"{GENES} Genes, {args.rounds} rounds, {os.cpu_count()} cores, "
            f"backend {settings.embedding_backend}"
        )
        figures: dict[str, list[float]] = {"raw": [], "guards only": [], "1 worker": [], "2 workers": []}
        texts_each: list[float] = []
        next_index = 0
        for _ in range(args.rounds):
            for name, count in (("1 worker", 1), ("2 workers", 2)):
                bodies = [trajectory_body(rng, next_index + i, args.guards) for i in range(args.trajectories)]
                figures["guards only"].append(raw_embedding(embeddings, bodies))
                figures[name].append(merge_round(url, count, next_index, bodies, data_dir))
                texts = worker_texts(url, next_index, len(bodies))
                texts_each.append(len(texts) / len(bodies))
                figures["raw"].append(raw_rate(embeddings, texts, len(bodies)))
                next_index += args.trajectories
        raw, guards_only = median(figures["raw"]), median(figures["guards only"])
        print(f"texts a trajectory's job embeds: {median(texts_each):.1f}")
        print(f"{'':<30} {'traj/s':>8} {'ratio':>6} {'ratio to guards only':>21}")
        print(f"{'raw embedding, worker texts':<30} {raw:>8.1f}")
        print(f"{'raw embedding, guards only':<30} {guards_only:>8.1f}")
        for name in ("1 worker", "2 workers"):
            value = median(figures[name])
            print(
                f"{'merge, ' + name:<30} {value:>8.1f} {value / raw:>6.2f} {value / guards_only:>21.2f}"
                "   (target >= 0.80)"
            )

        port = free_port()
        uvicorn = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log", "--factory"]
        env = {
            "GENEBANK_DATABASE_URL": url,
            "GENEBANK_MIGRATE_ON_START": "false",
            "GENEBANK_RUN_WORKER": "false",
            **UNLIMITED,
        }
        producer = api_key(url, "producer")
        count = int(args.rate * args.lag_seconds)
        bodies = [trajectory_body(rng, next_index + i, args.guards) for i in range(count)]
        with (
            server([*uvicorn, "app.main:create_app", "--port", str(port)], port, env),
            workers(url, 1, data_dir),
        ):
            ids = asyncio.run(steady_load(port, bodies, args.rate, producer))
            wait_merged(url, next_index, count)
        measured = sorted(lags(url, ids))
        p50 = statistics.median(measured)
        p95 = measured[min(len(measured) - 1, int(0.95 * len(measured)))]
        print(
            f"\npublish->merged lag at {args.rate:.0f} trajectories/s for {args.lag_seconds:.0f} s, "
            f"1 worker: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {measured[-1] * 1000:.0f} ms "
            "(target p95 <= 1000 ms)"
        )
        embeddings.close()


if __name__ == "__main__":
    main()
