"""POST /v1/genes writes a new lineage's first version as a batch writes one (four statements,
app/genes/bulk.py) instead of through the general path: the rows must be exactly those the general
path writes, and a Gene id taken meanwhile must still get the general path's answer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import numpy as np
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService
from app.genes import bulk
from app.genes.repository import GeneRepository
from app.genes.schemas import PublishRequest
from app.genes.service import Published, gene_service
from app.genes.task_keys import task_key_sha
from tests.factories import gene_doc, publish_payload
from tests.genes.test_batch_rows import items, normalised, rows


def general_path_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No item qualifies for the set-wise write: every publish takes the general path."""
    monkeypatch.setattr(bulk, "founds_lineage", lambda planned: False)


async def test_a_new_lineage_is_written_as_the_general_path_writes_it(
    client_as: Callable[[str | None], httpx.AsyncClient],
    session: AsyncSession,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    producer = client_as("producer")
    founded: list[str] = []
    found_lineages = GeneRepository.found_lineages

    async def spy(self: GeneRepository, genes: dict[str, Any], *args: Any) -> bool:
        founded.extend(genes["ids"])
        return await found_lineages(self, genes, *args)

    monkeypatch.setattr(GeneRepository, "found_lineages", spy)
    fast = [await producer.post("/v1/genes", json=payload) for payload in items("fast")]
    # The new lineages went the set-wise way (Genes 1-7 but the refused 6); the next version of
    # Gene 1 and the re-sent document did not.
    assert founded == [f"gene_rows_fast_{n}" for n in (1, 2, 3, 4, 5, 7)]
    with monkeypatch.context() as patch:
        general_path_only(patch)
        general = [await producer.post("/v1/genes", json=payload) for payload in items("general")]
    assert founded == [f"gene_rows_fast_{n}" for n in (1, 2, 3, 4, 5, 7)]

    # The same answers.
    assert [r.status_code for r in fast] == [r.status_code for r in general]
    assert [r.status_code for r in fast] == [201, 201, 201, 201, 201, 200, 201, 422, 201]
    for a, b in zip(fast, general, strict=True):
        if a.status_code < 400:
            same = ("version", "created", "converted")
            assert {k: a.json()[k] for k in same} == {k: b.json()[k] for k in same}
            assert a.headers["location"].replace("fast", "general") == b.headers["location"]
        else:
            assert a.json()["detail"] == b.json()["detail"]

    # The same rows, every column (ids and asset_ids mapped across), the vectors to float precision.
    one, other = await rows(session, "fast"), await rows(session, "general")
    names = {f"gene_rows_fast_{n}": f"gene_rows_general_{n}" for n in range(1, 8)}
    for a, b in zip(one["gene_versions"], other["gene_versions"], strict=True):
        names[a["asset_id"]] = b["asset_id"]
        if a["parent_asset_id"]:
            names[a["parent_asset_id"]] = b["parent_asset_id"]
    assert len(one["gene_versions"]) == 7 and len(one["gene_task_keys"]) == 5
    assert normalised(one, names) == normalised(other, {v: v for v in names.values()})
    for table in ("gene_versions", "gene_task_keys"):
        for a, b in zip(one[table], other[table], strict=True):
            assert float(np.dot(a["embedding"].to_numpy(), b["embedding"].to_numpy())) > 0.9999


async def test_a_taken_gene_id_gets_the_general_answer(
    client_as: Callable[[str | None], httpx.AsyncClient],
) -> None:
    """A first version (no parent) of a Gene id that exists: nothing is written set-wise, and the
    general path refuses it as a stale parent, as it always did."""
    producer = client_as("producer")
    first = await producer.post("/v1/genes", json=publish_payload(gene_doc(id="gene_rows_taken")))
    assert first.status_code == 201
    again = await producer.post(
        "/v1/genes", json=publish_payload(gene_doc(id="gene_rows_taken", summary="Another first version"))
    )
    assert again.status_code == 409, again.text
    assert again.json()["current_asset_id"] == first.json()["asset_id"]


async def test_racing_publishes_of_one_new_gene_write_it_once(
    migrated_url: str, embeddings: EmbeddingService
) -> None:
    """Two transactions publish the same new Gene. The second waits on the first's uncommitted Gene
    id; once the first commits, its set-wise write finds the id taken, writes nothing, and the general
    path answers it with the version the first wrote (found, not created)."""
    engine = create_engine(migrated_url, Settings(database_url=migrated_url))
    sessions = create_sessionmaker(engine)
    request = PublishRequest.model_validate(publish_payload(gene_doc(id="gene_rows_race_one")))
    try:
        async with sessions() as first, sessions() as second, sessions() as watcher:
            won = await gene_service.publish(first, request, embeddings, actor=SYSTEM)
            racing = asyncio.create_task(gene_service.publish(second, request, embeddings, actor=SYSTEM))
            waiting = text(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            waited = False
            for _ in range(2400):  # up to 2 minutes: the encodes crawl on a loaded machine
                if await watcher.scalar(waiting):
                    waited = True
                    break
                # pg_stat_activity is read once a transaction: each look in a transaction of its own.
                await watcher.rollback()
                await asyncio.sleep(0.05)
            done_early = racing.done()
            # Committed before any assertion: leaving the block with the second still waiting on the
            # first's locks would hang the test (closing the second waits for its statement).
            await first.commit()
            lost = await racing
            await second.commit()
            assert waited, "the second publish never waited on the first's Gene id"
            assert not done_early
            counts = {
                table: await watcher.scalar(text(f"SELECT count(*) FROM {table}"))
                for table in ("genes", "gene_versions", "gene_task_keys", "feed_events", "evolution_events")
            }
    finally:
        await engine.dispose()
    assert isinstance(won, Published) and won.created
    assert isinstance(lost, Published) and not lost.created
    assert lost.version.asset_id == won.version.asset_id
    assert counts == {
        "genes": 1,
        "gene_versions": 1,
        "gene_task_keys": 1,
        "feed_events": 1,
        "evolution_events": 1,
    }


async def test_task_keys_insert_the_new_ones_and_count_them(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    """The general path's task-key INSERT (next versions, the worker): several rows as parameters of
    one statement; a key the Gene has is skipped and not counted."""
    payload = publish_payload(gene_doc(id="gene_rows_keys"))
    assert (await client_as("producer").post("/v1/genes", json=payload)).status_code == 201
    published = payload["provenance"]["task"]["description"]
    vector = [0.0] * 383 + [1.0]
    new_keys = [
        {
            "gene_id": "gene_rows_keys",
            "source": "trajectory",
            "text_sha256": task_key_sha(description),
            "description": description,
            "embedding": vector,
            "embedding_model": "test",
        }
        for description in (published, "DNS stalls the CI job", "The suite hangs offline")
    ]
    assert await GeneRepository(session).insert_task_keys(new_keys) == 2
    assert await GeneRepository(session).insert_task_keys(new_keys[1:]) == 0
    keys = await session.execute(
        text("SELECT source, description FROM gene_task_keys WHERE gene_id = 'gene_rows_keys' ORDER BY id")
    )
    assert [tuple(row) for row in keys] == [
        ("version", published),
        ("trajectory", "DNS stalls the CI job"),
        ("trajectory", "The suite hangs offline"),
    ]
