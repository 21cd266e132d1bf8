"""The worker loop on committed data: woken by NOTIFY, polling as a fallback, one transaction per job."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.principal import Role
from app.auth.service import key_service
from app.config import Settings
from app.embeddings import EmbeddingService
from app.embeddings.base import Vectors
from app.evolution.service import EvolutionService, JobResult
from app.evolution.worker import EvolutionWorker, runs_in_process
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.gep.document import guards_of
from app.main import create_app
from app.models import SYSTEM_KEY_ID, GeneVersion, Trajectory
from app.trajectories.content import trajectory_values
from app.trajectories.repository import TrajectoryRepository
from app.trajectories.service import trajectory_service
from tests.evolution.builders import trajectory_in, trajectory_payload
from tests.factories import BASE_GENE, publish_payload

GENE_ID = BASE_GENE["id"]


async def _publish(sessionmaker: async_sessionmaker[AsyncSession], embeddings: EmbeddingService) -> None:
    async with sessionmaker.begin() as session:
        await gene_service.publish(session, PublishRequest.model_validate(publish_payload()), embeddings)


async def _submit(sessionmaker: async_sessionmaker[AsyncSession], index: int, **overrides: Any) -> uuid.UUID:
    task = {
        "id": f"code-{index:04d}",
        "family": "code_generation",
        "description": "Run the client's tests offline",
    }
    overrides.setdefault("guards", [f"Do not call endpoint number {index} from tests"])
    body = trajectory_in(task=task, gene_id=GENE_ID, **overrides)
    async with sessionmaker.begin() as session:
        return (await trajectory_service.submit(session, body)).id


async def _state(sessionmaker: async_sessionmaker[AsyncSession], trajectory_id: uuid.UUID) -> Trajectory:
    async with sessionmaker() as session:
        trajectory = await session.get(Trajectory, trajectory_id)
        assert trajectory is not None
        return trajectory


async def _until_processed(
    sessionmaker: async_sessionmaker[AsyncSession], trajectory_id: uuid.UUID, within: float
) -> float:
    start = time.monotonic()
    while time.monotonic() - start < within:
        if (await _state(sessionmaker, trajectory_id)).state != "pending":
            return time.monotonic() - start
        await asyncio.sleep(0.02)
    raise AssertionError(f"trajectory {trajectory_id} still pending after {within} s")


async def _until(condition: Callable[[], bool], within: float) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"not within {within} s"
        await asyncio.sleep(0.01)


def _worker(
    sessionmaker: async_sessionmaker[AsyncSession], url: str, embeddings: EmbeddingService, **options: Any
) -> EvolutionWorker:
    return EvolutionWorker(sessionmaker=sessionmaker, database_url=url, embeddings=embeddings, **options)


async def test_notify_wakes_an_idle_worker_long_before_its_poll(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    await _publish(committed, embeddings)
    worker = _worker(committed, migrated_url, embeddings, poll_seconds=60)
    task = asyncio.create_task(worker.run())
    await asyncio.wait_for(worker.listening.wait(), 10)
    await _until(lambda: worker.idle_slots == worker.concurrency, within=10)  # every slot waits
    trajectory_id = await _submit(committed, 1)
    # Within 10 s, while the next poll is 60 s away: only the notification can have woken it.
    await _until_processed(committed, trajectory_id, within=10)
    assert (await _state(committed, trajectory_id)).state == "merged"
    worker.stop()
    stats = await asyncio.wait_for(task, 10)
    assert stats.merged == 1 and stats.failed == 0


async def test_polling_finds_rows_inserted_without_a_notification(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    await _publish(committed, embeddings)
    worker = _worker(committed, migrated_url, embeddings, poll_seconds=0.2)
    task = asyncio.create_task(worker.run())
    await asyncio.wait_for(worker.listening.wait(), 10)
    body = trajectory_in(gene_id=GENE_ID)
    values = trajectory_values(
        task=body.task,
        producer_model=body.producer.model,
        producer_agent=body.producer.agent,
        steps=body.steps,
        verifier=body.verifier,
        cost=body.cost,
        target_gene_id=body.gene_id,
    )
    values["submitted_by"] = SYSTEM_KEY_ID
    async with committed.begin() as session:
        trajectory_id = await TrajectoryRepository(session).insert_if_new(values)
    assert trajectory_id is not None
    await _until_processed(committed, trajectory_id, within=10)
    worker.stop()
    await asyncio.wait_for(task, 10)


class GatedEmbedder:
    """The real model behind a gate: a test holds a job in the middle of its work."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.entered = threading.Event()
        self.gate = threading.Event()

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.entered.set()
        assert self.gate.wait(30)
        vectors: Vectors = self.inner.encode(texts)
        return vectors


