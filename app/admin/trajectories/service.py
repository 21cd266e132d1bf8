"""The trajectories list (newest first, by state, producer and Gene) and one run's page."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.common import AdminNotFound, AnyRow, pretty_json
from app.admin.genes.repository import AdminGeneRepository
from app.admin.trajectories.repository import AdminTrajectoryRepository
from app.models import EvolutionEvent, Trajectory
from app.schemas import CursorCodec, CursorModel


@dataclass
class TrajectoryPage:
    trajectory: Trajectory
    versions: Sequence[Row[str, int, str]]
    events: Sequence[EvolutionEvent]
    guards: Sequence[Row[str, str, int, bool]]
    result_version: int | None
    verifier_details: str | None
    sender: str  # the name of the key that sent it


@dataclass
class TrajectoryList:
    rows: Sequence[AnyRow]
    next_cursor: str | None


class TrajectoryCursor(CursorModel):
    received_at: datetime
    id: uuid.UUID


TRAJECTORY_CURSOR = CursorCodec(TrajectoryCursor)


class TrajectoryPages:
    async def trajectory(self, session: AsyncSession, trajectory_id: uuid.UUID) -> TrajectoryPage:
        repo = AdminTrajectoryRepository(session)
        trajectory = await repo.trajectory(trajectory_id)
        if trajectory is None:
            raise AdminNotFound(f"no trajectory with id {trajectory_id}")
        result_version = None
        if trajectory.result_asset_id is not None:
            found = await repo.version_number(trajectory.result_asset_id)
            result_version = found[1] if found else None
        details = trajectory.verifier.get("details")
        return TrajectoryPage(
            trajectory=trajectory,
            versions=await repo.versions_backed_by(trajectory_id),
            events=await repo.events_with_trajectory(trajectory_id),
            guards=await repo.guards_evidenced_by(trajectory_id),
            result_version=result_version,
            verifier_details=None
            if details is None
            else details
            if isinstance(details, str)
            else pretty_json(details),
            sender=await AdminGeneRepository(session).key_name(trajectory.submitted_by),
        )

    async def trajectories(
        self,
        session: AsyncSession,
        *,
        state: str | None,
        producer_model: str | None,
        gene_id: str | None,
        cursor: str | None,
        size: int,
    ) -> TrajectoryList:
        position = TRAJECTORY_CURSOR.decode(cursor)
        rows = await AdminTrajectoryRepository(session).trajectories(
            state=state,
            producer_model=producer_model,
            gene_id=gene_id,
            oldest_first=False,
            before=(position.received_at, position.id) if position else None,
            limit=size + 1,
        )
        page, next_cursor = TRAJECTORY_CURSOR.page(
            rows, size, lambda row: TrajectoryCursor(received_at=row.received_at, id=row.id)
        )
        return TrajectoryList(page, next_cursor)


trajectory_pages = TrajectoryPages()
