"""Fixtures for worker tests: jobs commit, so they run on a scratch database of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db import create_engine, create_sessionmaker


@pytest.fixture
async def committed(migrated_url: str, settings: Settings) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """A sessionmaker on a freshly migrated scratch database; what a test commits stays committed."""
    engine = create_engine(migrated_url, settings)
    try:
        yield create_sessionmaker(engine)
    finally:
        await engine.dispose()
