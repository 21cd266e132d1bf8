"""Reads on a real streaming replica (GENEBANK_READ_DATABASE_URL), writes on the primary, and a key
always reading its own writes."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import pytest

from app import embedded_pg, migrate
from app.config import Settings
from app.replicas import Replicas
from tests.evolution.builders import trajectory_payload
from tests.factories import gene_doc, publish_payload
from tests.live import LiveServer
from tests.replica import StreamingReplica


@dataclass
class Registry:
    server: LiveServer
    replica: StreamingReplica
    producer: httpx.Client
    consumer: httpx.Client

    @property
    def replicas(self) -> Replicas:
        replicas = self.server.server.config.app.state.runtime.replicas
        assert isinstance(replicas, Replicas)
        return replicas


def _client(url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60)


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    base = tmp_path_factory.mktemp("replicas")
    primary = embedded_pg.start(base / "primary")
    try:
        migrate.upgrade(primary.url())
        with StreamingReplica(primary, base / "standby") as replica:
            settings = Settings(
                database_url=primary.url(),
                read_database_url=replica.url(),
                data_dir=base / "data",
                bootstrap_admin_key_file=base / "admin-key",
                embedding_backend="torch",
                run_worker="false",
                rate_limit_reads="100000/minute",
                rate_limit_search="100000/minute",
                rate_limit_writes="100000/minute",
            )
            with LiveServer(settings) as server:
                admin = _client(server.url, (base / "admin-key").read_text().strip())
                tokens = {}
                for role in ("producer", "consumer"):
                    made = admin.post("/v1/admin/keys", json={"role": role, "name": f"replica {role}"})
                    assert made.status_code == 201, made.text
                    tokens[role] = made.json()["key"]
                with (
                    _client(server.url, tokens["producer"]) as producer,
                    _client(server.url, tokens["consumer"]) as consumer,
                ):
                    yield Registry(server, replica, producer, consumer)
    finally:
        primary.stop()


def _wait_for(predicate: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the standby did not catch up"
        time.sleep(0.05)


def test_reads_go_to_the_standby_and_a_writer_reads_its_own_writes(registry: Registry) -> None:
    replicas = registry.replicas
    assert registry.replica.execute("SELECT pg_is_in_recovery()") is True
    served_before = replicas.served[0]
    for n in range(10):
        gene_id = f"replica_read_{n}"
        published = registry.producer.post("/v1/genes", json=publish_payload(gene_doc(id=gene_id)))
        assert published.status_code == 201, published.text
        # At once, by the publisher: never a 404, whether the standby has replayed it yet or not.
        fetched = registry.producer.get(f"/v1/genes/{gene_id}")
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["asset_id"] == published.json()["asset_id"]
    for _ in range(10):
        assert (
            registry.consumer.post("/v1/search", json={"query": "tests call the live API"}).status_code == 200
        )
        assert registry.consumer.get("/v1/genes", params={"limit": 5}).status_code == 200
    assert replicas.served[0] - served_before >= 20  # the consumer's reads, at least, came from the standby


def test_a_lagging_standby_serves_others_while_the_writer_reads_the_primary(registry: Registry) -> None:
    replicas = registry.replicas
    gene_id = "replica_lag"
    first = registry.producer.post("/v1/genes", json=publish_payload(gene_doc(id=gene_id)))
    assert first.status_code == 201, first.text
    _wait_for(lambda: registry.consumer.get(f"/v1/genes/{gene_id}").status_code == 200)

    registry.replica.execute("SELECT pg_wal_replay_pause()")
    try:
        edited = gene_doc(
            id=gene_id,
            parent=first.json()["asset_id"],
            summary="Mock the HTTP layer; never call the live API from tests",
        )
        second = registry.producer.post("/v1/genes", json=publish_payload(edited))
        assert second.status_code == 201, second.text
        fell_back = replicas.fell_back
        # The publisher sees its new version (from the primary: the standby is behind it)...
        mine = registry.producer.get(f"/v1/genes/{gene_id}")
        assert mine.json()["asset_id"] == second.json()["asset_id"]
        assert replicas.fell_back == fell_back + 1
        # ...and lists the run it just sent, which the paused standby does not have.
        run = registry.producer.post("/v1/trajectories", json=trajectory_payload(gene_id=gene_id))
        assert run.status_code == 202, run.text
        listed = registry.producer.get("/v1/trajectories", params={"gene_id": gene_id})
        assert run.json()["id"] in [item["id"] for item in listed.json()["items"]]
        # Another key reads the standby, which really is behind: the older version.
        theirs = registry.consumer.get(f"/v1/genes/{gene_id}")
        assert theirs.json()["asset_id"] == first.json()["asset_id"]
    finally:
        registry.replica.execute("SELECT pg_wal_replay_resume()")
    _wait_for(
        lambda: registry.consumer.get(f"/v1/genes/{gene_id}").json()["asset_id"] == second.json()["asset_id"]
    )


def test_reads_survive_a_standby_that_goes_away(registry: Registry) -> None:
    registry.replica.stop()
    try:
        for _ in range(3):
            assert registry.consumer.get("/v1/genes", params={"limit": 5}).status_code == 200
            assert (
                registry.consumer.post("/v1/search", json={"query": "flaky network tests"}).status_code == 200
            )
    finally:
        registry.replica.start()
