"""POST /v1/trajectories/batch: many runs in one request, each stored (or refused) alone, in order."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Trajectory, TrajectoryKey
from app.trajectories.repository import TrajectoryRepository
from tests.evolution.builders import trajectory_payload

GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def run(n: int, **overrides: Any) -> dict[str, Any]:
    """A distinct run (its task id differs)."""
    payload = trajectory_payload(**overrides)
    payload["task"] = {**payload["task"], "id": f"batch-{n:03d}"}
    return payload


async def _count(session: AsyncSession, model: type = Trajectory) -> int:
    return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_mixed_items_are_stored_or_refused_alone_and_secrets_redacted(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    producer = client_as("producer")
    secret = run(3)
    secret["steps"][0]["observation"] = f"export GITHUB_TOKEN={GITHUB}"
    items = [run(1), run(2, steps=[]), secret, run(4, gene_draft={"summary": "x"}, verifier={"passed": 1})]
    before = await _count(session)

    response = await producer.post("/v1/trajectories/batch", json=items)

    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["accepted"], body["rejected"]) == (2, 2)
    results = body["results"]
    assert [(r["index"], r["status"]) for r in results] == [(0, 202), (1, 422), (2, 202), (3, 422)]
    assert results[0]["state"] == "pending" and results[0]["created"] is True
    assert results[1]["errors"][0]["loc"] == ["steps"]
    assert await _count(session) == before + 2
    stored = await session.get(Trajectory, uuid.UUID(results[2]["id"]))
    assert stored is not None and GITHUB not in json.dumps(stored.steps) and stored.redaction_count >= 1
    # Each run is the submitter's own, readable one by one as after a single submission.
    read = await producer.get(f"/v1/trajectories/{results[0]['id']}")
    assert read.status_code == 200 and read.json()["task"]["id"] == "batch-001"


async def test_resending_a_batch_answers_the_same_ids_and_stores_nothing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    items = [run(n) for n in range(10, 14)]
    first = (await client.post("/v1/trajectories/batch", json=items)).json()["results"]
    count = await _count(session)

    again = (await client.post("/v1/trajectories/batch", json=items)).json()["results"]

    assert [r["id"] for r in again] == [r["id"] for r in first]
    assert {r["created"] for r in again} == {False}
    assert await _count(session) == count


async def test_idempotency_keys_per_item_and_from_the_batch_header(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    own = {**run(20), "idempotency_key": "run-20-attempt-1"}
    first = await client.post(
        "/v1/trajectories/batch", json=[own, run(21)], headers={"Idempotency-Key": "nightly-42"}
    )
    ids = [r["id"] for r in first.json()["results"]]
    stored = {
        k.key.split(":", 1)[1]: str(k.trajectory_id) for k in (await session.scalars(select(TrajectoryKey)))
    }
    assert stored == {"run-20-attempt-1": ids[0], "nightly-42/1": ids[1]}

    # The same keys for other content: those items are refused, the rest of the batch goes on.
    changed = {**run(20, cost={"tokens": 1}), "idempotency_key": "run-20-attempt-1"}
    again = await client.post(
        "/v1/trajectories/batch",
        json=[changed, run(21, cost={"tokens": 2}), run(22)],
        headers={"Idempotency-Key": "nightly-42"},
    )
    results = again.json()["results"]
    assert [r["status"] for r in results] == [422, 422, 202]
    assert results[0]["type"].endswith("/idempotency-key-reused")
    bad_key = await client.post("/v1/trajectories/batch", json=[{**run(23), "idempotency_key": "has space"}])
    assert bad_key.json()["results"][0]["status"] == 422


async def test_ndjson_items(client: httpx.AsyncClient) -> None:
    body = "\n".join(json.dumps(run(n)) for n in range(30, 33)) + "\n"
    response = await client.post(
        "/v1/trajectories/batch", content=body, headers={"Content-Type": "application/x-ndjson"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["accepted"] == 3


async def test_consumers_may_not_submit_batches(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    before = await _count(session)
    assert (await client_as("consumer").post("/v1/trajectories/batch", json=[run(40)])).status_code == 403
    assert (await client_as(None).post("/v1/trajectories/batch", json=[run(40)])).status_code == 401
    assert await _count(session) == before


async def test_runs_of_a_batch_are_received_and_taken_in_the_order_sent(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    # The runs' order is not that of their ids or contents: the worker must keep the batch's.
    items = [run(n) for n in (57, 51, 59, 50, 55, 53, 58, 52)]
    results = (await client.post("/v1/trajectories/batch", json=items)).json()["results"]
    sent = [uuid.UUID(r["id"]) for r in results]
    rows = (
        await session.execute(select(Trajectory.id, Trajectory.received_at).where(Trajectory.id.in_(sent)))
    ).all()
    received = dict(rows)
    assert sorted(sent, key=received.__getitem__) == sent
    assert len(set(received.values())) == len(sent)  # one transaction, yet distinct times
    # The worker's own queue query takes them in that order.
    await session.execute(
        update(Trajectory).where(Trajectory.id.not_in(sent)).values(state="rejected", state_reason="test")
    )
    repo = TrajectoryRepository(session)
    taken = []
    while (claimable := await repo.next_claimable()) is not None:
        taken.append(claimable[0])
        await session.execute(update(Trajectory).where(Trajectory.id == claimable[0]).values(state="merged"))
    assert taken == sent
