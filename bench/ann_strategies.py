"""Which vector-index strategy finds a text query's exact top 10 among a million synthesized Genes.

The study behind `genebank vector-index ivfflat` (docs/benchmarks.md#a-million-genes): the vectors
bench/million.py synthesizes (same Synthesizer, same seed, same refusals), in a bare table
`t(id, family, embedding)` on an embedded PostgreSQL with million.py's memory settings, with an HNSW
index (m 16, ef_construction 200) and an IVFFlat index (pgvector's lists rule), each family's own
partial index of both kinds for the filtered case. The queries are the 424 labelled queries' text
embeddings; recall@10 against the exact top 10 (numpy) is printed by their train/test split (the
training split is what a setting is chosen on), with the raw query's p50 / p95. Strategies:

    hnsw          ORDER BY ... LIMIT 10 at each ef_search
    iterative     hnsw.iterative_scan = relaxed_order with a LIMIT past ef_search, re-sorted
    blend         a second walk from normalize(q + a * mean(top 3 hits)), the union re-sorted
    multistart    further walks from each of the top n hits' own vectors, the union re-sorted
    ivfflat       ORDER BY ... LIMIT 10 at each ivfflat.probes
    filtered      the task_family filter, in the family's partial index of each kind

    python bench/ann_strategies.py [--size 1000000] [--only hnsw ivfflat ...] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from harness import conninfo
from million import FAMILY, PG_SETTINGS, Refused, Synthesizer, exact_top
from pgvector.psycopg import register_vector
from search import DATA, generated

from app import embedded_pg
from app.config import Settings
from app.embeddings import load_embedder
from app.search.service import query_text
from app.search.vector_index import lists_for

Search = Callable[[np.ndarray], list[int]]


def synthesize(size: int) -> tuple[np.ndarray, list[str], np.ndarray, list[dict[str, Any]]]:
    """million.py's vectors and families for `size` Genes, and the labelled queries' embeddings."""
    settings = Settings()
    embedder = load_embedder(settings.model_copy(update={"embedding_threads": os.cpu_count() or 1}))
    synth = Synthesizer(embedder)
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    texts = [query_text(q["query"], q.get("signals") or []) for q in queries]
    query_vectors = embedder.encode(texts).astype(np.float32)
    rng = np.random.default_rng(size)  # as million.write_export draws them
    vectors = np.empty((size, query_vectors.shape[1]), dtype=np.float32)
    families: list[str] = []
    chunk: list[Any] = []
    refused = Refused()

    def flush() -> None:
        block = synth.vectors([parts for _, _, parts in chunk], rng)
        vectors[len(families) : len(families) + len(block)] = block
        families.extend(provenance["task"]["family"] for _, provenance, _ in chunk)
        chunk.clear()

    for item in generated(2 * size):
        if refused(item[2]):
            continue
        chunk.append(item)
        if len(families) + len(chunk) == size:
            break
        if len(chunk) == 10_000:
            flush()
    flush()
    return vectors, families, query_vectors, queries


def load(conn: psycopg.Connection[Any], vectors: np.ndarray, families: list[str]) -> None:
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    conn.execute("CREATE TABLE t (id int PRIMARY KEY, family text, embedding vector(384))")
    start = time.perf_counter()
    with conn.cursor().copy("COPY t (id, family, embedding) FROM STDIN") as copy:
        for row, (vector, family) in enumerate(zip(vectors, families, strict=True)):
            copy.write_row((row, family, "[" + ",".join(f"{x:.7g}" for x in vector) + "]"))
    print(f"loaded {len(vectors):,} vectors in {time.perf_counter() - start:.0f} s", flush=True)
    share = families.count(FAMILY)
    for name, method, options, where, rows in (
        ("t_hnsw", "hnsw", "m = 16, ef_construction = 200", "", len(vectors)),
        ("t_hnsw_family", "hnsw", "m = 16, ef_construction = 200", f"WHERE family = '{FAMILY}'", share),
        ("t_ivfflat", "ivfflat", f"lists = {lists_for(len(vectors))}", "", len(vectors)),
        ("t_ivfflat_family", "ivfflat", f"lists = {lists_for(share)}", f"WHERE family = '{FAMILY}'", share),
    ):
        start = time.perf_counter()
        conn.execute(
            f"CREATE INDEX {name} ON t USING {method} (embedding vector_cosine_ops) WITH ({options}) {where}"
        )
        print(f"{name} ({options}, {rows:,} rows): {time.perf_counter() - start:.0f} s", flush=True)
    conn.execute("VACUUM ANALYZE t")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument(
        "--only", nargs="+", default=["hnsw", "iterative", "blend", "multistart", "ivfflat", "filtered"]
    )
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()

    vectors, families, queries, labelled = synthesize(args.size)
    truth = exact_top(vectors, queries, 10)[0]
    in_family = np.flatnonzero(np.asarray(families) == FAMILY)
    family_truth = in_family[exact_top(vectors[in_family], queries, 10)[0]]
    splits = [q["split"] for q in labelled]
    print(
        f"{args.size:,} Genes, {len(labelled)} queries"
        f" ({splits.count('train')} train, {splits.count('test')} test)"
    )

    workdir = Path(tempfile.mkdtemp(prefix="genebank-ann-", dir=args.workdir))
    server = embedded_pg.start(workdir / "pgdata", database="ann")
    try:
        with psycopg.connect(server.admin_conninfo(), autocommit=True) as admin:
            for key, value in PG_SETTINGS.items():
                admin.execute(f"ALTER SYSTEM SET {key} = '{value}'")
        server.server.stop()
        server.server.ensure_postgres_running()
        with psycopg.connect(conninfo(server.url("ann")), autocommit=True) as conn:
            load(conn, vectors, families)
            register_vector(conn)
            conn.execute("SET random_page_cost = 1.1")
            study(conn, args.only, vectors, queries, truth, family_truth, splits)
    finally:
        server.stop()


def study(
    conn: psycopg.Connection[Any],
    only: list[str],
    vectors: np.ndarray,
    queries: np.ndarray,
    truth: np.ndarray,
    family_truth: np.ndarray,
    splits: list[str],
) -> None:
    def nearest(vector: np.ndarray, limit: int = 10, family: bool = False) -> list[int]:
        where = f"WHERE family = '{FAMILY}' " if family else ""
        sql = f"SELECT id FROM t {where}ORDER BY embedding <=> %s LIMIT {int(limit)}"
        return [row[0] for row in conn.execute(sql, (vector,)).fetchall()]

    def resorted(query: np.ndarray, ids: list[int], k: int = 10) -> list[int]:
        unique = np.unique(np.asarray(ids, dtype=np.int64))
        return [int(i) for i in unique[np.argsort(-(vectors[unique] @ query))[:k]]]

    def blend(alpha: float) -> Search:
        def search(query: np.ndarray) -> list[int]:
            first = nearest(query)
            moved = query + alpha * vectors[resorted(query, first, 3)].mean(axis=0)
            return resorted(query, first + nearest((moved / np.linalg.norm(moved)).astype(np.float32)))

        return search

    def multistart(starts: int) -> Search:
        def search(query: np.ndarray) -> list[int]:
            found = nearest(query)
            for row in resorted(query, found, starts):
                found += nearest(vectors[row])
            return resorted(query, found)

        return search

    def measure(label: str, settings: list[str], search: Search, against: np.ndarray = truth) -> None:
        for setting in ["SET hnsw.iterative_scan = off", "SET ivfflat.iterative_scan = off", *settings]:
            conn.execute(setting)
        for query in queries[:10]:
            search(query)
        recall: dict[str, list[float]] = {"train": [], "test": []}
        ms: list[float] = []
        for query, exact, split in zip(queries, against, splits, strict=True):
            start = time.perf_counter()
            found = search(query)
            ms.append((time.perf_counter() - start) * 1000)
            recall[split].append(len(set(found) & set(exact.tolist())) / 10)
        print(
            f"{label:<40} recall@10 train {statistics.mean(recall['train']):.3f}"
            f" test {statistics.mean(recall['test']):.3f}; p50 {statistics.median(ms):6.2f} ms,"
            f" p95 {np.percentile(ms, 95):6.2f} ms",
            flush=True,
        )

    def on_hnsw() -> None:
        if "hnsw" in only:
            for ef in (400, 800, 1000):
                measure(f"hnsw ef_search {ef}", [f"SET LOCAL hnsw.ef_search = {ef}"], nearest)
        if "iterative" in only:
            for ef, limit in ((400, 1000), (400, 2000), (800, 2000)):
                settings = [
                    f"SET LOCAL hnsw.ef_search = {ef}",
                    "SET LOCAL hnsw.iterative_scan = relaxed_order",
                ]
                measure(
                    f"iterative ef_search {ef}, LIMIT {limit}",
                    settings,
                    lambda q, limit=limit: resorted(q, nearest(q, limit)),
                )
        if "blend" in only:
            for alpha in (0.5, 1.0, 3.0):
                measure(f"blend a={alpha} (ef_search 400)", ["SET LOCAL hnsw.ef_search = 400"], blend(alpha))
        if "multistart" in only:
            for starts in (1, 3):
                measure(
                    f"multistart {starts} (ef_search 400)",
                    ["SET LOCAL hnsw.ef_search = 400"],
                    multistart(starts),
                )
        if "filtered" in only:
            for ef in (400, 800):
                measure(
                    f"filtered, hnsw ef_search {ef}",
                    [f"SET LOCAL hnsw.ef_search = {ef}", "SET LOCAL hnsw.iterative_scan = relaxed_order"],
                    lambda q: nearest(q, family=True),
                    family_truth,
                )

    def on_ivfflat() -> None:
        for probes in (3, 5, 10, 20, 40):
            if "ivfflat" in only:
                measure(f"ivfflat probes {probes}", [f"SET LOCAL ivfflat.probes = {probes}"], nearest)
            if "filtered" in only and probes in (5, 10, 20):
                measure(
                    f"filtered, ivfflat probes {probes}",
                    [
                        f"SET LOCAL ivfflat.probes = {probes}",
                        "SET LOCAL ivfflat.iterative_scan = relaxed_order",
                    ],
                    lambda q: nearest(q, family=True),
                    family_truth,
                )

    without(conn, ["t_ivfflat", "t_ivfflat_family"], on_hnsw)
    without(conn, ["t_hnsw", "t_hnsw_family"], on_ivfflat)


def without(conn: psycopg.Connection[Any], indexes: list[str], run: Callable[[], None]) -> None:
    """`run` with `indexes` dropped in a transaction that is then rolled back: the planner walks the
    other kind's index, and the SET LOCALs end with it."""
    try:
        with conn.transaction():
            for index in indexes:
                conn.execute(f"DROP INDEX {index}")
            run()
            raise _Undo
    except _Undo:
        pass


class _Undo(Exception):
    """Rolls back the transaction that dropped the other kind's indexes."""


if __name__ == "__main__":
    main()
