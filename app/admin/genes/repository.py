"""The admin's statements on Genes: the sortable list, a Gene's versions and forks, its outcomes."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, Row, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

from app.admin.common import AnyRow
from app.models import PROVENANCE_COLUMNS, ApiKey, Gene, GeneQuality, GeneVersion, Outcome
from app.outcomes.repository import ALL_MODELS


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
    GeneVersion.reason,
    GeneVersion.gene_id,
    GeneVersion.version,
    GeneVersion.asset_id,
    GeneVersion.parent_asset_id,
    GeneVersion.document,
    GeneVersion.generation_meta,
    *PROVENANCE_COLUMNS,
    GeneVersion.created_at,
    GeneVersion.valid_from,
    GeneVersion.valid_to,
)


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class AdminGeneRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

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
            .options(load_only(*_VERSION_COLUMNS))
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
