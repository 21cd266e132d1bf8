"""Trajectories are private to the key that sent them: reads, deduplication and citing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from tests.conftest import KeyClient
from tests.evolution.builders import trajectory_payload
from tests.evolution.jobs import merge_next
from tests.factories import gene_doc, publish_payload

NewClient = Callable[..., Awaitable[KeyClient]]
SECRET_TASK = "Make the billing service's private suite pass without network access"


async def test_another_producer_cannot_read_dedupe_against_or_cite_a_run(
    new_key_client: NewClient, client: httpx.AsyncClient
) -> None:
    alice = await new_key_client("producer", name="alice")
    bob = await new_key_client("producer", name="bob")
    payload = trajectory_payload(
        task={"id": "billing-1", "family": "code_generation", "description": SECRET_TASK}
    )
    sent = await alice.post("/v1/trajectories", json=payload)
    assert sent.status_code == 202 and sent.json()["created"] is True
    alices = sent.json()["id"]

    assert (await alice.get(f"/v1/trajectories/{alices}")).status_code == 200
    hidden = await bob.get(f"/v1/trajectories/{alices}")
    assert hidden.status_code == 404 and hidden.json()["type"].endswith("/trajectory-not-found")
    assert (await client.get(f"/v1/trajectories/{alices}")).status_code == 200  # an admin reads any

    # The same content from another key is that key's own trajectory: no existence oracle.
    same = await bob.post("/v1/trajectories", json=payload)
    assert same.status_code == 202 and same.json()["created"] is True and same.json()["id"] != alices
    again = await alice.post("/v1/trajectories", json=payload)
    assert again.json() == {"id": alices, "state": "pending", "created": False}

    # Nobody cites someone else's run as the evidence of their own Gene.
    cited = publish_payload(gene=gene_doc(id="gene_bobs_gene"), trajectory_id=alices)
    refused = await bob.post("/v1/genes", json=cited)
    assert refused.status_code == 422 and "not one of yours" in refused.json()["detail"]
    own = publish_payload(gene=gene_doc(id="gene_alices_gene"), trajectory_id=alices)
    assert (await alice.post("/v1/genes", json=own)).status_code == 201


async def test_public_history_names_runs_but_shows_none_of_their_content(
    session: AsyncSession, embeddings: EmbeddingService, new_key_client: NewClient
) -> None:
    owner = await new_key_client("producer", name="owner")
    await owner.post("/v1/genes", json=publish_payload())
    guard = "When the billing API is down in tests, do not call it; mock the HTTP layer with respx"
    payload = trajectory_payload(
        gene_id="gene_pytest_flaky_network",
        guards=[guard],
        task={"id": "billing-2", "family": "code_generation", "description": SECRET_TASK},
    )
    sent = (await owner.post("/v1/trajectories", json=payload)).json()
    result = await merge_next(session, embeddings)
    assert result is not None and result.state == "merged"
    reader = await new_key_client("consumer", name="reader")
    for view in ("events", "lineage"):
        body = (await reader.get(f"/v1/genes/gene_pytest_flaky_network/{view}")).json()
        assert sent["id"] in str(body)
        assert SECRET_TASK not in str(body) and "billing-2" not in str(body)
