"""Every Gene the registry serves is a GEP Gene: the official schema (vendored) accepts it, `model_name`
aside (the reference client adds that field itself), and its bytes hash to its asset_id.

The Genes come from every way a version is written: a publish in GEP form, a publish of an older
client's document (`avoid`, `parent`, `generation_meta`: converted), the worker's guard merge, a
worker revert to an earlier guard list, and a bundle over /a2a.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from jsonschema import Draft7Validator
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.embeddings import EmbeddingService
from app.gep.document import guards_of
from app.gep.validation import gep_schema
from app.models import ApiKey, GeneVersion
from app.trajectories.service import trajectory_service
from tests.a2a.hub import Node, asset_id, variant
from tests.conftest import KeyClient
from tests.evolution.builders import trajectory_in
from tests.evolution.jobs import merge_next
from tests.factories import BASE_GENE, gene_doc, publish_payload

GENE_ID = BASE_GENE["id"]
FROM_A_RUN = "Avoid calling the live API from tests; mock the HTTP layer with respx instead"
NewClient = Callable[..., Awaitable[KeyClient]]


def gep_errors(document: dict[str, Any]) -> list[str]:
    official = Draft7Validator(gep_schema("gene"))
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in official.iter_errors({k: v for k, v in document.items() if k != "model_name"})
    ]


def assert_served_gene(document: dict[str, Any]) -> None:
    assert document["type"] == "Gene"
    assert gep_errors(document) == [], document
    assert asset_id(document) == document["asset_id"]


async def test_every_gene_served_over_v1_and_a2a_is_a_gep_gene(
    app: Any,
    client: httpx.AsyncClient,
    session: AsyncSession,
    embeddings: EmbeddingService,
    new_key_client: NewClient,
) -> None:
    # v1: GEP form with a guard; v2: an older client's document, converted.
    v1 = await client.post("/v1/genes", json=publish_payload(gene=gene_doc()))
    assert v1.status_code == 201, v1.text
    legacy = {
        **gene_doc(anti_patterns=None),
        "avoid": [*guards_of(BASE_GENE), "Never call the live API from the test suite"],
        "parent": v1.json()["asset_id"],
        "generation_meta": {"source": "draft"},
    }
    v2 = await client.post("/v1/genes", json=publish_payload(gene=legacy))
    assert v2.status_code == 201 and v2.json()["converted"] == ["avoid", "parent", "generation_meta"]
    # v3: the worker adds a guard from a failed run (as the admin: the owner's guard is served at once).
    admin = await session.scalar(select(ApiKey).where(ApiKey.name == "test admin"))
    assert admin is not None
    by = Principal(admin.id, admin.name, Role.admin)
    await trajectory_service.submit(
        session, trajectory_in(gene_id=GENE_ID, guards=[FROM_A_RUN]), submitter=by
    )
    merged = await merge_next(session, embeddings)
    assert merged is not None and merged.state == "merged" and merged.new_version == 3
    # v4: the owner rejects that guard: the guards are v2's again, a new version all the same.
    guards = (await client.get(f"/v1/genes/{GENE_ID}/guards")).json()["items"]
    [run_guard] = [g for g in guards if g["text"] == FROM_A_RUN]
    rejected = await client.post(
        f"/v1/genes/{GENE_ID}/guards/{run_guard['id']}/reject", json={"note": "not this Gene's concern"}
    )
    assert rejected.status_code == 200, rejected.text

    versions = (await session.scalars(select(GeneVersion).where(GeneVersion.gene_id == GENE_ID))).all()
    assert sorted(v.version for v in versions) == [1, 2, 3, 4]
    by_number = {v.version: v for v in versions}
    assert guards_of(by_number[4].document) == guards_of(by_number[2].document)
    assert by_number[4].asset_id != by_number[2].asset_id  # one asset_id, one version
    assert [by_number[n].parent_asset_id for n in (2, 3, 4)] == [by_number[n].asset_id for n in (1, 2, 3)]
    served: list[dict[str, Any]] = []

    # /v1: the current version and each version by number; /v1/assets by id.
    current = (await client.get(f"/v1/genes/{GENE_ID}")).json()
    served.append(current["document"])
    for number in (1, 2, 3, 4):
        served.append((await client.get(f"/v1/genes/{GENE_ID}/versions/{number}")).json()["document"])
        served.append((await client.get(f"/v1/assets/{by_number[number].asset_id}")).json())

    # /a2a: a node publishes its own Gene (plain GEP), then fetches everything by id, by search
    # (documents mode) and through its sync listing.
    owner = await new_key_client("producer")
    created = await client.post("/v1/admin/nodes", json={"key_id": owner.key_id, "name": "served"})
    assert created.status_code == 201, created.text
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://genebank.test")
    node = Node(http, created.json()["node_id"], created.json()["node_secret"])
    gene, capsule = variant("served")
    assert (await node.send("publish", node.bundle(gene, capsule))).status_code == 200
    ids = [by_number[n].asset_id for n in (1, 2, 3, 4)] + [gene["asset_id"]]
    fetched = (await node.send("fetch", {"asset_ids": ids})).json()["payload"]["results"]
    assert [r["asset_id"] for r in fetched] == ids
    served += fetched
    served.append((await node.http.get(f"/a2a/assets/{ids[-1]}", headers=node.headers)).json()["payload"])
    found = await node.send("fetch", {"signals": ["pytest", "ConnectionError", "timeout"]})
    documents = [r for r in found.json()["payload"]["results"] if r.get("type") == "Gene"]
    assert documents
    served += documents
    mine = await node.http.get(
        "/a2a/assets/published-by-me", params={"node_id": node.node_id}, headers=node.headers
    )
    assert mine.status_code == 200, mine.text
    served += [a["payload"] for a in mine.json()["assets"] if a["asset_type"] == "Gene"]
    await http.aclose()

    for document in served:
        assert_served_gene(document)
    # The guards are there, as GEP anti_patterns.
    assert FROM_A_RUN in guards_of(by_number[3].document)
    assert {"mode": "avoid", "reason_class": FROM_A_RUN} in by_number[3].document["anti_patterns"]


async def test_an_older_clients_gene_is_refused_over_a2a(
    app: Any, client: httpx.AsyncClient, new_key_client: NewClient
) -> None:
    """Over /a2a the Gene is kept under the id the node signed, so it is not converted: refused."""
    owner = await new_key_client("producer")
    created = await client.post("/v1/admin/nodes", json={"key_id": owner.key_id, "name": "legacy"})
    assert created.status_code == 201, created.text
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://genebank.test")
    node = Node(http, created.json()["node_id"], created.json()["node_secret"])
    gene, capsule = variant("legacy")
    gene = {k: v for k, v in gene.items() if k != "asset_id"}
    gene["avoid"] = ["Do not retry on 401"]
    gene["asset_id"] = asset_id(gene)
    answer = await node.send("publish", node.bundle(gene, {**capsule}))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "invalid_gene"
    assert (await client.get(f"/v1/genes/{gene['id']}")).status_code == 404
    await http.aclose()