async def test_graceful_stop_finishes_the_job_in_hand_and_claims_no_other(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    await _publish(committed, embeddings)
    gated = GatedEmbedder(embeddings.embedder)
    slow = EmbeddingService(gated)
    first, second = await _submit(committed, 1), await _submit(committed, 2)
    worker = _worker(committed, migrated_url, slow, concurrency=1, poll_seconds=60)
    task = asyncio.create_task(worker.run())
    assert await asyncio.to_thread(gated.entered.wait, 10)
    worker.stop()
    assert worker.stopping  # at once: the slot will claim nothing after the job in hand
    gated.gate.set()
    await asyncio.wait_for(task, 30)
    slow.close()
    assert (await _state(committed, first)).state == "merged"
    # Claimed in the same batch as the first, never started: given back untouched, attempt and all.
    left = await _state(committed, second)
    assert left.state == "pending" and left.attempts == 0 and left.claimed_until is None


async def test_a_claim_takes_a_batch_of_new_trajectories_but_a_retried_one_alone(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    await _publish(committed, embeddings)
    ids = [await _submit(committed, index) for index in range(6)]
    async with committed.begin() as session:  # the third was tried once already (its worker died)
        await session.execute(update(Trajectory).where(Trajectory.id == ids[2]).values(attempts=1))
    worker = _worker(committed, migrated_url, embeddings, claim_batch=4, lease_seconds=30)

    async def claim() -> list[tuple[uuid.UUID, int, float]]:
        claims = await worker._claim()
        async with committed() as session:
            leases = dict(
                (
                    await session.execute(
                        select(
                            Trajectory.id, func.extract("epoch", Trajectory.claimed_until - func.now())
                        ).where(Trajectory.id.in_([c.trajectory_id for c, _ in claims]))
                    )
                ).all()
            )
        return [(c.trajectory_id, c.attempt, float(leases[c.trajectory_id])) for c, _ in claims]

    # The new ones up to the retried one; the i-th leased for i x 30 s (its job waits for those before it).
    first = await claim()
    assert [(i, a) for i, a, _ in first] == [(ids[0], 1), (ids[1], 1)]
    assert 25 < first[0][2] <= 30 and 55 < first[1][2] <= 60
    # The retried one alone: should it be what stops workers, it costs no neighbour an attempt.
    assert [(i, a) for i, a, _ in await claim()] == [(ids[2], 2)]
    # Then up to claim_batch new ones.
    assert [i for i, _, _ in await claim()] == ids[3:6]
    assert await claim() == []


async def test_a_batch_is_embedded_in_one_request_and_merges_as_one_by_one(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    await _publish(committed, embeddings)
    guards = [
        "Do not call the billing endpoint from tests",
        "Never edit the generated lockfile by hand",
        "Avoid sleeping in async fixtures; await the readiness event instead",
        "Do not read secrets from the environment in unit tests",
    ]
    ids = [await _submit(committed, index, guards=[guard]) for index, guard in enumerate(guards)]
    counting = CountingEmbedder(embeddings.embedder)
    service = EmbeddingService(counting, cache_size=0, batch_size=64)
    stats = await _worker(committed, migrated_url, service, concurrency=1, claim_batch=4).run(drain=True)
    service.close()
    assert stats.merged == 4 and stats.failed == 0
    # The four runs' guards, routing texts and tasks went to the encoder as one request, shortest first.
    first = counting.calls[0]
    assert first == sorted(first, key=len)
    assert set(guards) <= set(first)
    assert "Run the client's tests offline" in first  # the task, a search key of the Gene
    async with committed() as session:
        versions = (await session.scalars(select(GeneVersion).order_by(GeneVersion.version))).all()
        merged = [await _state(committed, i) for i in ids]
    # One version per run, in claim order, each adding its run's guard to the one before.
    assert [v.version for v in versions] == [1, 2, 3, 4, 5]
    assert [t.result_asset_id for t in merged] == [v.asset_id for v in versions[1:]]
    for index, version in enumerate(versions[1:]):
        served = set(guards_of(version.document))
        assert set(guards[: index + 1]) <= served and not served & set(guards[index + 1 :])


class CountingEmbedder:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        vectors: Vectors = self.inner.encode(texts)
        return vectors


async def test_a_job_cut_off_mid_way_leaves_the_trajectory_pending(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    await _publish(committed, embeddings)
    gated = GatedEmbedder(embeddings.embedder)
    slow = EmbeddingService(gated)
    trajectory_id = await _submit(committed, 1)
    cut = _worker(committed, migrated_url, slow, poll_seconds=60, lease_seconds=0.5)
    task = asyncio.create_task(cut.run())
    assert await asyncio.to_thread(gated.entered.wait, 10)
    task.cancel()  # the process dies mid-job: its transaction never commits
    with pytest.raises(asyncio.CancelledError):
        await task
    gated.gate.set()
    slow.close()
    cut_off = await _state(committed, trajectory_id)
    # Nothing of the job is written, but its attempt counts (it might have been what killed the process).
    assert cut_off.state == "pending" and cut_off.attempts == 1

    await _until_lease_ends(committed, trajectory_id, within=10)
    stats = await _worker(committed, migrated_url, embeddings).run(drain=True)
    assert stats.merged == 1
    assert (await _state(committed, trajectory_id)).attempts == 2
    async with committed() as session:
        assert await session.scalar(select(func.count()).select_from(GeneVersion)) == 2


async def _until_lease_ends(
    sessionmaker: async_sessionmaker[AsyncSession], trajectory_id: uuid.UUID, within: float
) -> None:
    deadline = time.monotonic() + within
    while True:
        async with sessionmaker() as session:
            leased = await session.scalar(
                select(Trajectory.claimed_until > func.now()).where(Trajectory.id == trajectory_id)
            )
        if not leased:
            return
        assert time.monotonic() < deadline, f"the lease on {trajectory_id} did not end within {within} s"
        await asyncio.sleep(0.05)


class Exploding(EvolutionService):
    async def process(
        self, session: AsyncSession, trajectory: Trajectory, embeddings: EmbeddingService
    ) -> JobResult:
        raise RuntimeError("the merge code has a bug")


async def test_a_job_that_keeps_failing_is_retried_then_rejected(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    trajectory_id = await _submit(committed, 1)
    worker = _worker(committed, migrated_url, embeddings, max_attempts=2, service=Exploding(actor="test"))
    stats = await asyncio.wait_for(worker.run(drain=True), 30)
    assert stats.failed == 2 and stats.merged == 0
    trajectory = await _state(committed, trajectory_id)
    assert trajectory.state == "rejected" and trajectory.attempts == 2
    assert trajectory.last_error == "RuntimeError: the merge code has a bug"
    assert trajectory.state_reason is not None and "failed 2 times" in trajectory.state_reason


@pytest.mark.parametrize(
    ("setting", "embedded", "expected"),
    [("auto", True, True), ("auto", False, False), ("true", False, True), ("false", True, False)],
)
def test_the_in_process_worker_runs_on_the_embedded_database_by_default(
    setting: str, embedded: bool, expected: bool
) -> None:
    assert runs_in_process(Settings(run_worker=setting), embedded) is expected  # type: ignore[arg-type]


async def test_serve_on_its_own_runs_a_worker_that_merges_what_the_api_accepts(
    scratch_url: str, tmp_path: Any
) -> None:
    settings = Settings(
        database_url=scratch_url, data_dir=tmp_path, run_worker="true", worker_poll_seconds=60
    )  # type: ignore[arg-type]
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        async with app.state.runtime.sessionmaker.begin() as session:
            created = await key_service.create(session, name="producer", role=Role.producer, created_by=None)
        transport = httpx.ASGITransport(app=app)
        headers = {"Authorization": f"Bearer {created.token}"}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://genebank.test", headers=headers
        ) as client:
            assert (await client.post("/v1/genes", json=publish_payload())).status_code == 201
            accepted = await client.post(
                "/v1/trajectories", json=trajectory_payload(gene_id=GENE_ID, guards=["Never log the API key"])
            )
            location = accepted.headers["location"]
            deadline = time.monotonic() + 20
            while (state := (await client.get(location)).json())["state"] == "pending":
                assert time.monotonic() < deadline, "the in-process worker did not merge the trajectory"
                await asyncio.sleep(0.05)
            assert state["state"] == "merged" and state["gene_id"] == GENE_ID
            gene = (await client.get(f"/v1/genes/{GENE_ID}")).json()
            assert gene["version"] == 2 and "Never log the API key" in guards_of(gene["document"])
