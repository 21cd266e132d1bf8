"""The SQL of hybrid retrieval: one statement gathers the candidates of all three stages.

Stages, each over current versions only (the partial indexes' predicate `valid_to IS NULL`):
- vector: HNSW nearest neighbours by cosine distance (`<=>`, the index's opclass); iterative scans
  keep filtered queries from starving, and a narrow filter switches to an exact scan;
- keyword: full-text match (OR) of the query's discriminative lexemes, ranked by ts_rank with the
  index's weights. Lexemes are taken rarest first while their document frequencies add up to at
  most a posting budget: an OR of a sentence's every word matches half the corpus, and ranking that
  half cost 100 ms at 10,000 Genes (bench/search.py), for words that tell nothing apart. The tsquery
  is computed once a statement, and the headline rank only for the stage's candidates;
- signals: Genes whose signal words (unstemmed) share a discriminative word with the consumer's
  signals, ranked by how many; the exact GEP match of each pattern is decided in Python
  (app/gep/signals.py), on every candidate of every stage.

Statements are assembled from constant fragments only (column names, stage templates) and the
LIMIT, an integer; every other value travels as a bound parameter, hence the file-wide S608
exemption. The LIMIT is inlined because read connections use generic plans (app/db.py): with a
parameter there, the planner guesses 10 % of the table and prefers a full sort to the HNSW index.
"""
# ruff: noqa: S608

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson
import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import set_json_loads

from app.embeddings.base import Vectors

# Below this many filtered Genes, an exact scan is cheaper than an HNSW walk and cannot starve.
EXACT_SCAN_LIMIT = 2000
# A task family inlined in SQL must be a slug (app/schemas.py TaskFamily); anything else stays bound.
_FAMILY = re.compile(r"[a-z][a-z0-9_]{1,63}")
# Documents a keyword or signal stage may have to rank (sum of the chosen lexemes' frequencies).
POSTING_BUDGET = 600


def _rare_terms(config: str, stats: str, text_param: str) -> str:
    """A statement of one row: `query`, a tsquery OR-ing the text's lexemes, rarest first, within the
    posting budget (NULL when the text has none)."""
    return f"""SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS query
               FROM (SELECT t.lexeme,
                            sum(coalesce(s.ndoc, 0)) OVER (ORDER BY coalesce(s.ndoc, 0), t.lexeme) AS postings
                     FROM unnest(to_tsvector('{config}', %({text_param})s)) AS t
                     LEFT JOIN {stats} s ON s.lexeme = t.lexeme) ranked
               WHERE postings <= %(budget)s"""


# The facts of a candidate version that do not depend on the query: its own columns (`summary` and
# `signals_match` are stored copies of the document's, migration 0019: reading them from the JSONB
# document detoasted it twice a row) and its Gene's. `v` is gene_versions, `g` genes.
_FACT_COLUMNS = (
    "gene_id, version, asset_id, producer_model, provenance_kind, valid_from, signals_match, summary,"
    " category, task_family, status"
)
_VERSION_FACTS = ", ".join(
    ("g." if name in ("category", "task_family", "status") else "v.") + name
    for name in _FACT_COLUMNS.split(", ")
)
# Per candidate and query: quality (all models, and the consumer's model with its demotion), the
# producer's reputation, and the best similarity of the Gene's task keys to the query.
_SELECT_FACTS = f"""
SELECT c.id, {", ".join("c." + name for name in _FACT_COLUMNS.split(", "))}, c.similarity, c.vector_rank,
       qa.lower_bound AS quality_all, qm.lower_bound AS quality_model, coalesce(qm.demoted, false) AS demoted,
       pr.successes AS producer_successes, pr.failures AS producer_failures,
       (SELECT max(1 - (k.embedding <=> %(qvec)s)) FROM gene_task_keys k WHERE k.gene_id = c.gene_id)
         AS task_similarity
FROM candidates c
LEFT JOIN gene_quality qa ON qa.gene_id = c.gene_id AND qa.consumer_model = ''
LEFT JOIN gene_quality qm ON qm.gene_id = c.gene_id AND qm.consumer_model = %(consumer_model)s
LEFT JOIN producer_reputation pr ON pr.producer_model = c.producer_model
"""


