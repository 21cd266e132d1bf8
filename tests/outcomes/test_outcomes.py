"""Outcome reports through the API: idempotency, refusals, quality, lifecycle rules, demotion, ranking."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from scipy import stats

from app.config import Settings
from app.outcomes.quality import Evidence, posterior, reputation
from tests.factories import gene_doc, publish_payload

GENE = "gene_pytest_flaky_network"


async def publish(client: httpx.AsyncClient, **gene: Any) -> dict[str, Any]:
    response = await client.post("/v1/genes", json=publish_payload(gene=gene_doc(**gene)))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def report(
    client: httpx.AsyncClient, asset_id: str, task: str, *, gene: str = GENE, status: int = 201, **fields: Any
) -> dict[str, Any]:
    body = {"asset_id": asset_id, "consumer_model": "qwen3-8b", "task_id": task, "success": True, **fields}
    response = await client.post(f"/v1/genes/{gene}/outcomes", json=body)
    assert response.status_code == status, response.text
    result: dict[str, Any] = response.json()
    return result


def use_settings(app: FastAPI, **changes: Any) -> Settings:
    settings: Settings = app.state.settings.model_copy(update=changes)
    app.state.settings = settings
    app.state.runtime.settings = settings
    return settings


async def test_report_updates_quality_and_is_idempotent(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    first = await report(client, asset, "task-1", tokens_used=900, baseline_tokens=4000)
    assert first["gene_id"] == GENE and first["status"] == "candidate"
    quality = first["quality"]
    assert quality["reports"] == 1 and quality["weighted_successes"] == pytest.approx(1.0, abs=1e-6)
    again = await client.post(
        f"/v1/genes/{GENE}/outcomes",
        json={
            "asset_id": asset,
            "consumer_model": "qwen3-8b",
            "task_id": "task-1",
            "success": True,
            "tokens_used": 900,
            "baseline_tokens": 4000,
        },
    )
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    assert again.json()["quality"]["reports"] == 1
    conflicting = await report(
        client, asset, "task-1", status=409, success=False, tokens_used=900, baseline_tokens=4000
    )
    assert conflicting["outcome_id"] == first["id"]
    retry = await report(client, asset, "task-1", attempt_id="2", success=False)
    assert retry["quality"]["reports"] == 2
    stats_body = (await client.get(f"/v1/genes/{GENE}/stats")).json()
    assert stats_body["usage"] == {
        "reports": 2,
        "consumer_models": 1,
        "tasks": 1,
        "reports_with_baseline": 1,
        "tokens_saved": 3100,
    }


async def test_reports_against_unknown_or_revoked_assets_are_refused(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    other = (await publish(client, id="gene_another_one"))["asset_id"]
    await report(client, "sha256:" + "0" * 64, "t", status=404)
    problem = await report(client, other, "t", status=422)
    assert "gene_another_one" in problem["detail"]
    await report(client, asset, "t", gene="gene_nobody_published", status=404)
    await report(client, asset, "t", status=422, score=1.5)
    revoked = await client.post(
        f"/v1/genes/{GENE}/status", json={"status": "revoked", "reason": "leaked a secret"}
    )
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    gone = await report(client, asset, "t2", status=410)
    assert "revoked" in gone["detail"]
    assert (await client.get(f"/v1/genes/{GENE}")).status_code == 410
    assert (await client.get(f"/v1/assets/{asset}")).status_code == 410
    found = (await client.post("/v1/search", json={"query": "pytest fails on network access"})).json()
    assert GENE not in {r["gene_id"] for r in found["results"]}
    # Revoked is final.
    back = await client.post(
        f"/v1/genes/{GENE}/status", json={"status": "candidate", "reason": "changed my mind"}
    )
    assert back.status_code == 409


async def test_promotion_waits_for_enough_successes_from_two_models(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    for index in range(4):
        body = await report(
            client, asset, f"t{index}", consumer_model="qwen3-8b" if index % 2 else "llama-4-scout"
        )
        assert body["status"] == "candidate"
    promoted = await report(client, asset, "t4", consumer_model="qwen3-8b")
    assert promoted["status"] == "promoted"
    history = (await client.get(f"/v1/genes/{GENE}/stats")).json()["status_history"]
    assert [(h["from_status"], h["to_status"], h["actor"]) for h in history] == [
        ("candidate", "promoted", "lifecycle rules")
    ]
    assert "2 consumer models" in history[0]["reason"]


async def test_no_promotion_from_a_single_consumer_model(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    for index in range(12):
        body = await report(client, asset, f"t{index}", consumer_model="qwen3-8b")
    assert body["status"] == "candidate"
    await report(client, asset, "other", consumer_model="gpt-5-mini", success=False)
    assert (await report(client, asset, "other-2", consumer_model="gpt-5-mini"))["status"] == "promoted"


async def test_promotion_lower_bound_threshold_is_honoured_at_its_edge(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    settings = use_settings(app, promote_min_lower_bound=0.8, promote_min_successes=1)
    asset = (await publish(client))["asset_id"]
    now = datetime.now(UTC)
    producer = Evidence(0.0, 0.0, now)
    gene = Evidence(0.0, 0.0, now)
    expected_step = None
    for step in range(1, 15):
        producer = Evidence(producer.successes + 1, 0.0, now)
        gene = Evidence(gene.successes + 1, 0.0, now)
        lower = posterior(gene, reputation(producer).mean, settings.quality_prior_strength).quantile(0.1)
        if step >= 2 and lower >= 0.8:  # step 2 brings the second consumer model
            expected_step = step
            break
    assert expected_step is not None and expected_step > 2
    for step in range(1, expected_step + 1):
        body = await report(
            client, asset, f"t{step}", consumer_model="qwen3-8b" if step > 1 else "gpt-5-mini"
        )
        assert body["status"] == ("promoted" if step == expected_step else "candidate"), step


async def test_deprecation_needs_enough_reports_and_a_poor_upper_bound(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    for index in range(7):
        assert (await report(client, asset, f"t{index}", success=False))["status"] == "candidate"
    body = await report(client, asset, "t7", success=False)
    assert body["status"] == "deprecated"
    assert body["quality"]["upper_bound"] < 0.4
    assert body["quality"]["upper_bound"] == pytest.approx(body["quality"]["upper_bound"])
    default = (await client.post("/v1/search", json={"query": "pytest fails on network access"})).json()
    assert GENE not in {r["gene_id"] for r in default["results"]}


async def test_mixed_results_are_not_deprecated(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    for index in range(10):
        body = await report(client, asset, f"t{index}", success=index % 3 == 0)
    assert body["status"] == "candidate"
    upper = body["quality"]["upper_bound"]
    assert upper >= 0.4


async def test_negative_transfer_demotes_for_that_model_only(client: httpx.AsyncClient) -> None:
    asset = (await publish(client))["asset_id"]
    await publish(
        client, id="gene_pytest_offline_mocks", summary="Make pytest suites pass offline with HTTP mocks"
    )
    for index in range(5):
        await report(
            client, asset, f"s{index}", consumer_model="small-7b", success=False, baseline_success=True
        )
        await report(
            client, asset, f"b{index}", consumer_model="big-70b", success=True, baseline_success=False
        )
    query = {"query": "Stabilise pytest suites that fail on network access", "k": 5}
    small = (await client.post("/v1/search", json={**query, "consumer_model": "small-7b"})).json()["results"]
    assert small[-1]["gene_id"] == GENE and small[-1]["demoted_for_consumer_model"] is True
    big = (await client.post("/v1/search", json={**query, "consumer_model": "big-70b"})).json()["results"]
    assert big[0]["gene_id"] == GENE and big[0]["demoted_for_consumer_model"] is False
    match = (
        await client.post("/v1/match", json={"task": query["query"], "consumer_model": "small-7b"})
    ).json()
    assert [g["gene_id"] for g in match["genes"]] == ["gene_pytest_offline_mocks"]
    per_model = (await client.get(f"/v1/genes/{GENE}/stats")).json()["by_consumer_model"]
    assert {q["consumer_model"]: q["demoted"] for q in per_model} == {"big-70b": False, "small-7b": True}


async def test_ranking_changes_as_outcomes_arrive(client: httpx.AsyncClient) -> None:
    first = (await publish(client, id="gene_mock_http_a"))["asset_id"]
    second = (await publish(client, id="gene_mock_http_b"))["asset_id"]
    query = {"query": "pytest suite fails without network, mock the HTTP calls", "k": 2, "explain": True}

    async def order() -> list[str]:
        results = (await client.post("/v1/search", json=query)).json()["results"]
        return [r["gene_id"] for r in results]

    before = await order()
    loser, winner = before[0], before[1]
    loser_asset, winner_asset = (first, second) if loser == "gene_mock_http_a" else (second, first)
    for index in range(6):
        await report(client, winner_asset, f"w{index}", gene=winner, consumer_model=f"model-{index % 2}")
        await report(client, loser_asset, f"l{index}", gene=loser, success=False)
    assert await order() == [winner, loser]


async def test_stats_report_cost_versions_and_producers(client: httpx.AsyncClient) -> None:
    v1 = await publish(client)
    v2 = await publish(client, parent=v1["asset_id"], summary="second version")
    await report(client, v1["asset_id"], "old", success=False)
    await report(client, v2["asset_id"], "new", tokens_used=500, baseline_tokens=2500)
    body = (await client.get(f"/v1/genes/{GENE}/stats")).json()
    assert [v["reports"] for v in body["by_version"]] == [1, 1]
    assert body["by_version"][1]["lower_bound"] > body["by_version"][0]["lower_bound"]
    # Two versions published with their own provenance cost (48213 tokens, 3 attempts each).
    assert body["discovery_cost"] == {"tokens": 2 * 48213, "attempts": 6, "seconds": 825.0, "runs": 2}
    assert body["usage"]["tokens_saved"] == 2000
    producers = {p["producer_model"]: p for p in (await client.get("/v1/producers")).json()}
    assert producers["claude-opus-4-5"]["reports"] == 2
    assert producers["claude-opus-4-5"]["mean"] == pytest.approx(stats.beta.mean(2, 2), abs=1e-3)
    assert producers["claude-opus-4-5"]["genes"] == 1


async def test_manual_status_changes_are_recorded(client: httpx.AsyncClient) -> None:
    await publish(client)
    promoted = await client.post(
        f"/v1/genes/{GENE}/status", json={"status": "promoted", "reason": "reviewed by hand"}
    )
    assert promoted.json() == {
        "gene_id": GENE,
        "from_status": "candidate",
        "status": "promoted",
        "reason": "reviewed by hand",
        "actor": "test admin",
    }
    assert (await client.get(f"/v1/genes/{GENE}")).json()["status_message"] == "reviewed by hand"
    same = await client.post(f"/v1/genes/{GENE}/status", json={"status": "promoted", "reason": "again"})
    assert same.status_code == 409
    no_reason = await client.post(f"/v1/genes/{GENE}/status", json={"status": "deprecated", "reason": " "})
    assert no_reason.status_code == 422
