"""Running one worker job inside a test's own (rolled-back) transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal
from app.embeddings import EmbeddingService
from app.evolution.service import EvolutionService, JobResult
from app.trajectories.repository import TrajectoryRepository
from app.trajectories.service import trajectory_service
from tests.evolution.builders import trajectory_in


async def merge_next(
    session: AsyncSession, embeddings: EmbeddingService, service: EvolutionService | None = None
) -> JobResult | None:
    """Claim the oldest pending trajectory and process it as the worker does (app/evolution/worker.py:
    lease, then re-lock), in one transaction; None when nothing is pending."""
    repo = TrajectoryRepository(session)
    claimable = await repo.next_claimable()
    if claimable is None:
        return None
    attempt = await repo.lease(claimable.id, 60)
    trajectory = await repo.relock(claimable.id, attempt)
    assert trajectory is not None
    return await (service or EvolutionService(actor="test")).process(session, trajectory, embeddings)


async def submit_and_merge(
    session: AsyncSession,
    embeddings: EmbeddingService,
    service: EvolutionService,
    by: Principal,
    **fields: Any,
) -> JobResult:
    """Submit a trajectory (`trajectory_in(**fields)`) as `by` and process it at once: its job's result."""
    submitted = await trajectory_service.submit(session, trajectory_in(**fields), submitter=by)
    result = await merge_next(session, embeddings, service)
    assert result is not None and result.trajectory_id == submitted.id
    return result