@dataclass
class Lexical:
    """What the keyword and signal stages found: ranks per version id, and the keyword stage's ts_rank."""

    keyword: dict[int, int] = field(default_factory=dict)
    signals: dict[int, int] = field(default_factory=dict)
    keyword_score: dict[int, float] = field(default_factory=dict)
    keyword_headline: dict[int, float] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]]) -> Lexical:
        """From the stages' rows: stage, id, r (rank), and the keyword stage's score and headline."""
        found = cls()
        for row in rows:
            version_id = int(row["id"])
            if row["stage"] == "keyword":
                found.keyword[version_id] = int(row["r"])
                found.keyword_score[version_id] = float(row["score"])
                found.keyword_headline[version_id] = float(row["headline"])
            else:
                found.signals[version_id] = int(row["r"])
        return found


@dataclass
class Filters:
    statuses: list[str]
    category: str | None = None
    task_family: str | None = None
    producer_model: str | None = None
    provenance_kind: str | None = None

    def sql(self, *, versions: bool = True) -> str:
        """The WHERE clause over `gene_versions v JOIN genes g` (`versions=False`: over `genes g`)."""
        clauses = ["v.valid_to IS NULL", "v.embedding IS NOT NULL"] if versions else []
        clauses.append("g.status = ANY(%(statuses)s)")
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

    def vector_sql(self) -> str:
        """`sql()` for the vector stage: a task family also as a literal on the version's own column,
        so that the planner can walk that family's partial HNSW index (migration 0017; a generic plan
        cannot match a partial index's predicate to a bound parameter). Otherwise the family's Genes
        are a quarter of the graph's nodes, and an iterative scan from a query near another family
        passes thousands of others first (190 ms at 100,000 Genes, bench/million.py).
        """
        where = self.sql()
        if self.task_family is not None and _FAMILY.fullmatch(self.task_family):
            where += f" AND v.task_family = '{self.task_family}'"
        return where

    @property
    def genes_only(self) -> bool:
        """Whether every narrowing filter is a column of `genes` (counted there, without a join)."""
        return self.producer_model is None and self.provenance_kind is None

    @property
    def narrowing(self) -> bool:
        return any(
            v is not None
            for v in (self.category, self.task_family, self.producer_model, self.provenance_kind)
        )


