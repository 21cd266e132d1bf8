"""API keys, rate limits and the audit log."""

from __future__ import annotations

import time
import types
from collections.abc import Callable
from typing import Any

import httpx
import limits.aio.storage.memory
import limits.aio.strategies
import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

import app.auth.middleware
from app.auth.keys import digest
from app.models import ApiKey
from tests.factories import gene_doc, publish_payload


class Clock:
    """The time the rate limiter sees: moved on by the test, not by waiting."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0  # a whole second: the start of every window

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    fake = types.SimpleNamespace(time=clock.time, monotonic=time.monotonic, perf_counter=time.perf_counter)
    for module in (limits.aio.storage.memory, limits.aio.strategies, app.auth.middleware):
        monkeypatch.setattr(module, "time", fake)
    return clock


def with_limits(app: FastAPI, **limits: str) -> None:
    """Small limits for this app; set before its first request (the limiter is built then)."""
    app.state.settings = app.state.settings.model_copy(update=limits)


async def test_keys_are_shown_once_and_stored_hashed(
    client: httpx.AsyncClient, session: AsyncSession, app: FastAPI
) -> None:
    created = await client.post("/v1/admin/keys", json={"name": "ci pipeline", "role": "producer"})
    assert created.status_code == 201
    body = created.json()
    token = body["key"]
    assert token.startswith(f"gb_{body['prefix']}_")
    stored = await session.scalar(select(ApiKey).where(ApiKey.name == "ci pipeline"))
    assert stored is not None and stored.key_hash == digest(token) and token not in stored.key_hash
    listed = (await client.get("/v1/admin/keys")).json()
    assert all("key" not in item and "key_hash" not in item for item in listed)
    assert any(item["id"] == body["id"] and item["last_used_at"] is None for item in listed)

    fresh = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://genebank.test",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert (await fresh.post("/v1/genes", json=publish_payload())).status_code == 201
    used = next(item for item in (await client.get("/v1/admin/keys")).json() if item["id"] == body["id"])
    assert used["last_used_at"] is not None
    revoked = await client.delete(f"/v1/admin/keys/{body['id']}")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    # Revoked here: refused at once, despite the key cache.
    refused = await fresh.get("/v1/genes")
    assert refused.status_code == 401 and "revoked" in refused.json()["detail"]
    assert (await client.delete(f"/v1/admin/keys/{body['id']}")).status_code == 409
    every = (await client.get("/v1/admin/keys", params={"include_revoked": True})).json()
    assert body["id"] in {item["id"] for item in every}
    await fresh.aclose()


async def test_a_key_records_its_owner(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/admin/keys", json={"name": "agent 2", "role": "producer", "owner": "acme research"}
    )
    assert created.status_code == 201 and created.json()["owner"] == "acme research"
    plain = (await client.post("/v1/admin/keys", json={"name": "agent 3", "role": "producer"})).json()
    assert plain["owner"] is None
    listed = {item["id"]: item["owner"] for item in (await client.get("/v1/admin/keys")).json()}
    assert listed[created.json()["id"]] == "acme research"
    bad = await client.post("/v1/admin/keys", json={"name": "x", "role": "producer", "owner": ""})
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    "header",
    ["Bearer", "Bearer gb_short", "Basic dXNlcjpwYXNz", "Bearer gb_AAAAAAAAAAAA_" + "x" * 43, "token abc"],
)
async def test_malformed_or_unknown_keys_are_401(app: FastAPI, header: str) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://genebank.test",
        headers={"Authorization": header},
    ) as client:
        response = await client.get("/v1/genes")
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"


async def test_rate_limit_answers_429_then_recovers(
    app: FastAPI, client_as: Callable[[str | None], httpx.AsyncClient], clock: Clock
) -> None:
    with_limits(app, rate_limit_reads="3/second", rate_limit_writes="2/second")
    consumer, producer = client_as("consumer"), client_as("producer")
    answers = [await consumer.get("/v1/genes") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    # Every answer states the policy; the window's state comes with a refusal.
    assert all(a.headers["ratelimit-policy"] == "3;w=1" for a in answers)
    limited = await consumer.get("/v1/genes")
    assert limited.status_code == 429
    assert limited.headers["content-type"] == "application/problem+json"
    assert limited.headers["retry-after"] == "1"
    assert limited.headers["ratelimit-limit"] == "3"
    assert limited.headers["ratelimit-remaining"] == "0"
    assert limited.headers["ratelimit-reset"] == "1"
    assert limited.headers["ratelimit-policy"] == "3;w=1"
    # Limits are per key and per endpoint class.
    assert (await producer.get("/v1/genes")).status_code == 200
    assert (await consumer.post("/v1/search", json={"query": "pytest"})).status_code == 200
    clock.now += 1.0  # the next window: the sliding counter still weighs the previous one fully
    assert (await consumer.get("/v1/genes")).status_code == 429
    clock.now += 1.0
    assert (await consumer.get("/v1/genes")).status_code == 200


async def test_anonymous_callers_are_limited_per_address(
    app: FastAPI, client_as: Callable[[str | None], httpx.AsyncClient]
) -> None:
    with_limits(app, rate_limit_reads="2/minute")
    app.state.settings = app.state.settings.model_copy(update={"anonymous_read": True})
    anonymous = client_as(None)
    assert [(await anonymous.get("/healthz")).status_code for _ in range(5)] == [200] * 5  # probes are exempt
    statuses = [(await anonymous.get("/v1/genes")).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert (await client_as("consumer").get("/v1/genes")).status_code == 200


async def test_every_write_is_audited_with_its_result(
    client_as: Callable[[str | None], httpx.AsyncClient],
) -> None:
    producer, admin, anonymous = client_as("producer"), client_as("admin"), client_as(None)
    published = await producer.post("/v1/genes", json=publish_payload(gene=gene_doc(id="gene_audited_one")))
    assert published.status_code == 201
    invalid = await producer.post("/v1/genes", json=publish_payload(gene=gene_doc(strategy=[])))
    assert invalid.status_code == 422
    assert (await anonymous.post("/v1/genes", json=publish_payload())).status_code == 401
    await admin.post(
        "/v1/genes/gene_audited_one/status", json={"status": "deprecated", "reason": "audit test"}
    )
    await producer.get("/v1/genes")  # reads are not audited

    entries: list[dict[str, Any]] = (await admin.get("/v1/admin/audit")).json()["items"]
    status_change, unauthenticated, failed, success = entries[:4]
    assert success == {
        **success,
        "actor": "test producer",
        "role": "producer",
        "action": "publish_gene",
        "target": "gene_audited_one",
        "method": "POST",
        "path": "/v1/genes",
        "status": 201,
    }
    assert success["client"] and success["detail"]["asset_id"].startswith("sha256:")
    assert failed["status"] == 422 and failed["detail"]["problem"] == "Request payload is not valid"
    assert unauthenticated["actor"] == "anonymous" and unauthenticated["status"] == 401
    assert status_change["action"] == "set_status" and status_change["target"] == "gene_audited_one"
    assert all(entry["method"] != "GET" for entry in entries)

    only_failed = (await admin.get("/v1/admin/audit", params={"failed": True})).json()["items"]
    assert {e["status"] for e in only_failed} == {401, 422}
    by_action = (await admin.get("/v1/admin/audit", params={"action": "set_status"})).json()["items"]
    assert [e["target"] for e in by_action] == ["gene_audited_one"]
    first = (await admin.get("/v1/admin/audit", params={"limit": 2})).json()
    second = (await admin.get("/v1/admin/audit", params={"limit": 2, "cursor": first["next_cursor"]})).json()
    assert [e["id"] for e in first["items"] + second["items"]] == [e["id"] for e in entries[:4]]
    assert (await admin.get("/v1/admin/audit", params={"since": "2026-01-01T00:00:00"})).status_code == 422
