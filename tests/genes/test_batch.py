"""POST /v1/genes/batch: many publishes in one request, each judged alone, embedded in one call."""

from __future__ import annotations

import json
import time
import types
from collections.abc import Callable
from typing import Any

import httpx
import limits.aio.storage.memory
import limits.aio.strategies
import numpy as np
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import middleware as access_middleware
from app.embeddings import EmbeddingService
from app.genes.indexing import embedding_text
from app.gep.canonical import compute_asset_id
from app.main import create_app
from app.models import AuditEntry, EvolutionEvent, GeneTaskKey, GeneVersion
from genebank.client import AsyncClient as GenebankClient
from tests.evolution.builders import trajectory_payload
from tests.factories import gene_doc, publish_payload

GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def gene(n: int, **overrides: Any) -> dict[str, Any]:
    """A distinct Gene (id, summary and strategy differ) with the factory's provenance."""
    return publish_payload(
        gene=gene_doc(
            id=f"gene_batch_{n:03d}",
            summary=f"Batch Gene {n}: stabilise suite {n} that fails on network access",
            strategy=[f"Mock the HTTP layer of client {n} with respx", "Skip the rest when offline"],
            **overrides,
        )
    )


async def _count(session: AsyncSession, model: type) -> int:
    return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_mixed_items_each_get_their_answer_in_order_and_bad_ones_leave_nothing(
    client_as: Callable[[str | None], httpx.AsyncClient],
    session: AsyncSession,
    embeddings: EmbeddingService,
) -> None:
    producer = client_as("producer")
    invalid = gene(2)
    invalid["gene"]["strategy"] = []
    secret = gene(3, preconditions=[f"the token {GITHUB} is set"])
    items = [gene(1), invalid, secret, gene(4), gene(1), "not an object"]
    versions, events = await _count(session, GeneVersion), await _count(session, EvolutionEvent)
    runs = embeddings.batches

    response = await producer.post("/v1/genes/batch", json=items)

    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["accepted"], body["rejected"]) == (3, 3)
    results = body["results"]
    assert [r["index"] for r in results] == list(range(6))
    assert [r["status"] for r in results] == [201, 422, 422, 201, 200, 422]
    assert results[0] == {
        "index": 0,
        "status": 201,
        "gene_id": "gene_batch_001",
        "version": 1,
        "asset_id": compute_asset_id(items[0]["gene"]),
        "created": True,
        "converted": [],
    }
    assert results[4] == {**results[0], "index": 4, "status": 200, "created": False}
    # The refused items carry the single endpoint's problem documents.
    assert results[1]["type"].endswith("/validation-failed")
    assert results[1]["errors"][0]["loc"] == ["gene", "strategy"]
    assert "looks like a secret" in results[2]["detail"] and GITHUB not in response.text
    assert results[5]["detail"] == "item 5 is not a JSON object"
    assert all(r["instance"] == "/v1/genes/batch" for r in results if r["status"] >= 400)
    # Two new versions, each with its published event; nothing of the refused ones.
    assert await _count(session, GeneVersion) == versions + 2
    assert await _count(session, EvolutionEvent) == events + 2
    assert await session.scalar(select(GeneVersion).where(GeneVersion.gene_id == "gene_batch_003")) is None
    # All the batch's texts (two Gene texts and the shared task description; the refused secret
    # document's too, queued before it was judged) took one model run, not one per item.
    assert embeddings.batches - runs == 1
    # Each stored vector is the one the single publish would store, and so are the task keys.
    stored = await session.scalar(select(GeneVersion).where(GeneVersion.gene_id == "gene_batch_004"))
    assert stored is not None
    [alone] = await embeddings.embed_texts([embedding_text(items[3]["gene"])])
    assert float(np.dot(np.asarray(stored.embedding), alone)) > 0.9999
    keys = (await session.scalars(select(GeneTaskKey).where(GeneTaskKey.gene_id == "gene_batch_004"))).all()
    assert [k.description for k in keys] == [items[3]["provenance"]["task"]["description"]]
    audit = await session.scalar(
        select(AuditEntry).where(AuditEntry.path == "/v1/genes/batch").order_by(AuditEntry.id.desc())
    )
    assert audit is not None and audit.status == 200
    assert audit.detail == {"items": 6, "accepted": 3, "rejected": 3}


