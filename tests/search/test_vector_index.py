"""`genebank vector-index`: IVFFlat serves the vector stage in place of HNSW, and HNSW comes back.

On a committed registry of its own (the builds run CONCURRENTLY, outside any transaction): the
switch refuses a small registry without --force and changes nothing; with it, the IVFFlat index is
the one the vector stage walks, the database carries its probes for every new connection, and
with every list probed the candidates are the exact nearest, as they were under HNSW; a rebuild
swaps in new lists; switching back restores the indexes the migrations make, settings reset.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import numpy as np
import psycopg
import pytest
from typer.testing import CliRunner

from app.auth.principal import SYSTEM
from app.cli import cli
from app.config import Settings
from app.db import configure_read_connection, create_engine, create_sessionmaker, libpq_conninfo
from app.embeddings import EmbeddingService
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.models.gene_version import HNSW_FAMILIES
from app.search import vector_index
from app.search.repository import Filters, SearchRepository
from tests.factories import BASE_PROVENANCE, gene_doc, publish_payload

TOPICS = [
    "pytest suite hangs on an unawaited asyncio task",
    "npm install fails with ERESOLVE peer dependency conflicts",
    "docker container cannot bind port 8080, already allocated",
    "Django list view runs one SQL query per row",
    "a proof by induction skips its base case",
    "the answer must stay under fifty words",
    "an agent loops forever clicking the same button",
    "flaky tests that depend on execution order",
]
QUERIES = ["my async tests never finish", "peer dependency conflict when installing packages", "N+1 queries"]
HNSW_NAMES = {vector_index.HNSW, *(f"{vector_index.HNSW}_{family}" for family in HNSW_FAMILIES)}


@pytest.fixture
async def registry(migrated_url: str, embeddings: EmbeddingService) -> AsyncIterator[str]:
    """A committed registry of 48 Genes over two families."""
    requests = []
    for n in range(48):
        family = ("code_generation", "math_reasoning")[n % 2]
        gene = gene_doc(
            id=f"gene_vector_index_{n}",
            summary=f"{TOPICS[n % len(TOPICS)]} (case {n})",
            strategy=[f"Step {n}: isolate the cause", "Verify the fix with a regression test"],
        )
        task = {**BASE_PROVENANCE["task"], "id": f"task-{n}", "family": family}
        requests.append(PublishRequest.model_validate(publish_payload(gene, task=task)))
    engine = create_engine(migrated_url, Settings(database_url=migrated_url))
    try:
        async with create_sessionmaker(engine)() as session:
            published = await gene_service.publish_batch(session, requests, embeddings, actor=SYSTEM)
            await session.commit()
        assert len(published) == len(requests)
    finally:
        await engine.dispose()
    yield libpq_conninfo(migrated_url)


async def nearest(conninfo: str, embeddings: EmbeddingService, family: str | None = None) -> list[list[str]]:
    """Each query's vector-stage candidates (gene ids, nearest first), on a fresh read connection."""
    filters = Filters(statuses=["candidate", "promoted"], task_family=family)
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        await configure_read_connection(conn, ef_search=400)
        repo = SearchRepository(conn)
        found = []
        for query in QUERIES:
            vector = np.asarray(await embeddings.embed_query(query), dtype=np.float32)
            rows = await repo.candidates(
                query_vector=vector, extra_ids=[], filters=filters, per_stage=10, exact=False
            )
            found.append([row["gene_id"] for row in sorted(rows, key=lambda row: -row["similarity"])])
        return found


def plan(conninfo: str, family: str | None = None) -> str:
    """The vector stage's plan with sequential scans priced out: which index can it walk?"""
    where = "valid_to IS NULL" + (f" AND task_family = '{family}'" if family else "")
    vector = "[" + ",".join(["0.05"] * 384) + "]"
    with psycopg.connect(conninfo) as conn:
        conn.execute("SET enable_seqscan = off")
        rows = conn.execute(
            f"EXPLAIN SELECT id FROM gene_versions WHERE {where} ORDER BY embedding <=> %s::vector LIMIT 10",
            (vector,),
        ).fetchall()
    return "\n".join(row[0] for row in rows)


def indexes(conninfo: str) -> dict[str, Any]:
    with psycopg.connect(conninfo) as conn:
        return {index.name: index for index in vector_index.vector_indexes(conn)}


