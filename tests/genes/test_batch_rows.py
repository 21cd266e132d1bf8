"""POST /v1/genes/batch writes exactly the rows the same Genes published one by one write.

New lineages are written set-wise (app/genes/bulk.py); these tests publish the same items once
through POST /v1/genes, one request each, and once as a batch (under other ids), then compare every
row of every table a publish writes — genes, versions, task keys, events, the feed (the webhooks'
outbox), run links — with the ids mapped across.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import httpx
import numpy as np
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService
from app.genes import bulk
from app.genes.schemas import PublishRequest
from app.genes.service import Published, gene_service
from app.gep.canonical import compute_asset_id
from tests.factories import gene_doc, publish_payload

TABLES = {
    # table: (how its rows belong to a Gene, its order); surrogate keys are left out below.
    "genes": ("id", "id"),
    "gene_versions": ("gene_id", "id"),
    "gene_task_keys": ("gene_id", "id"),
    "evolution_events": ("gene_id", "id"),
    "feed_events": ("gene_id", "id"),
}
SURROGATE = {"id", "version_id"}
VECTORS = {"embedding"}


def items(tag: str) -> list[dict[str, Any]]:
    """A mixed batch: new lineages, a next version of one of them, a re-sent document, a Gene
    without a task, one with legacy fields, one that is refused."""

    def gene(n: int, **overrides: Any) -> dict[str, Any]:
        return gene_doc(
            id=f"gene_rows_{tag}_{n}",
            summary=f"Rows Gene {n}: stop suite {n} from timing out on DNS lookups",
            strategy=[f"Pin resolver {n} in conftest", "Fail fast when the lookup is slow"],
            **overrides,
        )

    first = publish_payload(gene(1))
    next_version = publish_payload(
        gene(1, parent=compute_asset_id(first["gene"]), avoid=["Never resolve real hosts"])
    )
    legacy = gene(4, avoid=["Do not sleep in tests"], generation_meta={"by": "a script"})
    legacy.pop("anti_patterns", None)
    no_task = publish_payload(gene(5), kind="manual", task=None, verifier=None, cost=None)
    refused = publish_payload(gene(6, preconditions=["token ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"]))
    other_task = publish_payload(
        gene(3), task={"id": "t-3", "family": "ops", "description": "DNS lookups stall the CI job"}
    )
    return [
        first,
        publish_payload(gene(2)),
        other_task,
        next_version,
        publish_payload(legacy),
        first,
        no_task,
        refused,
        publish_payload(gene(7, avoid=None)),
    ]


async def rows(session: AsyncSession, tag: str) -> dict[str, list[dict[str, Any]]]:
    found = {}
    for table, (column, order) in TABLES.items():
        result = await session.execute(
            text(f"SELECT * FROM {table} WHERE {column} LIKE :like ORDER BY {order}"),
            {"like": f"gene_rows_{tag}_%"},
        )
        found[table] = [dict(row._mapping) for row in result]
    version_ids = [row["id"] for row in found["gene_versions"]]
    links = await session.execute(
        text("SELECT * FROM version_trajectories WHERE version_id = ANY(:ids) ORDER BY version_id"),
        {"ids": version_ids},
    )
    found["version_trajectories"] = [dict(row._mapping) for row in links]
    return found


def normalised(found: dict[str, list[dict[str, Any]]], names: dict[str, str]) -> dict[str, Any]:
    """The rows with surrogate keys left out and the tag's ids and asset_ids mapped to the other's."""
    pattern = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)))

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda m: names[m.group(0)], value)
        if isinstance(value, dict):
            return {swap(k): swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    return {
        table: [
            {key: swap(value) for key, value in row.items() if key not in SURROGATE | VECTORS}
            for row in table_rows
        ]
        for table, table_rows in found.items()
    }


async def statement_sizes(session: AsyncSession) -> None:
    """Log how many versions each INSERT statement writes (in the test's transaction, rolled back)."""
    await session.execute(text("CREATE TABLE test_statement_sizes (id serial, n int)"))
    await session.execute(
        text(
            """
            CREATE FUNCTION test_statement_size() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO test_statement_sizes (n) SELECT count(*) FROM inserted;
                RETURN NULL;
            END $$
            """
        )
    )
    await session.execute(
        text(
            """
            CREATE TRIGGER test_statement_size AFTER INSERT ON gene_versions
                REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
                EXECUTE FUNCTION test_statement_size()
            """
        )
    )


async def test_a_batch_writes_the_rows_of_the_single_publishes(
    client_as: Callable[[str | None], httpx.AsyncClient],
    session: AsyncSession,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await statement_sizes(session)
    producer = client_as("producer")
    singles = []
    with monkeypatch.context() as patch:
        # The single publishes all take the general path (a single new lineage is written set-wise
        # too, tests/genes/test_publish_rows.py): the batch is compared with the general path.
        patch.setattr(bulk, "founds_lineage", lambda planned: False)
        for payload in items("one"):
            response = await producer.post("/v1/genes", json=payload)
            singles.append(response)
    assert set((await session.execute(text("SELECT n FROM test_statement_sizes"))).scalars()) == {1}
    batch = await producer.post("/v1/genes/batch", json=items("many"))
    assert batch.status_code == 200, batch.text
    # The new lineages went in set-wise, a run of consecutive ones a statement: Genes 1-3; the next
    # version (one by one); Gene 4 alone (the re-sent document after it is a single publish); then
    # Genes 5 and 7 (the refused item between them writes nothing).
    sizes = (await session.execute(text("SELECT n FROM test_statement_sizes ORDER BY id"))).scalars()
    assert list(sizes)[-5:] == [1, 3, 1, 1, 2]

    # The same answers, item by item.
    results = batch.json()["results"]
    assert [r["status"] for r in results] == [s.status_code for s in singles]
    assert [r["status"] for r in results] == [201, 201, 201, 201, 201, 200, 201, 422, 201]
    for single, result in zip(singles, results, strict=True):
        if single.status_code < 400:
            same = ("version", "created", "converted")
            assert {k: result[k] for k in same} == {k: single.json()[k] for k in same}
        else:
            assert result["detail"] == single.json()["detail"]

    one, many = await rows(session, "one"), await rows(session, "many")
    names = {f"gene_rows_one_{n}": f"gene_rows_many_{n}" for n in range(1, 8)}
    for table in ("gene_versions",):
        for a, b in zip(one[table], many[table], strict=True):
            names[a["asset_id"]] = b["asset_id"]
            if a["parent_asset_id"]:
                names[a["parent_asset_id"]] = b["parent_asset_id"]
    assert {table: len(r) for table, r in one.items()} == {table: len(r) for table, r in many.items()}
    assert len(one["gene_versions"]) == 7 and len(one["feed_events"]) == 7
    # Every column of every row, ids mapped across (asset_ids follow from the ids).
    assert normalised(one, names) == normalised(many, {v: v for v in names.values()})
    # The vectors: the same texts encoded alone or in a batch (padding) agree to float precision.
    for table in ("gene_versions", "gene_task_keys"):
        for a, b in zip(one[table], many[table], strict=True):
            assert float(np.dot(a["embedding"].to_numpy(), b["embedding"].to_numpy())) > 0.9999


async def test_a_chunk_the_database_refuses_is_published_item_by_item(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    """A chunk whose multi-row INSERT fails (here a trigger refuses any statement that inserts
    more than one version) is rolled back and its items are published one by one: all stored."""
    # Created in the test's transaction, rolled back with it.
    await session.execute(
        text(
            """
            CREATE FUNCTION test_one_at_a_time() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF (SELECT count(*) FROM inserted) > 1 THEN
                    RAISE EXCEPTION 'one version a statement';
                END IF;
                RETURN NULL;
            END $$
            """
        )
    )
    await session.execute(
        text(
            """
            CREATE TRIGGER test_one_at_a_time AFTER INSERT ON gene_versions
                REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
                EXECUTE FUNCTION test_one_at_a_time()
            """
        )
    )
    producer = client_as("producer")
    payloads = items("fallback")
    response = await producer.post("/v1/genes/batch", json=payloads)

    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 201, 201, 201, 201, 200, 201, 422, 201]
    found = await rows(session, "fallback")
    assert len(found["gene_versions"]) == 7 and len(found["feed_events"]) == 7
    assert [row["asset_id"] for row in found["feed_events"]] == [
        r["asset_id"] for r in results if r["status"] == 201
    ]


async def test_a_batch_racing_another_for_the_same_new_genes_answers_them_as_found(
    migrated_url: str, embeddings: EmbeddingService
) -> None:
    """Two transactions publish the same new Genes as a batch. The second found them unknown, so it
    writes them set-wise and waits on the first's uncommitted Gene ids; once the first commits, its
    chunk finds the ids taken, is rolled back, and each item is published alone: found, not doubled."""
    engine = create_engine(migrated_url, Settings(database_url=migrated_url))
    sessions = create_sessionmaker(engine)
    requests = [PublishRequest.model_validate(payload) for payload in items("race")]
    try:
        async with sessions() as first, sessions() as second, sessions() as watcher:
            won = await gene_service.publish_batch(first, requests, embeddings, actor=SYSTEM)
            racing = asyncio.create_task(
                gene_service.publish_batch(second, requests, embeddings, actor=SYSTEM)
            )
            waiting = text(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            waited = False
            for _ in range(2400):  # up to 2 minutes: the encodes crawl on a loaded machine
                if await watcher.scalar(waiting):
                    waited = True
                    break
                # pg_stat_activity is read once a transaction: each look in a transaction of its own.
                await watcher.rollback()
                await asyncio.sleep(0.05)
            done_early = racing.done()
            # Committed before any assertion: leaving the block with the second still waiting on the
            # first's locks would hang the test (closing the second waits for its statement).
            await first.commit()
            lost = await racing
            await second.commit()
            assert waited, "the second batch never waited on the first's Gene ids"
            assert not done_early
            counts = {
                table: await watcher.scalar(text(f"SELECT count(*) FROM {table}"))
                for table in ("genes", "gene_versions", "feed_events", "evolution_events")
            }
    finally:
        await engine.dispose()
    statuses = [(o.created, o.version.asset_id) if isinstance(o, Published) else o.status for o in won]
    assert [s if isinstance(s, int) else s[0] for s in statuses] == [
        True, True, True, True, True, False, True, 422, True
    ]  # fmt: skip
    # The loser's answers: the same versions, found (the re-sent first version too), none created.
    assert [(o.created, o.version.asset_id) if isinstance(o, Published) else o.status for o in lost] == [
        (False, s[1]) if isinstance(s, tuple) else s for s in statuses
    ]
    assert counts == {"genes": 6, "gene_versions": 7, "feed_events": 7, "evolution_events": 7}


async def test_a_chunk_whose_optional_columns_are_all_empty(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession
) -> None:
    """No task, verifier, cost or guards in any item: columns of nothing but NULLs go in too."""
    bare = [
        publish_payload(
            gene_doc(id=f"gene_rows_bare_{n}", summary=f"Bare Gene {n} for empty columns", avoid=None),
            kind="manual",
            task=None,
            verifier=None,
            cost=None,
        )
        for n in range(3)
    ]
    response = await client_as("producer").post("/v1/genes/batch", json=bare)
    assert [r["status"] for r in response.json()["results"]] == [201, 201, 201]
    found = await rows(session, "bare")
    assert len(found["gene_versions"]) == 3 and not found["gene_task_keys"]
    assert {row["cost_tokens"] for row in found["gene_versions"]} == {None}
    assert {row["task_family"] for row in found["genes"]} == {None}
