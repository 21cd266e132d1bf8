"""The evolution worker loop: claim, merge, commit; one transaction per trajectory's job.

Any number of workers, in any number of processes on any number of machines, share only the
database. A job has two transactions:
1. the claim, short and committed at once: the oldest pending trajectory that no job holds (FOR
   UPDATE SKIP LOCKED) and no lease covers gets its attempt counted and a lease (`claimed_until`,
   CLAIM_LEASE_SECONDS); one whose attempts are used up is rejected instead;
2. the job: it re-locks the row (FOR UPDATE SKIP LOCKED), checks it is still pending at this
   attempt (another worker may have taken it over), merges, writes the version, the event and the
   trajectory's state, and commits, all or nothing.
A worker that dies mid-job (even SIGKILL, or an out-of-memory kill) loses nothing: its job rolls
back and the trajectory is pending again, but its attempt stays counted, so a trajectory that kills
every worker that touches it is rejected after `max_attempts` instead of looping forever. The job's
row lock keeps every other worker off it while it runs; the lease covers the moment between the
claim and that lock, and is the wait before a dead worker's trajectory is retried. The server
notices a dead worker's session within a second (client_connection_check_interval) even while it
waits for a lock, and lets go of the row.

Each job has a time limit (`job_timeout`): past it the job is cancelled (the query in flight is
cancelled on the server too), rolled back, and the attempt counts as failed with that reason;
PostgreSQL's transaction_timeout ends the session a little later should the worker itself hang.
An exception counts likewise; a lost connection or a deadlock gives its attempt back.

Idle workers sleep on LISTEN; POST /v1/trajectories sends NOTIFY in its own transaction, so a worker
wakes as soon as a trajectory is committed. A poll every `poll_seconds` covers lost notifications
and a lost LISTEN connection.

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
from app.db import libpq_conninfo, set_local
from app.embeddings import EmbeddingService
from app.evolution.service import DEFAULT_MAX_ATTEMPTS, EvolutionService, JobResult
from app.state import Runtime
from app.trajectories.repository import TrajectoryRepository, listen

log = logging.getLogger(__name__)

_RECONNECT_MAX_SECONDS = 30.0
CLAIM_LEASE_SECONDS = 5.0
DEFAULT_JOB_TIMEOUT_SECONDS = 120.0
# The server's own limit on a job's transaction comes this much later than the worker's.
_SERVER_TIMEOUT_GRACE_SECONDS = 10.0
# How often the server checks, while it runs or waits, that a job's worker is still connected.
_CLIENT_CHECK_MS = 1000


class JobTimeout(Exception):
    """The job ran past the worker's time limit."""


