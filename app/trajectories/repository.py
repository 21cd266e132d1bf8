"""Every SQL statement on trajectories, their idempotency keys and the worker's queue."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import ColumnElement, Row, func, insert, literal, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import ARRAY, UUID
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

from app.models import EvolutionEvent, Trajectory, TrajectoryKey, TrajectoryState
from app.trajectories.schemas import RunFilters

# LISTEN/NOTIFY channel: POST /v1/trajectories notifies it, the workers listen.
CHANNEL = "genebank_trajectories"
# What a list of runs shows of each (TrajectoryRead): never the steps, the largest column by far.
_LISTED = (
    Trajectory.id,
    Trajectory.state,
    Trajectory.state_reason,
    Trajectory.result_gene_id,
    Trajectory.result_asset_id,
    Trajectory.route_gene_id,
    Trajectory.route_similarity,
    Trajectory.task_id,
    Trajectory.task_family,
    Trajectory.task_description,
    Trajectory.producer_model,
    Trajectory.producer_agent,
    Trajectory.verifier_passed,
    Trajectory.redaction_count,
    Trajectory.received_at,
    Trajectory.processed_at,
)


def _run_conditions(filters: RunFilters) -> list[ColumnElement[bool]]:
    """Every filter but the state (the counts per state share them)."""
    conditions: list[ColumnElement[bool]] = []
    if filters.key_id is not None:
        conditions.append(Trajectory.submitted_by == filters.key_id)
    if filters.gene_id is not None:
        gene = filters.gene_id
        # A run's Gene: the one it was merged into, the one it named, or the closest one it was compared with.
        conditions.append(
            or_(
                Trajectory.result_gene_id == gene,
                Trajectory.target_gene_id == gene,
                Trajectory.route_gene_id == gene,
            )
        )
    if filters.task_family is not None:
        conditions.append(Trajectory.task_family == filters.task_family)
    if filters.since is not None:
        conditions.append(Trajectory.received_at >= filters.since)
    if filters.until is not None:
        conditions.append(Trajectory.received_at < filters.until)
    return conditions


async def listen(conn: psycopg.AsyncConnection[Any]) -> None:
    """Subscribe an autocommit connection to the channel the API notifies on."""
    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))


class TrajectoryRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def insert_if_new(self, values: dict[str, Any]) -> uuid.UUID | None:
        """Insert a trajectory; None when its key already sent the same content (or is sending it)."""
        stmt = (
            pg_insert(Trajectory)
            .values(**values)
            .on_conflict_do_nothing(index_elements=[Trajectory.submitted_by, Trajectory.content_hash])
            .returning(Trajectory.id)
        )
        inserted: uuid.UUID | None = (await self.session.execute(stmt)).scalar_one_or_none()
        return inserted

    async def id_by_hash(self, submitted_by: uuid.UUID, content_hash: str) -> uuid.UUID | None:
        found: uuid.UUID | None = await self.session.scalar(
            select(Trajectory.id).where(
                Trajectory.submitted_by == submitted_by, Trajectory.content_hash == content_hash
            )
        )
        return found

    async def add(self, values: dict[str, Any]) -> uuid.UUID:
        """Insert a trajectory, or return the id of the one its key already sent with the same content."""
        inserted = await self.insert_if_new(values)
        if inserted is not None:
            return inserted
        existing = await self.id_by_hash(values["submitted_by"], values["content_hash"])
        assert existing is not None
        return existing

    async def exists(self, trajectory_id: uuid.UUID, *, submitted_by: uuid.UUID | None) -> bool:
        """Whether the trajectory exists (and, given `submitted_by`, was sent by that key)."""
        stmt = select(Trajectory.id).where(Trajectory.id == trajectory_id)
        if submitted_by is not None:
            stmt = stmt.where(Trajectory.submitted_by == submitted_by)
        return await self.session.scalar(stmt) is not None

    async def get(
        self, trajectory_id: uuid.UUID, *, submitted_by: uuid.UUID | None = None
    ) -> Trajectory | None:
        """The trajectory (only if `submitted_by` sent it, when given)."""
        trajectory = await self.session.get(Trajectory, trajectory_id)
        if trajectory is None or (submitted_by is not None and trajectory.submitted_by != submitted_by):
            return None
        return trajectory

    async def state_of(self, trajectory_id: uuid.UUID) -> str:
        state: str | None = await self.session.scalar(
            select(Trajectory.state).where(Trajectory.id == trajectory_id)
        )
        assert state is not None
        return state

    async def queue(self) -> tuple[dict[str, int], datetime | None, int]:
        """Counts per state, the oldest pending run's arrival and how many pending runs were tried."""
        counts = {
            state: count
            for state, count in (
                await self.session.execute(select(Trajectory.state, func.count()).group_by(Trajectory.state))
            ).all()
        }
        oldest, retrying = (
            await self.session.execute(
                select(func.min(Trajectory.received_at), func.count().filter(Trajectory.attempts > 0)).where(
                    Trajectory.state == TrajectoryState.pending.value
                )
            )
        ).one()
        return counts, oldest, retrying

    async def runs(
        self, filters: RunFilters, *, before: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> Sequence[Trajectory]:
        """Newest first; `before` is where the previous page ended (received_at, id)."""
        stmt = select(Trajectory).options(load_only(*_LISTED)).where(*_run_conditions(filters))
        if filters.state is not None:
            stmt = stmt.where(Trajectory.state == filters.state)
        if before is not None:
            bound = tuple_(literal(before[0]), literal(before[1]))
            stmt = stmt.where(tuple_(Trajectory.received_at, Trajectory.id) < bound)
        stmt = stmt.order_by(Trajectory.received_at.desc(), Trajectory.id.desc()).limit(limit)
        return (await self.session.scalars(stmt.execution_options(populate_existing=True))).all()

    async def state_counts(self, filters: RunFilters) -> dict[str, int]:
        """Runs per state under the filters, the state filter aside."""
        stmt = (
            select(Trajectory.state, func.count()).where(*_run_conditions(filters)).group_by(Trajectory.state)
        )
        return {state: count for state, count in (await self.session.execute(stmt)).all()}

    async def key(self, key: str) -> TrajectoryKey | None:
        return await self.session.get(TrajectoryKey, key)

    async def remember_key(self, key: str, trajectory_id: uuid.UUID, content_hash: str) -> TrajectoryKey:
        """Record the key, or return what a concurrent request already recorded under it."""
        await self.session.execute(
            pg_insert(TrajectoryKey)
            .values(key=key, trajectory_id=trajectory_id, content_hash=content_hash)
            .on_conflict_do_nothing(index_elements=[TrajectoryKey.key])
        )
        stored = await self.session.scalar(
            select(TrajectoryKey).where(TrajectoryKey.key == key).execution_options(populate_existing=True)
        )
        assert stored is not None
        return stored

    async def notify_pending(self) -> None:
        # Delivered when the transaction commits, so a worker never wakes up before the row is visible.
        await self.session.execute(select(func.pg_notify(CHANNEL, "")))

    async def finish(
        self,
        trajectory_id: uuid.UUID,
        *,
        state: TrajectoryState,
        reason: str,
        gene_id: str | None = None,
        asset_id: str | None = None,
        route_gene_id: str | None = None,
        route_similarity: float | None = None,
        event: dict[str, Any] | None = None,
    ) -> None:
        """The trajectory's final state; `event`: the evolution event of its merge (the values of a
        GeneRepository.add_event), inserted by the same statement."""
        stmt = (
            update(Trajectory)
            .where(Trajectory.id == trajectory_id)
            .values(
                state=state.value,
                state_reason=reason,
                result_gene_id=gene_id,
                result_asset_id=asset_id,
                route_gene_id=route_gene_id,
                route_similarity=route_similarity,
                # The end of the job (not the start of its transaction): the moment it was merged.
                processed_at=func.clock_timestamp(),
            )
        )
        if event is not None:
            events = EvolutionEvent.metadata.tables["evolution_events"]
            stmt = stmt.add_cte(insert(events).values(**event).cte("event"))
        await self.session.execute(stmt)

    async def waiting_to_found(
        self, task_family: str | None, reason_prefix: str, *, exclude: uuid.UUID, days: int, limit: int
    ) -> Sequence[Trajectory]:
        """Passed runs of `task_family` held back from founding (their reason starts with
        `reason_prefix`) in the last `days`, newest first."""
        family = (
            Trajectory.task_family.is_(None) if task_family is None else Trajectory.task_family == task_family
        )
        stmt = (
            select(Trajectory)
            .where(
                family,
                Trajectory.state == TrajectoryState.rejected.value,
                Trajectory.verifier_passed,
                Trajectory.result_gene_id.is_(None),
                Trajectory.state_reason.startswith(reason_prefix, autoescape=True),
                Trajectory.received_at > func.now() - timedelta(days=days),
                Trajectory.id != exclude,
            )
            .order_by(Trajectory.received_at.desc())
            .limit(limit)
        )
        return (await self.session.scalars(stmt)).all()

    async def next_claimable(self) -> Row[uuid.UUID, int, str | None] | None:
        """Lock the oldest pending trajectory that no job holds and no lease covers."""
        stmt = (
            select(Trajectory.id, Trajectory.attempts, Trajectory.last_error)
            .where(
                Trajectory.state == TrajectoryState.pending.value,
                or_(Trajectory.claimed_until.is_(None), Trajectory.claimed_until < func.now()),
            )
            .order_by(Trajectory.received_at, Trajectory.id)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        return (await self.session.execute(stmt)).first()

    async def claimable(self, limit: int) -> Sequence[Trajectory]:
        """Lock up to `limit` of the oldest pending trajectories that no job holds and no lease covers."""
        stmt = (
            select(Trajectory)
            .where(
                Trajectory.state == TrajectoryState.pending.value,
                or_(Trajectory.claimed_until.is_(None), Trajectory.claimed_until < func.now()),
            )
            .order_by(Trajectory.received_at, Trajectory.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
        return (await self.session.scalars(stmt)).all()

    async def lease_all(self, trajectory_ids: Sequence[uuid.UUID], seconds: float) -> dict[uuid.UUID, int]:
        """Count an attempt on each and hold the i-th (from 0) for (i + 1) × `seconds`: a batch's
        jobs run one after the other. Each one's attempt number."""
        position = func.array_position(
            literal(list(trajectory_ids), ARRAY(UUID(as_uuid=True))), Trajectory.id
        )
        rows = await self.session.execute(
            update(Trajectory)
            .where(Trajectory.id.in_(list(trajectory_ids)))
            .values(
                attempts=Trajectory.attempts + 1,
                claimed_until=func.now() + func.make_interval(0, 0, 0, 0, 0, 0, position * seconds),
            )
            .returning(Trajectory.id, Trajectory.attempts)
        )
        return {row[0]: int(row[1]) for row in rows}

    async def lease(self, trajectory_id: uuid.UUID, seconds: float) -> int:
        """Count an attempt and hold the trajectory for `seconds`; the attempt's number."""
        attempt = await self.session.scalar(
            update(Trajectory)
            .where(Trajectory.id == trajectory_id)
            .values(
                attempts=Trajectory.attempts + 1,
                claimed_until=func.now() + timedelta(seconds=seconds),
            )
            .returning(Trajectory.attempts)
        )
        assert attempt is not None
        return int(attempt)

    async def relock(
        self, trajectory_id: uuid.UUID, attempt: int, *, settings: dict[str, str] | None = None
    ) -> Trajectory | None:
        """The job's own lock on its trajectory; None if it is no longer this attempt's to process.

        `settings`: PostgreSQL settings for the rest of the transaction (SET LOCAL), set by the same
        statement (one round trip), before the job waits for any lock."""
        # Computed with the row it returns (no row, no job: then nothing needs them).
        limits = [func.set_config(name, value, True) for name, value in (settings or {}).items()]
        stmt = (
            select(Trajectory, *limits)
            .where(
                Trajectory.id == trajectory_id,
                Trajectory.state == TrajectoryState.pending.value,
                Trajectory.attempts == attempt,
            )
            .with_for_update(of=Trajectory, skip_locked=True)
            .execution_options(populate_existing=True)
        )
        row = (await self.session.execute(stmt)).first()
        return None if row is None else row[0]

    async def reject(self, trajectory_id: uuid.UUID, reason: str) -> None:
        await self.session.execute(
            update(Trajectory)
            .where(Trajectory.id == trajectory_id, Trajectory.state == TrajectoryState.pending.value)
            .values(state=TrajectoryState.rejected.value, state_reason=reason, processed_at=func.now())
        )

    async def end_attempt(
        self, trajectory_id: uuid.UUID, attempt: int, *, error: str | None, max_attempts: int
    ) -> bool:
        """Release a failed attempt: record its error, or (error None) give the attempt back.

        At the limit the trajectory is rejected with the error; True when it was.
        """
        mine = (
            Trajectory.id == trajectory_id,
            Trajectory.state == TrajectoryState.pending.value,
            Trajectory.attempts == attempt,
        )
        if error is None:
            await self.session.execute(
                update(Trajectory).where(*mine).values(attempts=Trajectory.attempts - 1, claimed_until=None)
            )
            return False
        exhausted = attempt >= max_attempts
        reason = f"processing failed {attempt} times; last error: {error}"
        result = await self.session.execute(
            update(Trajectory)
            .where(*mine)
            .values(
                last_error=error,
                claimed_until=None,
                state=TrajectoryState.rejected.value if exhausted else TrajectoryState.pending.value,
                state_reason=reason if exhausted else None,
                processed_at=func.now() if exhausted else None,
            )
            .returning(Trajectory.state)
        )
        return result.scalar_one_or_none() == TrajectoryState.rejected.value
