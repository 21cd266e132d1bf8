"""The dashboard: Genes by status and family, the evolution worker's lag, recent events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.activity.repository import ActivityRepository
from app.admin.activity.service import FeedEntry, group_evidence
from app.admin.common import AnyRow
from app.admin.dashboard.repository import DashboardRepository
from app.admin.trajectories.repository import AdminTrajectoryRepository
from app.genes.repository import GeneRepository
from app.models import TrajectoryState

# The dashboard lists this many recent changes, evidence-only runs of one Gene grouped; it reads up to
# RECENT_SCAN events to fill them, so a burst of evidence on one Gene does not hide the rest.
RECENT, RECENT_SCAN = 10, 200


@dataclass
class Dashboard:
    status_counts: dict[str, int]
    families: list[tuple[str, dict[str, int], int]]
    trajectory_counts: dict[str, int]
    versions: int
    outcomes: int
    recent_events: list[FeedEntry]
    pending: Sequence[AnyRow]
    now: datetime
    oldest_pending: datetime | None
    last_merge: datetime | None

    @property
    def genes(self) -> int:
        return sum(self.status_counts.values())

    @property
    def pending_age_seconds(self) -> float | None:
        return (self.now - self.oldest_pending).total_seconds() if self.oldest_pending else None

    @property
    def last_merge_age_seconds(self) -> float | None:
        return (self.now - self.last_merge).total_seconds() if self.last_merge else None


def _families(rows: Sequence[Row[str | None, str, int]]) -> list[tuple[str, dict[str, int], int]]:
    table: dict[str, dict[str, int]] = {}
    for family, status, count in rows:
        table.setdefault(family or "(none)", {})[status] = count
    return [(family, counts, sum(counts.values())) for family, counts in table.items()]


class DashboardPage:
    async def dashboard(self, session: AsyncSession) -> Dashboard:
        repo = DashboardRepository(session)
        versions, outcomes = await repo.totals()
        oldest_pending, last_merge = await repo.worker_marks()
        return Dashboard(
            status_counts=await repo.status_counts(),
            families=_families(await repo.family_counts()),
            trajectory_counts=await repo.trajectory_counts(),
            versions=versions,
            outcomes=outcomes,
            recent_events=group_evidence(
                await ActivityRepository(session).events(
                    gene_id=None, kind=None, before=None, limit=RECENT_SCAN
                )
            )[:RECENT],
            pending=await AdminTrajectoryRepository(session).trajectories(
                state=TrajectoryState.pending.value,
                producer_model=None,
                gene_id=None,
                oldest_first=True,
                before=None,
                limit=10,
            ),
            now=await GeneRepository(session).now(),
            oldest_pending=oldest_pending,
            last_merge=last_merge,
        )


dashboard_page = DashboardPage()
