"""Two API processes' worth of apps share one rate limit through a real Redis
(GENEBANK_RATE_LIMIT_STORAGE=async+redis://…); with the default in-memory storage each counts alone."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.external import redis_server
from tests.live import free_port


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [redis_server(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "redis-server did not answer in 20 s"
            time.sleep(0.05)
        yield f"async+redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


def _twin(app: FastAPI, storage: str) -> tuple[FastAPI, FastAPI]:
    """Two applications (as two API processes would be) over the same database and keys."""
    settings = app.state.settings.model_copy(
        update={"rate_limit_storage": storage, "rate_limit_reads": "5/minute"}
    )
    app.state.settings = settings
    other = create_app(settings)
    other.state.runtime = app.state.runtime
    other.dependency_overrides = app.dependency_overrides
    return app, other


async def _reads(apps: tuple[FastAPI, FastAPI], token: str, count: int) -> list[int]:
    """`count` reads, alternating between the two applications."""
    statuses = []
    for n in range(count):
        transport = httpx.ASGITransport(app=apps[n % 2])
        async with httpx.AsyncClient(transport=transport, base_url="http://genebank.test") as client:
            response = await client.get("/v1/genes", headers={"Authorization": f"Bearer {token}"})
            statuses.append(response.status_code)
    return statuses


async def test_processes_share_one_limit_through_redis(
    app: FastAPI, keys: dict[str, str], redis_url: str
) -> None:
    statuses = await _reads(_twin(app, redis_url), keys["consumer"], 8)
    assert statuses == [200] * 5 + [429] * 3


async def test_in_memory_limits_count_per_process(app: FastAPI, keys: dict[str, str]) -> None:
    statuses = await _reads(_twin(app, "async+memory://"), keys["producer"], 10)
    assert statuses == [200] * 10  # five each: what a shared storage is for
