"""The evolution worker loop: claim, merge, commit; one transaction per trajectory's job.

Any number of workers, in any number of processes on any number of machines, share only the
database. A job has two transactions:
1. the claim, short and committed at once: the oldest pending trajectory that no job holds (FOR
   UPDATE SKIP LOCKED) and no lease covers gets its attempt counted and a lease (`claimed_until`,
   CLAIM_LEASE_SECONDS); one whose attempts are used up is rejected instead. A slot claims up to
   `claim_batch` trajectories in one claim, all of them new (never tried: a trajectory being
   retried may be what stopped a worker, so it is claimed alone and costs its neighbours nothing);
   the i-th of a batch is leased for i × CLAIM_LEASE_SECONDS, since its job waits for those before
   it. The texts of the whole batch are embedded in one encoder request before any job starts;
2. the job, one per trajectory, one after the other: it re-locks the row (FOR UPDATE SKIP
   LOCKED), checks it is still pending at this attempt (another worker may have taken it over),
   merges, writes the version, the event and the trajectory's state, and commits, all or nothing.
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
from app.db import libpq_conninfo
from app.embeddings import EmbeddingService
from app.embeddings.service import KnownEmbeddings
from app.evolution.service import DEFAULT_MAX_ATTEMPTS, EvolutionService, JobResult
from app.models import Trajectory
from app.state import Runtime
from app.trajectories.repository import TrajectoryRepository, listen

log = logging.getLogger(__name__)

_RECONNECT_MAX_SECONDS = 30.0
CLAIM_LEASE_SECONDS = 5.0
DEFAULT_CLAIM_BATCH = 4
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
        claim_batch: int = DEFAULT_CLAIM_BATCH,
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
        self.claim_batch = claim_batch
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
        await asyncio.to_thread(self.service.warm)
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
        """Claim a batch of trajectories and process each in its own job; the last job's result,
        None when nothing is pending (or all are held). The first job's error is raised once every
        job of the batch has run (each failure is recorded on its own trajectory)."""
        while True:
            try:
                claims = await self._claim()
            except Exception as exc:
                log.warning("could not claim a trajectory (will retry): %s", exc)
                raise
            if not claims:
                return None
            embeddings = await self._embed_ahead([trajectory for _, trajectory in claims])
            result: JobResult | None = None
            error: Exception | None = None
            for index, (claim, _) in enumerate(claims):
                if index and self._stopping.is_set():
                    # Stopping: the job in hand is done; the rest of the batch goes back untouched.
                    await self._give_back([claim for claim, _ in claims[index:]])
                    break
                try:
                    done = await self._job(claim, embeddings)
                except Exception as exc:
                    error = error or exc
                    continue
                if done is not None:
                    result = done
            if error is not None:
                raise error
            if result is not None:
                return result
            # Other workers took these trajectories over (our leases had run out): look for others.

    async def _job(self, claim: Claim, embeddings: EmbeddingService) -> JobResult | None:
        """One trajectory's job under the time limit; None if it is no longer ours."""
        started = time.monotonic()
        limit = asyncio.timeout(self.job_timeout)
        try:
            async with limit:
                result = await self._process(claim, embeddings)
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
        if result is None:
            return None
        if result.state == "merged":
            self.stats.merged += 1
        else:
            self.stats.rejected += 1
        log.debug("trajectory %s %s: %s", result.trajectory_id, result.state, result.reason)
        return result

    async def _claim(self) -> list[tuple[Claim, Trajectory]]:
        """Count an attempt and take a lease on up to `claim_batch` new trajectories (or on one being
        retried), committed at once; reject what used up its attempts."""
        async with self.sessionmaker() as session, session.begin():
            trajectories = TrajectoryRepository(session)
            while rows := await trajectories.claimable(self.claim_batch):
                taken: list[Trajectory] = []
                for row in rows:
                    if row.attempts >= self.max_attempts:
                        self._reject_exhausted(row)
                        await trajectories.reject(row.id, self._exhausted_reason(row))
                        continue
                    if row.attempts > 0:
                        # A retry may be what stopped a worker: alone, it costs no neighbour an attempt.
                        taken = taken or [row]
                        break
                    taken.append(row)
                if taken:
                    attempts = await trajectories.lease_all([t.id for t in taken], self.lease_seconds)
                    return [(Claim(t.id, attempts[t.id]), t) for t in taken]
        return []

    @staticmethod
    def _exhausted_reason(row: Trajectory) -> str:
        # Its last attempt ended with its worker: a crash, a kill, an out-of-memory stop.
        return (
            f"processing was cut off {row.attempts} times: the worker stopped mid-job each time "
            "(a crash, a kill or out of memory)"
            + (f"; last error: {row.last_error}" if row.last_error else "")
        )

    def _reject_exhausted(self, row: Trajectory) -> None:
        self.stats.rejected += 1
        log.error("trajectory %s rejected: %s", row.id, self._exhausted_reason(row))

    async def _embed_ahead(self, trajectories: list[Trajectory]) -> EmbeddingService:
        """The batch's texts in one encoder request; its jobs find their vectors in hand. Should this
        fail, each job embeds its own (and meets the error, counted on its own trajectory)."""
        texts: list[str] = []
        for trajectory in trajectories:
            # A trajectory whose texts cannot be made meets the error again in its job, counted there.
            with contextlib.suppress(Exception):
                texts.extend(self.service.texts_to_embed(trajectory))
        unique = list(dict.fromkeys(texts))
        if len(trajectories) < 2 or not unique:
            return self.embeddings
        try:
            async with asyncio.timeout(self.job_timeout):
                vectors = await self.embeddings.embed_texts(unique)
        except Exception as exc:
            log.warning("could not embed a claimed batch ahead (each job embeds its own): %s", exc)
            return self.embeddings
        return KnownEmbeddings(self.embeddings, dict(zip(unique, vectors, strict=True)))

    async def _give_back(self, claims: list[Claim]) -> None:
        """Release claims whose jobs never started: their attempts are given back, their leases end."""
        async with self.sessionmaker() as session, session.begin():
            repo = TrajectoryRepository(session)
            for claim in claims:
                await repo.end_attempt(
                    claim.trajectory_id, claim.attempt, error=None, max_attempts=self.max_attempts
                )

    async def _process(self, claim: Claim, embeddings: EmbeddingService) -> JobResult | None:
        async with self.sessionmaker() as session, session.begin():
            trajectory = await TrajectoryRepository(session).relock(
                claim.trajectory_id, claim.attempt, settings=await self._limits(session)
            )
            if trajectory is None:
                return None
            return await self.service.process(session, trajectory, embeddings)

    async def _limits(self, session: AsyncSession) -> dict[str, str]:
        """Let the server end this job's session if its worker dies or hangs (not only the worker):
        set for the job's transaction by the statement that re-locks its trajectory."""
        version = (await session.connection()).dialect.server_version_info or (0,)
        limits = {"client_connection_check_interval": str(_CLIENT_CHECK_MS)}
        if version >= (17,):
            limits["transaction_timeout"] = str(
                int((self.job_timeout + _SERVER_TIMEOUT_GRACE_SECONDS) * 1000)
            )
        return limits

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
        claim_batch=settings.worker_claim_batch,
        service=EvolutionService.from_settings(settings),
        job_timeout=settings.worker_job_timeout_seconds,
    )
    log.info("evolution worker running in this process (%d slots)", settings.worker_concurrency)
    return BackgroundWorker(worker)
