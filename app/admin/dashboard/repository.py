"""The dashboard's counts and the worker's marks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Gene, GeneVersion, Outcome, Trajectory, TrajectoryState


class DashboardRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def status_counts(self) -> dict[str, int]:
        rows = await self.session.execute(select(Gene.status, func.count()).group_by(Gene.status))
        return {status: count for status, count in rows.all()}

    async def family_counts(self) -> Sequence[Row[str | None, str, int]]:
        stmt = (
            select(Gene.task_family, Gene.status, func.count())
            .group_by(Gene.task_family, Gene.status)
            .order_by(Gene.task_family.nulls_last(), Gene.status)
        )
        return (await self.session.execute(stmt)).all()

    async def trajectory_counts(self) -> dict[str, int]:
        rows = await self.session.execute(select(Trajectory.state, func.count()).group_by(Trajectory.state))
        return {state: count for state, count in rows.all()}

    async def totals(self) -> Row[int, int]:
        stmt = select(
            select(func.count()).select_from(GeneVersion).scalar_subquery(),
            select(func.count()).select_from(Outcome).scalar_subquery(),
        )
        return (await self.session.execute(stmt)).one()

    async def worker_marks(self) -> Row[datetime | None, datetime | None]:
        """The oldest pending trajectory's arrival and the last merge: how far behind the workers are."""
        pending = TrajectoryState.pending.value
        merged = TrajectoryState.merged.value
        stmt = select(
            select(func.min(Trajectory.received_at)).where(Trajectory.state == pending).scalar_subquery(),
            select(func.max(Trajectory.processed_at)).where(Trajectory.state == merged).scalar_subquery(),
        )
        return (await self.session.execute(stmt)).one()
