"""What it costs to hand out only live connections: the read pool's checks and the engine's pre-ping.

A restarted database leaves every pooled connection dead. Read pool (fetch by id, search, key
look-ups), one checkout plus one fetch-by-id each, sequential, in one process:
- `plain`: psycopg_pool as it was, no check (the first requests after a restart fail);
- `socket`: Genebank's ReadPool, which polls the idle connection's socket (no round trip);
- `round trip`: psycopg_pool's own `check=AsyncConnectionPool.check_connection` (an empty query).
Engine (writes, lists, the admin): one checkout running one primary-key SELECT, with no check,
with Genebank's socket check (app.db.create_engine) and with SQLAlchemy's `pool_pre_ping`. And the
two checks alone, on one idle connection. Rounds alternate the variants so drift on a shared machine
hits all alike; the figures are medians over rounds of the mean time per operation, and ratios to
the variant without a check.

    python bench/pool_checks.py [--genes 200] [--ops 3000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from functools import partial

from fetch import publish_corpus
from harness import median, scratch_database
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.db import (
    _closed_by_server,
    configure_read_connection,
    create_engine,
    create_read_pool,
    libpq_conninfo,
    normalize_url,
)
from app.genes.service import gene_service
from app.models import Gene


def _read_pools(url: str, settings: Settings) -> dict[str, AsyncConnectionPool]:
    common = {
        "min_size": settings.db_pool_size,
        "max_size": settings.db_pool_size,
        "kwargs": {"autocommit": True},
        "configure": partial(configure_read_connection, ef_search=settings.search_ef_search),
        "open": False,
    }
    return {
        "plain": AsyncConnectionPool(libpq_conninfo(url), **common),  # type: ignore[arg-type]
        "socket": create_read_pool(url, settings),
        "round trip": AsyncConnectionPool(
            libpq_conninfo(url),
            check=AsyncConnectionPool.check_connection,
            **common,  # type: ignore[arg-type]
        ),
    }


async def _timed(operation: Callable[[], Awaitable[object]], ops: int) -> float:
    start = time.perf_counter()
    for _ in range(ops):
        await operation()
    return (time.perf_counter() - start) / ops * 1e6


async def main(genes: int, ops: int, rounds: int) -> None:
    with scratch_database() as url:
        ids = await publish_corpus(url, genes)
        settings = Settings(database_url=url)
        rng = random.Random(20261202)
        pools = _read_pools(url, settings)
        for pool in pools.values():
            await pool.open(wait=True)
        engines = {
            "plain": create_async_engine(normalize_url(url), pool_size=10),
            "socket": create_engine(url, settings),
            "pre-ping": create_async_engine(normalize_url(url), pool_size=10, pool_pre_ping=True),
        }

        def fetch(pool: AsyncConnectionPool) -> Callable[[], Awaitable[object]]:
            async def one() -> object:
                async with pool.connection() as conn:
                    return await gene_service.read_version(conn, rng.choice(ids))

            return one

        def lookup(engine_name: str) -> Callable[[], Awaitable[object]]:
            async def one() -> object:
                async with engines[engine_name].connect() as conn:
                    return (await conn.execute(select(Gene.id).where(Gene.id == rng.choice(ids)))).first()

            return one

        async with pools["plain"].connection() as idle:

            async def socket_check() -> object:
                return _closed_by_server(idle)

            async def round_trip_check() -> object:
                return await idle.execute("")

            checks = {"socket": socket_check, "round trip": round_trip_check}
            check_times: dict[str, list[float]] = {name: [] for name in checks}
            for _ in range(rounds):
                for name, check in checks.items():
                    check_times[name].append(await _timed(check, ops))

        read_times: dict[str, list[float]] = {name: [] for name in pools}
        engine_times: dict[str, list[float]] = {name: [] for name in engines}
        for pool in pools.values():
            await _timed(fetch(pool), 200)  # warm-up: prepared statements, caches
        for name in engines:
            await _timed(lookup(name), 200)
        for _ in range(rounds):
            for name, pool in pools.items():
                read_times[name].append(await _timed(fetch(pool), ops))
            for name in engines:
                engine_times[name].append(await _timed(lookup(name), ops))
        for pool in pools.values():
            await pool.close()
        for engine in engines.values():
            await engine.dispose()

    print(f"read pool: checkout + fetch by id, {genes} genes, {rounds} rounds x {ops} ops, medians")
    base = median(read_times["plain"])
    for name, times in read_times.items():
        print(f"  {name:<11} {median(times):>8.1f} µs/op   {median(times) / base:>5.3f} x plain")
    print(f"the check alone, on one idle connection, {rounds} rounds x {ops} ops, medians")
    for name, times in check_times.items():
        print(f"  {name:<11} {median(times):>8.1f} µs/op")
    print(f"engine: checkout + primary-key SELECT, {rounds} rounds x {ops} ops, medians")
    base = median(engine_times["plain"])
    for name, times in engine_times.items():
        print(f"  {name:<11} {median(times):>8.1f} µs/op   {median(times) / base:>5.3f} x plain")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--genes", type=int, default=200)
    parser.add_argument("--ops", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.genes, args.ops, args.rounds))
