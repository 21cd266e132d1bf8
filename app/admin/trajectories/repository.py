"""The admin's statements on trajectories: lists, one run, and what it became."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Row, literal, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.common import AnyRow
from app.models import (
    EvolutionEvent,
    GeneVersion,
    Guard,
    Trajectory,
    guard_evidence,
    version_trajectories,
)

_TRAJECTORY_SUMMARY = (
    Trajectory.id,
    Trajectory.task_id,
    Trajectory.task_family,
    Trajectory.task_description,
    Trajectory.producer_model,
    Trajectory.producer_agent,
    Trajectory.verifier,
    Trajectory.verifier_passed,
    Trajectory.state,
    Trajectory.state_reason,
    Trajectory.redaction_count,
    Trajectory.cost_tokens,
    Trajectory.result_gene_id,
    Trajectory.received_at,
    Trajectory.processed_at,
    Trajectory.attempts,
    Trajectory.last_error,
)


class AdminTrajectoryRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def trajectories(
        self,
        *,
        state: str | None,
        producer_model: str | None,
        gene_id: str | None,
        oldest_first: bool,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> Sequence[AnyRow]:
        stmt = select(*_TRAJECTORY_SUMMARY)
        if state is not None:
            stmt = stmt.where(Trajectory.state == state)
        if producer_model is not None:
            stmt = stmt.where(Trajectory.producer_model == producer_model)
        if gene_id is not None:
            stmt = stmt.where(or_(Trajectory.result_gene_id == gene_id, Trajectory.target_gene_id == gene_id))
        key = tuple_(Trajectory.received_at, Trajectory.id)
        if before is not None:
            bound = tuple_(literal(before[0]), literal(before[1]))
            stmt = stmt.where(key > bound if oldest_first else key < bound)
        columns = (Trajectory.received_at, Trajectory.id)
        order = [c.asc() if oldest_first else c.desc() for c in columns]
        return (await self.session.execute(stmt.order_by(*order).limit(limit))).all()

    async def trajectory(self, trajectory_id: uuid.UUID) -> Trajectory | None:
        stmt = (
            select(Trajectory).where(Trajectory.id == trajectory_id).execution_options(populate_existing=True)
        )
        return await self.session.scalar(stmt)

    async def summaries(self, ids: Sequence[uuid.UUID]) -> Sequence[AnyRow]:
        if not ids:
            return []
        stmt = select(*_TRAJECTORY_SUMMARY).where(Trajectory.id.in_(list(ids)))
        return (await self.session.execute(stmt.order_by(Trajectory.received_at, Trajectory.id))).all()

    async def versions_backed_by(self, trajectory_id: uuid.UUID) -> Sequence[Row[str, int, str]]:
        stmt = (
            select(GeneVersion.gene_id, GeneVersion.version, GeneVersion.asset_id)
            .join(version_trajectories, version_trajectories.c.version_id == GeneVersion.id)
            .where(version_trajectories.c.trajectory_id == trajectory_id)
            .order_by(GeneVersion.gene_id, GeneVersion.version)
        )
        return (await self.session.execute(stmt)).all()

    async def events_with_trajectory(self, trajectory_id: uuid.UUID) -> Sequence[EvolutionEvent]:
        stmt = (
            select(EvolutionEvent)
            .where(EvolutionEvent.trajectory_ids.contains([trajectory_id]))
            .order_by(EvolutionEvent.id)
        )
        return (await self.session.scalars(stmt)).all()

    async def guards_evidenced_by(self, trajectory_id: uuid.UUID) -> Sequence[Row[str, str, int, bool]]:
        stmt = (
            select(Guard.gene_id, Guard.text, Guard.evidence_count, Guard.kept)
            .join(guard_evidence, guard_evidence.c.guard_id == Guard.id)
            .where(guard_evidence.c.trajectory_id == trajectory_id)
            .order_by(Guard.gene_id, Guard.id)
        )
        return (await self.session.execute(stmt)).all()

    async def version_number(self, asset_id: str) -> Row[str, int] | None:
        stmt = select(GeneVersion.gene_id, GeneVersion.version).where(GeneVersion.asset_id == asset_id)
        return (await self.session.execute(stmt)).first()
