"""Outcome reports through the API: idempotency, refusals, quality counted by key, lifecycle rules,
demotion, ranking."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from scipy import stats

from app.config import Settings
from app.outcomes.quality import Evidence, posterior, reputation
from tests.conftest import KeyClient
from tests.factories import gene_doc, publish_payload

GENE = "gene_pytest_flaky_network"
NewClient = Callable[..., Awaitable[KeyClient]]


async def publish(client: httpx.AsyncClient, **gene: Any) -> dict[str, Any]:
    response = await client.post("/v1/genes", json=publish_payload(gene=gene_doc(**gene)))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def report(
    client: httpx.AsyncClient, asset_id: str, task: str, *, gene: str = GENE, status: int = 201, **fields: Any
) -> dict[str, Any]:
    body = {"asset_id": asset_id, "consumer_model": "qwen3-8b", "task_id": task, "success": True, **fields}
    body = {key: value for key, value in body.items() if value is not None}
    response = await client.post(f"/v1/genes/{gene}/outcomes", json=body)
    assert response.status_code == status, response.text
    result: dict[str, Any] = response.json()
    return result


def use_settings(app: FastAPI, **changes: Any) -> Settings:
    settings: Settings = app.state.settings.model_copy(update=changes)
    app.state.settings = settings
    app.state.runtime.settings = settings
    return settings


@pytest.fixture
async def producer(client_as: Callable[[str | None], httpx.AsyncClient]) -> httpx.AsyncClient:
    """The Gene's owner: it publishes, and its reports on its own Gene are refused."""
    return client_as("producer")


@pytest.fixture
async def consumer(client_as: Callable[[str | None], httpx.AsyncClient]) -> httpx.AsyncClient:
    return client_as("consumer")


