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

from sqlalchemy import select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.embeddings import EmbeddingService
from app.models import GeneVersion, Trajectory
from app.models.gene_version import GeneTaskKey

BATCH = 256


def _sha(description: str) -> str:
    return hashlib.sha256(" ".join(description.split()).lower().encode()).hexdigest()


async def add_task_keys(
    session: AsyncSession,
    embeddings: EmbeddingService,
    gene_id: str,
    source: str,
    descriptions: Sequence[str],
) -> int:
    """Embed and store the descriptions this Gene does not have yet; the number added."""
    wanted = {_sha(d): d.strip() for d in descriptions if d and d.strip()}
    if not wanted:
        return 0
    known = set(
        (
            await session.execute(
                select(GeneTaskKey.text_sha256).where(
                    GeneTaskKey.gene_id == gene_id, GeneTaskKey.text_sha256.in_(list(wanted))
                )
            )
        ).scalars()
    )
    new = [(sha, d) for sha, d in wanted.items() if sha not in known]
    if not new:
        return 0
    vectors = await embeddings.embed_texts([d for _, d in new])
    await session.execute(
        insert(GeneTaskKey)
        .values(
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
        .on_conflict_do_nothing(constraint="uq_gene_task_keys_gene_text")
    )
    return len(new)


async def add_trajectory_keys(
    session: AsyncSession, embeddings: EmbeddingService, gene_id: str, trajectory_ids: Sequence[uuid.UUID]
) -> int:
    if not trajectory_ids:
        return 0
    rows = await session.execute(
        select(Trajectory.task_description).where(Trajectory.id.in_(list(trajectory_ids)))
    )
    return await add_task_keys(session, embeddings, gene_id, "trajectory", list(rows.scalars()))


async def refresh_task_keys(
    sessionmaker: async_sessionmaker[AsyncSession], embeddings: EmbeddingService
) -> int:
    """Re-embed keys made by another model, and add the versions' tasks that have no key (schema 0011)."""
    done = 0
    while True:
        async with sessionmaker.begin() as session:
            stale = (
                await session.execute(
                    select(GeneTaskKey.id, GeneTaskKey.description)
                    .where(GeneTaskKey.embedding_model != embeddings.name)
                    .order_by(GeneTaskKey.id)
                    .limit(BATCH)
                )
            ).all()
            if not stale:
                break
            vectors = await embeddings.embed_texts([d for _, d in stale])
            for (key_id, _), vector in zip(stale, vectors, strict=True):
                await session.execute(
                    text("UPDATE gene_task_keys SET embedding = :v, embedding_model = :m WHERE id = :id"),
                    {"v": str(vector.tolist()), "m": embeddings.name, "id": key_id},
                )
            done += len(stale)
    async with sessionmaker() as session:
        versions = (
            await session.execute(
                select(GeneVersion.gene_id, GeneVersion.task_description).where(
                    GeneVersion.task_description.is_not(None)
                )
            )
        ).all()
    by_gene: dict[str, list[str]] = {}
    for gene_id, description in versions:
        by_gene.setdefault(gene_id, []).append(description or "")
    for gene_id, descriptions in by_gene.items():
        async with sessionmaker.begin() as session:
            done += await add_task_keys(session, embeddings, gene_id, "version", descriptions)
    return done
