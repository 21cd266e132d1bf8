"""A fetched version says why it exists and how it was made (`reason`, `generation_meta`), beside a
document that holds neither (they are not hashed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.embeddings import EmbeddingService
from app.evolution.service import EvolutionService
from app.models import ApiKey
from app.trajectories.service import trajectory_service
from tests.conftest import KeyClient
from tests.evolution.builders import trajectory_in
from tests.evolution.jobs import merge_next
from tests.evolution.test_founding import LOCK_STEPS, LOCK_TASK, PASSED
from tests.factories import publish_payload


async def test_a_founded_version_carries_its_reason_and_generation_meta(
    client: httpx.AsyncClient,
    session: AsyncSession,
    embeddings: EmbeddingService,
    new_key_client: Callable[..., Awaitable[KeyClient]],
) -> None:
    producer = await new_key_client("producer", name="founder")
    key = await session.get(ApiKey, producer.key_id)
    assert key is not None
    body = trajectory_in(task=LOCK_TASK, steps=LOCK_STEPS, verifier=PASSED)
    await trajectory_service.submit(session, body, submitter=Principal(key.id, key.name, Role[key.role]))
    result = await merge_next(session, embeddings, EvolutionService(actor="test", found_min_runs=1))
    assert result is not None and result.state == "merged", result

    for path in (f"/v1/genes/{result.gene_id}", f"/v1/genes/{result.gene_id}/versions/1"):
        version = (await client.get(path)).json()
        assert version["reason"] == "founded"
        assert version["generation_meta"]["overcame_errors"] == ["LockNotAvailable"]
        assert version["parent_asset_id"] is None
        assert "generation_meta" not in version["document"]


async def test_a_published_version_says_published_and_has_no_generation_meta(
    client: httpx.AsyncClient,
) -> None:
    published = await client.post("/v1/genes", json=publish_payload())
    assert published.status_code == 201, published.text
    version = (await client.get(f"/v1/genes/{published.json()['gene_id']}")).json()
    assert (version["reason"], version["generation_meta"]) == ("published", None)
