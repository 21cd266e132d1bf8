"""Every SQL statement on outcomes, gene_quality, producer_reputation and gene_status_changes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, case, func, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import (
    Gene,
    GeneQuality,
    GeneStatusChange,
    GeneVersion,
    Outcome,
    ProducerReputation,
    Trajectory,
)
from app.models.trajectory import version_trajectories
from app.outcomes.quality import KeyTally

ALL_MODELS = ""


def _key_tally(row: Any) -> KeyTally:
    return KeyTally(
        successes=float(row.successes or 0.0),
        failures=float(row.failures or 0.0),
        reports=int(row.reports),
        paired=int(row.paired),
        paired_successes=int(row.paired_successes),
        paired_baseline_successes=int(row.paired_baseline),
    )


class OutcomeRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def insert_outcome(self, values: dict[str, Any]) -> int | None:
        """The new report's id, or None when this (reporter, task, asset, attempt) was reported before."""
        stmt = (
            pg_insert(Outcome)
            .values(**values)
            .on_conflict_do_nothing(
                index_elements=[
                    Outcome.reporter,
                    Outcome.task_id,
                    Outcome.asset_id,
                    # Literal, not a bound parameter: ON CONFLICT must match the index expression.
                    func.coalesce(Outcome.attempt_id, text("''")),
                ]
            )
            .returning(Outcome.id)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def existing_outcome(
        self, reporter: str, task_id: str, asset_id: str, attempt_id: str | None
    ) -> Outcome:
        stmt = select(Outcome).where(
            Outcome.reporter == reporter,
            Outcome.task_id == task_id,
            Outcome.asset_id == asset_id,
            func.coalesce(Outcome.attempt_id, "") == (attempt_id or ""),
        )
        found = await self.session.scalar(stmt)
        assert found is not None
        return found

    async def quality_for_update(self, gene_id: str, consumer_model: str) -> GeneQuality | None:
        stmt = (
            select(GeneQuality)
            .where(GeneQuality.gene_id == gene_id, GeneQuality.consumer_model == consumer_model)
            .with_for_update()
        )
        return await self.session.scalar(stmt)

    async def save_quality(self, row: GeneQuality) -> None:
        self.session.add(row)
        await self.session.flush()

    async def reputation_for_update(self, producer_model: str, now: datetime) -> ProducerReputation:
        await self.session.execute(
            pg_insert(ProducerReputation)
            .values(producer_model=producer_model, as_of=now)
            .on_conflict_do_nothing(index_elements=[ProducerReputation.producer_model])
        )
        row = await self.session.scalar(
            select(ProducerReputation)
            .where(ProducerReputation.producer_model == producer_model)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        assert row is not None
        return row

    async def reputation(self, producer_model: str) -> ProducerReputation | None:
        return await self.session.get(ProducerReputation, producer_model)

    async def reputations(self) -> Sequence[Any]:
        genes = (
            select(Gene.producer_model, func.count().label("genes"))
            .where(Gene.status != "revoked")
            .group_by(Gene.producer_model)
            .subquery()
        )
        stmt = select(ProducerReputation, func.coalesce(genes.c.genes, 0)).outerjoin(
            genes, genes.c.producer_model == ProducerReputation.producer_model
        )
        rows: Sequence[Any] = (await self.session.execute(stmt)).all()
        return rows

    async def producers_without_reports(self) -> Sequence[Any]:
        stmt = (
            select(Gene.producer_model, func.count())
            .where(
                Gene.status != "revoked",
                ~select(ProducerReputation.producer_model)
                .where(ProducerReputation.producer_model == Gene.producer_model)
                .exists(),
            )
            .group_by(Gene.producer_model)
        )
        return (await self.session.execute(stmt)).all()

    async def key_tallies(
        self, gene_id: str, half_life_days: float, *, consumer_model: str | None = None
    ) -> list[KeyTally]:
        """Each reporting key's decayed evidence on the Gene (for one consumer model: from keys
        bound to it only), `irrelevant` reports left out."""
        stmt = self._tallies(half_life_days).where(Outcome.gene_id == gene_id).group_by(Outcome.reporter)
        if consumer_model is not None:
            stmt = stmt.where(Outcome.consumer_model == consumer_model, Outcome.model_bound)
        return [_key_tally(row) for row in await self.session.execute(stmt)]

    async def version_tallies(self, gene_id: str, half_life_days: float) -> dict[int, list[KeyTally]]:
        """key_tallies per version id."""
        stmt = (
            self._tallies(half_life_days)
            .add_columns(Outcome.version_id)
            .where(Outcome.gene_id == gene_id)
            .group_by(Outcome.version_id, Outcome.reporter)
        )
        found: dict[int, list[KeyTally]] = {}
        for row in await self.session.execute(stmt):
            found.setdefault(row.version_id, []).append(_key_tally(row))
        return found

    @staticmethod
    def _tallies(half_life_days: float) -> Select[Any, Any, int, int, int, int]:
        weight = func.power(
            0.5, func.extract("epoch", func.now() - Outcome.created_at) / (half_life_days * 86400.0)
        )
        credit = case(
            (Outcome.success, 1.0),
            (Outcome.reason == "partial", func.coalesce(Outcome.score, 0.5)),
            else_=0.0,
        )
        paired = Outcome.baseline_success.is_not(None)
        return select(
            func.sum(weight * credit).label("successes"),
            func.sum(weight * (1 - credit)).label("failures"),
            func.count().label("reports"),
            func.count().filter(paired).label("paired"),
            func.count().filter(paired, Outcome.success.is_(True)).label("paired_successes"),
            func.count().filter(paired, Outcome.baseline_success.is_(True)).label("paired_baseline"),
        ).where(or_(Outcome.reason.is_(None), Outcome.reason != "irrelevant"))

    async def set_status(self, gene_id: str, status: str, message: str) -> None:
        await self.session.execute(
            update(Gene)
            .where(Gene.id == gene_id)
            .values(status=status, status_message=message, updated_at=func.now())
        )

    async def record_status_change(self, gene_id: str, old: str, new: str, reason: str, actor: str) -> None:
        self.session.add(
            GeneStatusChange(gene_id=gene_id, from_status=old, to_status=new, reason=reason, actor=actor)
        )
        await self.session.flush()

    async def status_changes(self, gene_id: str) -> Sequence[GeneStatusChange]:
        stmt = (
            select(GeneStatusChange).where(GeneStatusChange.gene_id == gene_id).order_by(GeneStatusChange.id)
        )
        return (await self.session.scalars(stmt)).all()

    async def qualities(self, gene_id: str) -> Sequence[GeneQuality]:
        stmt = select(GeneQuality).where(GeneQuality.gene_id == gene_id).order_by(GeneQuality.consumer_model)
        return (await self.session.scalars(stmt)).all()

    async def versions(self, gene_id: str) -> Sequence[Any]:
        stmt = (
            select(GeneVersion.id, GeneVersion.version, GeneVersion.asset_id, GeneVersion.producer_model)
            .where(GeneVersion.gene_id == gene_id)
            .order_by(GeneVersion.version)
        )
        return (await self.session.execute(stmt)).all()

    async def usage(self, gene_id: str) -> Any:
        saved = Outcome.baseline_tokens - Outcome.tokens_used
        with_baseline = and_(Outcome.baseline_tokens.is_not(None), Outcome.tokens_used.is_not(None))
        stmt = select(
            func.count(Outcome.id).label("reports"),
            func.count(func.distinct(Outcome.reporter)).label("reporters"),
            func.count(Outcome.id).filter(Outcome.reason == "irrelevant").label("irrelevant"),
            func.count(func.distinct(Outcome.consumer_model)).label("consumer_models"),
            func.count(func.distinct(Outcome.task_id)).label("tasks"),
            func.count(Outcome.id).filter(with_baseline).label("reports_with_baseline"),
            func.coalesce(func.sum(saved).filter(with_baseline), 0).label("tokens_saved"),
        ).where(Outcome.gene_id == gene_id)
        return (await self.session.execute(stmt)).one()

    async def discovery_cost(self, gene_id: str) -> Any:
        """What finding this Gene cost: its trajectories, plus versions published without one."""
        behind = (
            select(version_trajectories.c.trajectory_id)
            .join(GeneVersion, GeneVersion.id == version_trajectories.c.version_id)
            .where(GeneVersion.gene_id == gene_id)
        )
        linked = select(Trajectory.cost_tokens, Trajectory.cost_attempts, Trajectory.cost_seconds).where(
            Trajectory.id.in_(behind)
        )
        unlinked = select(GeneVersion.cost_tokens, GeneVersion.cost_attempts, GeneVersion.cost_seconds).where(
            GeneVersion.gene_id == gene_id,
            ~select(version_trajectories.c.version_id)
            .where(version_trajectories.c.version_id == GeneVersion.id)
            .exists(),
        )
        both = linked.union_all(unlinked).subquery()
        stmt = select(
            func.coalesce(func.sum(both.c.cost_tokens), 0).label("tokens"),
            func.coalesce(func.sum(both.c.cost_attempts), 0).label("attempts"),
            func.coalesce(func.sum(both.c.cost_seconds), 0.0).label("seconds"),
            func.count().label("runs"),
        )
        return (await self.session.execute(stmt)).one()