async def test_resending_a_batch_creates_nothing_and_answers_the_same_ids(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    items = [gene(n) for n in range(10, 15)]
    first = await client.post("/v1/genes/batch", json=items)
    assert first.json()["accepted"] == 5
    versions = await _count(session, GeneVersion)
    runs = embeddings.batches

    again = await client.post("/v1/genes/batch", json=items)

    assert again.status_code == 200
    assert [r["asset_id"] for r in again.json()["results"]] == [
        r["asset_id"] for r in first.json()["results"]
    ]
    assert {(r["status"], r["created"]) for r in again.json()["results"]} == {(200, False)}
    assert await _count(session, GeneVersion) == versions
    assert embeddings.batches == runs  # known documents are not embedded again


async def test_ndjson_lines_are_items_and_a_bad_line_is_only_its_own_problem(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    lines = [json.dumps(gene(20)), "{not json", "", json.dumps(gene(21)) + "\r"]
    response = await client.post(
        "/v1/genes/batch",
        content="\n".join(lines) + "\n",
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 400, 201]  # the blank line is no item
    assert results[1]["type"].endswith("/invalid-json")
    assert [r.get("gene_id") for r in results] == ["gene_batch_020", None, "gene_batch_021"]


async def test_a_next_version_in_the_same_batch_and_ownership_per_item(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    admin, producer = client_as("admin"), client_as("producer")
    owned = await admin.post("/v1/genes", json=gene(30))
    v1 = gene(31)
    v2 = gene(31, parent=compute_asset_id(v1["gene"]), avoid=["Never call the live API from tests"])
    foreign = gene(30, parent=owned.json()["asset_id"], avoid=["Never call the live API"])

    response = await producer.post("/v1/genes/batch", json=[v1, v2, foreign])

    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 201, 403]
    assert [r.get("version") for r in results] == [1, 2, None]
    assert "belongs to another producer" in results[2]["detail"]
    # v2 was sent with `parent` (the older form): converted, as the single publish says.
    assert [r.get("converted") for r in results] == [[], ["parent"], None]


@pytest.mark.parametrize(
    ("role", "status"), [(None, 401), ("consumer", 403), ("revoked", 401), ("producer", 200)]
)
async def test_the_single_publish_roles_apply(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession, role: str | None, status: int
) -> None:
    versions = await _count(session, GeneVersion)
    response = await client_as(role).post("/v1/genes/batch", json=[gene(40)])
    assert response.status_code == status, response.text
    assert await _count(session, GeneVersion) == versions + (status == 200)


def _app_with(app: FastAPI, **update: Any) -> FastAPI:
    """The test app with other settings (the body limits are fixed when the app is made)."""
    other = create_app(app.state.settings.model_copy(update=update))
    other.state.runtime = app.state.runtime
    other.dependency_overrides = app.dependency_overrides
    return other


async def test_too_many_items_or_bytes_refuse_the_whole_batch(
    app: FastAPI, keys: dict[str, str], session: AsyncSession
) -> None:
    small = _app_with(app, batch_max_items=3, batch_max_bytes=8192, max_body_bytes=2048)
    versions = await _count(session, GeneVersion)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=small),
        base_url="http://genebank.test",
        headers={"Authorization": f"Bearer {keys['producer']}"},
    ) as client:
        too_many = await client.post("/v1/genes/batch", json=[gene(n) for n in range(50, 54)])
        assert too_many.status_code == 413
        assert too_many.headers["content-type"] == "application/problem+json"
        assert too_many.json()["max_items"] == 3
        as_lines = "\n".join(json.dumps(gene(n)) for n in range(50, 54))
        too_many_lines = await client.post(
            "/v1/genes/batch", content=as_lines, headers={"Content-Type": "application/x-ndjson"}
        )
        assert too_many_lines.status_code == 413
        big = [gene(n, preconditions=["x" * 900] * 3) for n in range(50, 53)]
        too_big = await client.post("/v1/genes/batch", json=big)
        assert too_big.status_code == 413 and too_big.json()["max_bytes"] == 8192
        # The batch cap, not the single-body cap, applies to the batch path.
        fits = await client.post("/v1/genes/batch", json=[gene(n) for n in range(50, 53)])
        assert len(fits.request.content) > 2048
        assert fits.status_code == 200 and fits.json()["accepted"] == 3
        not_a_list = await client.post("/v1/genes/batch", json=gene(55))
        assert not_a_list.status_code == 422
        empty = await client.post("/v1/genes/batch", json=[])
        assert empty.status_code == 422
        form = await client.post("/v1/genes/batch", content=b"a=b", headers={"Content-Type": "text/plain"})
        assert form.status_code == 415
    assert await _count(session, GeneVersion) == versions + 3


