"""Which index serves the vector stage: HNSW (what the migrations build) or IVFFlat (`genebank
vector-index ivfflat`, for large registries).

The search statement does not change: it orders by `embedding <=> query` under `valid_to IS NULL`
(and the family literal for a family filter), and the planner walks whichever index matches.

Why IVFFlat at a million Genes (bench/million.py and bench/ann_strategies.py,
docs/benchmarks.md#a-million-genes): the registry's vectors come in dense clusters (a Gene and its
many near relatives), and a task description sits between them. HNSW's greedy walk fills its
candidate list inside the first cluster it reaches and rarely crosses to the next: at 1,000,000
Genes it found 0.880 of a text query's exact top 10 at ef_search 800 (0.701 with a family filter)
while Gene-like queries found 0.999. IVFFlat scans whole lists (k-means cells) nearest the query,
so neighbours in the next cluster are scanned too: 0.991 (0.979 filtered) at 10 probes of 1,000
lists, served at p50 19.2 ms against HNSW's 16.6 ms, and its five indexes built in 85 s against
585 s. Its lists are the k-means of what is indexed when it is built: build it once the registry
holds what it should cluster, and again when it has grown several times over.

The query-time setting (`ivfflat.probes`, and iterative scans so that filters keep their LIMIT) is
set on the database (ALTER DATABASE), so every process's connections take it, standbys included.
Connections opened before the switch keep the settings they started with: restart the API
processes and workers after it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg import sql

from app.errors import ValidationFailed
from app.models.gene_version import HNSW_FAMILIES

HNSW = "ix_gene_versions_embedding_hnsw"
IVFFLAT = "ix_gene_versions_embedding_ivfflat"
# Below this many live Genes HNSW finds the exact top 10 (recall 0.99+ at 100,000 in
# bench/million.py) and keeps its graph current as Genes arrive; IVFFlat's lists would be the
# k-means of a registry that has yet to grow.
MIN_IVFFLAT_ROWS = 50_000
# Chosen on the training split of the labelled queries at 1,000,000 Genes: the fewest probes whose
# text-query recall@10 reached 0.98 in each of three builds (10: 0.986, 0.991, 0.991; 5: 0.956,
# 0.973, 0.982), bench/million.py and bench/ann_strategies.py; held-out split 0.993-0.999.
DEFAULT_PROBES = 10
HNSW_OPTIONS = "m = 16, ef_construction = 200"  # as migrations 0007 and 0017 build them

Kind = Literal["hnsw", "ivfflat"]


class VectorIndexError(ValidationFailed):
    """The switch was refused before anything changed."""


@dataclass(frozen=True)
class Target:
    """One index of a kind: the main one (every live version) or a family's partial one."""

    kind: Kind
    family: str | None

    @property
    def name(self) -> str:
        base = HNSW if self.kind == "hnsw" else IVFFLAT
        return base if self.family is None else f"{base}_{self.family}"

    @property
    def predicate(self) -> sql.Composable:
        if self.family is None:
            return sql.SQL("valid_to IS NULL")
        return sql.SQL("valid_to IS NULL AND task_family = {}").format(sql.Literal(self.family))

    def create(self, name: str, lists: int | None) -> sql.Composed:
        method, options = ("hnsw", HNSW_OPTIONS) if self.kind == "hnsw" else ("ivfflat", f"lists = {lists}")
        return sql.SQL(
            "CREATE INDEX CONCURRENTLY {} ON gene_versions USING {} (embedding vector_cosine_ops)"
            " WITH ({}) WHERE {}"
        ).format(sql.Identifier(name), sql.SQL(method), sql.SQL(options), self.predicate)


@dataclass(frozen=True)
class IndexInfo:
    name: str
    method: str
    size_bytes: int
    options: list[str]
    valid: bool


