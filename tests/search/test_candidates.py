"""The candidates query returns exactly what it returned before its facts came from the vector scan.

The reference is the statement as it was before migration 0019: every candidate looked up by id, its
summary and signal patterns extracted from the JSONB document, its similarity recomputed.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector_async
from psycopg.rows import dict_row
from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from app.search.repository import Filters, SearchRepository
from app.search.service import query_text
from genebank.client import AsyncClient

DEMO: list[dict[str, Any]] = json.loads(resources.files("app.demo").joinpath("genes.json").read_text())

# The vector stage as it was: the HNSW walk, or (exact) a scan of the filtered rows that MATERIALIZED
# keeps from walking the index (an index walk may miss a row the exact scan finds).
HNSW = """vec AS (SELECT v.id, v.embedding <=> %(qvec)s AS distance
             FROM gene_versions v JOIN genes g ON g.id = v.gene_id WHERE {where}
             ORDER BY v.embedding <=> %(qvec)s LIMIT {limit})"""
EXACT = """filtered AS MATERIALIZED (
  SELECT v.id, v.embedding FROM gene_versions v JOIN genes g ON g.id = v.gene_id WHERE {where}),
vec AS (SELECT id, embedding <=> %(qvec)s AS distance FROM filtered ORDER BY distance LIMIT {limit})"""
REFERENCE = """
WITH {vec},
vec_r AS (SELECT id, rank() OVER (ORDER BY distance) AS r FROM vec),
candidates AS (SELECT id FROM vec UNION SELECT unnest(%(extra)s::bigint[]))
SELECT v.id, v.gene_id, v.version, v.asset_id, v.producer_model, v.provenance_kind, v.valid_from,
       v.document -> 'signals_match' AS signals_match, v.document ->> 'summary' AS summary,
       g.category, g.task_family, g.status,
       1 - (v.embedding <=> %(qvec)s) AS similarity,
       vec_r.r AS vector_rank,
       qa.lower_bound AS quality_all, qm.lower_bound AS quality_model, coalesce(qm.demoted, false) AS demoted,
       pr.successes AS producer_successes, pr.failures AS producer_failures,
       (SELECT max(1 - (k.embedding <=> %(qvec)s)) FROM gene_task_keys k WHERE k.gene_id = v.gene_id)
         AS task_similarity
FROM candidates c
JOIN gene_versions v ON v.id = c.id
JOIN genes g ON g.id = v.gene_id
LEFT JOIN vec_r ON vec_r.id = c.id
LEFT JOIN gene_quality qa ON qa.gene_id = v.gene_id AND qa.consumer_model = ''
LEFT JOIN gene_quality qm ON qm.gene_id = v.gene_id AND qm.consumer_model = %(consumer_model)s
LEFT JOIN producer_reputation pr ON pr.producer_model = v.producer_model
"""

QUERIES = [
    ("my asyncio test suite never finishes and just sits there", []),
    ("npm refuses to install", ["npm ERR! code ERESOLVE"]),
    (None, ["ModuleNotFoundError: No module named 'app'"]),
    ("docker says the host port is taken", ["Bind for 0.0.0.0:8080 failed: port is already allocated"]),
]


@pytest.fixture
async def conn(genebank: AsyncClient, session: AsyncSession) -> psycopg.AsyncConnection[Any]:
    for payload in DEMO:
        assert (await genebank.publish(payload["gene"], payload["provenance"])).created
    raw = await (await session.connection()).get_raw_connection()
    connection: psycopg.AsyncConnection[Any] = raw.driver_connection  # type: ignore[assignment]
    await register_vector_async(connection)
    # A quality row and a per-model demotion, so that the joins have something to find.
    await connection.execute(
        "INSERT INTO gene_quality (gene_id, consumer_model, successes, failures, lower_bound, demoted, as_of)"
        " SELECT id, m, 3, 1, 0.4, m <> '', now() FROM genes, unnest(ARRAY['', 'model-x']) AS m"
        " ORDER BY id LIMIT 6"
    )
    return connection


async def reference(
    conn: psycopg.AsyncConnection[Any],
    vector: np.ndarray,
    extra: list[int],
    filters: Filters,
    limit: int,
    consumer_model: str | None,
    exact: bool,
) -> dict[int, dict[str, Any]]:
    vec = (
        EXACT.format(where=filters.sql(), limit=limit)
        if exact
        else HNSW.format(where=filters.vector_sql(), limit=limit)
    )
    sql = REFERENCE.format(vec=vec)
    params = {
        **filters.params(),
        "qvec": vector,
        "extra": extra,
        "consumer_model": consumer_model,
    }
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(sql, params)
        return {int(row["id"]): row for row in await cursor.fetchall()}


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("consumer_model", [None, "model-x"])
async def test_candidates_are_unchanged(
    conn: psycopg.AsyncConnection[Any], embeddings: EmbeddingService, exact: bool, consumer_model: str | None
) -> None:
    repo = SearchRepository(conn)
    filters = Filters(statuses=["candidate", "promoted"])
    other_stages = 0
    for query, signals in QUERIES:
        text = query_text(query, signals)
        vector = np.asarray(await embeddings.embed_query(text), dtype=np.float32)
        found = await repo.lexical(
            keyword_text=text, signal_text=" ".join(signals) or None, filters=filters, per_stage=5
        )
        extra = sorted(set(found.keyword) | set(found.signals))
        rows = await repo.candidates(
            query_vector=vector,
            extra_ids=extra,
            filters=filters,
            per_stage=5,  # fewer than the demo's Genes, so that other stages add candidates
            exact=exact,
            consumer_model=consumer_model,
        )
        expected = await reference(conn, vector, extra, filters, 5, consumer_model, exact)
        got = {int(row["id"]): row for row in rows}
        assert len(got) == len(rows)
        assert got == expected
        assert all(row["summary"] and row["signals_match"] for row in rows)
        other_stages += sum(row["vector_rank"] is None for row in rows)
    assert other_stages, "no candidate came from another stage alone"
