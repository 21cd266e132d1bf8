"""Reading Genes back: current version, numbered versions, as_of, assets, caching and listing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from app.genes.schemas import GeneVersionRead, ProvenanceRead
from tests.factories import gene_doc, publish_payload


async def _publish(client: httpx.AsyncClient, **gene: Any) -> dict[str, Any]:
    response = await client.post("/v1/genes", json=publish_payload(gene=gene_doc(**gene)))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_get_gene_returns_current_version_with_provenance(client: httpx.AsyncClient) -> None:
    v1 = await _publish(client)
    v2 = await _publish(client, parent=v1["asset_id"], summary="Second take")
    response = await client.get("/v1/genes/gene_pytest_flaky_network")
    assert response.status_code == 200
    read = response.json()
    assert read["version"] == 2 and read["current"] is True
    assert read["asset_id"] == v2["asset_id"]
    assert read["parent_asset_id"] == v1["asset_id"]
    assert read["document"]["summary"] == "Second take"
    assert read["document"]["asset_id"] == v2["asset_id"]
    assert read["status"] == "candidate"
    assert read["task_family"] == "code_generation"
    assert read["provenance"]["verifier"]["passed"] is True
    assert read["provenance"]["task"]["id"] == "code-0001"
    assert read["provenance"]["cost"] == {"tokens": 48213, "attempts": 3, "seconds": 412.5}
    assert response.headers["etag"] == f'"{v2["asset_id"]}"'
    # The hand-assembled JSON has exactly the documented shape.
    assert set(read) == set(GeneVersionRead.model_fields)
    assert set(read["provenance"]) == set(ProvenanceRead.model_fields)
    assert GeneVersionRead.model_validate(read).model_dump(mode="json") == read

    old = (await client.get("/v1/genes/gene_pytest_flaky_network/versions/1")).json()
    assert old["asset_id"] == v1["asset_id"] and old["current"] is False
    assert (await client.get("/v1/genes/gene_pytest_flaky_network/versions/3")).status_code == 404


async def test_if_none_match_answers_304(client: httpx.AsyncClient) -> None:
    v1 = await _publish(client)
    etag = f'"{v1["asset_id"]}"'
    for path in (
        "/v1/genes/gene_pytest_flaky_network",
        "/v1/genes/gene_pytest_flaky_network/versions/1",
        f"/v1/assets/{v1['asset_id']}",
    ):
        cached = await client.get(path, headers={"If-None-Match": f'"sha256:{"1" * 64}", {etag}'})
        assert cached.status_code == 304, path
        assert cached.content == b""
        assert cached.headers["etag"] == etag
        fresh = await client.get(path, headers={"If-None-Match": f'"sha256:{"1" * 64}"'})
        assert fresh.status_code == 200, path
    # After a new version the old ETag no longer matches the Gene's current version.
    await _publish(client, parent=v1["asset_id"], summary="changed")
    response = await client.get("/v1/genes/gene_pytest_flaky_network", headers={"If-None-Match": etag})
    assert response.status_code == 200


async def test_as_of_answers_with_the_version_current_then(client: httpx.AsyncClient) -> None:
    v1 = await _publish(client)
    v2 = await _publish(client, parent=v1["asset_id"], summary="v2")
    versions = (await client.get("/v1/genes/gene_pytest_flaky_network/versions")).json()["items"]
    v1_from = datetime.fromisoformat(versions[0]["valid_from"])
    v2_from = datetime.fromisoformat(versions[1]["valid_from"])
    # Inside one test transaction both versions share now(); shift the window to make them distinct.
    assert v1_from <= v2_from

    async def at(moment: datetime) -> httpx.Response:
        return await client.get("/v1/genes/gene_pytest_flaky_network", params={"as_of": moment.isoformat()})

    assert (await at(v2_from)).json()["asset_id"] == v2["asset_id"]
    assert (await at(datetime.now(UTC) + timedelta(days=1))).json()["asset_id"] == v2["asset_id"]
    before = await at(v1_from - timedelta(seconds=1))
    assert before.status_code == 404
    assert "did not exist" in before.json()["detail"]
    naive = await client.get("/v1/genes/gene_pytest_flaky_network", params={"as_of": "2026-01-01T00:00:00"})
    assert naive.status_code == 422


async def test_list_genes_paginates_and_filters(client: httpx.AsyncClient) -> None:
    for index in range(5):
        await _publish(client, id=f"gene_sample_{index}", category="optimize" if index % 2 else "repair")
    page = (await client.get("/v1/genes", params={"limit": 2})).json()
    assert len(page["items"]) == 2 and page["next_cursor"]
    genes_cursor = page["next_cursor"]
    seen = [item["gene_id"] for item in page["items"]]
    while page["next_cursor"]:
        page = (await client.get("/v1/genes", params={"limit": 2, "cursor": page["next_cursor"]})).json()
        seen += [item["gene_id"] for item in page["items"]]
    assert sorted(seen) == [f"gene_sample_{i}" for i in range(5)]
    # A cursor that is not one this list issued is the same 422 everywhere.
    for bad in ("not-a-cursor", "eyJ4IjogMX0"):
        refused = await client.get("/v1/genes", params={"cursor": bad})
        assert refused.status_code == 422 and refused.json()["type"].endswith("/invalid-cursor")
    # … and a cursor of one list is no cursor of another.
    versions = await client.get("/v1/genes/gene_sample_0/versions", params={"cursor": genes_cursor})
    assert versions.status_code == 422 and versions.json()["type"].endswith("/invalid-cursor")
    assert len(set(seen)) == 5

    optimize = (await client.get("/v1/genes", params={"category": "optimize"})).json()["items"]
    assert {item["gene_id"] for item in optimize} == {"gene_sample_1", "gene_sample_3"}
    assert all(item["summary"] == "Stabilise pytest suites that fail on network access" for item in optimize)
    by_model = (await client.get("/v1/genes", params={"producer_model": "gpt-5"})).json()["items"]
    assert by_model == []
    candidates = (await client.get("/v1/genes", params={"status": "candidate"})).json()["items"]
    assert len(candidates) == 5
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert (await client.get("/v1/genes", params={"updated_since": future})).json()["items"] == []
    assert (await client.get("/v1/genes", params={"cursor": "not-a-cursor"})).status_code == 422


async def test_unknown_gene_and_asset_are_404(client: httpx.AsyncClient) -> None:
    for path in (
        "/v1/genes/gene_nobody_published",
        "/v1/genes/gene_nobody_published/versions",
        "/v1/genes/gene_nobody_published/prompt",
        f"/v1/assets/sha256:{'a' * 64}",
    ):
        response = await client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["status"] == 404
    assert (await client.get("/v1/assets/md5:abc")).status_code == 422


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["migration"] == ready.json()["expected_migration"]
