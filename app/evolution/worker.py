"""The evolution worker loop: claim, merge, commit; one transaction per trajectory.

Any number of workers, in any number of processes on any number of machines, share only the
database: a claim is a row lock taken with FOR UPDATE SKIP LOCKED, so two workers never hold the
same trajectory, and a worker that dies mid-job (even SIGKILL) loses nothing: its transaction rolls
back and the trajectory is pending again. Idle workers sleep on LISTEN; POST /v1/trajectories sends
NOTIFY in its own transaction, so a worker wakes as soon as a trajectory is committed. A poll every
`poll_seconds` covers lost notifications and a lost LISTEN connection.

`concurrency` job slots run in one process; their embedding requests are micro-batched together by
the EmbeddingService, which is what lets one process keep its encoder busy while other slots wait on
the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from dataclasses import dataclass, field

import psycopg
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db import libpq_conninfo
from app.embeddings import EmbeddingService
from app.evolution.service import DEFAULT_MAX_ATTEMPTS, EvolutionService, JobResult
from app.state import Runtime
from app.trajectories.repository import TrajectoryRepository, listen

log = logging.getLogger(__name__)

_RECONNECT_MAX_SECONDS = 30.0


def _transient(exc: BaseException) -> bool:
    """Errors that say nothing about the trajectory (lost connection, deadlock): retry, don't count."""
    if isinstance(exc, OperationalError):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    cause = exc.__cause__ if isinstance(exc, DBAPIError) else exc
    return isinstance(
        cause,
        psycopg.errors.DeadlockDetected | psycopg.errors.SerializationFailure | psycopg.OperationalError,
    )


@dataclass
class WorkerStats:
    merged: int = 0
    rejected: int = 0
    failed: int = 0
    started: float = field(default_factory=time.monotonic)


class EvolutionWorker:
    def __init__(
        self,
        *,
        sessionmaker: async_sessionmaker[AsyncSession],
        database_url: str,
        embeddings: EmbeddingService,
        concurrency: int = 1,
        poll_seconds: float = 5.0,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        service: EvolutionService | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.database_url = database_url
        self.embeddings = embeddings
        self.concurrency = concurrency
        self.poll_seconds = poll_seconds
        self.max_attempts = max_attempts
        self.service = service or EvolutionService()
        self.stats = WorkerStats()
        self._stopping = asyncio.Event()
        self._wake = asyncio.Condition()
        self._generation = 0
        self.listening = asyncio.Event()

    def stop(self) -> None:
        """Ask the worker to stop: jobs in hand are finished and committed, no new one is claimed."""
        self._stopping.set()
        asyncio.get_running_loop().create_task(self._nudge())

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    async def run(self, *, drain: bool = False) -> WorkerStats:
        """Process trajectories until stop() (or, with `drain`, until none is pending)."""
        listener = None if drain else asyncio.create_task(self._listen(), name="genebank-worker-listen")
        try:
            await asyncio.gather(*(self._slot(drain) for _ in range(self.concurrency)))
        finally:
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listener
        return self.stats

    async def _slot(self, drain: bool) -> None:
        while not self._stopping.is_set():
            seen = self._generation
            try:
                result = await self.run_one()
            except Exception:
                # Already logged and counted; back off so a broken database is not hammered.
                await self._sleep(1.0)
                continue
            if result is None:
                if drain:
                    return
                await self._wait(seen)

    async def run_one(self) -> JobResult | None:
        """Claim and process one trajectory in its own transaction; None when nothing is pending."""
        claimed: uuid.UUID | None = None
        try:
            async with self.sessionmaker() as session, session.begin():
                trajectory = await TrajectoryRepository(session).claim_next(self.max_attempts)
                if trajectory is None:
                    return None
                claimed = trajectory.id
                result = await self.service.process(session, trajectory, self.embeddings)
        except Exception as exc:
            await self._failed(claimed, exc)
            raise
        if result.state == "merged":
            self.stats.merged += 1
        else:
            self.stats.rejected += 1
        log.debug("trajectory %s %s: %s", result.trajectory_id, result.state, result.reason)
        return result

    async def _failed(self, claimed: uuid.UUID | None, exc: Exception) -> None:
        self.stats.failed += 1
        if claimed is None or _transient(exc):
            log.warning("evolution job failed (will retry): %s", exc)
            return
        log.exception("evolution job for trajectory %s failed", claimed, exc_info=exc)
        error = f"{type(exc).__name__}: {exc}"[:2000]
        try:
            async with self.sessionmaker() as session, session.begin():
                rejected = await TrajectoryRepository(session).record_failure(
                    claimed, error, self.max_attempts
                )
            if rejected:
                log.error("trajectory %s rejected after %d failed attempts", claimed, self.max_attempts)
        except Exception:
            log.exception("could not record the failure of trajectory %s", claimed)

    async def _wait(self, seen: int) -> None:
        async with self._wake:
            if self._generation != seen or self._stopping.is_set():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll_seconds)

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=seconds)

    async def _nudge(self) -> None:
        async with self._wake:
            self._generation += 1
            self._wake.notify_all()

    async def _listen(self) -> None:
        delay = 1.0
        while not self._stopping.is_set():
            try:
                conn = await psycopg.AsyncConnection.connect(
                    libpq_conninfo(self.database_url),
                    autocommit=True,
                    application_name="genebank-worker-listen",
                )
                async with conn:
                    await listen(conn)
                    self.listening.set()
                    delay = 1.0
                    # Rows may have arrived while we were not listening.
                    await self._nudge()
                    async for _ in conn.notifies():
                        await self._nudge()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                log.warning(
                    "LISTEN connection lost (%s); polling every %.1f s meanwhile", exc, self.poll_seconds
                )
                await self._sleep(delay)
                delay = min(delay * 2, _RECONNECT_MAX_SECONDS)


class BackgroundWorker:
    """The worker as a task inside `genebank serve` (the embedded-database default)."""

    def __init__(self, worker: EvolutionWorker) -> None:
        self.worker = worker
        self.task = asyncio.create_task(worker.run(), name="genebank-worker")

    async def shutdown(self) -> None:
        self.worker.stop()
        try:
            await self.task
        except Exception:
            log.exception("the in-process evolution worker failed")


def runs_in_process(settings: Settings, embedded: bool) -> bool:
    if settings.run_worker == "auto":
        return embedded
    return settings.run_worker == "true"


def start_in_process_worker(runtime: Runtime) -> BackgroundWorker | None:
    settings = runtime.settings
    if not runs_in_process(settings, runtime.embedded is not None):
        return None
    worker = EvolutionWorker(
        sessionmaker=runtime.sessionmaker,
        database_url=runtime.database_url,
        embeddings=runtime.embeddings,
        concurrency=settings.worker_concurrency,
        poll_seconds=settings.worker_poll_seconds,
        max_attempts=settings.worker_max_attempts,
        service=EvolutionService.from_settings(settings),
    )
    log.info("evolution worker running in this process (%d slots)", settings.worker_concurrency)
    return BackgroundWorker(worker)
