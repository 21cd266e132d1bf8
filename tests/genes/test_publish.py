"""Publishing Genes: new lineages, next versions, idempotent republish, provenance rules."""

from __future__ import annotations

import hashlib

import httpx
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.gep.canonical import canonical_json, compute_asset_id
from app.models import Gene, GeneVersion, Trajectory
from tests.factories import gene_doc, publish_payload


async def _count(session: AsyncSession, model: type) -> int:
    return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_publish_new_lineage_returns_201_with_computed_asset_id(client: httpx.AsyncClient) -> None:
    payload = publish_payload()
    response = await client.post("/v1/genes", json=payload)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body == {
        "gene_id": "gene_pytest_flaky_network",
        "version": 1,
        "asset_id": compute_asset_id(payload["gene"]),
        "created": True,
        "converted": [],
    }
    assert response.headers["location"] == "/v1/genes/gene_pytest_flaky_network/versions/1"
    assert response.headers["etag"] == f'"{body["asset_id"]}"'


async def test_stored_canonical_bytes_hash_to_the_asset_id(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    payload = publish_payload(
        gene=gene_doc(
            summary="Ünïcode kept as is: 日本語", constraints={"max_files": 5.0, "forbidden_paths": [".git"]}
        )
    )
    asset_id = (await client.post("/v1/genes", json=payload)).json()["asset_id"]
    stored = await session.scalar(select(GeneVersion).where(GeneVersion.asset_id == asset_id))
    assert stored is not None
    assert "sha256:" + hashlib.sha256(stored.canonical_json.encode()).hexdigest() == asset_id
    assert '"max_files":5}' in stored.canonical_json  # 5.0 is formatted the JavaScript way
    assert "日本語" in stored.canonical_json
    # The database can re-verify every version on its own, too.
    recomputed = await session.scalar(
        select(func.encode(func.sha256(func.convert_to(GeneVersion.canonical_json, "UTF8")), "hex")).where(
            GeneVersion.asset_id == asset_id
        )
    )
    assert "sha256:" + recomputed == asset_id


async def test_identical_republish_returns_200_and_writes_nothing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    payload = publish_payload()
    first = await client.post("/v1/genes", json=payload)
    counts = [await _count(session, m) for m in (Gene, GeneVersion, Trajectory)]
    # Different provenance, same document: still the same asset.
    again = await client.post(
        "/v1/genes", json=publish_payload(producer_model="claude-opus-4-5", cost={"tokens": 1})
    )
    assert again.status_code == 200
    assert again.json() == {**first.json(), "created": False}
    assert [await _count(session, m) for m in (Gene, GeneVersion, Trajectory)] == counts


async def test_next_version_needs_current_parent(client: httpx.AsyncClient) -> None:
    v1 = (await client.post("/v1/genes", json=publish_payload())).json()
    v2_doc = gene_doc(
        parent=v1["asset_id"], avoid=["Do not raise the global timeout", "Do not retry forever"]
    )
    v2 = await client.post("/v1/genes", json=publish_payload(gene=v2_doc))
    assert v2.status_code == 201, v2.text
    assert v2.json()["version"] == 2

    stale = gene_doc(parent=v1["asset_id"], summary="a competing edit based on version 1")
    response = await client.post("/v1/genes", json=publish_payload(gene=stale))
    assert response.status_code == 409
    problem = response.json()
    assert response.headers["content-type"] == "application/problem+json"
    assert problem["current_asset_id"] == v2.json()["asset_id"]
    assert problem["current_version"] == 2

    missing_parent = gene_doc(summary="no parent named")
    assert (await client.post("/v1/genes", json=publish_payload(gene=missing_parent))).status_code == 409


async def test_versions_close_and_open_validity_windows(client: httpx.AsyncClient) -> None:
    v1 = (await client.post("/v1/genes", json=publish_payload())).json()
    await client.post("/v1/genes", json=publish_payload(gene=gene_doc(parent=v1["asset_id"], summary="v2")))
    page = (await client.get("/v1/genes/gene_pytest_flaky_network/versions")).json()
    first, second = page["items"]
    assert first["valid_to"] == second["valid_from"]
    assert second["valid_to"] is None
    assert second["parent_asset_id"] == first["asset_id"]


async def test_client_asset_id_must_match(client: httpx.AsyncClient) -> None:
    doc = gene_doc()
    expected = compute_asset_id(doc)
    ok = await client.post("/v1/genes", json=publish_payload(gene={**doc, "asset_id": expected}))
    assert ok.status_code == 201
    wrong = "sha256:" + "0" * 64
    bad = await client.post(
        "/v1/genes", json=publish_payload(gene={**gene_doc(id="gene_other_one"), "asset_id": wrong})
    )
    assert bad.status_code == 422
    assert bad.json()["expected_asset_id"] == compute_asset_id(gene_doc(id="gene_other_one"))
    assert bad.json()["expected_asset_id"] in bad.json()["detail"]


async def test_failed_verifier_cannot_back_a_strategy(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    verifier = {"name": "pytest", "passed": False, "score": 0.2}
    response = await client.post("/v1/genes", json=publish_payload(verifier=verifier))
    assert response.status_code == 422
    assert "did not pass" in response.json()["detail"]
    assert await _count(session, Gene) == 0


async def test_manual_gene_needs_no_verifier(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/genes", json=publish_payload(kind="manual", verifier=None, task=None, cost=None)
    )
    assert response.status_code == 201, response.text
    read = (await client.get("/v1/genes/gene_pytest_flaky_network")).json()
    publisher = read["provenance"].pop("published_by")
    assert read["provenance"] == {
        "kind": "manual",
        "producer_model": "claude-opus-4-5",
        "verifier": None,
        "task": None,
        "cost": None,
        "trajectory_ids": [],
        "guard_trajectory_ids": [],
    }
    # The admin's client published it: its key owns the Gene and published the version.
    assert publisher["name"] == "test admin" and read["owner"] == publisher


async def test_model_name_must_agree_with_producer(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/genes", json=publish_payload(producer_model="gpt-5"))
    assert response.status_code == 422
    assert "model_name" in response.json()["detail"]


async def test_inline_trajectory_is_stored_as_merged_evidence(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    steps = [
        {
            "action": "pytest -q",
            "ok": False,
            "error": "ConnectionError: api.example.com",
            "correction": "mock HTTP",
        },
        {"action": "add respx mocks", "ok": True, "observation": "42 passed"},
    ]
    payload = publish_payload(trajectory={"steps": steps, "guards": ["Do not call the live API from tests"]})
    body = (await client.post("/v1/genes", json=payload)).json()
    trajectory = await session.scalar(select(Trajectory))
    assert trajectory is not None
    assert trajectory.state == "merged"
    assert trajectory.result_asset_id == body["asset_id"]
    assert trajectory.steps[0]["error"] == "ConnectionError: api.example.com"
    read = (await client.get("/v1/genes/gene_pytest_flaky_network")).json()
    assert read["provenance"]["trajectory_ids"] == [str(trajectory.id)]

    # A later version may cite the same trajectory by id.
    v2 = gene_doc(parent=body["asset_id"], summary="v2 citing the same run")
    response = await client.post("/v1/genes", json=publish_payload(gene=v2, trajectory_id=str(trajectory.id)))
    assert response.status_code == 201, response.text
    unknown = gene_doc(id="gene_unknown_evidence")
    response = await client.post(
        "/v1/genes", json=publish_payload(gene=unknown, trajectory_id="00000000-0000-4000-8000-000000000000")
    )
    assert response.status_code == 422
    assert await session.scalar(select(Gene).where(Gene.id == "gene_unknown_evidence")) is None


async def test_canonical_json_is_what_is_served_by_asset(client: httpx.AsyncClient) -> None:
    extra = {"mode": "drift", "reason_class": "numbers", "ratio": 1e21, "tiny": 1.5e-7}
    doc = gene_doc(anti_patterns=[extra, *gene_doc()["anti_patterns"]])
    asset_id = (await client.post("/v1/genes", json=publish_payload(gene=doc))).json()["asset_id"]
    response = await client.get(f"/v1/assets/{asset_id}")
    assert response.status_code == 200
    assert response.text == canonical_json({**doc, "asset_id": asset_id})
    assert '"ratio":1e+21' in response.text and '"tiny":1.5e-7' in response.text
    assert response.headers["etag"] == f'"{asset_id}"'


async def test_a_legacy_document_is_stored_in_gep_form(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    """`avoid`, `parent` and `generation_meta` are converted before hashing; the answer says so."""
    first = (await client.post("/v1/genes", json=publish_payload())).json()
    legacy = {
        **gene_doc(anti_patterns=None),
        "avoid": ["Do not retry on 401", "Do not pin the loop"],
        "parent": first["asset_id"],
        "generation_meta": {"source": "draft", "task_id": "t1"},
    }
    legacy["asset_id"] = compute_asset_id(legacy)  # an older client hashes what it sends: accepted
    response = await client.post("/v1/genes", json=publish_payload(gene=legacy))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["converted"] == ["avoid", "parent", "generation_meta"]
    stored = {k: v for k, v in legacy.items() if k not in ("avoid", "parent", "generation_meta", "asset_id")}
    stored["anti_patterns"] = [
        {"mode": "avoid", "reason_class": "Do not retry on 401"},
        {"mode": "avoid", "reason_class": "Do not pin the loop"},
    ]
    assert body["asset_id"] == compute_asset_id(stored) != legacy["asset_id"]
    served = await client.get(f"/v1/assets/{body['asset_id']}")
    assert served.text == canonical_json({**stored, "asset_id": body["asset_id"]})
    version = await session.scalar(select(GeneVersion).where(GeneVersion.asset_id == body["asset_id"]))
    assert version is not None
    assert version.parent_asset_id == first["asset_id"]
    assert version.generation_meta == {"source": "draft", "task_id": "t1"}
    prompt = (await client.get("/v1/genes/gene_pytest_flaky_network/prompt")).json()
    assert "Do not retry on 401" in prompt["text"]
    # A wrong asset_id is still refused, and nothing is stored.
    again = {**legacy, "avoid": ["Something else"], "asset_id": legacy["asset_id"]}
    refused = await client.post("/v1/genes", json=publish_payload(gene=again))
    assert refused.status_code == 422