@dataclass(frozen=True)
class Claim:
    trajectory_id: uuid.UUID
    attempt: int


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
        job_timeout: float = DEFAULT_JOB_TIMEOUT_SECONDS,
        lease_seconds: float = CLAIM_LEASE_SECONDS,
        service: EvolutionService | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.database_url = database_url
        self.embeddings = embeddings
        self.concurrency = concurrency
        self.poll_seconds = poll_seconds
        self.max_attempts = max_attempts
        self.job_timeout = job_timeout
        self.lease_seconds = lease_seconds
        self.service = service or EvolutionService()
        self.stats = WorkerStats()
        self._stopping = asyncio.Event()
        self._wake = asyncio.Condition()
        self._generation = 0
        self.listening = asyncio.Event()
        # Slots waiting for work (for operators and tests: "idle" means every slot waits).
        self.idle_slots = 0

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
        """Claim and process one trajectory; None when nothing is pending (or all are held)."""
        while True:
            try:
                claim = await self._claim()
            except Exception as exc:
                log.warning("could not claim a trajectory (will retry): %s", exc)
                raise
            if claim is None:
                return None
            started = time.monotonic()
            limit = asyncio.timeout(self.job_timeout)
            try:
                async with limit:
                    result = await self._process(claim)
            except Exception as exc:
                if limit.expired() or time.monotonic() - started > self.job_timeout:
                    timeout = JobTimeout(
                        f"processing took longer than {self.job_timeout:g} s "
                        "(GENEBANK_WORKER_JOB_TIMEOUT_SECONDS)"
                    )
                    await self._failed(claim, timeout)
                    raise timeout from exc
                await self._failed(claim, exc)
                raise
            if result is not None:
                break
            # Another worker took this trajectory over (our lease had run out): look for another.
        if result.state == "merged":
            self.stats.merged += 1
        else:
            self.stats.rejected += 1
        log.debug("trajectory %s %s: %s", result.trajectory_id, result.state, result.reason)
        return result

    async def _claim(self) -> Claim | None:
        """Count an attempt and take a lease, committed at once; reject what used up its attempts."""
        async with self.sessionmaker() as session, session.begin():
            trajectories = TrajectoryRepository(session)
            while (row := await trajectories.next_claimable()) is not None:
                trajectory_id, attempts, last_error = row
                if attempts < self.max_attempts:
                    return Claim(trajectory_id, await trajectories.lease(trajectory_id, self.lease_seconds))
                # Its last attempt ended with its worker: a crash, a kill, an out-of-memory stop.
                reason = (
                    f"processing was cut off {attempts} times: the worker stopped mid-job each time "
                    "(a crash, a kill or out of memory)"
                    + (f"; last error: {last_error}" if last_error else "")
                )
                await trajectories.reject(trajectory_id, reason)
                self.stats.rejected += 1
                log.error("trajectory %s rejected: %s", trajectory_id, reason)
        return None

    async def _process(self, claim: Claim) -> JobResult | None:
        async with self.sessionmaker() as session, session.begin():
            await self._limit(session)
            trajectory = await TrajectoryRepository(session).relock(claim.trajectory_id, claim.attempt)
            if trajectory is None:
                return None
            return await self.service.process(session, trajectory, self.embeddings)

    async def _limit(self, session: AsyncSession) -> None:
        """Let the server end this job's session if its worker dies or hangs (not only the worker)."""
        version = (await session.connection()).dialect.server_version_info or (0,)
        limits = {"client_connection_check_interval": str(_CLIENT_CHECK_MS)}
        if version >= (17,):
            limits["transaction_timeout"] = str(
                int((self.job_timeout + _SERVER_TIMEOUT_GRACE_SECONDS) * 1000)
            )
        await set_local(session, limits)

    async def _failed(self, claim: Claim, exc: Exception) -> None:
        """End the attempt: record its error (rejecting at the limit), or give a transient one back."""
        self.stats.failed += 1
        error: str | None
        if _transient(exc):
            log.warning("evolution job failed (will retry): %s", exc)
            error = None
        else:
            if isinstance(exc, JobTimeout):
                log.error("evolution job for trajectory %s: %s", claim.trajectory_id, exc)
            else:
                log.exception("evolution job for trajectory %s failed", claim.trajectory_id, exc_info=exc)
            error = f"{type(exc).__name__}: {exc}"[:2000]
        try:
            async with self.sessionmaker() as session, session.begin():
                rejected = await TrajectoryRepository(session).end_attempt(
                    claim.trajectory_id, claim.attempt, error=error, max_attempts=self.max_attempts
                )
            if rejected:
                self.stats.rejected += 1
                log.error(
                    "trajectory %s rejected after %d failed attempts", claim.trajectory_id, self.max_attempts
                )
        except Exception:
            log.exception("could not record the failure of trajectory %s", claim.trajectory_id)

    async def _wait(self, seen: int) -> None:
        async with self._wake:
            if self._generation != seen or self._stopping.is_set():
                return
            self.idle_slots += 1
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=self.poll_seconds)
            finally:
                self.idle_slots -= 1

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
        job_timeout=settings.worker_job_timeout_seconds,
    )
    log.info("evolution worker running in this process (%d slots)", settings.worker_concurrency)
    return BackgroundWorker(worker)
