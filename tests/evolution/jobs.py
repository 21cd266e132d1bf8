"""Running one worker job inside a test's own (rolled-back) transaction."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from app.evolution.service import DEFAULT_MAX_ATTEMPTS, EvolutionService, JobResult
from app.trajectories.repository import TrajectoryRepository


async def merge_next(
    session: AsyncSession, embeddings: EmbeddingService, service: EvolutionService | None = None
) -> JobResult | None:
    """Claim the oldest pending trajectory and process it as the worker would; None when none is."""
    trajectory = await TrajectoryRepository(session).claim_next(DEFAULT_MAX_ATTEMPTS)
    if trajectory is None:
        return None
    return await (service or EvolutionService(actor="test")).process(session, trajectory, embeddings)
