"""What an index on (submitted_by, received_at, id) INCLUDE (state) buys GET /v1/trajectories.

A scratch registry of --runs trajectories (default 200,000) from 40 producer keys, one of which sent
a quarter of them (a busy producer following hundreds of runs a day), with steps of realistic size.
The real repository queries behind the endpoint (TrajectoryRepository.runs: the first page of 50,
the 50th or a small key's last, rejected runs only; state_counts) are timed for the busy key and a
small one, first without the index (the baseline: only the per-key uniqueness index on
(submitted_by, content_hash)), then with it. Medians of --repeat runs each, from a warm cache.

    python bench/trajectory_list.py [--runs 200000] [--repeat 15]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from harness import conninfo, scratch_database

from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.trajectories.repository import TrajectoryRepository
from app.trajectories.schemas import RunFilters

# The index of migration 0009_trajectory_lists: dropped for the baseline, then built again.
INDEX = "ix_trajectories_submitted_by_received"
DEFINITION = "(submitted_by, received_at, id) INCLUDE (state)"
KEYS = 40
PAGE = 50


def _fill(url: str, runs: int) -> tuple[uuid.UUID, uuid.UUID]:
    """The keys and their runs, written in SQL (the API path is not what is measured here)."""
    keys = [uuid.uuid4() for _ in range(KEYS)]
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        for index, key in enumerate(keys):
            conn.execute(
                "INSERT INTO api_keys (id, name, role, prefix, key_hash) "
                "VALUES (%s, %s, 'producer', %s, 'x')",
                (key, f"bench producer {index}", f"gb_bench{index:04d}"),
            )
        # A quarter of the runs from keys[0], the rest spread over the others; a second apart.
        conn.execute(
            """
            INSERT INTO trajectories (id, content_hash, task_id, task_family, task_description,
                producer_model, steps, verifier, verifier_passed, submitted_by, state, state_reason,
                received_at)
            SELECT gen_random_uuid(), md5(i::text), 'task-' || i, 'code_generation',
                'Make the suite pass offline, run ' || i, 'bench-model',
                jsonb_build_array(jsonb_build_object('action', repeat('pytest -q ', 60),
                    'ok', false, 'error', repeat('ConnectionError ', 80))),
                '{"name": "pytest", "passed": true}', true,
                (%s::uuid[])[CASE WHEN i %% 4 = 0 THEN 1 ELSE 2 + i %% (%s - 1) END],
                (ARRAY['merged', 'rejected', 'pending'])[1 + i %% 3],
                'bench', now() - (i || ' seconds')::interval
            FROM generate_series(1, %s) AS i
            """,
            (keys, KEYS, runs),
        )
        conn.execute("VACUUM ANALYZE trajectories")
    return keys[0], keys[1]


async def _median(repeat: int, call: Callable[[], Awaitable[Any]]) -> float:
    await call()  # warm the cache: every figure is of a page served from memory
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


async def _measure(url: str, busy: uuid.UUID, small: uuid.UUID, repeat: int) -> dict[str, float]:
    engine = create_engine(url, Settings(database_url=url))
    figures = {}
    try:
        async with create_sessionmaker(engine)() as session:
            repo = TrajectoryRepository(session)
            for name, key in (("busy", busy), ("small", small)):
                filters = RunFilters(key_id=key)
                first = await repo.runs(filters, before=None, limit=PAGE + 1)
                # Where the 50th page starts (or the last page, for a key with fewer runs).
                deep = (await repo.runs(filters, before=None, limit=PAGE * 49))[-1]
                cursor = (deep.received_at, deep.id)
                figures[f"{name} key, first page"] = await _median(
                    repeat, lambda f=filters: repo.runs(f, before=None, limit=PAGE + 1)
                )
                figures[f"{name} key, 50th page"] = await _median(
                    repeat, lambda f=filters, c=cursor: repo.runs(f, before=c, limit=PAGE + 1)
                )
                figures[f"{name} key, rejected only"] = await _median(
                    repeat,
                    lambda k=key: repo.runs(
                        RunFilters(key_id=k, state="rejected"), before=None, limit=PAGE + 1
                    ),
                )
                figures[f"{name} key, counts per state"] = await _median(
                    repeat, lambda f=filters: repo.state_counts(f)
                )
                assert len(first) == PAGE + 1
                session.expunge_all()
    finally:
        await engine.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with scratch_database("genebank_bench_runs") as url:
        busy, small = _fill(url, args.runs)
        with psycopg.connect(conninfo(url), autocommit=True) as conn:
            present = conn.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", (INDEX,)).fetchone()
            if present:
                conn.execute(f"DROP INDEX {INDEX}")
        baseline = asyncio.run(_measure(url, busy, small, args.repeat))
        with psycopg.connect(conninfo(url), autocommit=True) as conn:
            conn.execute(f"CREATE INDEX {INDEX} ON trajectories {DEFINITION}")
            conn.execute("VACUUM ANALYZE trajectories")
        indexed = asyncio.run(_measure(url, busy, small, args.repeat))
    print(f"{args.runs:,} runs from {KEYS} keys (the busy key sent {args.runs // 4:,}); medians in ms")
    print(f"{'query':<34}{'baseline':>10}{'indexed':>10}{'ratio':>8}")
    for name, before in baseline.items():
        after = indexed[name]
        print(f"{name:<34}{before:>10.2f}{after:>10.2f}{before / after:>7.1f}x")


if __name__ == "__main__":
    main()