async def test_report_updates_quality_and_is_idempotent(
    producer: httpx.AsyncClient, consumer: httpx.AsyncClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    first = await report(consumer, asset, "task-1", tokens_used=900, baseline_tokens=4000)
    assert first["gene_id"] == GENE and first["status"] == "candidate" and first["counted"] is True
    quality = first["quality"]
    assert quality["reports"] == 1 and quality["reporters"] == 1
    assert quality["weighted_successes"] == pytest.approx(1.0, abs=1e-6)
    again = await consumer.post(
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
        consumer, asset, "task-1", status=409, success=False, tokens_used=900, baseline_tokens=4000
    )
    assert conflicting["outcome_id"] == first["id"]
    retry = await report(consumer, asset, "task-1", attempt_id="2", success=False)
    assert retry["quality"]["reports"] == 2
    stats_body = (await consumer.get(f"/v1/genes/{GENE}/stats")).json()
    assert stats_body["usage"] == {
        "reports": 2,
        "reporters": 1,
        "irrelevant": 0,
        "consumer_models": 1,
        "tasks": 1,
        "reports_with_baseline": 1,
        "tokens_saved": 3100,
    }


async def test_reports_against_unknown_or_revoked_assets_are_refused(
    producer: httpx.AsyncClient, consumer: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    other = (await publish(producer, id="gene_another_one"))["asset_id"]
    await report(consumer, "sha256:" + "0" * 64, "t", status=404)
    problem = await report(consumer, other, "t", status=422)
    assert "gene_another_one" in problem["detail"]
    await report(consumer, asset, "t", gene="gene_nobody_published", status=404)
    await report(consumer, asset, "t", status=422, score=1.5)
    await report(consumer, asset, "t", status=422, reason="failed")  # a reason is for a failure
    revoked = await client.post(
        f"/v1/genes/{GENE}/status", json={"status": "revoked", "reason": "leaked a secret"}
    )
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    gone = await report(consumer, asset, "t2", status=410)
    assert "revoked" in gone["detail"]
    assert (await consumer.get(f"/v1/genes/{GENE}")).status_code == 410
    assert (await consumer.get(f"/v1/assets/{asset}")).status_code == 410
    found = (await consumer.post("/v1/search", json={"query": "pytest fails on network access"})).json()
    assert GENE not in {r["gene_id"] for r in found["results"]}
    # Revoked is final.
    back = await client.post(
        f"/v1/genes/{GENE}/status", json={"status": "candidate", "reason": "changed my mind"}
    )
    assert back.status_code == 409


async def test_the_owner_cannot_report_on_its_own_gene(
    producer: httpx.AsyncClient, consumer: httpx.AsyncClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    for index, model in enumerate(["qwen3-8b", "invented-model-a", "invented-model-b"]):
        refused = await report(producer, asset, f"self-{index}", consumer_model=model, status=403)
        assert refused["type"].endswith("/self-report")
    stats_body = (await consumer.get(f"/v1/genes/{GENE}/stats")).json()
    assert stats_body["usage"]["reports"] == 0 and stats_body["status"] == "candidate"


async def test_a_bound_key_reports_for_its_model_only(
    producer: httpx.AsyncClient, new_key_client: NewClient, consumer: httpx.AsyncClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    bound = await new_key_client("consumer", consumer_model="qwen3-8b")
    refused = await report(bound, asset, "t1", consumer_model="gpt-5", status=403)
    assert refused["type"].endswith("/model-mismatch") and "qwen3-8b" in refused["detail"]
    taken = await report(bound, asset, "t1", consumer_model=None)
    assert taken["consumer_model"] == "qwen3-8b"
    # An unbound key must name its model, and what it names is self-declared: not per-model evidence.
    await report(consumer, asset, "t2", consumer_model=None, status=422)
    await report(consumer, asset, "t2", consumer_model="gpt-5")
    per_model = (await consumer.get(f"/v1/genes/{GENE}/stats")).json()["by_consumer_model"]
    assert [(q["consumer_model"], q["reports"], q["reporters"]) for q in per_model] == [("qwen3-8b", 1, 1)]


async def test_one_key_weighs_at_most_the_cap_however_often_it_reports(
    producer: httpx.AsyncClient, new_key_client: NewClient, app: FastAPI
) -> None:
    settings = use_settings(app, quality_max_weight_per_key=3.0)
    asset = (await publish(producer))["asset_id"]
    flooder = await new_key_client("consumer")
    for index in range(8):
        body = await report(flooder, asset, f"t{index}", success=False)
    quality = body["quality"]
    assert quality["reports"] == 8 and quality["reporters"] == 1
    assert quality["weighted_failures"] == pytest.approx(settings.quality_max_weight_per_key, rel=1e-3)
    assert body["status"] == "candidate"  # one key cannot deprecate a Gene


async def test_irrelevant_reports_are_retrieval_misses_and_partial_ones_count_half(
    producer: httpx.AsyncClient, new_key_client: NewClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    reporter = await new_key_client("consumer")
    miss = await report(reporter, asset, "t1", success=False, reason="irrelevant", note="wrong Gene, not bad")
    assert miss["counted"] is False and miss["quality"]["reports"] == 0
    partial = await report(reporter, asset, "t2", success=False, reason="partial")
    assert partial["quality"]["weighted_successes"] == pytest.approx(0.5, abs=1e-3)
    assert partial["quality"]["weighted_failures"] == pytest.approx(0.5, abs=1e-3)
    scored = await report(reporter, asset, "t3", success=False, reason="partial", score=0.8)
    assert scored["quality"]["weighted_successes"] == pytest.approx(1.3, abs=1e-3)
    usage = (await reporter.get(f"/v1/genes/{GENE}/stats")).json()["usage"]
    assert usage["reports"] == 3 and usage["irrelevant"] == 1


async def test_promotion_needs_successes_from_distinct_keys(
    producer: httpx.AsyncClient, new_key_client: NewClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    reporters = [await new_key_client("consumer") for _ in range(3)]
    # Two keys, however many successes under however many model names: still a candidate.
    for index in range(6):
        body = await report(reporters[index % 2], asset, f"t{index}", consumer_model=f"model-{index}")
        assert body["status"] == "candidate"
    promoted = await report(reporters[2], asset, "t-third-key")
    assert promoted["status"] == "promoted"
    history = (await producer.get(f"/v1/genes/{GENE}/stats")).json()["status_history"]
    assert [(h["from_status"], h["to_status"], h["actor"]) for h in history] == [
        ("candidate", "promoted", "lifecycle rules")
    ]
    assert "reported by 3 keys" in history[0]["reason"]


async def test_promotion_lower_bound_threshold_is_honoured_at_its_edge(
    producer: httpx.AsyncClient, new_key_client: NewClient, app: FastAPI
) -> None:
    settings = use_settings(
        app, promote_min_lower_bound=0.8, promote_min_successes=1, promote_min_reporters=1
    )
    asset = (await publish(producer))["asset_id"]
    # One report per key: each counts fully (below the per-key cap).
    now = Evidence(0.0, 0.0, __import__("datetime").datetime.now(__import__("datetime").UTC)).as_of
    producer_evidence = Evidence(0.0, 0.0, now)
    gene = Evidence(0.0, 0.0, now)
    expected_step = None
    for step in range(1, 15):
        producer_evidence = Evidence(producer_evidence.successes + 1, 0.0, now)
        gene = Evidence(gene.successes + 1, 0.0, now)
        prior = reputation(producer_evidence).mean
        if posterior(gene, prior, settings.quality_prior_strength).quantile(0.1) >= 0.8:
            expected_step = step
            break
    assert expected_step is not None and expected_step > 1
    for step in range(1, expected_step + 1):
        reporter = await new_key_client("consumer")
        body = await report(reporter, asset, f"t{step}")
        assert body["status"] == ("promoted" if step == expected_step else "candidate"), step


async def test_deprecation_needs_enough_reports_from_enough_keys(
    producer: httpx.AsyncClient, new_key_client: NewClient, app: FastAPI
) -> None:
    use_settings(app, deprecate_min_reporters=3)
    asset = (await publish(producer))["asset_id"]
    reporters = [await new_key_client("consumer") for _ in range(4)]
    for index in range(7):
        body = await report(reporters[index % 4], asset, f"t{index}", success=False)
        assert body["status"] == "candidate", index
    body = await report(reporters[3], asset, "t7", success=False)
    assert body["status"] == "deprecated"
    assert body["quality"]["upper_bound"] < 0.4 and body["quality"]["reporters"] == 4
    default = (await producer.post("/v1/search", json={"query": "pytest fails on network access"})).json()
    assert GENE not in {r["gene_id"] for r in default["results"]}


async def test_mixed_results_are_not_deprecated(
    producer: httpx.AsyncClient, new_key_client: NewClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    reporters = [await new_key_client("consumer") for _ in range(5)]
    for index in range(10):
        body = await report(reporters[index % 5], asset, f"t{index}", success=index % 3 == 0)
    assert body["status"] == "candidate"
    assert body["quality"]["upper_bound"] >= 0.4


async def test_negative_transfer_demotes_for_that_model_only(
    producer: httpx.AsyncClient, new_key_client: NewClient
) -> None:
    asset = (await publish(producer))["asset_id"]
    await publish(
        producer, id="gene_pytest_offline_mocks", summary="Make pytest suites pass offline with HTTP mocks"
    )
    # Per-model evidence comes from keys bound to the model; two of each, so that no single key
    # carries a model's verdict.
    small = [await new_key_client("consumer", consumer_model="small-7b") for _ in range(2)]
    big = [await new_key_client("consumer", consumer_model="big-70b") for _ in range(2)]
    for index in range(3):
        for key in small:
            await report(key, asset, f"s{index}", consumer_model=None, success=False, baseline_success=True)
        for key in big:
            await report(key, asset, f"b{index}", consumer_model=None, success=True, baseline_success=False)
    query = {"query": "Stabilise pytest suites that fail on network access", "k": 5}
    found = (await producer.post("/v1/search", json={**query, "consumer_model": "small-7b"})).json()
    assert found["results"][-1]["gene_id"] == GENE and found["results"][-1]["demoted_for_consumer_model"]
    found = (await producer.post("/v1/search", json={**query, "consumer_model": "big-70b"})).json()
    assert found["results"][0]["gene_id"] == GENE and not found["results"][0]["demoted_for_consumer_model"]
    match = (
        await producer.post("/v1/match", json={"task": query["query"], "consumer_model": "small-7b"})
    ).json()
    assert [g["gene_id"] for g in match["genes"]] == ["gene_pytest_offline_mocks"]
    per_model = (await producer.get(f"/v1/genes/{GENE}/stats")).json()["by_consumer_model"]
    assert {q["consumer_model"]: q["demoted"] for q in per_model} == {"big-70b": False, "small-7b": True}


async def test_ranking_changes_as_outcomes_arrive(
    producer: httpx.AsyncClient, new_key_client: NewClient
) -> None:
    first = (await publish(producer, id="gene_mock_http_a"))["asset_id"]
    second = (await publish(producer, id="gene_mock_http_b"))["asset_id"]
    query = {"query": "pytest suite fails without network, mock the HTTP calls", "k": 2, "explain": True}
    query["include_weak"] = True  # both Genes, however alike: the order is what is measured

    async def order() -> list[str]:
        results = (await producer.post("/v1/search", json=query)).json()["results"]
        return [r["gene_id"] for r in results]

    before = await order()
    loser, winner = before[0], before[1]
    loser_asset, winner_asset = (first, second) if loser == "gene_mock_http_a" else (second, first)
    reporters = [await new_key_client("consumer") for _ in range(3)]
    for index in range(6):
        key = reporters[index % 3]
        await report(key, winner_asset, f"w{index}", gene=winner)
        await report(key, loser_asset, f"l{index}", gene=loser, success=False)
    assert await order() == [winner, loser]


async def test_stats_report_cost_versions_and_producers(
    producer: httpx.AsyncClient, consumer: httpx.AsyncClient
) -> None:
    v1 = await publish(producer)
    v2 = await publish(producer, parent=v1["asset_id"], summary="second version")
    await report(consumer, v1["asset_id"], "old", success=False)
    await report(consumer, v2["asset_id"], "new", tokens_used=500, baseline_tokens=2500)
    body = (await consumer.get(f"/v1/genes/{GENE}/stats")).json()
    assert [v["reports"] for v in body["by_version"]] == [1, 1]
    assert body["by_version"][1]["lower_bound"] > body["by_version"][0]["lower_bound"]
    # Two versions published with their own provenance cost (48213 tokens, 3 attempts each).
    assert body["discovery_cost"] == {"tokens": 2 * 48213, "attempts": 6, "seconds": 825.0, "runs": 2}
    assert body["usage"]["tokens_saved"] == 2000
    producers = {p["producer_model"]: p for p in (await consumer.get("/v1/producers")).json()}
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
