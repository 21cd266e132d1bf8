"""The producers list (reputation and outcome counts), one producer model's page (its Genes, the keys
that sent its runs) and one key's runs.

A producer in the API is a key: it submits runs and follows them at GET /v1/trajectories. The
admin ranks producer *models* (reputation is by model), so a model's page lists the keys that sent
its runs, and each key has a page showing exactly what that key sees of its runs: the API's own
list (app/trajectories/service.py), with its filters, counts per state and cursor pages.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sqlalchemy import Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.auth import AdminUser
from app.admin.common import AdminNotFound, AnyRow
from app.admin.genes.repository import AdminGeneRepository, GeneFilters
from app.admin.producers.repository import ProducerRepository
from app.config import Settings
from app.genes.repository import GeneRepository
from app.models import ApiKey
from app.outcomes.quality import Evidence, reputation
from app.outcomes.schemas import ProducerRead
from app.outcomes.service import outcome_service
from app.trajectories.schemas import RunFilters, TrajectoryPage
from app.trajectories.service import trajectory_service


@dataclass
class ProducerRow:
    reputation: ProducerRead
    reports: int
    successes: int
    consumer_models: int
    genes_reported: int


@dataclass
class Sender:
    """A key that sent a producer model's runs, with its runs per state."""

    key_id: uuid.UUID
    name: str
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class ProducerPage:
    producer: ProducerRow
    genes: Sequence[AnyRow]
    outcomes: dict[str, Row[str, int, int]]
    trajectories: dict[str, int]
    senders: list[Sender]


@dataclass
class KeyRunsPage:
    key: ApiKey
    runs: TrajectoryPage


class ProducerPages:
    async def producers(self, session: AsyncSession, settings: Settings) -> list[ProducerRow]:
        counts = await ProducerRepository(session).outcomes_by_producer()
        rows = []
        for producer in await outcome_service.producers(session, settings):
            row = counts.get(producer.producer_model)
            rows.append(
                ProducerRow(
                    producer,
                    reports=row[1] if row else 0,
                    successes=row[2] if row else 0,
                    consumer_models=row[3] if row else 0,
                    genes_reported=row[4] if row else 0,
                )
            )
        return rows

    async def producer(self, session: AsyncSession, model: str, settings: Settings) -> ProducerPage:
        found = next(
            (p for p in await self.producers(session, settings) if p.reputation.producer_model == model), None
        )
        repo = ProducerRepository(session)
        trajectories = await repo.trajectories_by_producer(model)
        if found is None and not trajectories:
            raise AdminNotFound(f"no producer model {model!r} has Genes, reports or trajectories here")
        if found is None:
            # Only runs so far (rejected, pending, or behind other producers' Genes): the uniform prior.
            prior = reputation(Evidence(0.0, 0.0, await GeneRepository(session).now()))
            level = settings.quality_lower_quantile
            found = ProducerRow(
                ProducerRead(
                    producer_model=model,
                    genes=0,
                    reports=0,
                    mean=prior.mean,
                    lower_bound=prior.quantile(level),
                ),
                reports=0,
                successes=0,
                consumer_models=0,
                genes_reported=0,
            )
        _, genes = await AdminGeneRepository(session).genes(
            GeneFilters(producer_model=model), sort="quality", descending=True, offset=0, limit=500
        )
        senders: dict[uuid.UUID, Sender] = {}
        for key_id, name, state, count in await repo.senders(model):
            senders.setdefault(key_id, Sender(key_id, name)).counts[state] = count
        return ProducerPage(
            producer=found,
            genes=genes,
            outcomes=await repo.outcomes_by_gene([row[0].id for row in genes]),
            trajectories=trajectories,
            senders=list(senders.values()),
        )

    async def key_runs(
        self,
        session: AsyncSession,
        key_id: uuid.UUID,
        admin: AdminUser,
        filters: RunFilters,
        *,
        cursor: str | None,
        size: int,
    ) -> KeyRunsPage:
        key = await ProducerRepository(session).key(key_id)
        if key is None:
            raise AdminNotFound(f"no key with id {key_id}")
        runs = await trajectory_service.list_runs(
            session, admin.principal, replace(filters, key_id=key_id), limit=size, cursor=cursor
        )
        return KeyRunsPage(key, runs)


producer_pages = ProducerPages()
