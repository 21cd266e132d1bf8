"""Nothing a client sends for others to read comes back with its secrets: publish provenance, the
producer agent, JSON keys, outcome notes; and a document that would leak one is refused."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Outcome, Trajectory
from tests.evolution.builders import trajectory_payload
from tests.factories import gene_doc, publish_payload

GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


async def test_publish_provenance_is_redacted_before_anyone_reads_it(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    producer = client_as("producer")
    payload = publish_payload(
        verifier={
            "name": "pytest",
            "passed": True,
            "details": {
                "env": {"GITHUB_TOKEN": GITHUB, f"header {GITHUB}": "x"},
                "log": f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}",
            },
        },
        task={
            "id": "code-0001",
            "family": "code_generation",
            "description": f"Make the suite pass; the CI token is {GITHUB}",
        },
        trajectory={
            "producer_agent": f"agent with PGPASSWORD=hunter2hunter2 and {GITHUB}",
            "steps": [{"action": f"curl -u admin:{AWS_SECRET} https://ci.example/api", "ok": True}],
        },
    )
    response = await producer.post("/v1/genes", json=payload)
    assert response.status_code == 201, response.text
    served = (await client_as("consumer").get("/v1/genes/gene_pytest_flaky_network")).text
    for secret in (GITHUB, AWS_SECRET, "hunter2hunter2"):
        assert secret not in served
    assert "[REDACTED]" in served
    stored = await session.scalar(select(Trajectory))
    assert stored is not None and stored.producer_agent is not None
    assert GITHUB not in stored.producer_agent and "hunter2hunter2" not in stored.producer_agent


async def test_a_document_carrying_a_secret_is_refused(
    client_as: Callable[[str | None], httpx.AsyncClient],
) -> None:
    leaking = gene_doc(strategy=[f"Authenticate with GITHUB_TOKEN={GITHUB} before cloning"])
    refused = await client_as("producer").post("/v1/genes", json=publish_payload(gene=leaking))
    assert refused.status_code == 422
    assert "looks like a secret" in refused.json()["detail"] and GITHUB not in refused.text
    missing = await client_as("consumer").get("/v1/genes/gene_pytest_flaky_network")
    assert missing.status_code == 404


async def test_outcome_notes_are_redacted(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    asset = (await client_as("producer").post("/v1/genes", json=publish_payload())).json()["asset_id"]
    note = f"failed because the key {GITHUB} expired"
    body = {"asset_id": asset, "consumer_model": "m", "task_id": "t", "success": False, "note": note}
    reported = await client_as("consumer").post("/v1/genes/gene_pytest_flaky_network/outcomes", json=body)
    assert reported.status_code == 201
    stored = await session.scalar(select(Outcome.note))
    assert stored is not None and GITHUB not in stored and "[REDACTED]" in stored


async def test_verifier_details_are_bounded_everywhere(client: httpx.AsyncClient) -> None:
    for details, where in (
        ({"log": "x" * 4001}, "details.log"),
        ({"k" * 201: 1}, "key"),
        ({"items": list(range(201))}, "entries"),
        ({"groups": [list(range(190)) for _ in range(11)]}, "values"),
    ):
        payload = trajectory_payload(verifier={"name": "v", "passed": True, "details": details})
        response = await client.post("/v1/trajectories", json=payload)
        assert response.status_code == 422, (where, response.text[:200])
        assert response.headers["content-type"] == "application/problem+json"
