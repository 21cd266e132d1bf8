"""A megabyte of adversarial text is answered within a second and stalls nobody else.

Redaction used to run a quadratic rule on the event loop: 20 KB of "a-a-a-…" blocked every request,
/healthz included, for 21 s. The server runs in its own process here, so that the test's own
client measures it from the outside.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app.redaction import redact
from tests.evolution.builders import trajectory_payload
from tests.live import served_model_env

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
SHAPES = (
    "a-" * 10_000,
    "password=" * 2_200,
    'token="x ' * 2_200,
    "-----BEGIN PRIVATE KEY-----" + "A" * 19_000,
)


def _timed(work: Callable[[str], object], text: str) -> float:
    started = time.perf_counter()
    work(text)
    return time.perf_counter() - started


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def _healthz_latencies(client: httpx.AsyncClient, stop: asyncio.Event) -> list[float]:
    latencies = []
    while not stop.is_set():
        started = time.perf_counter()
        answer = await client.get("/healthz")
        latencies.append(time.perf_counter() - started)
        assert answer.status_code == 200
        await asyncio.sleep(0.005)
    return latencies


async def test_a_megabyte_of_adversarial_text_is_answered_in_a_second(
    scratch_url: str, tmp_path: Path
) -> None:
    port = _free_port()
    key_file = tmp_path / "admin-key"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GENEBANK_")},
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")]),
        "GENEBANK_DATABASE_URL": scratch_url,
        "GENEBANK_DATA_DIR": str(tmp_path),
        "GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE": str(key_file),
        "GENEBANK_RUN_WORKER": "false",
        **served_model_env(),
        "GENEBANK_MAX_BODY_BYTES": str(1_100_000),
    }
    server = subprocess.Popen(  # noqa: ASYNC220 (started once; the test then only talks HTTP to it)
        [sys.executable, "-c", "from app.cli import main; main()", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=30) as probe:
            deadline = time.monotonic() + 180
            while True:
                assert server.poll() is None, "the server exited while starting"
                assert time.monotonic() < deadline, "the server did not start within 180 s"
                try:
                    if (await probe.get("/readyz")).status_code == 200 and key_file.exists():
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.2)
        headers = {"Authorization": f"Bearer {key_file.read_text().strip()}"}
        async with (
            httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client,
            httpx.AsyncClient(base_url=base, timeout=30) as health,
        ):
            # One ordinary megabyte first: the worker process that takes large bodies has started
            # with the server, but on a busy machine its imports may still be under way.
            ordinary = [{"action": "run the suite", "ok": True, "observation": "42 passed " * 2000}] * 40
            warm = await client.post("/v1/trajectories", json=trajectory_payload(steps=ordinary))
            assert warm.status_code == 202, warm.text[:300]
            # The machine's own noise, measured the same way with nothing else going on: on a quiet
            # machine it is a few ms, and the bound is 100 ms (or three times the noise on a loaded
            # machine): a stall grows with the input and lasts seconds.
            stop = asyncio.Event()
            watcher = asyncio.create_task(_healthz_latencies(health, stop))
            await asyncio.sleep(0.5)
            stop.set()
            allowed = max(0.1, 3 * max(await watcher))
            for shape in SHAPES:
                # About 1 MB: 39 steps of 20 KB observations and 4 KB errors of one adversarial shape.
                steps = [
                    {"action": "run the suite", "ok": False, "observation": shape, "error": shape[:4000]}
                    for _ in range(38)
                ] + [{"action": "fix it", "ok": True, "observation": shape}]
                payload = trajectory_payload(steps=steps, verifier={"name": "v", "passed": True})
                stop = asyncio.Event()
                watcher = asyncio.create_task(_healthz_latencies(health, stop))
                await asyncio.sleep(0.05)
                started = time.perf_counter()
                answer = await client.post("/v1/trajectories", json=payload)
                elapsed = time.perf_counter() - started
                stop.set()
                latencies = await watcher
                assert answer.status_code == 202, answer.text[:300]
                size = len(answer.request.content)
                assert size > 850_000, size
                # Within a second; on a machine so busy that redacting the same text here takes
                # longer than half of that, within twice what it takes here (measured now).
                text = json.dumps(payload)
                local = min(_timed(redact, text) for _ in range(2))
                assert elapsed < max(1.0, 2 * local), (shape[:20], elapsed, local)
                # Nearly every probe answers within the bound; none is held up by the work (a stall
                # grew with the input: 21 s for 20 KB). One outlier on a busy machine is noise.
                ordered = sorted(latencies)
                p95 = ordered[int(0.95 * (len(ordered) - 1))]
                assert p95 < allowed and ordered[-1] < 0.5, (shape[:20], p95, ordered[-1], allowed)
    finally:
        server.terminate()
        server.wait(60)
