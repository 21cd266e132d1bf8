"""Every Gene has an owner (the command line's own key for what it loads), ownership can be handed
on, and a version's provenance tells where its strategy came from (with the real model)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.embeddings import EmbeddingService
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.models import SYSTEM_KEY_ID, ApiKey, AuditEntry, Gene
from app.trajectories.service import trajectory_service
from tests.conftest import KeyClient
from tests.evolution.builders import FAILED_VERIFIER, trajectory_in
from tests.evolution.jobs import merge_next
from tests.factories import BASE_GENE, gene_doc, publish_payload

GENE_ID = BASE_GENE["id"]
NewClient = Callable[..., Awaitable[KeyClient]]


async def test_what_the_command_line_loads_belongs_to_the_system_key(
    session: AsyncSession, embeddings: EmbeddingService, client_as: Callable[[str | None], httpx.AsyncClient]
) -> None:
    published = await gene_service.publish(
        session, PublishRequest.model_validate(publish_payload()), embeddings
    )
    # As the command line does (and so that a refused request's rollback keeps it).
    await session.commit()
    gene = await session.get(Gene, GENE_ID)
    assert gene is not None and gene.owner_key_id == SYSTEM_KEY_ID
    read = (await client_as("consumer").get(f"/v1/genes/{GENE_ID}")).json()
    assert read["owner"] == {"key_id": str(SYSTEM_KEY_ID), "name": "system"}

    # No producer may rewrite it: it has an owner, and that owner is not them.
    rewrite = publish_payload(gene=gene_doc(parent=published.version.asset_id, strategy=["Delete the tests"]))
    refused = await client_as("producer").post("/v1/genes", json=rewrite)
    assert refused.status_code == 403 and refused.json()["type"].endswith("/not-owner")
    # The system key is nobody's to use or revoke, and it is not listed among the keys.
    admin = client_as("admin")
    deleted = await admin.delete(f"/v1/admin/keys/{SYSTEM_KEY_ID}")
    assert deleted.status_code == 409, deleted.text
    assert str(SYSTEM_KEY_ID) not in {k["id"] for k in (await admin.get("/v1/admin/keys")).json()}


async def test_ownership_is_transferred_by_the_owner_or_an_admin_and_audited(
    session: AsyncSession, new_key_client: NewClient, client: httpx.AsyncClient
) -> None:
    alice = await new_key_client("producer", name="alice")
    bob = await new_key_client("producer", name="bob")
    reader = await new_key_client("consumer", name="reader")
    v1 = (await alice.post("/v1/genes", json=publish_payload())).json()

    assert (await bob.post(f"/v1/genes/{GENE_ID}/owner", json={"key_id": bob.key_id})).status_code == 403
    to_consumer = await alice.post(f"/v1/genes/{GENE_ID}/owner", json={"key_id": reader.key_id})
    assert to_consumer.status_code == 422
    unknown = await alice.post(f"/v1/genes/{GENE_ID}/owner", json={"key_id": str(SYSTEM_KEY_ID)})
    assert unknown.status_code == 422
    moved = await alice.post(f"/v1/genes/{GENE_ID}/owner", json={"key_id": bob.key_id})
    assert moved.status_code == 200, moved.text
    assert moved.json() == {
        "gene_id": GENE_ID,
        "owner": {"key_id": bob.key_id, "name": "bob"},
        "previous_owner": {"key_id": alice.key_id, "name": "alice"},
    }
    next_version = publish_payload(gene=gene_doc(parent=v1["asset_id"], summary="bob's version"))
    assert (await alice.post("/v1/genes", json=next_version)).status_code == 403
    assert (await bob.post("/v1/genes", json=next_version)).status_code == 201
    # An admin may hand it on too.
    back = await client.post(f"/v1/genes/{GENE_ID}/owner", json={"key_id": alice.key_id})
    assert back.status_code == 200 and back.json()["owner"]["name"] == "alice"
    audited = await session.scalars(
        select(AuditEntry.actor).where(AuditEntry.action == "transfer_gene", AuditEntry.status == 200)
    )
    assert list(audited) == ["alice", "test admin"]


async def test_a_merged_failure_keeps_the_strategys_provenance(
    session: AsyncSession, embeddings: EmbeddingService, new_key_client: NewClient
) -> None:
    owner = await new_key_client("producer", name="owner")
    manual = publish_payload(kind="manual", verifier=None, task=None, cost=None)
    assert (await owner.post("/v1/genes", json=manual)).status_code == 201
    key = await session.get(ApiKey, owner.key_id)
    assert key is not None
    submitted = await trajectory_service.submit(
        session,
        trajectory_in(gene_id=GENE_ID, verifier=FAILED_VERIFIER, producer={"model": "small-model-7b"}),
        submitter=Principal(key.id, key.name, Role.producer),
    )
    result = await merge_next(session, embeddings)
    assert result is not None and result.state == "merged" and result.new_version == 2

    gene = (await owner.get(f"/v1/genes/{GENE_ID}")).json()
    provenance = gene["provenance"]
    assert (provenance["kind"], provenance["verifier"], provenance["task"]) == ("manual", None, None)
    assert provenance["producer_model"] == "claude-opus-4-5"
    assert provenance["trajectory_ids"] == [] and provenance["guard_trajectory_ids"] == [str(submitted.id)]
    assert provenance["published_by"]["name"] == "owner"
    lineage = (await owner.get(f"/v1/genes/{GENE_ID}/lineage")).json()["items"]
    assert [(v["provenance_kind"], v["guard_trajectory_ids"]) for v in lineage] == [
        ("manual", []),
        ("manual", [str(submitted.id)]),
    ]
    # Search filters on the strategy's provenance: the failed run did not make it verified.
    query = {"query": "pytest suite fails on network access"}
    verified = (
        await owner.post("/v1/search", json={**query, "provenance_kind": "verified_trajectory"})
    ).json()
    assert GENE_ID not in {r["gene_id"] for r in verified["results"]}
    manual_hits = (await owner.post("/v1/search", json={**query, "provenance_kind": "manual"})).json()
    assert [r["gene_id"] for r in manual_hits["results"]][:1] == [GENE_ID]
