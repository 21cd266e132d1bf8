"""The admin's statements on producers: outcome counts by producer and by Gene, runs by state."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import ApiKey, Outcome, Trajectory


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

    async def senders(self, producer_model: str) -> Sequence[Row[uuid.UUID, str, str, int]]:
        """The keys that sent this model's runs: (key id, key name, state, runs), by name."""
        stmt = (
            select(Trajectory.submitted_by, ApiKey.name, Trajectory.state, func.count())
            .join(ApiKey, ApiKey.id == Trajectory.submitted_by)
            .where(Trajectory.producer_model == producer_model)
            .group_by(Trajectory.submitted_by, ApiKey.name, Trajectory.state)
            .order_by(ApiKey.name, Trajectory.submitted_by)
        )
        return (await self.session.execute(stmt)).all()

    async def key(self, key_id: uuid.UUID) -> ApiKey | None:
        return await self.session.scalar(select(ApiKey).where(ApiKey.id == key_id))
