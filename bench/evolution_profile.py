"""Where one evolution worker's time goes: statements per merge, encoder runs, time per stage.

bench/evolution.py's workload (20 Genes, trajectories naming them, 2 unique producer guards each)
drained by one in-process worker (GENEBANK_WORKER_CONCURRENCY slots, GENEBANK_WORKER_CLAIM_BATCH),
beside the raw embedding, measured in the same run, of exactly the texts the jobs embed (and of the
producer guards alone, the former baseline). Prints the statements the merges sent (counted on the
engine, by kind), the texts and model runs that reached the embedder, and the median and total time
of the worker's stages. Also the CPU time per trajectory of this process (all its threads, the
encoder's included), of the worker's PostgreSQL backends (Linux), and of the encoder alone on the
jobs' texts: unlike throughput, CPU barely moves with the machine's load. `--cprofile` profiles the
event loop's thread by its CPU time (not wall time, which on a loaded machine is mostly waiting) and
prints that CPU by package before the profile itself.

    python bench/evolution_profile.py [--trajectories 200] [--cprofile [--sort tottime]]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import resource
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from evolution import commit_batch, publish_genes, raw_embedding, raw_rate, trajectory_body, worker_texts
from harness import scratch_database
from sqlalchemy import event, text

from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import create_embedding_service
from app.embeddings.base import Vectors
from app.evolution.service import EvolutionService
from app.evolution.worker import EvolutionWorker


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def backend_cpu(pid: int) -> float:
    """CPU seconds a local PostgreSQL backend has used (0 where /proc cannot tell)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(owner: type, name: str, stages: dict[str, list[float]]) -> None:
    original: Callable[..., Awaitable[Any]] = getattr(owner, name)

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            stages.setdefault(f"{owner.__name__}.{name}", []).append(time.perf_counter() - start)

    setattr(owner, name, wrapper)


async def drain(url: str, settings: Settings, count: int) -> None:
    engine = create_engine(url, settings)
    statements: Counter[str] = Counter()

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def count_statement(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements[" ".join(statement.split())[:100]] += 1

    embeddings = create_embedding_service(settings)
    await embeddings.embed_texts(["warm the encoder up before the clock starts"])
    encoded = {"texts": 0, "runs": 0}
    encode = embeddings.embedder.encode

    def counting(texts: Sequence[str]) -> Vectors:
        encoded["texts"] += len(texts)
        encoded["runs"] += 1
        return encode(texts)

    embeddings.embedder.encode = counting  # type: ignore[method-assign]
    stages: dict[str, list[float]] = {}
    timed(EvolutionService, "_prepare", stages)
    timed(EvolutionService, "_merge", stages)
    timed(EvolutionWorker, "_claim", stages)
    timed(EvolutionWorker, "_process", stages)
    worker = EvolutionWorker(
        sessionmaker=create_sessionmaker(engine),
        database_url=url,
        embeddings=embeddings,
        concurrency=settings.worker_concurrency,
        claim_batch=settings.worker_claim_batch,
        service=EvolutionService.from_settings(settings),
    )
    cpu = process_cpu()
    start = time.perf_counter()
    stats = await worker.run(drain=True)
    elapsed = time.perf_counter() - start
    cpu = process_cpu() - cpu
    sent = Counter(statements)
    async with worker.sessionmaker() as session:
        # The backends of the pool that served the worker (this query rides on one of them).
        pids = (
            await session.execute(text("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"))
        ).scalars()
        database_cpu = sum(backend_cpu(pid) for pid in pids)
    embeddings.close()
    await engine.dispose()
    total = sum(sent.values())
    print(
        f"merged {stats.merged}, rejected {stats.rejected} in {elapsed:.1f} s: {count / elapsed:.1f} traj/s"
    )
    print(
        f"statements {total} ({total / count:.1f} a trajectory); embedder: {encoded['texts']} texts "
        f"({encoded['texts'] / count:.1f} a trajectory) in {encoded['runs']} model runs "
        f"({encoded['runs'] / count:.2f} a trajectory)"
    )
    print(
        f"CPU a trajectory: this process {cpu / count * 1000:.1f} ms (encoder included), "
        f"PostgreSQL backends {database_cpu / count * 1000:.1f} ms"
    )
    for statement, times in sent.most_common(30):
        print(f"{times / count:6.2f}  {statement}")
    for name, values in stages.items():
        print(
            f"{name:<32} n={len(values):<5} median {statistics.median(values) * 1000:7.1f} ms  "
            f"total {sum(values):6.1f} s"
        )


def by_package(stats: pstats.Stats) -> None:
    """The profiled thread's own time by the package its functions live in."""
    spent: Counter[str] = Counter()
    for (filename, _, _), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        parts = filename.split(os.sep)
        if "site-packages" in parts:
            package = parts[parts.index("site-packages") + 1]
        elif "app" in parts:
            package = "app (Genebank)"
        else:
            package = "builtins" if filename == "~" else "standard library and other"
        spent[package] += own
    total = sum(spent.values())
    print(f"CPU of the event loop's thread by package ({total:.1f} s profiled):")
    for package, seconds in spent.most_common(8):
        print(f"  {package:<28} {seconds:6.2f} s {seconds / total:6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trajectories", type=int, default=200)
    parser.add_argument("--cprofile", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (cumulative, tottime, ...)")
    args = parser.parse_args()
    rng = random.Random(20261202)
    settings = Settings()
    with scratch_database("genebank_bench_evolution_profile") as url:
        settings = settings.model_copy(update={"database_url": url})
        baseline = create_embedding_service(settings.model_copy(update={"embedding_cache_size": 0}))
        asyncio.run(publish_genes(url, baseline))
        raw = raw_embedding(baseline, [trajectory_body(rng, i, 2) for i in range(args.trajectories)])
        baseline.close()
        bodies = [trajectory_body(rng, args.trajectories + i, 2) for i in range(args.trajectories)]
        asyncio.run(commit_batch(url, bodies))
        print(
            f"raw embedding (service), producer guards alone: {raw:.1f} traj/s; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        profile = cProfile.Profile(time.thread_time) if args.cprofile else None
        if profile is not None:
            profile.enable()
        asyncio.run(drain(url, settings, args.trajectories))
        if profile is not None:
            profile.disable()
            stats = pstats.Stats(profile)
            by_package(stats)
            stats.sort_stats(args.sort).print_stats(40)
        baseline = create_embedding_service(settings.model_copy(update={"embedding_cache_size": 0}))
        texts = worker_texts(url, args.trajectories, args.trajectories)
        cpu = process_cpu()
        rate = raw_rate(baseline, texts, args.trajectories)
        cpu = process_cpu() - cpu
        print(
            f"raw embedding (service) of the jobs' own texts ({len(texts) / args.trajectories:.1f} a "
            f"trajectory): {rate:.1f} traj/s, CPU {cpu / args.trajectories * 1000:.1f} ms a trajectory "
            "(subtract it from this process's CPU above: the worker outside encoding)"
        )
        baseline.close()


if __name__ == "__main__":
    main()
