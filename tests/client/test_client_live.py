"""genebank.client against a live registry (`genebank serve` in its own process): every method, the ETag
cache on the wire, a tampered asset, 429s retried after Retry-After, cursors followed to the end."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.auth.principal import Role
from app.auth.service import key_service
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.gep.document import guards_of
from genebank.client import (
    AssetMismatch,
    AsyncClient,
    Client,
    Forbidden,
    GeneNotFound,
    GeneRevoked,
    InvalidKey,
    NotOwner,
    RateLimited,
    SelfReport,
    StaleParent,
    TransportError,
    Unauthorized,
    ValidationFailed,
    compute_asset_id,
)
from tests.client.conftest import Live, unique
from tests.factories import BASE_PROVENANCE, gene_doc
from tests.live import LiveServer, free_port

TASK = "Make the test suite of a small HTTP client pass without network access"
GUARD = "Never call the live API from tests: mock the HTTP layer with respx"


def provenance(model: str, task_id: str = "code-0001") -> dict[str, Any]:
    return {**BASE_PROVENANCE, "producer_model": model, "task": {**BASE_PROVENANCE["task"], "id": task_id}}


def gene(gene_id: str, model: str, **fields: Any) -> dict[str, Any]:
    return gene_doc(id=gene_id, model_name=model, **fields)


def run(
    gene_id: str, model: str, task_id: str, *, guards: list[str] | None = None, smooth: bool = False
) -> dict[str, Any]:
    """A passed run for the Gene; one that met a ConnectionError on the way unless `smooth`."""
    failed = {
        "action": "pytest -q",
        "ok": False,
        "error": "requests.exceptions.ConnectionError: Max retries exceeded with url: /v1/items",
        "correction": "mock the HTTP layer with respx",
    }
    return {
        "task": {"id": task_id, "family": "code_generation", "description": TASK},
        "producer": {"model": model},
        "steps": [
            *([] if smooth else [failed]),
            {"action": "add respx mocks in conftest.py", "ok": True, "observation": "42 passed"},
        ],
        "verifier": {"name": "pytest", "version": "8.3", "passed": True},
        "guards": guards,
        "gene_id": gene_id,
    }


class Recorder:
    """The client, noting which public methods a test used (in `used`, shared by several)."""

    def __init__(self, client: Client, used: set[str]) -> None:
        self.client = client
        self.used = used

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            self.used.add(name)
        return getattr(self.client, name)


def public_methods(cls: type) -> set[str]:
    return {name for name, member in vars(cls).items() if callable(member) and not name.startswith("_")}


def test_every_method_against_a_live_registry(live: Live) -> None:
    """The five-minute tour, and everything else the client does, as an agent would do it."""
    gene_id, model = unique("gene_live_tour"), unique("tour-model")
    doc = gene(gene_id, model, summary="Stabilise pytest suites that fail without network access")
    used: set[str] = set()
    with (
        Client(live.url, live.owner.token) as owner_client,
        Client(live.url, live.producer.token) as other_client,
        Client(live.url, live.consumer.token) as consumer_client,
    ):
        owner, other = Recorder(owner_client, used), Recorder(other_client, used)
        consumer = Recorder(consumer_client, used)
        checked = owner.validate(doc)
        assert checked.valid and checked.asset_id == compute_asset_id(doc)

        v1 = owner.publish(doc, provenance(model))
        assert (v1.gene_id, v1.version, v1.created, v1.asset_id) == (gene_id, 1, True, checked.asset_id)
        assert owner.publish(doc, provenance(model)).created is False
        # In bulk: one answer per item, in order; the known document again, and a refused one.
        batch = owner.publish_many(
            [
                {"gene": doc, "provenance": provenance(model)},
                {"gene": {**doc, "category": "not-a-category"}, "provenance": provenance(model)},
            ]
        )
        assert (batch.accepted, batch.rejected) == (1, 1)
        assert batch.results[0]["asset_id"] == v1.asset_id and batch.results[0]["created"] is False
        assert [(p["index"], p["status"]) for p in batch.problems] == [(1, 422)]

        # Search the way a consumer would, with its task and the error it sees.
        query = "pytest suite fails in CI without network access"
        found = consumer.search(query, signals=["ConnectionError"], producer_model=model, explain=True)
        assert found.band == "found" and [r.gene_id for r in found.results] == [gene_id]
        assert found.results[0].signal_hits and found.results[0].explain is not None
        assert [r.gene_id for r in owner.iter_search(query, producer_model=model, k=1)] == [gene_id]
        matched = owner.match(query, signals=["ConnectionError"], producer_model=model, max_tokens=200)
        assert [g.asset_id for g in matched.genes] == [v1.asset_id] and matched.tokens <= 200

        read = owner.get_gene(gene_id)
        assert (
            read.version == 1
            and read.owner.key_id == live.owner.id
            and read.document
            == {
                **doc,
                "asset_id": v1.asset_id,
            }
        )
        prompt = owner.get_prompt(gene_id, max_tokens=200)
        assert prompt.text.startswith(f"Gene {gene_id} v1") and prompt.tokens <= 200
        assert owner.get_asset(v1.asset_id) == read.document

        # A run that hit a failure on the way, with the guard its producer drew from it.
        accepted = owner.submit_trajectory(run(gene_id, model, unique("code"), guards=[GUARD]))
        assert accepted.state == "pending" and accepted.created
        merged = owner.wait_for(accepted.id, timeout=120)
        assert merged.state == "merged" and merged.gene_id == gene_id, merged.reason
        assert owner.get_trajectory(accepted.id).asset_id == merged.asset_id != v1.asset_id
        # The same Idempotency-Key again (a retry) is the same trajectory, whatever the content.
        again = run(gene_id, model, unique("code"), smooth=True)
        first = owner.submit_trajectory(again, idempotency_key="live-retry-1")
        assert owner.submit_trajectory(again, idempotency_key="live-retry-1").id == first.id
        owner.wait_for(first.id, timeout=120)
        # Both runs in the owner's list, newest first, a page at a time, with the counts per state.
        runs = list(owner.iter_trajectories(gene_id=gene_id, page_size=1))
        assert [r.id for r in runs] == [first.id, accepted.id]
        page = owner.list_trajectories(gene_id=gene_id, state="merged", limit=1)
        assert page.counts.merged == 2 and page.counts.pending == 0 and page.next_cursor
        assert other.list_trajectories(gene_id=gene_id).items == []  # runs are private to their key

        v2 = owner.get_gene(gene_id)
        assert v2.version == 2 and v2.asset_id == merged.asset_id and GUARD in guards_of(v2.document)
        events = list(owner.iter_events(gene_id, page_size=1))
        assert [e.kind for e in events][:2] == ["published", "merged"]
        assert owner.list_events(gene_id, limit=1).next_cursor
        assert [g.text for g in owner.get_guards(gene_id).items if g.kept] == guards_of(v2.document)
        assert [v.version for v in owner.iter_versions(gene_id, page_size=1)] == [1, 2]
        assert owner.list_versions(gene_id, limit=1).next_cursor

        outcome = consumer.report_outcome(
            gene_id,
            asset_id=v2.asset_id,
            task_id=unique("ci"),
            success=True,
            consumer_model="qwen3-8b",
            tokens_used=900,
            baseline_tokens=4000,
        )
        assert outcome.counted and outcome.quality is not None and outcome.quality.reports == 1
        with pytest.raises(SelfReport):
            owner.report_outcome(
                gene_id, asset_id=v2.asset_id, task_id="own", success=True, consumer_model="m"
            )
        stats = owner.get_stats(gene_id)
        assert stats.usage.reports == 1 and stats.usage.tokens_saved == 3100
        assert model in {p.producer_model for p in owner.producers()}
        assert [g.gene_id for g in owner.iter_genes(producer_model=model, page_size=1)] == [gene_id]
        assert owner.list_genes(producer_model=model).items[0].version == 2

        moved = owner.transfer_owner(gene_id, live.producer.id)
        assert (moved.previous_owner.key_id, moved.owner.key_id) == (live.owner.id, live.producer.id)
        with pytest.raises(NotOwner):
            owner.publish({**doc, "parent": v2.asset_id, "summary": "not mine any more"}, provenance(model))
        revoked = other.set_status(gene_id, "revoked", "superseded in the live test")
        assert revoked.status == "revoked"
        with pytest.raises(GeneRevoked):
            consumer.get_gene(gene_id, cache=False)
        sent = other.submit_many([run(gene_id, model, unique("code")), {"task": {}}])
        assert (sent.accepted, sent.rejected) == (1, 1) and sent.results[0]["state"] == "pending"
        owner.close()
    assert used == public_methods(Client)


def test_the_second_fetch_is_a_304_on_the_wire(live: Live) -> None:
    gene_id, model = unique("gene_live_etag"), unique("etag-model")
    wire: list[tuple[str, int, str | None]] = []

    def record(response: httpx.Response) -> None:
        wire.append(
            (response.request.method, response.status_code, response.request.headers.get("if-none-match"))
        )

    with Client(live.url, live.owner.token, event_hooks={"response": [record]}) as client:
        published = client.publish(gene(gene_id, model), provenance(model))
        wire.clear()
        first = client.get_gene(gene_id)
        second = client.get_gene(gene_id)
        version = client.get_gene(gene_id, version=1)
        version_again = client.get_gene(gene_id, version=1)
        asset = client.get_asset(published.asset_id)
        assert client.get_asset(published.asset_id) == asset  # verified and immutable: not asked again
    etag = f'"{published.asset_id}"'
    assert wire == [
        ("GET", 200, None),
        ("GET", 304, etag),
        ("GET", 200, None),
        ("GET", 304, etag),
        ("GET", 200, None),
    ]
    assert second == first and version_again == version and asset == first.document


class Tampering(httpx.BaseTransport):
    """A cache or proxy between client and registry that edits what passes through it."""

    def __init__(self, edit: Any) -> None:
        self.inner = httpx.HTTPTransport()
        self.edit = edit

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        body = self.edit(request, response.content)
        headers = {
            k: v for k, v in response.headers.items() if k not in ("content-length", "content-encoding")
        }
        return httpx.Response(response.status_code, headers=headers, content=body)

    def close(self) -> None:
        self.inner.close()


def test_a_tampered_asset_raises(live: Live) -> None:
    gene_id, model = unique("gene_live_tamper"), unique("tamper-model")
    with Client(live.url, live.owner.token) as client:
        published = client.publish(gene(gene_id, model), provenance(model))
        other = client.publish(gene(unique("gene_live_other"), model), provenance(model))

    def swap_strategy(request: httpx.Request, body: bytes) -> bytes:
        if request.url.path.startswith(("/v1/assets/", "/v1/genes/")) and request.method == "GET":
            return body.replace(b"Mock the HTTP layer", b"Disable the whole test suite")
        return body

    with Client(live.url, live.owner.token, transport=Tampering(swap_strategy)) as client:
        with pytest.raises(AssetMismatch) as mismatch:
            client.get_asset(published.asset_id)
        assert mismatch.value.expected == published.asset_id
        with pytest.raises(AssetMismatch):
            client.get_gene(gene_id)
        assert client.get_gene(gene_id, verify=False).document["strategy"][1].startswith("Disable")

    # A genuine document, but of another asset: it hashes to its own id, not to the one asked for.
    def other_asset(request: httpx.Request, body: bytes) -> bytes:
        if request.url.path == f"/v1/assets/{published.asset_id}":
            auth = {"Authorization": request.headers["authorization"]}
            return httpx.get(f"{live.url}/v1/assets/{other.asset_id}", headers=auth).content
        return body

    with Client(live.url, live.owner.token, transport=Tampering(other_asset)) as client:
        with pytest.raises(AssetMismatch):
            client.get_asset(published.asset_id)
        assert client.get_asset(other.asset_id)["asset_id"] == other.asset_id


def test_cursors_are_followed_to_the_end(live: Live) -> None:
    model = unique("cursor-model")
    ids = [unique("gene_live_cursor") for _ in range(7)]
    with Client(live.url, live.owner.token) as client:
        for gene_id in ids:
            client.publish(gene(gene_id, model), provenance(model))
        oldest_first = [g.gene_id for g in client.iter_genes(producer_model=model, order="asc", page_size=2)]
        assert oldest_first == ids
        assert [g.gene_id for g in client.iter_genes(producer_model=model, page_size=3)] == ids[::-1]
        results = list(
            client.iter_search("pytest suites that fail on network access", producer_model=model, k=2)
        )
        assert sorted(r.gene_id for r in results) == sorted(ids)
        scores = [r.score for r in results]
        assert scores == sorted(scores, reverse=True)

        parent = client.get_gene(ids[0]).asset_id
        for number in range(2, 6):
            parent = client.publish(
                gene(ids[0], model, parent=parent, summary=f"Stabilise pytest suites, take {number}"),
                provenance(model),
            ).asset_id
        assert [v.version for v in client.iter_versions(ids[0], page_size=2)] == [1, 2, 3, 4, 5]
        assert len(list(client.iter_events(ids[0], page_size=2))) == 5


async def test_the_async_client_against_a_live_registry(live: Live) -> None:
    gene_id, model = unique("gene_live_async"), unique("async-model")
    statuses: list[int] = []

    async def record(response: httpx.Response) -> None:
        statuses.append(response.status_code)

    async with AsyncClient(live.url, live.owner.token, event_hooks={"response": [record]}) as client:
        published = await client.publish(gene(gene_id, model), provenance(model))
        statuses.clear()
        first, second = await client.get_gene(gene_id), await client.get_gene(gene_id)
        assert statuses == [200, 304] and first == second
        found = [
            r.gene_id async for r in client.iter_search("pytest fails offline", producer_model=model, k=1)
        ]
        assert found == [gene_id]
        # Several runs at once, followed to their end concurrently.
        accepted = await asyncio.gather(
            *(client.submit_trajectory(run(gene_id, model, unique("code"), guards=[GUARD])) for _ in range(3))
        )
        done = await asyncio.gather(*(client.wait_for(a.id, timeout=120) for a in accepted))
        assert {t.state for t in done} == {"merged"}
        listed = [t.id async for t in client.iter_trajectories(gene_id=gene_id, state="merged", page_size=2)]
        assert sorted(listed) == sorted(a.id for a in accepted)
        assert (await client.get_gene(gene_id)).asset_id != published.asset_id


def test_refusals_are_typed_exceptions(live: Live) -> None:
    gene_id, model = unique("gene_live_refusals"), unique("refusal-model")
    with Client(live.url, live.owner.token) as owner, Client(live.url, live.consumer.token) as consumer:
        v1 = owner.publish(gene(gene_id, model), provenance(model))
        owner.publish(gene(gene_id, model, parent=v1.asset_id, summary="v2"), provenance(model))
        with pytest.raises(StaleParent) as stale:
            owner.publish(gene(gene_id, model, parent=v1.asset_id, summary="v2 again"), provenance(model))
        assert stale.value.current_asset_id and stale.value.current_asset_id != v1.asset_id
        with pytest.raises(Forbidden):
            consumer.publish(gene(unique("gene_live_nope"), model), provenance(model))
        with pytest.raises(Forbidden):
            consumer.submit_trajectory(run(gene_id, model, "t"))
        with pytest.raises(ValidationFailed) as invalid:
            owner.publish(gene(unique("gene_live_bad"), model, strategy=[]), provenance(model))
        assert invalid.value.errors and invalid.value.status_code == 422
        assert invalid.value.type == "https://genebank.dev/problems/validation-failed"
        with pytest.raises(GeneNotFound):
            consumer.get_gene("gene_nobody_published_this")
    with Client(live.url, "gb_notakey") as stranger, pytest.raises(Unauthorized) as refused:
        stranger.search("anything")
    assert isinstance(refused.value, InvalidKey) or refused.value.problem_code == "unauthorized"
    with (
        Client(f"http://127.0.0.1:{free_port()}", "gb_x", max_retries=1) as nowhere,
        pytest.raises(TransportError),
    ):
        nowhere.search("anything")


@pytest.fixture
def limited(migrated_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A second registry (uvicorn in a thread, its own database) allowing 2 searches a second per key."""
    settings = Settings(
        database_url=migrated_url,
        migrate_on_start=False,
        run_worker="false",
        data_dir=tmp_path,
        embedding_backend="torch",
        rate_limit_search="2/second",
    )

    async def make_key() -> str:
        engine = create_engine(migrated_url, settings)
        try:
            async with create_sessionmaker(engine).begin() as session:
                created = await key_service.create(
                    session, name="limited", role=Role.consumer, created_by=None
                )
        finally:
            await engine.dispose()
        return created.token

    token = asyncio.run(make_key())
    with LiveServer(settings) as server:
        yield server.url, token


def test_429_is_retried_after_retry_after(limited: tuple[str, str]) -> None:
    url, token = limited
    wire: list[tuple[float, int, str | None]] = []

    def record(response: httpx.Response) -> None:
        wire.append((time.monotonic(), response.status_code, response.headers.get("retry-after")))

    with Client(url, token, event_hooks={"response": [record]}) as client:
        for _ in range(5):
            assert client.search("pytest hangs", signals=["Timeout"]).band == "no_match"
    statuses = [status for _, status, _ in wire]
    assert statuses.count(200) == 5 and 429 in statuses, statuses
    for (at, status, retry_after), (next_at, _, _) in itertools.pairwise(wire):
        if status == 429:
            assert retry_after is not None and int(retry_after) >= 1
            assert next_at - at >= int(retry_after) - 0.05  # it waited as told before asking again

    # Without retries the refusal reaches the caller, with what the registry said.
    with Client(url, token, max_retries=0) as client:
        with pytest.raises(RateLimited) as refused:
            for _ in range(5):
                client.search("pytest hangs")
        assert refused.value.retry_after is not None and refused.value.retry_after >= 1
        assert json.loads(refused.value.response.text)["status"] == 429