def settings_of(conninfo: str) -> list[str]:
    with psycopg.connect(conninfo) as conn:
        return vector_index.database_settings(conn)


async def test_ivfflat_serves_the_vector_stage_and_hnsw_comes_back(
    registry: str, embeddings: EmbeddingService
) -> None:
    conninfo = registry
    before = await nearest(conninfo, embeddings)
    before_family = await nearest(conninfo, embeddings, "math_reasoning")
    assert set(indexes(conninfo)) == HNSW_NAMES

    with pytest.raises(vector_index.VectorIndexError, match="48 live Genes"):
        vector_index.switch(conninfo, "ivfflat")
    assert set(indexes(conninfo)) == HNSW_NAMES and settings_of(conninfo) == []

    said: list[str] = []
    after_switch = vector_index.switch(conninfo, "ivfflat", lists=4, probes=4, force=True, say=said.append)
    # --lists is the main index's; each family's has one list per thousand of its Genes (at least 1).
    assert {index.name: (index.method, index.options) for index in after_switch} == {
        vector_index.IVFFLAT: ("ivfflat", ["lists=4"]),
        **{f"{vector_index.IVFFLAT}_{family}": ("ivfflat", ["lists=1"]) for family in HNSW_FAMILIES},
    }
    assert any(line.startswith("building ix_gene_versions_embedding_ivfflat (lists 4") for line in said)
    assert sorted(settings_of(conninfo)) == ["ivfflat.iterative_scan=relaxed_order", "ivfflat.probes=4"]
    assert vector_index.IVFFLAT in plan(conninfo) and "hnsw" not in plan(conninfo)
    assert f"{vector_index.IVFFLAT}_math_reasoning" in plan(conninfo, "math_reasoning")
    # Every list probed: the exact nearest, as the HNSW walk found them at this size.
    assert await nearest(conninfo, embeddings) == before
    assert await nearest(conninfo, embeddings, "math_reasoning") == before_family
    assert before_family[0] and all(int(gene.rsplit("_", 1)[1]) % 2 for gene in before_family[0])

    # Again: new lists swapped in under the same name, nothing left beside it.
    vector_index.switch(conninfo, "ivfflat", lists=2, probes=2, force=True)
    rebuilt = {name: index.options for name, index in indexes(conninfo).items()}
    assert rebuilt[vector_index.IVFFLAT] == ["lists=2"] and len(rebuilt) == 1 + len(HNSW_FAMILIES)
    assert "ivfflat.probes=2" in settings_of(conninfo)

    back = vector_index.switch(conninfo, "hnsw")
    assert {index.name for index in back} == HNSW_NAMES
    assert all(index.options == ["m=16", "ef_construction=200"] and index.valid for index in back)
    assert settings_of(conninfo) == []
    assert "ix_gene_versions_embedding_hnsw " in plan(conninfo) + " "
    assert await nearest(conninfo, embeddings) == before


def test_the_command_shows_the_indexes_and_refuses_bad_input(
    registry: str, migrated_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GENEBANK_DATABASE_URL", migrated_url)
    shown = CliRunner().invoke(cli, ["vector-index"])
    assert shown.exit_code == 0, shown.output
    assert "ix_gene_versions_embedding_hnsw  hnsw (m=16, ef_construction=200)" in shown.output
    assert "database settings: none for ivfflat" in shown.output

    refused = CliRunner().invoke(cli, ["vector-index", "ivfflat"])
    assert refused.exit_code == 1
    assert "error: the registry holds 48 live Genes" in refused.output
    assert set(indexes(registry)) == HNSW_NAMES

    for bad in (["vector-index", "ivfflat", "--probes", "0"], ["vector-index", "annoy"]):
        result = CliRunner().invoke(cli, bad)
        assert result.exit_code == 2, result.output
    assert set(indexes(registry)) == HNSW_NAMES

    switched = CliRunner().invoke(cli, ["vector-index", "ivfflat", "--force", "--lists", "3"])
    assert switched.exit_code == 0, switched.output
    assert "ix_gene_versions_embedding_ivfflat  ivfflat (lists=3)" in switched.output
    assert "database settings: ivfflat.probes=10, ivfflat.iterative_scan=relaxed_order" in switched.output
    assert "restart the API processes and workers" in switched.output
