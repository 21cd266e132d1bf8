"""Every SQL statement of the admin pages that the domain repositories do not already have."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeAlias

import psycopg
from psycopg.rows import dict_row
from sqlalchemy import ColumnElement, Row, and_, func, literal, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

from app.models import (
    ApiKey,
    EvolutionEvent,
    Gene,
    GeneQuality,
    GeneVersion,
    Guard,
    Outcome,
    Trajectory,
    TrajectoryState,
    guard_evidence,
    version_trajectories,
)
from app.outcomes.repository import ALL_MODELS

# A row of any shape (several columns and entities).
AnyRow: TypeAlias = Row[*tuple[Any, ...]]

_SESSION_KEY = "SELECT name, role, revoked_at FROM api_keys WHERE id = %s"


class SessionKeyLookup:
    """The key behind an admin session, read on every admin request (never cached: revocation is at once).

    A plain autocommit connection, like the API's own key lookups (app/auth/repository.py).
    """

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def key(self, key_id: uuid.UUID) -> dict[str, Any] | None:
        async with self.conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_SESSION_KEY, (key_id,))
            return await cursor.fetchone()


@dataclass(frozen=True)
class GeneFilters:
    text: str | None = None
    task_family: str | None = None
    category: str | None = None
    producer_model: str | None = None
    status: str | None = None
    min_quality: float | None = None


GeneSort = Literal[
    "id", "status", "family", "category", "producer", "quality", "reports", "versions", "updated"
]

_VERSION_COLUMNS = (
    GeneVersion.id,
    GeneVersion.gene_id,
    GeneVersion.version,
    GeneVersion.asset_id,
    GeneVersion.parent_asset_id,
    GeneVersion.document,
    GeneVersion.producer_model,
    GeneVersion.provenance_kind,
    GeneVersion.verifier,
    GeneVersion.task_id,
    GeneVersion.task_family,
    GeneVersion.task_description,
    GeneVersion.cost_tokens,
    GeneVersion.cost_attempts,
    GeneVersion.cost_seconds,
    GeneVersion.created_at,
    GeneVersion.valid_from,
    GeneVersion.valid_to,
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


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class AdminRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def now(self) -> datetime:
        moment = await self.session.scalar(select(func.now()))
        assert isinstance(moment, datetime)
        return moment

    # Dashboard

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

    # Trajectories

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

    async def trajectory_summaries(self, ids: Sequence[uuid.UUID]) -> Sequence[AnyRow]:
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

    # Genes

    def _gene_rows(self, filters: GeneFilters) -> Any:
        quality = (
            select(GeneQuality.gene_id, GeneQuality.lower_bound, GeneQuality.reports)
            .where(GeneQuality.consumer_model == ALL_MODELS)
            .subquery()
        )
        versions = (
            select(GeneVersion.gene_id, func.count().label("versions"))
            .group_by(GeneVersion.gene_id)
            .subquery()
        )
        summary = GeneVersion.document["summary"].astext
        stmt = (
            select(
                Gene,
                summary.label("summary"),
                quality.c.lower_bound.label("quality"),
                func.coalesce(quality.c.reports, 0).label("reports"),
                versions.c.versions,
            )
            .join(
                GeneVersion,
                and_(GeneVersion.gene_id == Gene.id, GeneVersion.version == Gene.current_version),
            )
            .join(versions, versions.c.gene_id == Gene.id)
            .outerjoin(quality, quality.c.gene_id == Gene.id)
        )
        conditions: list[ColumnElement[bool]] = []
        if filters.text:
            pattern = _like(filters.text)
            conditions.append(or_(Gene.id.ilike(pattern, escape="\\"), summary.ilike(pattern, escape="\\")))
        for column, value in (
            (Gene.task_family, filters.task_family),
            (Gene.category, filters.category),
            (Gene.producer_model, filters.producer_model),
            (Gene.status, filters.status),
        ):
            if value is not None:
                conditions.append(column == value)
        if filters.min_quality is not None:
            conditions.append(quality.c.lower_bound >= filters.min_quality)
        return stmt.where(*conditions), quality, versions

    async def genes(
        self, filters: GeneFilters, *, sort: GeneSort, descending: bool, offset: int, limit: int
    ) -> tuple[int, Sequence[AnyRow]]:
        stmt, quality, versions = self._gene_rows(filters)
        total = int(await self.session.scalar(select(func.count()).select_from(stmt.subquery())) or 0)
        keys: dict[str, Any] = {
            "id": Gene.id,
            "status": Gene.status,
            "family": Gene.task_family,
            "category": Gene.category,
            "producer": Gene.producer_model,
            "quality": quality.c.lower_bound,
            "reports": func.coalesce(quality.c.reports, 0),
            "versions": versions.c.versions,
            "updated": Gene.updated_at,
        }
        key = keys[sort]
        order = (key.desc() if descending else key.asc()).nulls_last()
        rows = await self.session.execute(stmt.order_by(order, Gene.id).offset(offset).limit(limit))
        return total, rows.all()

    async def gene_choices(self) -> Row[list[str], list[str], list[str]]:
        """Distinct values for the filter menus."""

        def distinct(column: Any) -> Any:
            return select(func.array_agg(func.distinct(column))).where(column.is_not(None)).scalar_subquery()

        stmt = select(distinct(Gene.task_family), distinct(Gene.category), distinct(Gene.producer_model))
        return (await self.session.execute(stmt)).one()

    async def gene(self, gene_id: str) -> Gene | None:
        stmt = select(Gene).where(Gene.id == gene_id).execution_options(populate_existing=True)
        return await self.session.scalar(stmt)

    async def key_name(self, key_id: uuid.UUID) -> str:
        name = await self.session.scalar(select(ApiKey.name).where(ApiKey.id == key_id))
        return name or str(key_id)

    async def versions(self, gene_id: str) -> Sequence[GeneVersion]:
        stmt = (
            select(GeneVersion)
            .options(load_only(*_VERSION_COLUMNS[1:]))
            .where(GeneVersion.gene_id == gene_id)
            .order_by(GeneVersion.version)
        )
        return (await self.session.scalars(stmt)).all()

    async def document_json(self, gene_id: str, version: int) -> str | None:
        stmt = select(GeneVersion.document_json).where(
            GeneVersion.gene_id == gene_id, GeneVersion.version == version
        )
        found: str | None = await self.session.scalar(stmt)
        return found

    async def versions_by_asset(self, asset_ids: Sequence[str]) -> Sequence[Row[str, int, str]]:
        if not asset_ids:
            return []
        stmt = select(GeneVersion.gene_id, GeneVersion.version, GeneVersion.asset_id).where(
            GeneVersion.asset_id.in_(list(asset_ids))
        )
        return (await self.session.execute(stmt)).all()

    async def forks(self, gene_id: str, asset_ids: Sequence[str]) -> Sequence[Row[str, int, str, str | None]]:
        """Versions of other Genes whose parent is one of these versions (lineages forked from this one)."""
        if not asset_ids:
            return []
        stmt = (
            select(
                GeneVersion.gene_id, GeneVersion.version, GeneVersion.asset_id, GeneVersion.parent_asset_id
            )
            .where(GeneVersion.parent_asset_id.in_(list(asset_ids)), GeneVersion.gene_id != gene_id)
            .order_by(GeneVersion.gene_id, GeneVersion.version)
        )
        return (await self.session.execute(stmt)).all()

    # Outcomes

    async def outcomes_by_day(self, gene_id: str) -> Sequence[Row[datetime, int, int]]:
        day = func.date_trunc("day", Outcome.created_at)
        stmt = (
            select(day.label("day"), func.count(), func.count().filter(Outcome.success))
            .where(Outcome.gene_id == gene_id)
            .group_by(day)
            .order_by(day)
        )
        return (await self.session.execute(stmt)).all()

    async def outcomes_by_model(self, gene_id: str) -> Sequence[Row[str, int, int]]:
        stmt = (
            select(Outcome.consumer_model, func.count(), func.count().filter(Outcome.success))
            .where(Outcome.gene_id == gene_id)
            .group_by(Outcome.consumer_model)
            .order_by(Outcome.consumer_model)
        )
        return (await self.session.execute(stmt)).all()

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

    # Evolution events

    async def events(
        self, *, gene_id: str | None, kind: str | None, before: int | None, limit: int
    ) -> Sequence[EvolutionEvent]:
        """Newest first; `before` is the id of the last event of the previous page."""
        stmt = select(EvolutionEvent)
        if gene_id is not None:
            stmt = stmt.where(EvolutionEvent.gene_id == gene_id)
        if kind is not None:
            stmt = stmt.where(EvolutionEvent.kind == kind)
        if before is not None:
            stmt = stmt.where(EvolutionEvent.id < before)
        return (await self.session.scalars(stmt.order_by(EvolutionEvent.id.desc()).limit(limit))).all()
