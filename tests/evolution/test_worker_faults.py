"""Jobs that never finish: a trajectory whose job kills its worker, and a job over its time limit.

Both count an attempt each time, so the trajectory is rejected after GENEBANK_WORKER_MAX_ATTEMPTS
instead of being retried forever. The job is held by the test keeping the target Gene's row lock.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import libpq_conninfo
from app.embeddings import EmbeddingService
from app.evolution.worker import EvolutionWorker
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.models import GeneVersion, Trajectory
from app.trajectories.service import trajectory_service
from tests.evolution.builders import trajectory_in
from tests.factories import BASE_GENE, publish_payload
from tests.live import served_model_env

GENE_ID = BASE_GENE["id"]


async def _publish_and_submit(
    sessionmaker: async_sessionmaker[AsyncSession], embeddings: EmbeddingService
) -> uuid.UUID:
    async with sessionmaker.begin() as session:
        await gene_service.publish(session, PublishRequest.model_validate(publish_payload()), embeddings)
    body = trajectory_in(gene_id=GENE_ID, guards=["Never wait on the production database from a test"])
    async with sessionmaker.begin() as session:
        return (await trajectory_service.submit(session, body)).id


@asynccontextmanager
async def _gene_locked(url: str) -> AsyncIterator[None]:
    """Hold the target Gene's row lock: every merge into it waits until the block ends."""
    async with await psycopg.AsyncConnection.connect(libpq_conninfo(url)) as conn:
        await conn.execute("SELECT 1 FROM genes WHERE id = %s FOR UPDATE", (GENE_ID,))
        yield
        await conn.rollback()


async def _trajectory(sessionmaker: async_sessionmaker[AsyncSession], trajectory_id: uuid.UUID) -> Trajectory:
    async with sessionmaker() as session:
        found = await session.get(Trajectory, trajectory_id)
        assert found is not None
        return found


async def _poll(condition: Callable[[], Awaitable[Any]], within: float, what: str) -> Any:
    deadline = time.monotonic() + within
    while not (value := await condition()):
        assert time.monotonic() < deadline, f"{what} (within {within} s)"
        await asyncio.sleep(0.1)
    return value


async def _versions(sessionmaker: async_sessionmaker[AsyncSession]) -> int:
    async with sessionmaker() as session:
        return int(await session.scalar(select(func.count()).select_from(GeneVersion)) or 0)


async def test_a_job_over_its_time_limit_counts_and_is_retried_then_rejected(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    trajectory_id = await _publish_and_submit(committed, embeddings)
    worker = EvolutionWorker(
        sessionmaker=committed,
        database_url=migrated_url,
        embeddings=embeddings,
        max_attempts=2,
        job_timeout=1.0,
    )
    async with _gene_locked(migrated_url):
        started = time.monotonic()
        stats = await asyncio.wait_for(worker.run(drain=True), 60)
        elapsed = time.monotonic() - started
    trajectory = await _trajectory(committed, trajectory_id)
    assert trajectory.state == "rejected" and trajectory.attempts == 2
    assert trajectory.last_error is not None and "took longer than 1 s" in trajectory.last_error
    assert trajectory.state_reason is not None and "processing failed 2 times" in trajectory.state_reason
    assert stats.failed == 2 and stats.merged == 0
    assert elapsed < 20, f"two 1-second jobs took {elapsed:.1f} s"
    # The jobs were cut off before they wrote anything.
    assert await _versions(committed) == 1


def _start_worker(url: str, data_dir: Path) -> subprocess.Popen[bytes]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GENEBANK_")},
        "GENEBANK_DATABASE_URL": url,
        "GENEBANK_MIGRATE_ON_START": "false",
        "GENEBANK_DATA_DIR": str(data_dir),
        "GENEBANK_LOG_LEVEL": "warning",
        **served_model_env(),
        "GENEBANK_WORKER_CONCURRENCY": "1",
        "GENEBANK_WORKER_POLL_SECONDS": "0.5",
        "GENEBANK_WORKER_MAX_ATTEMPTS": "2",
    }
    command = [str(Path(sys.executable).with_name("genebank")), "worker"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.slow
async def test_a_trajectory_that_kills_its_worker_counts_each_attempt_and_ends_rejected(
    committed: async_sessionmaker[AsyncSession],
    migrated_url: str,
    embeddings: EmbeddingService,
    tmp_path: Path,
) -> None:
    trajectory_id = await _publish_and_submit(committed, embeddings)

    async def blocked_at(attempt: int) -> bool:
        """The job of this attempt is under way: counted, and waiting for the Gene's lock."""
        async with committed() as session:
            waiting = await session.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND application_name = 'genebank' AND wait_event_type = 'Lock'"
                )
            )
        return bool(waiting) and (await _trajectory(committed, trajectory_id)).attempts == attempt

    processes: list[subprocess.Popen[bytes]] = []
    try:
        async with _gene_locked(migrated_url):
            processes.append(first := _start_worker(migrated_url, tmp_path))
            await _poll(partial(blocked_at, 1), 120, "no worker took attempt 1")
            # The second worker starts (loads its model) while the first is stuck in the job: the
            # job's row lock keeps the trajectory from it until the kill.
            processes.append(second := _start_worker(migrated_url, tmp_path))
            for attempt, worker in ((1, first), (2, second)):
                await _poll(partial(blocked_at, attempt), 120, f"no worker took attempt {attempt}")
                worker.send_signal(signal.SIGKILL)  # as the kernel's out-of-memory killer would
                assert worker.wait(timeout=10) == -signal.SIGKILL
            assert (await _trajectory(committed, trajectory_id)).state == "pending"

            # The next worker finds the attempts used up: rejected, not tried a third time.
            processes.append(worker := _start_worker(migrated_url, tmp_path))

            async def rejected() -> Trajectory | None:
                found = await _trajectory(committed, trajectory_id)
                return found if found.state == "rejected" else None

            trajectory = await _poll(rejected, 120, "the trajectory was not rejected")
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=60) == 0, worker.stderr.read().decode() if worker.stderr else ""
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert trajectory.attempts == 2
    assert trajectory.state_reason is not None and "cut off 2 times" in trajectory.state_reason
    assert await _versions(committed) == 1
