"""The admin's statements on producers: outcome counts by producer and by Gene, runs by state."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Outcome, Trajectory


class ProducerRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def outcomes_by_producer(self) -> dict[str, Row[str, int, int, int, int]]:
        stmt = select(
            Outcome.producer_model,
            func.count(),
            func.count().filter(Outcome.success),
            func.count(func.distinct(Outcome.consumer_model)),
            func.count(func.distinct(Outcome.gene_id)),
        ).group_by(Outcome.producer_model)
        return {row[0]: row for row in (await self.session.execute(stmt)).all()}

    async def outcomes_by_gene(self, gene_ids: Sequence[str]) -> dict[str, Row[str, int, int]]:
        if not gene_ids:
            return {}
        stmt = (
            select(Outcome.gene_id, func.count(), func.count().filter(Outcome.success))
            .where(Outcome.gene_id.in_(list(gene_ids)))
            .group_by(Outcome.gene_id)
        )
        return {row[0]: row for row in (await self.session.execute(stmt)).all()}

    async def trajectories_by_producer(self, producer_model: str) -> dict[str, int]:
        rows = await self.session.execute(
            select(Trajectory.state, func.count())
            .where(Trajectory.producer_model == producer_model)
            .group_by(Trajectory.state)
        )
        return {state: count for state, count in rows.all()}
