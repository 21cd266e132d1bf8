"""Reading Genes back: current version, numbered versions, as_of, assets, caching and listing.

Through genebank.client, as agents read them; the raw HTTP client only where the wire itself is the
subject (conditional requests, problem documents).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.genes.schemas import GeneVersionRead, ProvenanceRead
from genebank.client import AsyncClient, InvalidCursor, NotFound, ValidationFailed, compute_asset_id
from genebank.client.models import PublishResult
from tests.factories import gene_doc, publish_payload


async def _publish(genebank: AsyncClient, **gene: Any) -> PublishResult:
    payload = publish_payload(gene=gene_doc(**gene))
    published = await genebank.publish(payload["gene"], payload["provenance"])
    assert published.created
    return published


async def test_get_gene_returns_current_version_with_provenance(
    genebank: AsyncClient, client: httpx.AsyncClient
) -> None:
    v1 = await _publish(genebank)
    v2 = await _publish(genebank, parent=v1.asset_id, summary="Second take")
    read = await genebank.get_gene("gene_pytest_flaky_network")
    assert read.version == 2 and read.current is True
    assert read.asset_id == v2.asset_id
    assert read.parent_asset_id == v1.asset_id
    assert read.document["summary"] == "Second take"
    assert read.document["asset_id"] == v2.asset_id == compute_asset_id(read.document)
    assert read.status == "candidate"
    assert read.task_family == "code_generation"
    assert read.provenance.verifier is not None and read.provenance.verifier["passed"] is True
    assert read.provenance.task is not None and read.provenance.task.id == "code-0001"
    assert read.provenance.cost is not None
    assert read.provenance.cost.model_dump() == {"tokens": 48213, "attempts": 3, "seconds": 412.5}

    # The hand-assembled JSON has exactly the documented shape, and the client reads all of it.
    response = await client.get("/v1/genes/gene_pytest_flaky_network")
    assert response.headers["etag"] == f'"{v2.asset_id}"'
    raw = response.json()
    assert set(raw) == set(GeneVersionRead.model_fields)
    assert set(raw["provenance"]) == set(ProvenanceRead.model_fields)
    assert GeneVersionRead.model_validate(raw).model_dump(mode="json") == raw
    assert read.model_dump(mode="json") == raw
    assert read.model_extra == {}

    old = await genebank.get_gene("gene_pytest_flaky_network", version=1)
    assert old.asset_id == v1.asset_id and old.current is False
    with pytest.raises(NotFound):
        await genebank.get_gene("gene_pytest_flaky_network", version=3)


async def test_if_none_match_answers_304(genebank: AsyncClient, client: httpx.AsyncClient) -> None:
    v1 = await _publish(genebank)
    etag = f'"{v1.asset_id}"'
    for path in (
        "/v1/genes/gene_pytest_flaky_network",
        "/v1/genes/gene_pytest_flaky_network/versions/1",
        f"/v1/assets/{v1.asset_id}",
    ):
        cached = await client.get(path, headers={"If-None-Match": f'"sha256:{"1" * 64}", {etag}'})
        assert cached.status_code == 304, path
        assert cached.content == b""
        assert cached.headers["etag"] == etag
        fresh = await client.get(path, headers={"If-None-Match": f'"sha256:{"1" * 64}"'})
        assert fresh.status_code == 200, path
    # After a new version the old ETag no longer matches the Gene's current version.
    await _publish(genebank, parent=v1.asset_id, summary="changed")
    response = await client.get("/v1/genes/gene_pytest_flaky_network", headers={"If-None-Match": etag})
    assert response.status_code == 200


async def test_the_client_revalidates_with_its_etag(genebank_as: Any) -> None:
    statuses: list[int] = []

    async def record(response: httpx.Response) -> None:
        statuses.append(response.status_code)

    genebank: AsyncClient = genebank_as("admin", event_hooks={"response": [record]})
    v1 = await _publish(genebank)
    statuses.clear()
    first = await genebank.get_gene("gene_pytest_flaky_network")
    second = await genebank.get_gene("gene_pytest_flaky_network")
    assert statuses == [200, 304]
    assert second == first and second.asset_id == v1.asset_id
    # A new version is a new ETag: the cached copy is replaced, not served.
    v2 = await _publish(genebank, parent=v1.asset_id, summary="changed")
    statuses.clear()
    third = await genebank.get_gene("gene_pytest_flaky_network")
    assert statuses == [200] and third.asset_id == v2.asset_id
    assert (await genebank.get_gene("gene_pytest_flaky_network", cache=False)).asset_id == v2.asset_id
    assert statuses == [200, 200]


async def test_as_of_answers_with_the_version_current_then(
    genebank: AsyncClient, client: httpx.AsyncClient
) -> None:
    v1 = await _publish(genebank)
    v2 = await _publish(genebank, parent=v1.asset_id, summary="v2")
    versions = [v async for v in genebank.iter_versions("gene_pytest_flaky_network")]
    assert [v.asset_id for v in versions] == [v1.asset_id, v2.asset_id]
    v1_from, v2_from = versions[0].valid_from, versions[1].valid_from
    # Inside one test transaction both versions share now(); shift the window to make them distinct.
    assert v1_from <= v2_from

    async def at(moment: datetime) -> str:
        return (await genebank.get_gene("gene_pytest_flaky_network", as_of=moment)).asset_id

    assert await at(v2_from) == v2.asset_id
    assert await at(datetime.now(UTC) + timedelta(days=1)) == v2.asset_id
    with pytest.raises(NotFound) as before:
        await at(v1_from - timedelta(seconds=1))
    assert "did not exist" in before.value.detail
    with pytest.raises(ValueError, match="timezone"):
        await at(datetime(2026, 1, 1))  # the client refuses what the registry would refuse
    naive = await client.get("/v1/genes/gene_pytest_flaky_network", params={"as_of": "2026-01-01T00:00:00"})
    assert naive.status_code == 422


async def test_list_genes_paginates_and_filters(genebank: AsyncClient) -> None:
    for index in range(5):
        await _publish(genebank, id=f"gene_sample_{index}", category="optimize" if index % 2 else "repair")
    page = await genebank.list_genes(limit=2)
    assert len(page.items) == 2 and page.next_cursor
    genes_cursor = page.next_cursor
    seen = [item.gene_id async for item in genebank.iter_genes(page_size=2)]
    assert sorted(seen) == [f"gene_sample_{i}" for i in range(5)]
    # A cursor that is not one this list issued is the same 422 everywhere.
    for bad in ("not-a-cursor", "eyJ4IjogMX0"):
        with pytest.raises(InvalidCursor) as refused:
            await genebank.list_genes(cursor=bad)
        assert refused.value.status_code == 422 and refused.value.type.endswith("/invalid-cursor")
    # … and a cursor of one list is no cursor of another.
    with pytest.raises(InvalidCursor):
        await genebank.list_versions("gene_sample_0", cursor=genes_cursor)
    assert len(set(seen)) == 5

    optimize = (await genebank.list_genes(category="optimize")).items
    assert {item.gene_id for item in optimize} == {"gene_sample_1", "gene_sample_3"}
    assert all(item.summary == "Stabilise pytest suites that fail on network access" for item in optimize)
    assert (await genebank.list_genes(producer_model="gpt-5")).items == []
    assert len((await genebank.list_genes(status="candidate")).items) == 5
    future = datetime.now(UTC) + timedelta(hours=1)
    assert (await genebank.list_genes(updated_since=future)).items == []


async def test_unknown_gene_and_asset_are_404(genebank: AsyncClient, client: httpx.AsyncClient) -> None:
    for call in (
        genebank.get_gene("gene_nobody_published"),
        genebank.list_versions("gene_nobody_published"),
        genebank.get_prompt("gene_nobody_published"),
        genebank.get_asset(f"sha256:{'a' * 64}"),
    ):
        with pytest.raises(NotFound) as refused:
            await call
        assert refused.value.status_code == 404
        assert refused.value.response.headers["content-type"] == "application/problem+json"
        assert refused.value.problem["status"] == 404
    with pytest.raises(ValidationFailed):
        await genebank.get_asset("md5:abc")


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["migration"] == ready.json()["expected_migration"]
