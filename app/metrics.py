"""What a running registry shows Prometheus: requests, search bands, the embedder, the queue, the worker.

One `Metrics` per application (its own `CollectorRegistry`, so several apps in one process, as in the
tests, never collide). Three kinds of figures:

- **Per request**, by a pure ASGI middleware (RequestMetrics): counts and a latency histogram per
  route template (`/v1/genes/{gene_id}`, never the raw path), method and status class.
- **In process**, updated where they happen: search answers by band, each embedder call's latency and
  texts, and the in-process worker's jobs (merged, rejected, failed) read from its own counters.
- **From the database**, read when scraped (one grouped count and the oldest pending run): the
  trajectory queue's depth per state and the age of its oldest pending run, whichever process runs
  the workers. `rate(genebank_trajectories{state="merged"}[5m])` is the merge throughput.

A separate `genebank worker --metrics-port N` serves its own jobs and embedder figures the same way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.embeddings.base import Embedder, Vectors

if TYPE_CHECKING:
    from app.evolution.worker import WorkerStats

# Request latency: the API answers in milliseconds (fetch ~1 ms, search ~15 ms); the tail matters.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
EMBEDDING_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
TRAJECTORY_STATES = ("pending", "merged", "rejected")
# Not routes a scrape or a probe should count as traffic.
UNCOUNTED = ("/metrics", "/healthz", "/readyz", "/favicon.ico")


@dataclass(frozen=True)
class QueueSnapshot:
    """The trajectory queue as the database sees it at one instant."""

    counts: dict[str, int]
    oldest_pending: datetime | None
    retrying: int  # pending runs that a worker has already tried at least once

    def oldest_pending_age(self, now: datetime | None = None) -> float:
        if self.oldest_pending is None:
            return 0.0
        return max(0.0, ((now or datetime.now(UTC)) - self.oldest_pending).total_seconds())


class _QueueCollector(Collector):
    """Exposes the last queue snapshot (taken by the /metrics handler just before it renders)."""

    def __init__(self) -> None:
        self.snapshot: QueueSnapshot | None = None

    def collect(self) -> Iterator[Metric]:
        snapshot = self.snapshot
        if snapshot is None:
            return
        depth = GaugeMetricFamily(
            "genebank_trajectories", "Trajectories by state (pending is the queue)", labels=["state"]
        )
        for state in TRAJECTORY_STATES:
            depth.add_metric([state], snapshot.counts.get(state, 0))
        yield depth
        yield GaugeMetricFamily(
            "genebank_trajectory_oldest_pending_age_seconds",
            "Age of the oldest pending trajectory (0 when none is pending)",
            value=snapshot.oldest_pending_age(),
        )
        yield GaugeMetricFamily(
            "genebank_trajectories_retrying",
            "Pending trajectories a worker has already attempted at least once",
            value=snapshot.retrying,
        )


class _WorkerCollector(Collector):
    """The in-process worker's own counters (WorkerStats), once a worker is attached."""

    def __init__(self) -> None:
        self.stats: WorkerStats | None = None

    def collect(self) -> Iterator[Metric]:
        stats = self.stats
        if stats is None:
            return
        jobs = CounterMetricFamily(
            "genebank_worker_jobs", "Evolution jobs finished by this process's worker", labels=["result"]
        )
        jobs.add_metric(["merged"], stats.merged)
        jobs.add_metric(["rejected"], stats.rejected)
        jobs.add_metric(["failed"], stats.failed)
        yield jobs
        yield GaugeMetricFamily(
            "genebank_worker_uptime_seconds",
            "Seconds since this process's worker started",
            value=time.monotonic() - stats.started,
        )


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.search_answers = Counter(
            "genebank_search_answers",
            "Search and match answers by band",
            ["endpoint", "band"],
            registry=self.registry,
        )
        self.embedding_seconds = Histogram(
            "genebank_embedding_seconds",
            "Time of one embedder call (one batch of texts)",
            buckets=EMBEDDING_BUCKETS,
            registry=self.registry,
        )
        self.embedded_texts = Counter(
            "genebank_embedded_texts", "Texts encoded by the embedder", registry=self.registry
        )
        self.http_requests = Counter(
            "http_requests",
            "Requests by route template, method and status class",
            ["handler", "method", "status"],
            registry=self.registry,
        )
        self.http_duration = Histogram(
            "http_request_duration_seconds",
            "Time to answer, by route template, method and status class",
            ["handler", "method", "status"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        # Label children by key: `labels()` takes a lock and builds a tuple on every call.
        self._request_children: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        self.queue = _QueueCollector()
        self.worker = _WorkerCollector()
        self.registry.register(self.queue)
        self.registry.register(self.worker)

    def instrument(self, app: Starlette) -> None:
        """Count and time every request per route template (RequestMetrics, outermost)."""
        app.add_middleware(RequestMetrics, metrics=self)

    def observe_request(self, handler: str, method: str, status: int, seconds: float) -> None:
        key = (handler, method, f"{status // 100}xx")
        children = self._request_children.get(key)
        if children is None:
            children = (self.http_requests.labels(*key), self.http_duration.labels(*key))
            self._request_children[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def count_answer(self, endpoint: str, band: str) -> None:
        """One search or match answer, by its band (found, low_confidence, no_match)."""
        self.search_answers.labels(endpoint, band).inc()

    def timed(self, embedder: Embedder) -> Embedder:
        """The same embedder, each encode call observed (thread-safe: it runs on the embedder's lanes)."""
        return TimedEmbedder(embedder, self)


class RequestMetrics:
    """Pure ASGI: after the answer, the route the router matched names the series; no matching of its own.

    prometheus-fastapi-instrumentator matches every request against the route table again before
    routing; with it, fetch-by-id under 8 clients fell from 0.69x to 0.54x the bare baseline
    (bench/fetch.py). Here the template comes from `scope["route"]`, set by the router, and the
    label children are cached: the series are the same (`http_requests_total`,
    `http_request_duration_seconds`), unmatched paths count as handler `none`.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            template = getattr(scope.get("route"), "path", None)
            handler = scope.get("root_path", "") + template if template else "none"
            if handler not in UNCOUNTED:
                self.metrics.observe_request(handler, scope["method"], status, time.perf_counter() - started)


class TimedEmbedder:
    """An embedder whose encode calls are timed; anything else is the wrapped backend's."""

    def __init__(self, inner: Embedder, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics
        self.name = inner.name

    def encode(self, texts: Sequence[str]) -> Vectors:
        started = time.perf_counter()
        try:
            return self.inner.encode(texts)
        finally:
            self.metrics.embedding_seconds.observe(time.perf_counter() - started)
            self.metrics.embedded_texts.inc(len(texts))

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)
