"""Re-embed Gene versions after a change of embedding model or backend (`genebank reembed`)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.embeddings import EmbeddingService
from app.genes.indexing import embedding_text
from app.genes.repository import GeneRepository
from app.genes.task_keys import refresh_task_keys

BATCH = 256


async def reembed(
    sessionmaker: async_sessionmaker[AsyncSession],
    embeddings: EmbeddingService,
    *,
    everything: bool = False,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> int:
    """Give every version an embedding from `embeddings`; one transaction per batch, so it can resume.

    Without `everything`, versions already embedded by this model are skipped, which is also what
    makes an interrupted run pick up where it stopped.
    """
    model = None if everything else embeddings.name
    async with sessionmaker() as session:
        total = await GeneRepository(session).count_versions_to_embed(model)
    done, after = 0, 0
    progress(0, total)
    while True:
        async with sessionmaker.begin() as session:
            repo = GeneRepository(session)
            batch = await repo.versions_to_embed(model, after_id=after, limit=BATCH)
            if not batch:
                # Then the Genes' task keys (experience expansion): stale vectors, and versions without one.
                await refresh_task_keys(sessionmaker, embeddings)
                return done
            vectors = await embeddings.embed_texts([embedding_text(document) for _, document in batch])
            await repo.set_embeddings(
                [
                    (version_id, vector.tolist())
                    for (version_id, _), vector in zip(batch, vectors, strict=True)
                ],
                embeddings.name,
            )
        after = batch[-1][0]
        done += len(batch)
        progress(done, total)
