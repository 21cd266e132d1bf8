"""Where a batch publish's non-encoding CPU goes: the per-item path beside the set-wise one, in one run.

Both publish --genes distinct new corpus Genes (as bench/bulk.py makes them) in batches of 500, each
batch in its own committed transaction, straight through GeneService (no HTTP), with a zero-cost
embedder (a one-hot vector from the text's hash) so that only what is not encoding is measured:

- per-item: every item through `GeneService.publish` in a SAVEPOINT of its own, its texts queued
  in one call first (the batch path before new lineages were written set-wise);
- set-wise: `GeneService.publish_batch` (app/genes/bulk.py).

Work the services hand to threads (asyncio.to_thread) runs inline here, so the CPU of this process
and cProfile's listing (--top functions by own time) both see it. PostgreSQL's CPU is not counted.

    python bench/bulk_profile.py [--genes 1000] [--top 15]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import pstats
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np
from bulk import batches, corpus, genes
from harness import scratch_database
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService
from app.embeddings.base import EMBEDDING_DIM
from app.embeddings.service import PrefetchedEmbeddings
from app.errors import AppError
from app.genes import bulk
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service


class ZeroCost:
    name = "zero-cost"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            vectors[row, hashlib.sha256(text.encode()).digest()[0] % EMBEDDING_DIM] = 1.0
        return vectors


async def per_item(
    session: AsyncSession, requests: list[PublishRequest], embeddings: EmbeddingService
) -> None:
    planned = bulk.plan(requests)
    known, _ = await bulk.classify(session, planned)
    new = {item.asset_id for item in planned} - known
    prefetched = PrefetchedEmbeddings(embeddings, [t for p in planned if p.asset_id in new for t in p.texts])
    for request in requests:
        try:
            async with session.begin_nested():
                await gene_service.publish(session, request, prefetched, actor=SYSTEM, new_assets=new)
        except AppError:
            pass
    prefetched.close()


async def set_wise(
    session: AsyncSession, requests: list[PublishRequest], embeddings: EmbeddingService
) -> None:
    await gene_service.publish_batch(session, requests, embeddings, actor=SYSTEM)


async def _inline(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


async def measure(
    url: str,
    name: str,
    publish: Callable[[AsyncSession, list[PublishRequest], EmbeddingService], Awaitable[None]],
    total: int,
    top: int,
) -> float:
    engine = create_engine(url, Settings(database_url=url))
    sessions = create_sessionmaker(engine)
    embeddings = EmbeddingService(ZeroCost(), 0, lanes=1, batch_size=8)
    parts = [
        [PublishRequest.model_validate(item) for item in part]
        for part in batches(genes(corpus(), total, name), 500)
    ]
    profile = cProfile.Profile()
    cpu, wall = time.process_time(), time.perf_counter()
    profile.enable()
    for part in parts:
        async with sessions.begin() as session:
            await publish(session, part, embeddings)
    profile.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    embeddings.close()
    await engine.dispose()
    print(
        f"{name}: {total} Genes; CPU {cpu * 1000 / total:.2f} ms a Gene,"
        f" wall {wall * 1000 / total:.2f} ms a Gene"
    )
    pstats.Stats(profile).sort_stats("tottime").print_stats(top)
    return cpu * 1000 / total


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--genes", type=int, default=1000)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    asyncio.to_thread = _inline  # type: ignore[assignment]
    with scratch_database("genebank_bench_bulk_profile") as url:
        old = asyncio.run(measure(url, "per-item", per_item, args.genes, args.top))
        new = asyncio.run(measure(url, "set-wise", set_wise, args.genes, args.top))
    print(
        f"non-encoding CPU a Gene (profiler on): per-item {old:.2f} ms,"
        f" set-wise {new:.2f} ms ({old / new:.1f}x less)"
    )


if __name__ == "__main__":
    main()
