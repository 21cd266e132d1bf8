"""Rules of the trajectories domain: accept a run as pending evidence, exactly once. Never commits."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM, Principal, Role
from app.cpu import THREADS, CpuPool
from app.errors import NotFound, ValidationFailed
from app.models import Trajectory, TrajectoryState
from app.schemas import TaskRef
from app.trajectories.content import text_size, trajectory_values
from app.trajectories.repository import TrajectoryRepository
from app.trajectories.schemas import Producer, TrajectoryIn, TrajectoryRead, draft_dict


class TrajectoryNotFound(NotFound):
    code = "trajectory-not-found"
    title = "Trajectory not found"


class IdempotencyKeyReused(ValidationFailed):
    code = "idempotency-key-reused"
    title = "Idempotency-Key already used for different content"


@dataclass(frozen=True)
class Submitted:
    id: uuid.UUID
    state: str
    created: bool


class TrajectoryService:
    async def submit(
        self,
        session: AsyncSession,
        body: TrajectoryIn,
        idempotency_key: str | None = None,
        submitter: Principal = SYSTEM,
        cpu: CpuPool = THREADS,
    ) -> Submitted:
        """Store the run as pending (redacted, content-hashed) and wake the workers when it commits.

        Everything is scoped to the submitting key: idempotency keys, and identical content (another
        key sending the same run gets its own trajectory, and learns nothing of the first).
        """
        assert submitter.key_id is not None
        # Redaction and hashing are CPU work proportional to the body: off the event loop, and off
        # its process too when the body is large (app/cpu.py).
        values = await cpu.run(
            text_size(body),
            trajectory_values,
            task=body.task,
            producer_model=body.producer.model,
            producer_agent=body.producer.agent,
            steps=body.steps,
            verifier=body.verifier,
            cost=body.cost,
            guards=list(body.guards) if body.guards is not None else None,
            gene_draft=draft_dict(body.gene_draft),
            target_gene_id=body.gene_id,
        )
        content_hash: str = values["content_hash"]
        values["submitted_by"] = submitter.key_id
        if idempotency_key is not None:
            idempotency_key = f"{submitter.key_id}:{idempotency_key}"
        repo = TrajectoryRepository(session)
        if idempotency_key is not None and (known := await repo.key(idempotency_key)) is not None:
            self._check_key(idempotency_key, known.content_hash, content_hash)
            return Submitted(known.trajectory_id, await repo.state_of(known.trajectory_id), created=False)

        inserted = await repo.insert_if_new(values)
        trajectory_id = inserted or await repo.id_by_hash(submitter.key_id, content_hash)
        assert trajectory_id is not None
        if idempotency_key is not None:
            # A concurrent request may have claimed the same key a moment ago, possibly for other content.
            stored = await repo.remember_key(idempotency_key, trajectory_id, content_hash)
            self._check_key(idempotency_key, stored.content_hash, content_hash)
        if inserted is not None:
            await repo.notify_pending()
            return Submitted(inserted, TrajectoryState.pending.value, created=True)
        return Submitted(trajectory_id, await repo.state_of(trajectory_id), created=False)

    @staticmethod
    def _check_key(key: str, stored_hash: str, content_hash: str) -> None:
        if stored_hash != content_hash:
            raise IdempotencyKeyReused(
                f"Idempotency-Key {key[:80]!r} was first used for a different trajectory; "
                "send a new key for new content",
            )

    async def get(self, session: AsyncSession, trajectory_id: uuid.UUID, reader: Principal) -> TrajectoryRead:
        """A producer reads its own runs; an admin reads any. Others' runs are "not found" alike."""
        submitter = None if reader.at_least(Role.admin) else reader.key_id
        trajectory = await TrajectoryRepository(session).get(trajectory_id, submitted_by=submitter)
        if trajectory is None:
            raise TrajectoryNotFound(f"no trajectory with id {trajectory_id}")
        return self.read_model(trajectory)

    @staticmethod
    def read_model(trajectory: Trajectory) -> TrajectoryRead:
        return TrajectoryRead(
            id=trajectory.id,
            state=trajectory.state,
            reason=trajectory.state_reason,
            gene_id=trajectory.result_gene_id,
            asset_id=trajectory.result_asset_id,
            closest_gene_id=trajectory.route_gene_id,
            closest_similarity=trajectory.route_similarity,
            task=TaskRef.model_construct(
                id=trajectory.task_id, family=trajectory.task_family, description=trajectory.task_description
            ),
            producer=Producer.model_construct(
                model=trajectory.producer_model, agent=trajectory.producer_agent
            ),
            verifier_passed=trajectory.verifier_passed,
            redactions=trajectory.redaction_count,
            received_at=trajectory.received_at,
            processed_at=trajectory.processed_at,
        )


trajectory_service = TrajectoryService()
