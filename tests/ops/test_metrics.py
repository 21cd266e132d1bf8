"""/metrics (Prometheus), X-Request-ID and cache headers, on the in-process app."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx

from tests.evolution.builders import trajectory_payload
from tests.factories import BASE_GENE, publish_payload

GENE_ID = BASE_GENE["id"]
Clients = Callable[[str | None], httpx.AsyncClient]


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample in Prometheus text format (labels in any order), or None."""
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        match = re.fullmatch(r"([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)", line)
        if match is None or match.group(1) != name:
            continue
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(2) or ""))
        if found == labels:
            return float(match.group(3))
    return None


async def scrape(admin: httpx.AsyncClient) -> str:
    response = await admin.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return response.text


async def test_metrics_need_an_admin_key(client_as: Clients) -> None:
    assert (await client_as(None).get("/metrics")).status_code == 401
    refused = await client_as("consumer").get("/metrics")
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"
    assert (await client_as("producer").get("/metrics")).status_code == 403


async def test_requests_are_counted_per_route_template_and_searches_per_band(client_as: Clients) -> None:
    producer, admin = client_as("producer"), client_as("admin")
    assert (await producer.post("/v1/genes", json=publish_payload())).status_code == 201
    before = await scrape(admin)
    route = {"handler": "/v1/genes/{gene_id}", "method": "GET", "status": "2xx"}
    fetched = sample(before, "http_requests_total", **route) or 0.0
    for _ in range(3):
        assert (await producer.get(f"/v1/genes/{GENE_ID}")).status_code == 200
    assert (await producer.get("/v1/genes/no_such_gene_here")).status_code == 404
    answer = await producer.post("/v1/search", json={"query": "tests fail because they call the live API"})
    assert answer.status_code == 200
    band = answer.json()["band"]

    after = await scrape(admin)
    assert sample(after, "http_requests_total", **route) == fetched + 3
    # Counted by template, never by raw path: an id is not a label value.
    assert "no_such_gene_here" not in after
    assert (
        sample(after, "http_requests_total", handler="/v1/genes/{gene_id}", method="GET", status="4xx") or 0
    ) >= 1
    assert (sample(after, "http_request_duration_seconds_count", **route) or 0) >= 3
    searched = sample(after, "genebank_search_answers_total", endpoint="search", band=band)
    assert (
        searched == (sample(before, "genebank_search_answers_total", endpoint="search", band=band) or 0) + 1
    )
    # Scrapes and probes are not traffic.
    assert 'handler="/metrics"' not in after


async def test_the_queue_is_read_from_the_database(client_as: Clients) -> None:
    producer, admin = client_as("producer"), client_as("admin")
    assert (await producer.post("/v1/genes", json=publish_payload())).status_code == 201
    before = await scrape(admin)
    pending = sample(before, "genebank_trajectories", state="pending")
    assert pending is not None
    for n in range(2):
        run = trajectory_payload(
            gene_id=GENE_ID, task={**trajectory_payload()["task"], "id": f"code-metrics-{n}"}
        )
        assert (await producer.post("/v1/trajectories", json=run)).status_code == 202
    after = await scrape(admin)
    # No worker runs beside the in-process test app: both wait in the queue.
    assert sample(after, "genebank_trajectories", state="pending") == pending + 2
    age = sample(after, "genebank_trajectory_oldest_pending_age_seconds")
    assert age is not None and age >= 0
    assert sample(after, "genebank_trajectories_retrying") is not None


async def test_request_ids_go_back_and_only_plain_ones_are_kept(client_as: Clients) -> None:
    consumer = client_as("consumer")
    kept = await consumer.get("/healthz", headers={"X-Request-ID": "trace-4f2a.1:b"})
    assert kept.headers["x-request-id"] == "trace-4f2a.1:b"
    made = await consumer.get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["x-request-id"])
    replaced = await consumer.get("/healthz", headers={"X-Request-ID": 'x" level="error'})
    assert re.fullmatch(r"[0-9a-f]{32}", replaced.headers["x-request-id"])
    refused = await client_as(None).post("/v1/genes", json={}, headers={"X-Request-ID": "req-401"})
    assert refused.status_code == 401
    assert refused.headers["x-request-id"] == "req-401"


async def test_content_addressed_answers_are_cacheable_for_a_year(client_as: Clients) -> None:
    producer = client_as("producer")
    published = await producer.post("/v1/genes", json=publish_payload())
    assert published.status_code == 201
    asset_id = published.json()["asset_id"]
    immutable = "public, max-age=31536000, immutable"
    assert (await producer.get(f"/v1/assets/{asset_id}")).headers["cache-control"] == immutable
    assert (await producer.get(f"/v1/genes/{GENE_ID}/versions/1")).headers["cache-control"] == immutable
    # The current version moves: revalidate with its ETag.
    current = await producer.get(f"/v1/genes/{GENE_ID}")
    assert current.headers["cache-control"] == "no-cache"
    assert current.headers["etag"] == f'"{asset_id}"'
