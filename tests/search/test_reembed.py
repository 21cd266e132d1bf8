"""`genebank reembed`: versions embedded by another model get fresh vectors; the rest are left alone."""

from __future__ import annotations

import numpy as np
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.embeddings import EmbeddingService
from app.genes.indexing import embedding_text
from app.models import GeneVersion
from app.search.reembed import reembed
from tests.factories import gene_doc, publish_payload


async def test_reembed_replaces_vectors_from_another_model(
    client, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    for index in range(3):
        response = await client.post(
            "/v1/genes", json=publish_payload(gene=gene_doc(id=f"gene_reembed_{index}"))
        )
        assert response.status_code == 201
    stale = np.zeros(384, dtype=np.float32)
    stale[0] = 1.0
    await session.execute(
        update(GeneVersion)
        .where(GeneVersion.gene_id.in_(["gene_reembed_0", "gene_reembed_1"]))
        .values(embedding=stale.tolist(), embedding_model="an-older-model")
    )
    # The job commits per batch; inside the test's transaction those commits become savepoints.
    sessionmaker = async_sessionmaker(
        bind=session.bind, expire_on_commit=False, join_transaction_mode="create_savepoint"
    )
    seen: list[tuple[int, int]] = []
    count = await reembed(sessionmaker, embeddings, progress=lambda done, total: seen.append((done, total)))
    assert count == 2
    assert seen[0] == (0, 2) and seen[-1] == (2, 2)
    rows = (await session.execute(select(GeneVersion).order_by(GeneVersion.gene_id))).scalars().all()
    for row in rows:
        await session.refresh(row)
        assert row.embedding_model == embeddings.name
        expected = (await embeddings.embed_texts([embedding_text(row.document)]))[0]
        assert float(np.dot(np.asarray(row.embedding), expected)) > 0.999
    assert await reembed(sessionmaker, embeddings) == 0
    assert await reembed(sessionmaker, embeddings, everything=True) == 3
