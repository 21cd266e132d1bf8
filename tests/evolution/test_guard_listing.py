"""GET /v1/genes/{id}/guards agrees with the document's `avoid` before the first merge and after a
published version edits it; each guard says where it came from."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.embeddings import EmbeddingService
from app.gep.document import guards_of, with_guards
from app.models import ApiKey
from app.trajectories.service import trajectory_service
from tests.conftest import KeyClient
from tests.evolution.builders import trajectory_in
from tests.evolution.jobs import merge_next
from tests.factories import BASE_GENE, gene_doc, publish_payload

GENE_ID = BASE_GENE["id"]
DOCUMENT_GUARDS = [
    "Do not raise the global timeout: the verifier caps runtime at 60 s",
    "Never call the live API from the test suite",
    "Do not delete the recorded fixtures to make a test pass",
]
ADDED_BY_HAND = "Do not mark network tests as xfail to hide them"
FROM_A_RUN = "Avoid calling the live API from tests; mock the HTTP layer with respx instead"
NewClient = Callable[..., Awaitable[KeyClient]]


async def _guards(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    response = await client.get(f"/v1/genes/{GENE_ID}/guards")
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def _avoid(client: httpx.AsyncClient) -> list[str]:
    avoid: list[str] = guards_of((await client.get(f"/v1/genes/{GENE_ID}")).json()["document"])
    return avoid


def _served(guards: list[dict[str, Any]]) -> list[str]:
    return [g["text"] for g in guards if g["kept"]]


async def test_a_published_genes_own_guards_are_listed_before_the_first_merge(
    session: AsyncSession, embeddings: EmbeddingService, new_key_client: NewClient
) -> None:
    owner = await new_key_client("producer", name="owner")
    v1 = await owner.post("/v1/genes", json=publish_payload(gene=gene_doc(avoid=DOCUMENT_GUARDS)))
    assert v1.status_code == 201, v1.text

    guards = await _guards(owner)
    assert _served(guards) == await _avoid(owner) == DOCUMENT_GUARDS
    for guard in guards:
        assert (guard["id"], guard["origin"], guard["since_version"]) == (None, "published", 1)
        assert (guard["state"], guard["evidence"], guard["trajectories"]) == ("active", 0, 0)
        assert [(b["key_id"], b["name"], b["owner"]) for b in guard["backers"]] == [
            (owner.key_id, "owner", True)
        ]

    # A second published version edits the list: still no row, still the document's truth.
    v2_doc = gene_doc(parent=v1.json()["asset_id"], avoid=[*DOCUMENT_GUARDS[1:], ADDED_BY_HAND])
    assert (await owner.post("/v1/genes", json=publish_payload(gene=v2_doc))).status_code == 201
    guards = await _guards(owner)
    assert _served(guards) == await _avoid(owner) == [*DOCUMENT_GUARDS[1:], ADDED_BY_HAND]
    assert {g["text"]: g["since_version"] for g in guards} == {
        DOCUMENT_GUARDS[1]: 1,
        DOCUMENT_GUARDS[2]: 1,
        ADDED_BY_HAND: 2,
    }

    # The first merge records them as the listing said, and adds the run's own guard.
    key = await session.get(ApiKey, owner.key_id)
    assert key is not None
    submitter = Principal(key.id, key.name, Role[key.role])
    await trajectory_service.submit(
        session, trajectory_in(gene_id=GENE_ID, guards=[FROM_A_RUN]), submitter=submitter
    )
    result = await merge_next(session, embeddings)
    assert result is not None and result.state == "merged", result
    after = await _guards(owner)
    assert _served(after) == await _avoid(owner)
    by_text = {g["text"]: g for g in after}
    assert by_text[FROM_A_RUN]["origin"] == "trajectory" and by_text[FROM_A_RUN]["since_version"] == 3
    assert by_text[FROM_A_RUN]["trajectories"] == 1
    for text in [*DOCUMENT_GUARDS[1:], ADDED_BY_HAND]:
        recorded, listed = by_text[text], next(g for g in guards if g["text"] == text)
        assert recorded["id"] is not None and recorded["trajectories"] == 0
        same = ("origin", "since_version", "state", "kept", "backers", "hold_reason")
        assert {k: recorded[k] for k in same} == {k: listed[k] for k in same}


async def test_a_published_version_that_drops_a_recorded_guard_is_followed_at_once(
    session: AsyncSession, embeddings: EmbeddingService, client: httpx.AsyncClient
) -> None:
    v1 = await client.post("/v1/genes", json=publish_payload(gene=gene_doc(avoid=DOCUMENT_GUARDS)))
    assert v1.status_code == 201
    admin = await session.scalar(select(ApiKey).where(ApiKey.name == "test admin"))
    assert admin is not None
    by = Principal(admin.id, admin.name, Role.admin)
    await trajectory_service.submit(
        session, trajectory_in(gene_id=GENE_ID, guards=[FROM_A_RUN]), submitter=by
    )
    merged = await merge_next(session, embeddings)
    assert merged is not None and merged.state == "merged" and merged.new_version == 2

    # A maintainer publishes v3 without the run's guard: /guards follows before any merge.
    current = (await client.get(f"/v1/genes/{GENE_ID}")).json()
    document = {k: v for k, v in current["document"].items() if k != "asset_id"}
    document["parent"] = current["asset_id"]
    document = with_guards(document, [g for g in guards_of(document) if g != FROM_A_RUN])
    assert (await client.post("/v1/genes", json=publish_payload(gene=document))).status_code == 201
    guards = await _guards(client)
    assert _served(guards) == await _avoid(client) == guards_of(document)
    [dropped] = [g for g in guards if g["text"] == FROM_A_RUN]
    assert not dropped["kept"] and dropped["dropped_at"] is not None
    assert (dropped["origin"], dropped["since_version"]) == ("trajectory", 2)
