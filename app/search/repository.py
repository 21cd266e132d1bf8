"""The SQL of hybrid retrieval: one statement gathers the candidates of all three stages.

Stages, each over current versions only (the partial indexes' predicate `valid_to IS NULL`):
- vector: HNSW nearest neighbours by cosine distance (`<=>`, the index's opclass); iterative scans
  keep filtered queries from starving, and a narrow filter switches to an exact scan;
- keyword: full-text match of the query's terms (OR), ranked by ts_rank_cd;
- signals: Genes whose signal words (unstemmed) share a word with the consumer's signals; the exact
  GEP match of each pattern is decided in Python (app/gep/signals.py), on every candidate.

Statements are assembled from constant fragments only (column names, stage templates); every value
travels as a bound parameter, hence the file-wide S608 exemption.
"""
# ruff: noqa: S608

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg.rows import dict_row

from app.embeddings.base import Vectors

# Below this many filtered Genes, an exact scan is cheaper than an HNSW walk and cannot starve.
EXACT_SCAN_LIMIT = 2000

_SELECT_FACTS = """
SELECT v.id, v.gene_id, v.version, v.asset_id, v.producer_model, v.provenance_kind, v.valid_from,
       v.document -> 'signals_match' AS signals_match, v.document ->> 'summary' AS summary,
       g.category, g.task_family, g.status,
       1 - (v.embedding <=> %(qvec)s) AS similarity,
       vec_r.r AS vector_rank, kw_r.r AS keyword_rank, (sig.id IS NOT NULL) AS signal_candidate
       {documents}
FROM candidates c
JOIN gene_versions v ON v.id = c.id
JOIN genes g ON g.id = v.gene_id
LEFT JOIN vec_r ON vec_r.id = c.id
LEFT JOIN kw_r ON kw_r.id = c.id
LEFT JOIN sig ON sig.id = c.id
"""


@dataclass
class Filters:
    statuses: list[str]
    category: str | None = None
    task_family: str | None = None
    producer_model: str | None = None
    provenance_kind: str | None = None

    def sql(self) -> str:
        clauses = ["v.valid_to IS NULL", "v.embedding IS NOT NULL", "g.status = ANY(%(statuses)s)"]
        for column, value in (
            ("g.category", self.category),
            ("g.task_family", self.task_family),
            ("v.producer_model", self.producer_model),
            ("v.provenance_kind", self.provenance_kind),
        ):
            if value is not None:
                clauses.append(f"{column} = %({column.split('.')[1]})s")
        return " AND ".join(clauses)

    def params(self) -> dict[str, Any]:
        return {
            "statuses": self.statuses,
            "category": self.category,
            "task_family": self.task_family,
            "producer_model": self.producer_model,
            "provenance_kind": self.provenance_kind,
        }

    @property
    def narrowing(self) -> bool:
        return any(
            v is not None
            for v in (self.category, self.task_family, self.producer_model, self.provenance_kind)
        )


class SearchRepository:
    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def _rows(self, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        async with self.conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(sql, params)
            return await cursor.fetchall()

    async def filtered_count(self, filters: Filters, limit: int) -> int:
        sql = (
            "SELECT count(*) AS n FROM (SELECT 1 FROM gene_versions v JOIN genes g ON g.id = v.gene_id"
            f" WHERE {filters.sql()} LIMIT %(limit)s) s"
        )
        rows = await self._rows(sql, {**filters.params(), "limit": limit})
        return int(rows[0]["n"])

    async def candidates(
        self,
        *,
        query_vector: Vectors,
        keyword_query: str | None,
        signal_query: str | None,
        filters: Filters,
        per_stage: int,
        exact: bool,
        with_documents: bool,
    ) -> list[dict[str, Any]]:
        where = filters.sql()
        if exact:
            # MATERIALIZED keeps the planner from walking the HNSW index for the ORDER BY.
            vec = f"""
              filtered AS MATERIALIZED (
                SELECT v.id, v.embedding FROM gene_versions v JOIN genes g ON g.id = v.gene_id WHERE {where}),
              vec AS (SELECT id, embedding <=> %(qvec)s AS distance FROM filtered
                      ORDER BY distance LIMIT %(n)s)"""
        else:
            vec = f"""
              vec AS (SELECT v.id, v.embedding <=> %(qvec)s AS distance
                      FROM gene_versions v JOIN genes g ON g.id = v.gene_id WHERE {where}
                      ORDER BY v.embedding <=> %(qvec)s LIMIT %(n)s)"""
        kw = "kw AS (SELECT NULL::bigint AS id, NULL::real AS rank WHERE false)"
        if keyword_query:
            kw = f"""
              kw AS (SELECT v.id, ts_rank_cd(v.search_tsv, q.query, 32) AS rank
                     FROM gene_versions v JOIN genes g ON g.id = v.gene_id,
                          to_tsquery('english', %(kwq)s) AS q(query)
                     WHERE {where} AND v.search_tsv @@ q.query
                     ORDER BY rank DESC, v.id LIMIT %(n)s)"""
        sig = "sig AS (SELECT NULL::bigint AS id WHERE false)"
        if signal_query:
            sig = f"""
              sig AS (SELECT v.id FROM gene_versions v JOIN genes g ON g.id = v.gene_id
                      WHERE {where} AND v.signals_tsv @@ to_tsquery('simple', %(sigq)s)
                      LIMIT %(n)s)"""
        sql = (
            f"WITH {vec},\n{kw},\n{sig},\n"
            "vec_r AS (SELECT id, row_number() OVER (ORDER BY distance, id) AS r FROM vec),\n"
            "kw_r AS (SELECT id, row_number() OVER (ORDER BY rank DESC, id) AS r FROM kw),\n"
            "candidates AS (SELECT id FROM vec UNION SELECT id FROM kw UNION SELECT id FROM sig)\n"
            + _SELECT_FACTS.format(documents=", v.document_json" if with_documents else "")
        )
        params = {
            **filters.params(),
            "qvec": np.asarray(query_vector, dtype=np.float32),
            "kwq": keyword_query,
            "sigq": signal_query,
            "n": per_stage,
        }
        return await self._rows(sql, params)

    async def documents(self, version_ids: list[int]) -> dict[int, str]:
        rows = await self._rows(
            "SELECT id, document_json FROM gene_versions WHERE id = ANY(%(ids)s)", {"ids": version_ids}
        )
        return {int(row["id"]): str(row["document_json"]) for row in rows}
