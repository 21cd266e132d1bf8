"""Two API processes and two workers under mixed load, one of each killed with SIGKILL mid-run.

Shared by the slow fault test (tests/faults/test_load_kill.py, a short run) and bench/load.py (the
issue's 200 clients for 60 s). Everything is real: the embedded PostgreSQL, `genebank serve` and
`genebank worker` processes on loopback, HTTP clients. Clients of the killed API process fail over to
the other one (as a load balancer would); their failed requests are counted as killed connections.

Afterwards, with every worker drained: each acknowledged publish (201) must be served by asset_id,
each acknowledged run (202) must have been merged or rejected exactly once, none left pending, and no
run may appear in two evolution events.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from app import embedded_pg, migrate
from tests.evolution.builders import trajectory_payload
from tests.factories import gene_doc, publish_payload
from tests.live import free_port, subprocess_env

SEED_GENES = 20
QUERIES = [
    "tests fail because they call the live API",
    "flaky network tests in CI",
    "mock the HTTP layer in a test suite",
    "database migration locks a busy table",
    "answer must stay under a word limit",
]


@dataclass
class Report:
    clients: int
    seconds: float
    requests: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    killed_connection_errors: int = 0
    other_errors: list[str] = field(default_factory=list)
    acknowledged_publishes: int = 0
    acknowledged_runs: int = 0
    missing_publishes: int = 0
    runs_left_pending: int = 0
    runs_merged: int = 0
    runs_rejected: int = 0
    runs_in_two_events: int = 0
    runs_merged_without_event: int = 0

    def lines(self) -> list[str]:
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.by_kind.items()))
        return [
            f"{self.clients} clients for {self.seconds:g} s: {self.requests} requests ({kinds})",
            f"errors other than the killed connections: {len(self.other_errors)}"
            + (f" (first: {self.other_errors[0]})" if self.other_errors else ""),
            f"requests cut by the kill: {self.killed_connection_errors}",
            f"acknowledged publishes {self.acknowledged_publishes},"
            f" missing afterwards {self.missing_publishes}",
            f"acknowledged runs {self.acknowledged_runs}: merged {self.runs_merged},"
            f" rejected {self.runs_rejected}, left pending {self.runs_left_pending},"
            f" in two events {self.runs_in_two_events},"
            f" merged without an event {self.runs_merged_without_event}",
        ]


class Processes:
    def __init__(self, data_dir: Path, database_url: str, model_env: dict[str, str]) -> None:
        self.data_dir = data_dir
        self.env = subprocess_env(
            GENEBANK_DATABASE_URL=database_url,
            GENEBANK_DATA_DIR=str(data_dir),
            **model_env,
            GENEBANK_RUN_WORKER="false",
            GENEBANK_MIGRATE_ON_START="false",
            GENEBANK_LOG_LEVEL="warning",
            GENEBANK_WORKER_POLL_SECONDS="0.5",
            **{f"GENEBANK_RATE_LIMIT_{kind}": "10000000/minute" for kind in ("READS", "SEARCH", "WRITES")},
        )
        self.running: list[subprocess.Popen[bytes]] = []

    def start(self, *args: str, log: str) -> subprocess.Popen[bytes]:
        with (self.data_dir / log).open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-c", "from app.cli import main; main()", *args],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.running.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.running:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.running:
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_ready(url: str, process: subprocess.Popen[bytes], seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{url} exited while starting"
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                return
        time.sleep(0.3)
    raise RuntimeError(f"{url} not ready in {seconds:g} s")


def _create_key(conninfo: str, role: str, name: str) -> str:
    from app.auth.principal import Role
    from app.auth.service import key_service
    from app.config import Settings
    from app.db import create_engine, create_sessionmaker

    async def create() -> str:
        engine = create_engine(conninfo, Settings(database_url=conninfo))
        try:
            async with create_sessionmaker(engine).begin() as session:
                created = await key_service.create(session, name=name, role=Role[role], created_by=None)
        finally:
            await engine.dispose()
        return created.token

    return asyncio.run(create())


async def _load(
    urls: list[str],
    tokens: dict[str, str],
    seeded: list[str],
    *,
    clients: int,
    seconds: float,
    kill: Any,
    report: Report,
) -> tuple[list[str], list[str]]:
    published: list[str] = []
    runs: list[str] = []
    alive = list(urls)
    serial = itertools.count()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    sessions = {url: httpx.AsyncClient(base_url=url, timeout=120, limits=limits) for url in urls}
    stop_at = time.monotonic() + seconds
    kill_at = time.monotonic() + seconds / 3
    killed = False

    async def one(rng: random.Random, url: str) -> None:
        roll = rng.random()
        client = sessions[url]
        if roll < 0.5:
            kind = "fetch"
            response = await client.get(f"/v1/genes/{rng.choice(seeded)}", headers=tokens["consumer"])
            expected = {200}
        elif roll < 0.75:
            kind = "search"
            response = await client.post(
                "/v1/search", json={"query": rng.choice(QUERIES)}, headers=tokens["consumer"]
            )
            expected = {200}
        elif roll < 0.88:
            kind = "publish"
            gene_id = f"load_gene_{next(serial)}_{uuid.uuid4().hex[:6]}"
            body = publish_payload(gene_doc(id=gene_id))
            response = await client.post("/v1/genes", json=body, headers=tokens["producer"])
            expected = {201}
            if response.status_code == 201:
                published.append(response.json()["asset_id"])
        else:
            kind = "run"
            task = {**trajectory_payload()["task"], "id": f"load-{next(serial)}-{uuid.uuid4().hex[:6]}"}
            body = trajectory_payload(gene_id=rng.choice(seeded), task=task)
            response = await client.post("/v1/trajectories", json=body, headers=tokens["producer"])
            expected = {202}
            if response.status_code == 202:
                runs.append(response.json()["id"])
        report.requests += 1
        report.by_kind[kind] = report.by_kind.get(kind, 0) + 1
        if response.status_code not in expected:
            report.other_errors.append(f"{kind} {response.status_code}: {response.text[:200]}")

    async def client_loop(number: int) -> None:
        rng = random.Random(number)
        while time.monotonic() < stop_at:
            url = alive[number % len(alive)]
            try:
                await one(rng, url)
            except httpx.TransportError as error:
                if url not in alive:  # the process it talked to was killed
                    report.killed_connection_errors += 1
                else:
                    report.other_errors.append(f"{type(error).__name__}: {error}")

    async def killer() -> None:
        nonlocal killed
        await asyncio.sleep(max(0.0, kill_at - time.monotonic()))
        alive.remove(urls[0])
        kill()
        killed = True

    try:
        await asyncio.gather(killer(), *(client_loop(n) for n in range(clients)))
    finally:
        for session in sessions.values():
            await session.aclose()
    assert killed
    return published, runs


# The model the processes serve: sentence-transformers unless the caller hands over another setting
# (the test hands over the ONNX model exported once for its whole run, tests/live.py).
TORCH_MODEL = {"GENEBANK_EMBEDDING_BACKEND": "torch"}


def run_scenario(
    base: Path, *, clients: int, seconds: float, model_env: dict[str, str] = TORCH_MODEL
) -> Report:
    report = Report(clients=clients, seconds=seconds)
    primary = embedded_pg.start(base / "pgdata")
    try:
        database_url = primary.url()
        migrate.upgrade(database_url)
        conninfo = database_url.replace("postgresql+psycopg", "postgresql")
        tokens = {
            role: {"Authorization": f"Bearer {_create_key(database_url, role, f'load {role}')}"}
            for role in ("producer", "consumer")
        }
        processes = Processes(base, database_url, model_env)
        try:
            ports = [free_port(), free_port()]
            apis = [
                processes.start("serve", "--port", str(port), log=f"api{n}.log")
                for n, port in enumerate(ports)
            ]
            urls = [f"http://127.0.0.1:{port}" for port in ports]
            for url, api in zip(urls, apis, strict=True):
                _wait_ready(url, api)
            workers = [processes.start("worker", log=f"worker{n}.log") for n in range(2)]
            seeded = []
            for n in range(SEED_GENES):
                response = httpx.post(
                    f"{urls[1]}/v1/genes",
                    json=publish_payload(gene_doc(id=f"load_seed_{n}")),
                    headers=tokens["producer"],
                    timeout=120,
                )
                assert response.status_code == 201, response.text
                seeded.append(f"load_seed_{n}")

            def kill() -> None:
                apis[0].send_signal(signal.SIGKILL)
                workers[0].send_signal(signal.SIGKILL)

            published, runs = asyncio.run(
                _load(urls, tokens, seeded, clients=clients, seconds=seconds, kill=kill, report=report)
            )
            report.acknowledged_publishes, report.acknowledged_runs = len(published), len(runs)
            # Drain: the surviving worker takes over the killed one's job once its lease ends.
            drained = time.monotonic() + 300
            with psycopg.connect(conninfo, autocommit=True) as conn:
                while conn.execute("SELECT count(*) FROM trajectories WHERE state = 'pending'").fetchone()[0]:
                    assert time.monotonic() < drained, "pending runs did not drain in 300 s"
                    time.sleep(0.5)
                for asset_id in published:
                    response = httpx.get(
                        f"{urls[1]}/v1/assets/{asset_id}", headers=tokens["consumer"], timeout=60
                    )
                    report.missing_publishes += response.status_code != 200
                states = dict(
                    conn.execute(
                        "SELECT state, count(*) FROM trajectories WHERE id = ANY(%s::uuid[]) GROUP BY state",
                        (runs,),
                    ).fetchall()
                )
                report.runs_merged = states.get("merged", 0)
                report.runs_rejected = states.get("rejected", 0)
                report.runs_left_pending = states.get("pending", 0) + len(runs) - sum(states.values())
                report.runs_in_two_events = conn.execute(
                    "SELECT count(*) FROM (SELECT t FROM evolution_events, unnest(trajectory_ids) t"
                    " WHERE t = ANY(%s::uuid[]) GROUP BY t HAVING count(*) > 1) doubled",
                    (runs,),
                ).fetchone()[0]
                report.runs_merged_without_event = conn.execute(
                    "SELECT count(*) FROM trajectories r WHERE r.id = ANY(%s::uuid[]) AND r.state = 'merged'"
                    " AND NOT EXISTS (SELECT 1 FROM evolution_events e WHERE r.id = ANY(e.trajectory_ids))",
                    (runs,),
                ).fetchone()[0]
        finally:
            processes.stop_all()
    finally:
        primary.stop()
    return report
