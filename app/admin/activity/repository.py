"""The evolution events feed (also the dashboard's and a Gene page's recent events)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import EvolutionEvent


class ActivityRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

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