def lists_for(rows: int) -> int:
    """pgvector's rule for the number of lists: rows / 1000 up to a million rows, sqrt(rows) beyond."""
    return max(1, rows // 1000 if rows <= 1_000_000 else math.isqrt(rows))


def vector_indexes(conn: psycopg.Connection[Any]) -> list[IndexInfo]:
    """The vector indexes on gene_versions, by name."""
    rows = conn.execute(
        "SELECT c.relname, am.amname, pg_relation_size(c.oid), coalesce(c.reloptions, '{}'), i.indisvalid"
        " FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam"
        " WHERE i.indrelid = 'gene_versions'::regclass AND am.amname IN ('hnsw', 'ivfflat')"
        " ORDER BY c.relname"
    ).fetchall()
    return [IndexInfo(row[0], row[1], int(row[2]), list(row[3]), bool(row[4])) for row in rows]


def database_settings(conn: psycopg.Connection[Any]) -> list[str]:
    """What ALTER DATABASE set on this database for every role (e.g. ivfflat.probes=10)."""
    row = conn.execute(
        "SELECT setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase"
        " WHERE d.datname = current_database() AND s.setrole = 0"
    ).fetchone()
    return list(row[0]) if row and row[0] else []


def switch(
    conninfo: str,
    kind: Kind,
    *,
    probes: int = DEFAULT_PROBES,
    lists: int | None = None,
    force: bool = False,
    maintenance_work_mem: str = "1GB",
    say: Callable[[str], None] = lambda _: None,
) -> list[IndexInfo]:
    """Serve the vector stage from `kind`'s indexes: build them (concurrently: searches go on), then
    drop the other kind's. Running it again for IVFFlat rebuilds its lists from what is indexed now.
    Returns the vector indexes afterwards."""
    if probes < 1:
        raise VectorIndexError("probes must be at least 1")
    if lists is not None and lists < 1:
        raise VectorIndexError("lists must be at least 1")
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("SET maintenance_work_mem = {}").format(sql.Literal(maintenance_work_mem)))
        live = _live_rows(conn)
        total = sum(live.values())
        if kind == "ivfflat" and total < MIN_IVFFLAT_ROWS and not force:
            raise VectorIndexError(
                f"the registry holds {total:,} live Genes; below {MIN_IVFFLAT_ROWS:,} HNSW finds the"
                " exact neighbours and keeps up with new Genes, while IVFFlat's lists would be the"
                " k-means of what is here now (--force builds it anyway)"
            )
        existing = set()
        for index in vector_indexes(conn):
            if index.valid:
                existing.add(index.name)
            else:  # what a build that failed or was interrupted left: unusable, and in the way
                say(f"dropping {index.name} (invalid: an earlier build did not finish)")
                conn.execute(sql.SQL("DROP INDEX CONCURRENTLY {}").format(sql.Identifier(index.name)))
        if kind == "ivfflat":
            # First: a role that may not ALTER its database learns it before anything is built, and
            # connections opened from here on search the new index with these settings.
            _set_database(conn, {"ivfflat.probes": str(probes), "ivfflat.iterative_scan": "relaxed_order"})
        wanted = _targets(kind)
        for target in wanted:
            rows = total if target.family is None else live.get(target.family, 0)
            size = (lists if target.family is None else None) or lists_for(rows)
            if target.kind == "hnsw" and target.name in existing:
                say(f"{target.name}: already there")
                continue
            what = f"lists {size}, {rows:,} Genes" if target.kind == "ivfflat" else HNSW_OPTIONS
            say(f"building {target.name} ({what})")
            _build(conn, target, size, existing)
        keep = {target.name for target in wanted}
        for name in sorted(existing - keep):
            say(f"dropping {name}")
            conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name)))
        if kind == "hnsw":
            _set_database(conn, {"ivfflat.probes": None, "ivfflat.iterative_scan": None})
        conn.execute("ANALYZE gene_versions")
        return vector_indexes(conn)


def _live_rows(conn: psycopg.Connection[Any]) -> dict[str | None, int]:
    """Live versions with an embedding, by task family (None for those outside the indexed families)."""
    rows = conn.execute(
        "SELECT CASE WHEN task_family = ANY(%s) THEN task_family END, count(*) FROM gene_versions"
        " WHERE valid_to IS NULL AND embedding IS NOT NULL GROUP BY 1",
        (list(HNSW_FAMILIES),),
    ).fetchall()
    return {row[0]: int(row[1]) for row in rows}


def _targets(kind: Kind) -> list[Target]:
    """The main index and a partial one per research family, as the migrations make them for HNSW.

    A family needs its own: under the main IVFFlat index a filtered search's nearest lists hold few
    of the family's Genes, and the iterative scan returns the first it meets, not the nearest
    (text-query recall@10 0.72-0.84 with a family filter at 20,000 Genes, bench/million.py). A
    family of fewer than `probes` thousand Genes has no more lists than a search probes, so its
    index is scanned exactly.
    """
    return [Target(kind, None), *(Target(kind, family) for family in HNSW_FAMILIES)]


def _build(conn: psycopg.Connection[Any], target: Target, lists: int, existing: set[str]) -> None:
    """Build `target` concurrently; an IVFFlat index already there is rebuilt beside and swapped in."""
    name = target.name
    if name not in existing:
        conn.execute(target.create(name, lists))
        return
    fresh = f"{name}_next"
    conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(fresh)))
    conn.execute(target.create(fresh, lists))
    conn.execute(sql.SQL("DROP INDEX CONCURRENTLY {}").format(sql.Identifier(name)))
    conn.execute(sql.SQL("ALTER INDEX {} RENAME TO {}").format(sql.Identifier(fresh), sql.Identifier(name)))


def _set_database(conn: psycopg.Connection[Any], values: dict[str, str | None]) -> None:
    database = conn.execute("SELECT current_database()").fetchone()
    assert database is not None
    for key, value in values.items():
        name = sql.SQL(".").join(sql.Identifier(part) for part in key.split("."))
        if value is None:
            statement = sql.SQL("ALTER DATABASE {} RESET {}").format(sql.Identifier(database[0]), name)
        else:
            statement = sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                sql.Identifier(database[0]), name, sql.Literal(value)
            )
        conn.execute(statement)
