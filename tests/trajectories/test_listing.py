"""GET /v1/trajectories: a producer follows its own runs (by state, Gene, task family and time, with
counts per state and cursor pages); an admin follows any key's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from app.models import Trajectory
from tests.conftest import KeyClient
from tests.evolution.builders import FAILED_VERIFIER, trajectory_payload
from tests.evolution.jobs import merge_next
from tests.factories import BASE_GENE, publish_payload

GENE_ID = BASE_GENE["id"]
GUARD = "Avoid calling the live API from tests; mock the HTTP layer with respx instead"
NewClient = Callable[..., Awaitable[KeyClient]]
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def _send(client: KeyClient, **overrides: Any) -> str:
    response = await client.post("/v1/trajectories", json=trajectory_payload(**overrides))
    assert response.status_code == 202, response.text
    run_id: str = response.json()["id"]
    return run_id


async def _received(session: AsyncSession, run_id: str, hours: int) -> None:
    """Runs sent in one test share a transaction (and its now()): spread them over time by hand."""
    await session.execute(
        update(Trajectory).where(Trajectory.id == run_id).values(received_at=T0 + timedelta(hours=hours))
    )


async def _list(client: httpx.AsyncClient, **params: Any) -> dict[str, Any]:
    response = await client.get("/v1/trajectories", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _ids(page: dict[str, Any]) -> list[str]:
    return [item["id"] for item in page["items"]]


async def test_a_producer_follows_its_own_runs(
    session: AsyncSession,
    embeddings: EmbeddingService,
    new_key_client: NewClient,
    client: httpx.AsyncClient,
) -> None:
    alice = await new_key_client("producer", name="alice")
    bob = await new_key_client("producer", name="bob")
    assert (await alice.post("/v1/genes", json=publish_payload())).status_code == 201

    merged = await _send(alice, gene_id=GENE_ID, guards=[GUARD])
    assert (await merge_next(session, embeddings)).state == "merged"  # type: ignore[union-attr]
    rejected = await _send(
        alice,
        task={
            "id": "code-0099",
            "family": "code_generation",
            "description": "Speed up the HTTP client's retry logic when the API answers 503",
        },
        verifier=FAILED_VERIFIER,
    )
    assert (await merge_next(session, embeddings)).state == "rejected"  # type: ignore[union-attr]
    pending = await _send(
        alice,
        task={"id": "env-7", "family": "agent_environment", "description": "Open the settings page"},
    )
    bobs = await _send(bob, task={"id": "bob-1", "family": "code_generation", "description": "b o b"})
    for run_id, hours in ((merged, 0), (rejected, 1), (pending, 2), (bobs, 3)):
        await _received(session, run_id, hours)

    everything = await _list(alice)
    assert _ids(everything) == [pending, rejected, merged]
    assert everything["counts"] == {"pending": 1, "merged": 1, "rejected": 1}
    assert everything["next_cursor"] is None

    # Each rejected run says why and which Gene was closest: the one to name as gene_id.
    only_rejected = await _list(alice, state="rejected")
    [run] = only_rejected["items"]
    assert run["id"] == rejected and run["state"] == "rejected"
    assert f"the closest is {GENE_ID}" in run["reason"] and "gene_id" in run["reason"]
    assert run["closest_gene_id"] == GENE_ID and 0 < run["closest_similarity"] < 0.65
    assert only_rejected["counts"] == everything["counts"]  # counts ignore the state filter
    [done] = (await _list(alice, state="merged"))["items"]
    assert done["gene_id"] == GENE_ID and done["asset_id"].startswith("sha256:")
    assert _ids(await _list(alice, state="pending")) == [pending]

    # By Gene (merged into it, or compared with it), by task family, by time received.
    by_gene = await _list(alice, gene_id=GENE_ID)
    assert _ids(by_gene) == [rejected, merged]
    assert by_gene["counts"] == {"pending": 0, "merged": 1, "rejected": 1}
    assert _ids(await _list(alice, task_family="agent_environment")) == [pending]
    since = (T0 + timedelta(minutes=30)).isoformat()
    until = (T0 + timedelta(hours=2)).isoformat()
    assert _ids(await _list(alice, since=since)) == [pending, rejected]
    assert _ids(await _list(alice, until=until)) == [rejected, merged]
    assert _ids(await _list(alice, since=since, until=until)) == [rejected]

    # Pages of one, newest first, each cursor taking up where the last page ended.
    seen, cursor = [], None
    while True:
        page = await _list(alice, limit=1, **({"cursor": cursor} if cursor else {}))
        assert page["counts"] == everything["counts"]
        seen += _ids(page)
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [pending, rejected, merged]

    # Private to their key: bob sees his own only and cannot name alice; an admin sees any key's.
    assert _ids(await _list(bob)) == [bobs]
    assert (await _list(bob))["counts"] == {"pending": 1, "merged": 0, "rejected": 0}
    assert _ids(await _list(bob, key_id=bob.key_id)) == [bobs]
    refused = await bob.get("/v1/trajectories", params={"key_id": alice.key_id})
    assert refused.status_code == 403 and refused.headers["content-type"] == "application/problem+json"
    assert _ids(await _list(client, key_id=alice.key_id)) == [pending, rejected, merged]
    assert set(_ids(await _list(client))) >= {pending, rejected, merged, bobs}


async def test_bad_filters_are_422_and_change_nothing(new_key_client: NewClient) -> None:
    producer = await new_key_client("producer")
    for params in (
        {"state": "lost"},
        {"gene_id": "no spaces allowed"},
        {"task_family": "Not A Slug"},
        {"since": "2026-03-01T12:00:00"},  # no UTC offset
        {"since": "2026-03-02T00:00:00Z", "until": "2026-03-01T00:00:00Z"},
        {"limit": 0},
        {"cursor": "not-a-cursor"},
        {"key_id": "not-a-uuid"},
    ):
        response = await producer.get("/v1/trajectories", params=params)
        assert response.status_code == 422, (params, response.text)
        assert response.headers["content-type"] == "application/problem+json"
    wrong_list = await producer.get("/v1/trajectories", params={"cursor": "eyJhZnRlciI6IDF9"})
    assert wrong_list.status_code == 422 and wrong_list.json()["type"].endswith("/invalid-cursor")
