"""Routing a run that names no Gene: the Gene that met its task takes it even when its errors are new,
and a run of another kind of work for the same service founds (or waits) instead of merging."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.embeddings import EmbeddingService
from app.evolution.destination import (
    ROUTE_THRESHOLD,
    SAME_TASK,
    TARGET_FLOOR,
    RouteCandidate,
    choose,
    confirms,
)
from app.evolution.repository import EvolutionRepository
from app.evolution.service import WAITING_TO_FOUND, EvolutionService, JobResult
from app.models import ApiKey, EvolutionEvent, Gene
from tests.conftest import KeyClient
from tests.evolution.builders import FAILED_VERIFIER
from tests.evolution.jobs import submit_and_merge
from tests.factories import BASE_GENE, BASE_PROVENANCE, publish_payload

NewClient = Callable[..., Awaitable[KeyClient]]
GENE_ID = BASE_GENE["id"]
PASSED = {"name": "pytest", "passed": True, "details": {"tests": 40}}

# Two kinds of work for one service: its tests offline, and its flaky async tests. They share the
# service, the test vocabulary and here the error class, yet a guard of one misleads the other.
OFFLINE = {
    "id": "billing-offline",
    "family": "code_generation",
    "description": "Make the test suite of the billing API pass without network access",
}
ASYNC = {
    "id": "billing-async",
    "family": "code_generation",
    "description": "Fix the flaky async tests of the billing API",
}


def _steps(error: str, correction: str, action: str = "pytest -q tests/test_api.py") -> list[dict[str, Any]]:
    return [
        {"action": action, "ok": False, "error": error, "correction": correction},
        {"action": correction, "ok": True},
    ]


CONNECT = _steps("httpx.ConnectError: [Errno 111] Connection refused", "mock the HTTP layer with respx")
CONNECT_ASYNC = _steps(
    "httpx.ConnectError: [Errno 111] Connection refused", "mock the HTTP layer with respx in the async tests"
)
SLEEP = _steps(
    "AssertionError: expected status done, got pending after 40 polls",
    "await asyncio.sleep and poll the status with a deadline",
    "pytest -q tests/test_jobs.py",
)
PIP = _steps(
    "pip._vendor.urllib3.exceptions.NewConnectionError: Failed to establish a new connection",
    "install it from the local wheel directory with --no-index --find-links",
    "pip install responses",
)
# A failure of the published Gene's own task that its text says nothing about.
CASSETTE = _steps(
    "vcr.errors.CannotOverwriteExistingCassetteException: Can't overwrite existing cassette "
    "('tests/cassettes/items.yaml') in your current record mode ('none')",
    "record the missing cassette once with record_mode=once",
    "pytest -q tests/test_client.py",
)


async def _principal(session: AsyncSession, client: KeyClient) -> Principal:
    key = await session.get(ApiKey, client.key_id)
    assert key is not None
    return Principal(key.id, key.name, Role[key.role])


async def _event(session: AsyncSession, result: JobResult) -> EvolutionEvent:
    events = (
        await session.scalars(select(EvolutionEvent).where(EvolutionEvent.gene_id == result.gene_id))
    ).all()
    return next(e for e in events if result.trajectory_id in e.trajectory_ids)


def test_the_gene_that_met_the_task_wins_above_the_floor_else_the_best_above_the_threshold() -> None:
    near_task = RouteCandidate("same task", similarity=0.5, task_similarity=0.97)
    close_text = RouteCandidate("other work", similarity=0.76, task_similarity=0.6)
    assert choose([close_text, near_task]) == near_task
    # A task key alone is not enough: the run must still resemble the Gene as a named run must.
    unlike = RouteCandidate("same task", similarity=TARGET_FLOOR - 0.01, task_similarity=1.0)
    assert choose([close_text, unlike]) is None
    # Without a task match, routing similarity decides, at the threshold.
    assert choose([close_text]) is None
    above = RouteCandidate("close", similarity=ROUTE_THRESHOLD, task_similarity=None)
    assert choose([close_text, above]) == above
    # Of two Genes that met the task, the closer task first.
    closer = RouteCandidate("closer task", similarity=0.4, task_similarity=0.99)
    assert choose([near_task, closer]) == closer
    assert choose([]) is None
    # A held run confirms a founding run of its own task only: routing cosine alone pairs no runs.
    assert confirms(0.4, SAME_TASK)
    assert not confirms(TARGET_FLOOR - 0.01, 1.0)
    assert not confirms(0.9, SAME_TASK - 0.01)
    assert confirms(ROUTE_THRESHOLD, None)


async def test_the_routing_query_gives_each_gene_its_task_similarity(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    assert (await client.post("/v1/genes", json=publish_payload())).status_code == 201
    task = BASE_PROVENANCE["task"]["description"]
    route, same, other = await embeddings.embed_texts(
        [f"{task}\nSignals: ConnectionError", task, ASYNC["description"]]
    )
    repo = EvolutionRepository(session)
    [found] = await repo.route(route, "code_generation", same)
    assert found.gene_id == GENE_ID and found.task_similarity is not None and found.task_similarity > 0.99
    [found] = await repo.route(route, "code_generation", other)
    assert found.task_similarity is not None and found.task_similarity < SAME_TASK
    [found] = await repo.route(route, "code_generation")
    assert found.task_similarity is None


async def test_a_run_of_the_genes_task_routes_there_at_modest_routing_similarity(
    client: httpx.AsyncClient,
    session: AsyncSession,
    embeddings: EmbeddingService,
    new_key_client: NewClient,
) -> None:
    # The published Gene's task is the run's task; its text speaks of network mocks, the run of a
    # VCR cassette: a failed run, which only ever adds guards to an existing Gene.
    assert (await client.post("/v1/genes", json=publish_payload())).status_code == 201
    producer = await _principal(session, await new_key_client("producer"))
    service = EvolutionService(actor="test")
    result = await submit_and_merge(
        session,
        embeddings,
        service,
        producer,
        task=BASE_PROVENANCE["task"],
        steps=CASSETTE,
        verifier=FAILED_VERIFIER,
    )
    assert (result.state, result.gene_id) == ("merged", GENE_ID), result.reason
    details = (await _event(session, result)).details
    # Below the former routing threshold (0.65), let alone the current one: the task key routed it.
    assert details["routed_by"] == "semantic match"
    assert TARGET_FLOOR <= details["route_similarity"] < 0.65
    assert details["task_similarity"] >= SAME_TASK


async def test_a_run_of_another_kind_of_work_for_the_same_service_founds_instead_of_merging(
    session: AsyncSession, embeddings: EmbeddingService, new_key_client: NewClient
) -> None:
    service = EvolutionService(actor="test")
    run = partial(submit_and_merge, session, embeddings, service)
    alice = await _principal(session, await new_key_client("producer", name="alice"))
    bob = await _principal(session, await new_key_client("producer", name="bob"))
    offline = await submit_and_merge(
        session, embeddings, service, alice, task=OFFLINE, steps=CONNECT_ASYNC, verifier=PASSED
    )
    assert offline.state == "merged" and offline.new_version == 1, offline.reason

    flaky = await run(bob, task=ASYNC, steps=CONNECT, verifier=PASSED)
    assert flaky.state == "merged" and flaky.gene_id != offline.gene_id, flaky.reason
    assert flaky.reason.startswith("founded candidate Gene")
    details = (await _event(session, flaky)).details
    # It was close to the offline Gene (about 0.7: the former threshold merged it there), but no
    # task of that Gene is its task.
    assert details["route_similarity"] >= 0.65
    assert details["task_similarity"] < SAME_TASK
    genes = (await session.scalars(select(Gene.id))).all()
    assert {offline.gene_id, flaky.gene_id} <= set(genes)

    # A failed run of the async task adds its guards to the async Gene, not to the offline one.
    failed = await submit_and_merge(
        session, embeddings, service, alice, task=ASYNC, steps=SLEEP, verifier=FAILED_VERIFIER
    )
    assert (failed.state, failed.gene_id) == ("merged", flaky.gene_id), failed.reason


async def test_a_held_run_waits_for_its_own_task_not_for_another_work_on_the_same_service(
    session: AsyncSession, embeddings: EmbeddingService, new_key_client: NewClient
) -> None:
    service = EvolutionService(actor="test", found_min_runs=2)
    run = partial(submit_and_merge, session, embeddings, service)
    alice = await _principal(session, await new_key_client("producer", name="alice", owner="acme"))
    bob = await _principal(session, await new_key_client("producer", name="bob", owner="bobco"))
    carol = await _principal(session, await new_key_client("producer", name="carol", owner="carolco"))

    held = await run(alice, task=ASYNC, steps=SLEEP, verifier=PASSED)
    assert held.state == "rejected" and held.reason.startswith(WAITING_TO_FOUND)
    # Another owner's run of the offline work for the same service (routing cosine about 0.7 to the
    # held run): not a second run of the same task, so it waits too instead of founding with it.
    offline = await run(carol, task=OFFLINE, steps=PIP, verifier=PASSED)
    assert offline.state == "rejected" and offline.reason.startswith(WAITING_TO_FOUND), offline.reason

    # Another owner's run of the async task, with another failure: it founds the Gene with the held
    # async run as evidence, and leaves the offline run waiting.
    confirmed = await submit_and_merge(
        session, embeddings, service, bob, task=ASYNC, steps=CONNECT_ASYNC, verifier=PASSED
    )
    assert confirmed.state == "merged" and confirmed.new_version == 1, confirmed.reason
    event = await _event(session, confirmed)
    assert set(event.trajectory_ids) == {confirmed.trajectory_id, held.trajectory_id}