class Clock:
    """The time the rate limiter sees: moved on by the test, not by waiting."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


async def test_a_batch_counts_one_write_per_item_all_or_nothing(
    app: FastAPI,
    client_as: Callable[[str | None], httpx.AsyncClient],
    session: AsyncSession,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    fake = types.SimpleNamespace(time=clock.time, monotonic=time.monotonic, perf_counter=time.perf_counter)
    for module in (limits.aio.storage.memory, limits.aio.strategies, access_middleware):
        monkeypatch.setattr(module, "time", fake)
    app.state.settings = app.state.settings.model_copy(update={"rate_limit_writes": "6/minute"})
    producer = client_as("producer")
    versions = await _count(session, GeneVersion)

    # More items than the limit allows in a window can never pass: 413 (the request counted once).
    too_large = await producer.post("/v1/genes/batch", json=[gene(n) for n in range(60, 67)])
    assert too_large.status_code == 413 and too_large.json()["max_items"] == 6
    assert (await producer.post("/v1/genes/batch", json=[gene(n) for n in range(60, 63)])).status_code == 200
    # 4 of 6 used: a batch of 3 does not fit, so none of it is stored (the request counted once).
    refused = await producer.post("/v1/genes/batch", json=[gene(n) for n in range(63, 66)])
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.headers["ratelimit-remaining"] == "1"
    assert "3 items in this batch" in refused.json()["detail"]
    assert await _count(session, GeneVersion) == versions + 3
    assert (await producer.post("/v1/genes", json=gene(66))).status_code == 201
    assert (await producer.post("/v1/genes", json=gene(67))).status_code == 429
    clock.now += 120
    assert (await producer.post("/v1/genes/batch", json=[gene(n) for n in range(63, 66)])).status_code == 200
    assert await _count(session, GeneVersion) == versions + 7


async def test_the_python_client_publishes_and_submits_many(genebank: GenebankClient) -> None:
    invalid = gene(81)
    invalid["gene"]["strategy"] = []
    published = await genebank.publish_many([gene(80), invalid])
    assert (published.accepted, published.rejected) == (1, 1)
    assert published.results[0]["gene_id"] == "gene_batch_080"
    assert [p["index"] for p in published.problems] == [1]
    runs = [trajectory_payload(cost={"tokens": n}) for n in range(3)]
    submitted = await genebank.submit_many(runs, idempotency_key="client-many-1")
    again = await genebank.submit_many(runs, idempotency_key="client-many-1")
    assert submitted.accepted == 3 and [r["id"] for r in again.results] == [
        r["id"] for r in submitted.results
    ]
