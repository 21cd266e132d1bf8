"""POST /v1/trajectories: validated, redacted, stored as pending exactly once; GET follows it."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Trajectory, TrajectoryKey
from tests.evolution.builders import FAILED_VERIFIER, trajectory_payload


async def _count(session: AsyncSession) -> int:
    return int(await session.scalar(select(func.count()).select_from(Trajectory)) or 0)


async def test_submit_answers_202_with_id_and_location_and_stores_pending(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    response = await client.post(
        "/v1/trajectories", json=trajectory_payload(gene_id="gene_pytest_flaky_network")
    )
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["state"] == "pending" and body["created"] is True
    assert response.headers["location"] == f"/v1/trajectories/{body['id']}"

    read = (await client.get(response.headers["location"])).json()
    assert read["state"] == "pending" and read["reason"] is None and read["gene_id"] is None
    assert read["task"]["id"] == "code-0042" and read["producer"]["model"] == "claude-opus-4-5"
    assert read["verifier_passed"] is True and read["redactions"] == 0
    stored = await session.get(Trajectory, uuid.UUID(body["id"]))
    assert stored is not None and stored.target_gene_id == "gene_pytest_flaky_network"
    assert stored.steps[0]["correction"].startswith("mock the HTTP layer")


async def test_same_content_again_returns_the_same_id_and_stores_nothing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    first = await client.post("/v1/trajectories", json=trajectory_payload())
    again = await client.post("/v1/trajectories", json=trajectory_payload())
    assert again.status_code == 202
    assert again.json() == {**first.json(), "created": False}
    assert again.headers["location"] == first.headers["location"]
    assert await _count(session) == 1
    other = await client.post("/v1/trajectories", json=trajectory_payload(cost={"tokens": 1}))
    assert other.json()["id"] != first.json()["id"]


async def test_idempotency_key_returns_the_same_id_and_refuses_other_content(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    headers = {"Idempotency-Key": "run-7f3a-attempt-1"}
    first = await client.post("/v1/trajectories", json=trajectory_payload(), headers=headers)
    again = await client.post("/v1/trajectories", json=trajectory_payload(), headers=headers)
    assert again.status_code == 202 and again.json()["id"] == first.json()["id"]

    changed = trajectory_payload(cost={"tokens": 99})
    refused = await client.post("/v1/trajectories", json=changed, headers=headers)
    assert refused.status_code == 422
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["type"].endswith("/idempotency-key-reused")
    assert await _count(session) == 1

    # A key first used for content that was already stored is remembered all the same.
    reused = {"Idempotency-Key": "second-key"}
    assert (await client.post("/v1/trajectories", json=trajectory_payload(), headers=reused)).json()[
        "id"
    ] == (first.json()["id"])
    assert (await client.post("/v1/trajectories", json=changed, headers=reused)).status_code == 422
    assert await session.scalar(select(func.count()).select_from(TrajectoryKey)) == 2


async def test_secrets_are_redacted_before_storage_and_hashing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    def leaking(key: str) -> dict[str, Any]:
        payload = trajectory_payload(guards=[f"Never paste a key like {key} into a shell history"])
        payload["steps"][0]["action"] = f"OPENAI_API_KEY={key} pytest -q"
        payload["steps"][0]["observation"] = "connecting to postgresql://ci:hunter2pass@db:5432/test"
        payload["verifier"]["details"] = {"log": f"Authorization: Bearer {key[3:]}"}
        return payload

    first = await client.post("/v1/trajectories", json=leaking("sk-proj-AAAAbbbbCCCCdddd1111222233334444"))
    # The same run with a rotated key is the same content.
    second = await client.post("/v1/trajectories", json=leaking("sk-proj-ZZZZyyyyXXXXwwww9999888877776666"))
    assert second.json()["id"] == first.json()["id"]
    stored = await session.get(Trajectory, uuid.UUID(first.json()["id"]))
    assert stored is not None
    text = str([stored.steps, stored.verifier, stored.guards])
    assert "sk-proj" not in text and "hunter2pass" not in text and "AAAAbbbb" not in text
    assert stored.steps[0]["action"] == "OPENAI_API_KEY=[REDACTED] pytest -q"
    assert stored.redaction_count == 4
    assert (await client.get(f"/v1/trajectories/{stored.id}")).json()["redactions"] == 4


def _without(payload: dict[str, Any], *path: str) -> dict[str, Any]:
    copied = copy.deepcopy(payload)
    target = copied
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return copied


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        (_without(trajectory_payload(), "verifier"), "verifier"),
        (_without(trajectory_payload(), "producer", "model"), "producer.model"),
        (trajectory_payload(steps=[]), "steps"),
        (trajectory_payload(guards=["x" * 201]), "guards.0"),
        (trajectory_payload(guards=["  "]), "guards.0"),
        (trajectory_payload(gene_id="not a gene id"), "gene_id"),
        (trajectory_payload(extra_field=1), "extra_field"),
        (
            trajectory_payload(verifier=FAILED_VERIFIER, gene_draft={"strategy": ["x"]}),
            "needs a passed verifier",
        ),
        (trajectory_payload(gene_draft={"validation": ["pytest -q && rm -rf /"]}), "shell operator"),
        (trajectory_payload(gene_draft={"signals_match": ["/(a+/"]}), "invalid regex"),
        (trajectory_payload(task={"id": "t", "family": "Code Gen", "description": "d"}), "task.family"),
    ],
)
async def test_invalid_payloads_are_422_and_store_nothing(
    client: httpx.AsyncClient, session: AsyncSession, payload: dict[str, Any], fragment: str
) -> None:
    response = await client.post("/v1/trajectories", json=payload)
    assert response.status_code == 422, response.text
    assert fragment in response.json()["detail"]
    assert await _count(session) == 0


async def test_strict_json_and_bad_keys_are_refused(client: httpx.AsyncClient, session: AsyncSession) -> None:
    duplicate = b'{"task": {"id": "a", "id": "b", "description": "d"}}'
    response = await client.post(
        "/v1/trajectories", content=duplicate, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422 and "duplicate key" in response.json()["detail"]
    bad_key = await client.post(
        "/v1/trajectories", json=trajectory_payload(), headers={"Idempotency-Key": "has space"}
    )
    assert bad_key.status_code == 422
    assert await _count(session) == 0


async def test_unknown_trajectory_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get(f"/v1/trajectories/{uuid.uuid4()}")
    assert response.status_code == 404
    assert response.json()["type"].endswith("/trajectory-not-found")
    assert (await client.get("/v1/trajectories/not-a-uuid")).status_code == 422


async def test_runs_received_in_one_transaction_are_taken_in_the_order_they_arrived(
    session: AsyncSession,
) -> None:
    """`received_at` is clock_timestamp(), not the transaction's now(): the worker's oldest-first claim
    follows the order of arrival even inside one transaction (a batch, a test's setup)."""
    from app.trajectories.repository import TrajectoryRepository
    from app.trajectories.service import trajectory_service
    from tests.evolution.builders import trajectory_in

    sent = []
    for index in range(8):
        body = trajectory_in(
            task={"id": f"order-{index}", "family": "code_generation", "description": f"run {index}"}
        )
        sent.append((await trajectory_service.submit(session, body)).id)
    repo = TrajectoryRepository(session)
    taken = []
    while (claimable := await repo.next_claimable()) is not None:
        await repo.lease(claimable.id, 60)
        taken.append(claimable.id)
    assert taken == sent
