"""Webhooks end to end: a live registry, a real `genebank worker` killed with SIGKILL and restarted, and a
receiver that checks every signature and counts every event id."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.evolution.builders import trajectory_payload
from tests.factories import gene_doc, publish_payload
from tests.live import ServeProcess, served_model_env, subprocess_env

pytestmark = pytest.mark.slow

EVENTS = ["gene.published", "gene.evolved", "gene.promoted", "gene.revoked"]


@dataclass
class Received:
    event_id: int
    kind: str
    body: dict[str, Any]
    signature: str
    raw: bytes
    answered: int


@dataclass
class Receiver:
    """Records every POST; answers 500 to the next `fail_next` requests, 200 otherwise."""

    received: list[Received] = field(default_factory=list)
    fail_next: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def delivered(self) -> dict[int, int]:
        """Event id -> how many times it was answered 2xx."""
        counts: dict[int, int] = {}
        with self.lock:
            for item in self.received:
                if item.answered == 200:
                    counts[item.event_id] = counts.get(item.event_id, 0) + 1
        return counts


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, str]]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            with state.lock:
                status = 500 if state.fail_next > 0 else 200
                state.fail_next = max(0, state.fail_next - 1)
                state.received.append(
                    Received(
                        event_id=int(self.headers["Genebank-Event-Id"]),
                        kind=self.headers["Genebank-Event"],
                        body=json.loads(raw),
                        signature=self.headers["Genebank-Signature"],
                        raw=raw,
                        answered=status,
                    )
                )
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/hooks"
    server.shutdown()


def _wait(predicate: Callable[[], bool], what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _worker(data_dir: Path) -> subprocess.Popen[bytes]:
    env = subprocess_env(
        GENEBANK_DATA_DIR=str(data_dir),
        **served_model_env(),
        GENEBANK_WEBHOOK_POLL_SECONDS="0.2",
        GENEBANK_WEBHOOK_RETRY_BASE_SECONDS="0.2",
        GENEBANK_LOG_LEVEL="warning",
    )
    log = (data_dir / "worker.log").open("ab")
    return subprocess.Popen(
        [sys.executable, "-c", "from app.cli import main; main()", "worker"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _verify(secret: str, item: Received) -> bool:
    parts = dict(part.split("=", 1) for part in item.signature.split(","))
    expected = hmac.new(secret.encode(), f"{parts['t']}.".encode() + item.raw, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"]) and abs(time.time() - int(parts["t"])) < 300


def test_events_reach_a_subscriber_once_signed_across_a_killed_worker(
    tmp_path: Path, receiver: tuple[Receiver, str]
) -> None:
    hooks, url = receiver
    with ServeProcess(tmp_path, GENEBANK_RUN_WORKER="false") as server:
        producer = httpx.Client(
            base_url=server.url,
            headers={"Authorization": f"Bearer {server.create_key('producer', 'hooks producer')[1]}"},
            timeout=60,
        )
        admin = httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {server.admin_key}"}, timeout=60
        )
        with producer, admin:
            # Only admins subscribe, to http(s) URLs and known events.
            assert producer.post("/v1/admin/webhooks", json={"url": url, "events": EVENTS}).status_code == 403
            for bad in ({"url": "ftp://x/y", "events": EVENTS}, {"url": url, "events": ["gene.exploded"]}):
                refused = admin.post("/v1/admin/webhooks", json=bad)
                assert refused.status_code == 422
                assert refused.headers["content-type"] == "application/problem+json"
            made = admin.post("/v1/admin/webhooks", json={"url": url, "events": EVENTS})
            assert made.status_code == 201, made.text
            subscription, secret = made.json()["id"], made.json()["secret"]
            assert secret.startswith("whsec_")

            # Changes committed while no worker runs: nothing is sent yet.
            first = producer.post("/v1/genes", json=publish_payload(gene_doc(id="hook_gene_g")))
            assert first.status_code == 201, first.text
            promoted = admin.post(
                "/v1/genes/hook_gene_g/status", json={"status": "promoted", "reason": "hooks"}
            )
            assert promoted.status_code == 200, promoted.text
            assert (
                producer.post("/v1/genes", json=publish_payload(gene_doc(id="hook_gene_h"))).status_code
                == 201
            )
            revoked = producer.post(
                "/v1/genes/hook_gene_h/status", json={"status": "revoked", "reason": "oops"}
            )
            assert revoked.status_code == 200, revoked.text
            time.sleep(1)
            assert hooks.received == []

            worker = _worker(server.data_dir)
            try:
                _wait(lambda: len(hooks.delivered()) == 4, "the first four events")
            finally:
                worker.send_signal(signal.SIGKILL)
                worker.wait(30)
            ordered = sorted(hooks.received, key=lambda item: item.event_id)
            assert [(item.kind, item.body["data"]["gene_id"]) for item in ordered] == [
                ("gene.published", "hook_gene_g"),
                ("gene.promoted", "hook_gene_g"),
                ("gene.published", "hook_gene_h"),
                ("gene.revoked", "hook_gene_h"),
            ]
            assert all(_verify(secret, item) for item in hooks.received)
            assert not _verify("whsec_not_the_secret", hooks.received[0])

            # The worker is dead; a run arrives; the receiver will refuse twice before it accepts.
            run = producer.post("/v1/trajectories", json=trajectory_payload(gene_id="hook_gene_g"))
            assert run.status_code == 202, run.text
            hooks.fail_next = 2
            worker = _worker(server.data_dir)
            try:
                _wait(lambda: len(hooks.delivered()) == 5, "the evolved event, after two refusals")
                # Every event answered 2xx exactly once: nothing lost, nothing doubled, by event id.
                assert set(hooks.delivered().values()) == {1}
                evolved = [item for item in hooks.received if item.kind == "gene.evolved"]
                assert [item.answered for item in evolved] == [500, 500, 200]
                assert len({item.event_id for item in evolved}) == 1
                assert evolved[0].body["data"]["gene_id"] == "hook_gene_g"

                listed = admin.get(f"/v1/admin/webhooks/{subscription}/deliveries").json()["items"]
                newest = listed[0]
                assert (newest["event_type"], newest["state"], newest["attempts"]) == (
                    "gene.evolved",
                    "delivered",
                    3,
                )
                assert newest["last_status"] == 200 and newest["event_id"] == evolved[0].event_id

                # A replay sends the same event (same idempotency id) again.
                replayed = admin.post(
                    f"/v1/admin/webhooks/{subscription}/deliveries/{listed[-1]['id']}/replay"
                )
                assert replayed.status_code == 200, replayed.text
                _wait(lambda: hooks.delivered().get(listed[-1]["event_id"]) == 2, "the replay")
            finally:
                worker.send_signal(signal.SIGTERM)
                worker.wait(60)
            assert admin.get(f"/v1/admin/webhooks/{subscription}/deliveries/999999/replay").status_code == 405
            missing = admin.post(f"/v1/admin/webhooks/{subscription}/deliveries/999999/replay")
            assert missing.status_code == 404
    assert os.path.exists(tmp_path / "worker.log")