class SearchRepository:
    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def _rows(self, sql: str, params: dict[str, Any], *, json: bool = False) -> list[dict[str, Any]]:
        async with self.conn.cursor(row_factory=dict_row) as cursor:
            if json:
                # orjson for the JSONB columns of this statement's rows: the standard library's parser
                # took a tenth of a search's CPU on the candidates' signal patterns (bench/search.py).
                set_json_loads(orjson.loads, cursor)
            await cursor.execute(sql, params)
            return await cursor.fetchall()

    async def task_family_known(self, family: str) -> bool:
        rows = await self._rows(
            "SELECT EXISTS (SELECT 1 FROM genes WHERE task_family = %(family)s) AS known", {"family": family}
        )
        return bool(rows[0]["known"])

    async def task_families(self) -> list[str]:
        rows = await self._rows(
            "SELECT DISTINCT task_family FROM genes WHERE task_family IS NOT NULL ORDER BY task_family", {}
        )
        return [str(row["task_family"]) for row in rows]

    async def signal_frequencies(self, texts: list[str]) -> tuple[int, dict[str, int]]:
        """The number of current Genes, and for each text the document frequency of its rarest signal word.

        Frequencies are those of the Genes' signal words (signal_term_stats); a word newer than the last
        refresh counts 0 (rare), and a text with no word is left out.
        """
        rows = await self._rows(
            """SELECT (SELECT coalesce(max(n), 0) FROM search_corpus_size) AS n, t.text,
                      min(coalesce(s.ndoc, 0)) AS df
               FROM unnest(%(texts)s::text[]) AS t(text)
               CROSS JOIN LATERAL unnest(to_tsvector('simple', t.text)) AS w
               LEFT JOIN signal_term_stats s ON s.lexeme = w.lexeme
               GROUP BY t.text""",
            {"texts": texts},
        )
        if not rows:
            size = await self._rows("SELECT coalesce(max(n), 0) AS n FROM search_corpus_size", {})
            return int(size[0]["n"]), {}
        return int(rows[0]["n"]), {str(row["text"]): int(row["df"]) for row in rows}

    async def filtered_count(self, filters: Filters, limit: int) -> int:
        """How many current versions pass the filters, counted up to `limit`.

        Genes alone when the filters are all theirs (one current version each): the join walked
        13,000 versions to find 2,000 of a family at 100,000 Genes (60 ms).
        """
        if filters.genes_only:
            where = filters.sql(versions=False)
            sql = f"SELECT count(*) AS n FROM (SELECT 1 FROM genes g WHERE {where} LIMIT %(limit)s) s"
        else:
            sql = (
                "SELECT count(*) AS n FROM (SELECT 1 FROM gene_versions v JOIN genes g ON g.id = v.gene_id"
                f" WHERE {filters.sql()} LIMIT %(limit)s) s"
            )
        rows = await self._rows(sql, {**filters.params(), "limit": limit})
        return int(rows[0]["n"])

    async def lexical(
        self, *, keyword_text: str | None, signal_text: str | None, filters: Filters, per_stage: int
    ) -> Lexical:
        """Keyword and signal candidates with their ranks; needs no embedding, so it runs meanwhile."""
        where, limit = filters.sql(), int(per_stage)
        queries, parts = [], []
        if keyword_text:
            # The tsquery once (a MATERIALIZED CTE: inlined, each of its uses was an InitPlan of its
            # own, five evaluations of the lexeme ranking); ts_rank for every match (the order needs
            # it), the headline only for the stage's candidates.
            queries.append(f"kwq AS MATERIALIZED ({_rare_terms('english', 'search_term_stats', 'kwq')})")
            parts.append(f"""
              (SELECT 'keyword' AS stage, id, rank() OVER (ORDER BY score DESC) AS r, score,
                      ts_rank('{{0,0,0,1}}', tsv, query) AS headline FROM (
                 SELECT v.id, v.search_tsv AS tsv, q.query, ts_rank(v.search_tsv, q.query) AS score
                 FROM kwq q CROSS JOIN gene_versions v JOIN genes g ON g.id = v.gene_id
                 WHERE {where} AND q.query IS NOT NULL AND v.search_tsv @@ q.query
                 ORDER BY score DESC, v.id LIMIT {limit}) kw)""")
        if signal_text:
            queries.append(f"sigq AS MATERIALIZED ({_rare_terms('simple', 'signal_term_stats', 'sigq')})")
            parts.append(f"""
              (SELECT 'signals' AS stage, id, rank() OVER (ORDER BY score DESC) AS r, score,
                      0::real AS headline FROM (
                 SELECT v.id, ts_rank(v.signals_tsv, q.query) AS score
                 FROM sigq q CROSS JOIN gene_versions v JOIN genes g ON g.id = v.gene_id
                 WHERE {where} AND q.query IS NOT NULL AND v.signals_tsv @@ q.query
                 ORDER BY score DESC, v.id LIMIT {limit}) sig)""")
        if not parts:
            return Lexical()
        params = {
            **filters.params(),
            "kwq": keyword_text,
            "sigq": signal_text,
            "budget": POSTING_BUDGET,
        }
        sql = f"WITH {', '.join(queries)}\n" + " UNION ALL ".join(parts)
        return Lexical.from_rows(await self._rows(sql, params))

    async def candidates(
        self,
        *,
        query_vector: Vectors,
        extra_ids: list[int],
        filters: Filters,
        per_stage: int,
        exact: bool,
        consumer_model: str | None = None,
    ) -> list[dict[str, Any]]:
        """The vector stage, then the facts of its candidates together with `extra_ids` (other stages').

        The HNSW walk reads each nearest version's row and its Gene's anyway (for the filters), so it
        carries their facts out, and its distance is the similarity; only the other stages' candidates
        that it did not find are looked up by id. Rows come in no particular order.
        """
        where, limit = filters.sql(), int(per_stage)
        if exact:
            # MATERIALIZED keeps the planner from walking the HNSW index for the ORDER BY.
            vec = f"""
              filtered AS MATERIALIZED (
                SELECT v.id, v.embedding FROM gene_versions v JOIN genes g ON g.id = v.gene_id WHERE {where}),
              nearest AS (SELECT id, embedding <=> %(qvec)s AS distance FROM filtered
                          ORDER BY distance LIMIT {limit}),
              vec AS (SELECT n.id, n.distance, {_VERSION_FACTS}
                      FROM nearest n JOIN gene_versions v ON v.id = n.id JOIN genes g ON g.id = v.gene_id)"""
        else:
            vec = f"""
              vec AS (SELECT v.id, v.embedding <=> %(qvec)s AS distance, {_VERSION_FACTS}
                      FROM gene_versions v JOIN genes g ON g.id = v.gene_id WHERE {filters.vector_sql()}
                      ORDER BY v.embedding <=> %(qvec)s LIMIT {limit})"""
        sql = (
            f"WITH {vec},\n"
            # rank(), not row_number(): equally close Genes share a rank instead of splitting by id.
            "candidates AS (\n"
            f"  SELECT id, {_FACT_COLUMNS}, 1 - distance AS similarity,\n"
            "         rank() OVER (ORDER BY distance) AS vector_rank FROM vec\n"
            "  UNION ALL\n"
            f"  SELECT v.id, {_VERSION_FACTS}, 1 - (v.embedding <=> %(qvec)s), NULL\n"
            "  FROM gene_versions v JOIN genes g ON g.id = v.gene_id\n"
            "  WHERE v.id = ANY(%(extra)s::bigint[]) AND v.id NOT IN (SELECT id FROM vec))\n" + _SELECT_FACTS
        )
        params = {
            **filters.params(),
            "qvec": np.asarray(query_vector, dtype=np.float32),
            "extra": extra_ids,
            # NULL matches no per-model row ('' is the all-models row).
            "consumer_model": consumer_model,
        }
        return await self._rows(sql, params, json=True)

    async def documents(self, version_ids: list[int]) -> dict[int, str]:
        rows = await self._rows(
            "SELECT id, document_json FROM gene_versions WHERE id = ANY(%(ids)s)", {"ids": version_ids}
        )
        return {int(row["id"]): str(row["document_json"]) for row in rows}


# Any constant works, as long as every Genebank process uses the same one.
REFRESH_LOCK_KEY = 0x67656E66
TERM_STATS_VIEWS = ("search_term_stats", "signal_term_stats", "search_corpus_size")


async def refresh_term_stats(conn: psycopg.AsyncConnection[Any]) -> bool:
    """Refresh both views unless another process is doing it right now (then False)."""
    locked = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (REFRESH_LOCK_KEY,))).fetchone()
    if not locked or not locked[0]:
        return False
    try:
        for view in TERM_STATS_VIEWS:
            # CONCURRENTLY: searches keep reading the previous figures meanwhile.
            await conn.execute(f"REFRESH MATERIALIZED VIEW CONCURRENTLY {view}")
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (REFRESH_LOCK_KEY,))
    return True
