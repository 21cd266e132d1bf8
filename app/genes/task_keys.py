"""Experience expansion: the task descriptions a Gene met, embedded as extra search keys.

A Gene's text says how its producer described the fix; the tasks of its versions and of the verified
trajectories merged into it say how users met the problem ("pytest hangs in CI" rather than "close the
event loop in an async fixture"). Each distinct description is embedded once (gene_task_keys) and
search (app/search/service.py) scores a candidate by the best cosine between the query and these keys.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.embeddings import EmbeddingService
from app.genes.repository import GeneRepository

BATCH = 256


def task_key_sha(description: str) -> str:
    """The key's identity: the description with its whitespace and case normalised."""
    return hashlib.sha256(" ".join(description.split()).lower().encode()).hexdigest()


async def add_task_keys(
    session: AsyncSession,
    embeddings: EmbeddingService,
    gene_id: str,
    source: str,
    descriptions: Sequence[str],
    *,
    new_gene: bool = False,
) -> int:
    """Embed and store the descriptions this Gene does not have yet; the number added.

    `new_gene`: the Gene was created in this transaction, so it has no keys to look up."""
    wanted = {task_key_sha(d): d.strip() for d in descriptions if d and d.strip()}
    if not wanted:
        return 0
    repo = GeneRepository(session)
    # With every vector in hand (embedded ahead with the job's other texts) there is nothing to save
    # by looking up which keys exist: the insert skips them (one statement instead of two).
    in_hand = all(embeddings.in_hand(d) is not None for d in wanted.values())
    known = set() if new_gene or in_hand else await repo.task_key_hashes(gene_id, list(wanted))
    new = [(sha, d) for sha, d in wanted.items() if sha not in known]
    if not new:
        return 0
    vectors = await embeddings.embed_texts([d for _, d in new])
    return await repo.insert_task_keys(
        [
            {
                "gene_id": gene_id,
                "source": source,
                "text_sha256": sha,
                "description": d,
                "embedding": vector.tolist(),
                "embedding_model": embeddings.name,
            }
            for (sha, d), vector in zip(new, vectors, strict=True)
        ]
    )


async def add_trajectory_keys(
    session: AsyncSession,
    embeddings: EmbeddingService,
    gene_id: str,
    trajectory_ids: Sequence[uuid.UUID],
    tasks: Sequence[str] | None = None,
) -> int:
    """The trajectories' tasks as keys; `tasks`: their descriptions, when the caller has them."""
    if not trajectory_ids:
        return 0
    if tasks is None:
        tasks = await GeneRepository(session).trajectory_tasks(trajectory_ids)
    return await add_task_keys(session, embeddings, gene_id, "trajectory", tasks)


async def refresh_task_keys(
    sessionmaker: async_sessionmaker[AsyncSession], embeddings: EmbeddingService
) -> int:
    """Re-embed keys made by another model, and add the versions' tasks that have no key (schema 0014)."""
    done = 0
    while True:
        async with sessionmaker.begin() as session:
            repo = GeneRepository(session)
            stale = await repo.stale_task_keys(embeddings.name, BATCH)
            if not stale:
                break
            vectors = await embeddings.embed_texts([d for _, d in stale])
            await repo.set_task_key_embeddings(
                [(key_id, vector.tolist()) for (key_id, _), vector in zip(stale, vectors, strict=True)],
                embeddings.name,
            )
            done += len(stale)
    async with sessionmaker() as session:
        by_gene = await GeneRepository(session).version_tasks()
    for gene_id, descriptions in by_gene.items():
        async with sessionmaker.begin() as session:
            done += await add_task_keys(session, embeddings, gene_id, "version", descriptions)
    return done
