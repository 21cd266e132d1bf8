"""Running one worker job inside a test's own (rolled-back) transaction."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from app.evolution.service import EvolutionService, JobResult
from app.trajectories.repository import TrajectoryRepository


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
