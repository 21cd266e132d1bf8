"""A million Genes on one box: `genebank import` loads them, then search is measured as in search.py.

Per size, in one run (an embedded PostgreSQL with the memory settings below):
- import throughput: `genebank import --trust-embeddings` (batched COPY of documents with their
  vectors, every asset_id verified) beside the ordinary `genebank import` (one publish, one encode
  per record) of the first --baseline-records lines, measured first into the same database (the
  bulk import then finds them already there and leaves them, as a resumed import does);
- the HNSW build after the load (m, ef_construction below; the index is dropped before the import,
  as one would for a load of this size), with maintenance_work_mem large enough to build in memory;
- recall@10 of the vector stage (the raw vector query, top 10) against an exact scan (numpy over
  every vector), for the labelled queries' text embeddings (by their train/test split), the same
  with a task_family filter (exact truth among that family's Genes), and Gene-like queries (Genes
  synthesized as the indexed ones are and never imported: the usual ANN benchmark's queries), with
  each set's local intrinsic dimension (the Levina-Bickel estimate from its exact 20 nearest);
- then (--index ivfflat, the default) `genebank vector-index ivfflat` as an operator runs it (the
  IVFFlat indexes built, the HNSW ones dropped), and the same recall at each --probes;
- baselines: the embedder's encode of each query's text and the raw vector query (psycopg);
- POST /v1/search on each index (HNSW at the smallest --ef-search whose text-query recall on the
  training split reaches 0.98, else the largest; IVFFlat at the shipped probes), 1 client, query
  cache off: p50/p95 end to end, unfiltered and with a task_family
  filter matching about a quarter of the Genes; the API process's peak RSS. Before it, a warm-up of
  --warm-seconds searches of other texts (the corpus's summaries): a serving registry has its index
  and hot rows in memory, which right after the build they are not (0 measures cold, as runs
  before this one did).
Targets at 1,000,000: recall@10 >= 0.98, p50 <= 20 ms, p95 <= 40 ms, filtered p50 <= 30 ms,
RSS <= 1.5 GiB.

Vectors are synthesized: embedding 1,000,000 texts takes hours here. Each generated Gene
(search.generated: a corpus Gene with a donor's strategy step and signal, and a setting) gets
    normalize(a * E(base Gene) + b * E(donor step) + c * E(donor signal) + d * E(setting) + noise)
where E is the real MiniLM embedding of each part (about 5,900 distinct texts, embedded once) and
a..d are fitted by least squares on the real embeddings of the first 5,000 generated Genes. The
noise (--noise shared, the default) models the fit's residuals as random effects: Genes made from
one base share about a third of their residual, so each base gets its own part (its mean residual
in the fit, shrunk by its sample size) and each Gene a part drawn with the within-base covariance.
--noise isotropic is the earlier runs' Gaussian with the residuals' per-dimension spread, which
pushes same-base Genes further apart than real ones are. The cosine between a synthesized and the
real vector is reported on the next 5,000 (held out). Recall is printed plain and distance-tolerant
(a returned Gene within 1 % of the exact 10th's cosine distance counts).

With --profile, after the server's load: the same queries through the search service in this
process, stage by stage (as search.py --profile), so that the end-to-end p50 splits into the service
call and what HTTP, the middleware and the event loop add; and how many queries' keyword stage found
any candidate within its posting budget.

    python bench/million.py [--sizes 100000 1000000] [--seconds 10] [--m 16] [--ef-construction 200]
                            [--ef-search 400 ...] [--index hnsw ivfflat] [--probes 5 10 20]
                            [--warm-seconds 90] [--profile] [--hold FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import psycopg
from harness import (
    api_key,
    api_server,
    bearer,
    conninfo,
    encode_latencies,
    free_port,
    run_load,
    scratch_database,
)
from pgvector.psycopg import register_vector
from search import (
    DATA,
    SETTINGS_WORDS,
    Parts,
    cycling_requests,
    encode_cached,
    generated,
    peak_rss_mib,
    profile,
    server_pid,
    vectors_for,
)

from app.config import Settings
from app.db import configure_read_connection
from app.embeddings import load_embedder
from app.embeddings.base import Embedder
from app.feed.mirror import encode_vector
from app.genes.indexing import embedding_text, signal_words
from app.genes.schemas import PublishRequest
from app.gep.canonical import compute_asset_id
from app.models.gene_version import HNSW_FAMILIES
from app.redaction import Redactor
from app.search.repository import POSTING_BUDGET, TERM_STATS_VIEWS, SearchRepository
from app.search.schemas import SearchRequest
from app.search.service import _filters, query_text
from app.search.vector_index import DEFAULT_PROBES, MIN_IVFFLAT_ROWS

FIT, HELD_OUT = 5000, 5000
FAMILY = "math_reasoning"  # 264 of the corpus's 1,064 Genes: a quarter of the generated ones
# What the 1,000,000-Gene run needs (docs/scaling.md): the HNSW index (~2 GB at m 16) built in
# memory, and the index and the hot rows of gene_versions kept in memory for queries.
PG_SETTINGS = {
    "shared_buffers": "4GB",
    "effective_cache_size": "12GB",
    "maintenance_work_mem": "4GB",
    "work_mem": "16MB",
    "max_parallel_maintenance_workers": "1",
    "max_wal_size": "8GB",
    "checkpoint_timeout": "30min",
}


class Synthesizer:
    """Vectors for generated Genes from the real embeddings of the parts they were made of."""

    def __init__(self, embedder: Embedder, noise: str = "shared") -> None:
        corpus = [
            json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()
        ]
        steps = sorted({s for p in corpus for s in p["gene"]["strategy"]})
        signals = sorted({s for p in corpus for s in p["gene"]["signals_match"]})
        self.base = encode_cached([embedding_text(p["gene"]) for p in corpus], embedder, "corpus Genes")
        self.steps = dict(zip(steps, encode_cached(steps, embedder, "strategy steps"), strict=True))
        self.signals = dict(
            zip(
                signals,
                encode_cached([signal_words({"signals_match": [s]}) for s in signals], embedder, "signals"),
                strict=True,
            )
        )
        self.settings = dict(
            zip(SETTINGS_WORDS, encode_cached(SETTINGS_WORDS, embedder, "settings"), strict=True)
        )
        first = list(generated(FIT + HELD_OUT))
        real = vectors_for([(g, p) for g, p, _ in first], embedder)
        design = self.parts([parts for _, _, parts in first[:FIT]])  # (FIT, 4 parts, dim)
        x = design.transpose(0, 2, 1).reshape(-1, 4)
        self.weights, *_ = np.linalg.lstsq(x, real[:FIT].reshape(-1), rcond=None)
        residual = real[:FIT] - np.einsum("nkd,k->nd", design, self.weights)
        self.sigma = float(residual.std())
        self.noise = noise
        # Genes made from one base Gene share part of their residual (what the linear mix misses of
        # that base): real same-base pairs are closer (median cosine 0.86) than independent noise
        # makes them (0.80). "shared" noise is a random-effects model of the fit's residuals: a
        # per-base part, the base's mean residual shrunk by its sample size (drawn from the
        # between-base covariance for a base the fit never saw), plus a per-Gene part drawn with the
        # within-base covariance.
        bases = np.array([parts.base for _, _, parts in first[:FIT]])
        counts = np.bincount(bases, minlength=len(self.base)).astype(np.float64)
        sums = np.zeros((len(self.base), residual.shape[1]))
        np.add.at(sums, bases, residual)
        means = sums / np.maximum(counts, 1.0)[:, None]
        within = residual - means[bases]
        seen = counts[bases] > 1
        within_cov = (within[seen].T @ within[seen]) / float(np.sum(counts[counts > 1] - 1))
        total_cov = residual.T @ residual / len(residual)
        between_cov = total_cov - within_cov
        shared, within_var = float(np.trace(between_cov)), float(np.trace(within_cov))
        shrink = np.where(counts > 0, shared / (shared + within_var / np.maximum(counts, 1.0)), 0.0)
        unseen = _gaussian(between_cov, np.random.default_rng(5), len(self.base))
        self.base_residual = np.where((counts > 0)[:, None], shrink[:, None] * means, unseen).astype(
            np.float32
        )
        self.within_cov = within_cov
        self.shared_share = shared / (shared + within_var)
        rng = np.random.default_rng(11)
        held = self.vectors([parts for _, _, parts in first[FIT:]], rng)
        self.held_out_cosine = float(np.mean(np.sum(held * real[FIT:], axis=1)))
        # The same Genes' nearest neighbours, real against synthesized (how alike the two clouds are).
        self.held_out_real = real[FIT:]
        self.held_out_synth = held

    def parts(self, parts: list[Parts]) -> np.ndarray:
        return np.stack(
            [
                np.stack(
                    [self.base[p.base], self.steps[p.step], self.signals[p.signal], self.settings[p.setting]]
                )
                for p in parts
            ]
        )

    def vectors(self, parts: list[Parts], rng: np.random.Generator) -> np.ndarray:
        mixed = np.einsum("nkd,k->nd", self.parts(parts), self.weights).astype(np.float32)
        if self.noise == "isotropic":
            mixed += rng.normal(0.0, self.sigma, mixed.shape).astype(np.float32)
        else:
            mixed += self.base_residual[[p.base for p in parts]]
            mixed += _gaussian(self.within_cov, rng, len(parts)).astype(np.float32)
        return mixed / np.linalg.norm(mixed, axis=1, keepdims=True)


def _gaussian(cov: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` draws of a zero-mean Gaussian with covariance `cov` (cached: one decomposition each)."""
    key = id(cov)
    if key not in _FACTORS:
        spreads, axes = np.linalg.eigh(cov)
        _FACTORS[key] = (np.sqrt(np.clip(spreads, 0.0, None)), axes)
    spreads, axes = _FACTORS[key]
    return np.asarray((rng.standard_normal((count, len(spreads))) * spreads) @ axes.T)


_FACTORS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


class Refused:
    """Whether a generated Gene holds a part publish refuses (what looks like a secret): 8 corpus Genes do."""

    def __init__(self) -> None:
        self.corpus = [
            json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()
        ]
        self.bases = [self.flagged(p["gene"]) for p in self.corpus]
        self.texts: dict[str, bool] = {}

    @staticmethod
    def flagged(value: Any) -> bool:
        scanner = Redactor()
        scanner.json(value)
        return bool(scanner.kinds)

    def __call__(self, parts: Parts) -> bool:
        if self.bases[parts.base]:
            return True
        for text in (parts.step, parts.signal):
            if text not in self.texts:
                self.texts[text] = self.flagged(text)
            if self.texts[text]:
                return True
        return False


def version_record(gene: dict[str, Any], provenance: dict[str, Any]) -> dict[str, Any]:
    """An export's record of a first version: the document as a publish stores it (GEP form, guards
    as anti_patterns), which is what `genebank import` hashes and checks the asset_id against."""
    document = PublishRequest.model_validate({"gene": gene, "provenance": provenance}).gene.hashed_fields()
    return {
        "gene_id": gene["id"],
        "version": 1,
        "asset_id": compute_asset_id(document),
        "document": document,
        "provenance": provenance,
    }


def write_export(
    path: Path, size: int, synth: Synthesizer, model: str
) -> tuple[np.ndarray, list[str], list[str]]:
    """The export file `genebank import` reads; the vectors, Gene ids and families, in file order."""
    rng = np.random.default_rng(size)
    vectors = np.empty((size, 384), dtype=np.float32)
    ids: list[str] = []
    families: list[str] = []
    chunk: list[tuple[dict[str, Any], dict[str, Any], Parts]] = []
    with path.open("w", encoding="utf-8") as out:

        def flush() -> None:
            block = synth.vectors([parts for _, _, parts in chunk], rng)
            for (gene, provenance, _), vector in zip(chunk, block, strict=True):
                vectors[len(ids)] = vector
                ids.append(gene["id"])
                families.append(provenance["task"]["family"])
                record = version_record(gene, provenance)
                embedding = {"model": model, "f32": encode_vector(vector)}
                line = {"kind": "version", "record": record, "embedding": embedding}
                out.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n")
            chunk.clear()

        refused = Refused()
        for item in generated(2 * size):
            if refused(item[2]):
                continue
            chunk.append(item)
            if len(ids) + len(chunk) == size:
                break
            if len(chunk) == 10_000:
                flush()
        flush()
    return vectors, ids, families


def cli_command(url: str, settings: Settings, *command: str) -> str:
    """A `genebank` command in its own process, as an operator runs it; what it printed."""
    env = {
        **os.environ,
        "GENEBANK_DATABASE_URL": url,
        "GENEBANK_EMBEDDING_BACKEND": settings.embedding_backend,
        "GENEBANK_DATA_DIR": str(settings.data_dir),
        "GENEBANK_LOG_LEVEL": "WARNING",
    }
    program = [sys.executable, "-c", "from app.cli import main; main()"]
    done = subprocess.run([*program, *command], env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"genebank {command[0]} failed: {done.stderr[-2000:]}")
    return done.stdout.strip()


def import_file(url: str, path: Path, settings: Settings, trust: bool) -> float:
    """`genebank import` in its own process; seconds."""
    start = time.perf_counter()
    printed = cli_command(url, settings, "import", str(path), *(["--trust-embeddings"] if trust else []))
    seconds = time.perf_counter() - start
    print(f"    {printed}", flush=True)
    return seconds


def exact_top(vectors: np.ndarray, queries: np.ndarray, k: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """Row numbers of each query's k nearest vectors by cosine (all vectors are unit length), nearest
    first, and their cosines."""
    best_scores = np.full((len(queries), 0), -2.0, dtype=np.float32)
    best_rows = np.zeros((len(queries), 0), dtype=np.int64)
    for start in range(0, len(vectors), 100_000):
        scores = queries @ vectors[start : start + 100_000].T
        take = min(k, scores.shape[1] - 1)
        top = np.argpartition(-scores, take, axis=1)[:, :take]
        best_scores = np.concatenate([best_scores, np.take_along_axis(scores, top, axis=1)], axis=1)
        best_rows = np.concatenate([best_rows, top + start], axis=1)
        keep = np.argsort(-best_scores, axis=1)[:, :k]
        best_scores = np.take_along_axis(best_scores, keep, axis=1)
        best_rows = np.take_along_axis(best_rows, keep, axis=1)
    return best_rows, best_scores


def local_dimension(cosines: np.ndarray) -> float:
    """Median local intrinsic dimensionality (Levina-Bickel MLE) over queries, from each query's
    nearest cosines (nearest first): how many directions its neighbourhood spreads in. HNSW's recall
    at a given ef_search falls as it grows; uniform noise in 384 dimensions is the far end."""
    distances = np.sqrt(np.clip(2.0 - 2.0 * cosines.astype(np.float64), 1e-12, None))
    ratios = np.log(distances[:, :-1] / distances[:, -1:])
    return float(np.median(-1.0 / np.minimum(ratios.mean(axis=1), -1e-9)))


def neighbourhood(cosines: np.ndarray) -> str:
    """What a query set's exact 20 nearest say of it, medians over the queries."""
    return (
        f"local intrinsic dimension (MLE, 20 nearest) {local_dimension(cosines):.1f},"
        f" cosine of the 1st / 10th nearest {np.median(cosines[:, 0]):.3f} / {np.median(cosines[:, 9]):.3f}"
    )


def hold(flag: Path, url: str) -> None:
    """Keep the database and server up (to look into them) until `flag` is removed."""
    flag.write_text(url + "\n")
    print(f"  holding the database until {flag} is removed", flush=True)
    while flag.exists():
        time.sleep(2)


def keyword_coverage(url: str, settings: Settings, queries: list[dict[str, Any]]) -> int:
    """How many queries' keyword stage finds any candidate (the posting budget may leave it none)."""
    import asyncio

    async def run() -> int:
        conn = await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True)
        try:
            await configure_read_connection(conn, ef_search=settings.search_ef_search)
            repo, hits = SearchRepository(conn), 0
            for q in queries:
                request = SearchRequest(query=q["query"], signals=q.get("signals") or [], k=10)
                found = await repo.lexical(
                    keyword_text=query_text(request.query, request.signals),
                    signal_text=None,
                    filters=_filters(request),
                    per_stage=settings.search_candidates,
                )
                hits += bool(found.keyword)
            return hits
        finally:
            await conn.close()

    return asyncio.run(run())


def warm_bodies(family: str) -> list[bytes]:
    """Search bodies for the warm-up: each corpus Gene's summary, every other one filtered by family."""
    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    bodies = []
    for number, payload in enumerate(corpus):
        body: dict[str, Any] = {"query": payload["gene"]["summary"], "k": 10}
        if number % 2:
            body["task_family"] = family
        bodies.append(json.dumps(body).encode())
    return bodies


def lines(path: Path, count: int) -> Iterator[str]:
    with path.open(encoding="utf-8") as source:
        for number, line in enumerate(source):
            if number == count:
                return
            yield line


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--m", type=int, default=16)
    parser.add_argument("--ef-construction", type=int, default=200)
    parser.add_argument("--ef-search", type=int, nargs="+", default=[400])
    parser.add_argument(
        "--index",
        nargs="+",
        choices=["hnsw", "ivfflat"],
        default=["hnsw", "ivfflat"],
        help="HNSW (always measured: the baseline), then IVFFlat by `genebank vector-index ivfflat`",
    )
    parser.add_argument("--probes", type=int, nargs="+", default=[5, DEFAULT_PROBES, 20])
    parser.add_argument("--baseline-records", type=int, default=300)
    parser.add_argument(
        "--warm-seconds",
        type=float,
        default=90.0,
        help="searches of other texts (the corpus's summaries) before the measured load; 0: measure cold",
    )
    parser.add_argument(
        "--noise",
        choices=["shared", "isotropic"],
        default="shared",
        help="the synthesized vectors' noise: a per-base part and a per-Gene part with the fit"
        " residuals' covariances, or isotropic with their spread (the earlier runs')",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="after the server's load: the same queries through the search service in this process,"
        " stage by stage (as search.py --profile), and how many found any keyword candidate",
    )
    parser.add_argument(
        "--hold", type=Path, default=None, help="keep everything up until this file is removed"
    )
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()

    settings = Settings()
    bulk = load_embedder(settings.model_copy(update={"embedding_threads": os.cpu_count() or 1}))
    synth = Synthesizer(bulk, args.noise)
    model = bulk.name
    del bulk
    print(
        f"synthesized vectors: weights (base, step, signal, setting) {np.round(synth.weights, 3).tolist()},"
        f" {args.noise} noise (sigma {synth.sigma:.4f}); cosine to the real vector on {HELD_OUT}"
        f" held-out Genes: {synth.held_out_cosine:.3f}",
        flush=True,
    )
    embedder = load_embedder(settings)
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    queries = (queries * (args.queries // len(queries) + 1))[: args.queries]
    texts = [query_text(q["query"], q.get("signals") or []) for q in queries]
    query_vectors = embedder.encode(texts)
    # Gene-like queries: Genes generated with another seed (other donors and settings, fresh noise),
    # synthesized as the indexed ones are and never imported.
    fresh = [parts for _, _, parts in generated(args.queries, seed=99)]
    probe_vectors = synth.vectors(fresh, np.random.default_rng(99)).astype(np.float32)
    # The same Genes, real against synthesized: is the synthesized cloud harder for an index than
    # the real one at the same size?
    for name, cloud in (("real", synth.held_out_real), ("synthesized", synth.held_out_synth)):
        cosines = exact_top(cloud.astype(np.float32), query_vectors.astype(np.float32), 20)[1]
        print(
            f"  the text queries' neighbourhoods among {len(cloud):,} {name} Gene vectors:"
            f" {neighbourhood(cosines)}"
        )
    print(f"PostgreSQL: {', '.join(f'{k}={v}' for k, v in PG_SETTINGS.items())}")

    for size in args.sizes:
        print(f"\n== {size:,} Genes ==", flush=True)
        export = args.workdir / f"genebank-million-{size}.jsonl"
        start = time.perf_counter()
        vectors, ids, families = write_export(export, size, synth, model)
        print(
            f"  wrote the export ({export.stat().st_size / 2**30:.2f} GiB)"
            f" in {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        try:
            with scratch_database("genebank_bench_million", PG_SETTINGS) as url:
                measure(
                    url,
                    args,
                    settings,
                    embedder,
                    export,
                    vectors,
                    ids,
                    families,
                    queries,
                    texts,
                    query_vectors,
                    probe_vectors,
                )
        finally:
            export.unlink(missing_ok=True)
        os.environ.pop("GENEBANK_DATABASE_URL", None)


def measure(
    url: str,
    args: argparse.Namespace,
    settings: Settings,
    embedder: Embedder,
    export: Path,
    vectors: np.ndarray,
    ids: list[str],
    families: list[str],
    queries: list[dict[str, Any]],
    texts: list[str],
    query_vectors: np.ndarray,
    probe_vectors: np.ndarray,
) -> None:
    size = len(ids)
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        # Every HNSW index is built after the load, as one would for a load of this size.
        conn.execute("DROP INDEX ix_gene_versions_embedding_hnsw")
        for family in HNSW_FAMILIES:
            conn.execute(f"DROP INDEX ix_gene_versions_embedding_hnsw_{family}")
    sample = export.with_suffix(".sample.jsonl")
    # The command's start (interpreter, model, migrations check) is timed alone and taken off both.
    sample.write_text("")
    startup = import_file(url, sample, settings, trust=True)
    sample.write_text("".join(lines(export, args.baseline_records)))
    ordinary = import_file(url, sample, settings, trust=False) - startup
    sample.unlink()
    bulk_seconds = import_file(url, export, settings, trust=True) - startup
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        register_vector(conn)
        # The ordinary import embedded its Genes itself: the exact scan uses what is stored.
        stored = dict(
            conn.execute(
                "SELECT gene_id, embedding FROM gene_versions WHERE gene_id = ANY(%s)",
                (ids[: args.baseline_records],),
            ).fetchall()
        )
        for row, gene_id in enumerate(ids[: args.baseline_records]):
            vectors[row] = np.asarray(stored[gene_id].to_numpy())
        count = conn.execute("SELECT count(*) FROM gene_versions").fetchone()
        assert count is not None and count[0] == size, count
        options = f"m = {int(args.m)}, ef_construction = {int(args.ef_construction)}"
        notices: list[str] = []
        conn.add_notice_handler(lambda notice: notices.append(str(notice.message_primary)))
        start = time.perf_counter()
        conn.execute(
            "CREATE INDEX ix_gene_versions_embedding_hnsw ON gene_versions USING hnsw"
            f" (embedding vector_cosine_ops) WITH ({options}) WHERE valid_to IS NULL"
        )
        build = time.perf_counter() - start
        start = time.perf_counter()
        for family in HNSW_FAMILIES:  # as migration 0017 makes them, for searches filtered by family
            conn.execute(
                f"CREATE INDEX ix_gene_versions_embedding_hnsw_{family} ON gene_versions USING hnsw"
                f" (embedding vector_cosine_ops) WITH ({options})"
                f" WHERE valid_to IS NULL AND task_family = '{family}'"
            )
        family_build = time.perf_counter() - start
        start = time.perf_counter()
        conn.execute("VACUUM ANALYZE gene_versions")
        conn.execute("VACUUM ANALYZE genes")
        conn.execute("CHECKPOINT")
        for view in TERM_STATS_VIEWS:
            conn.execute(f"REFRESH MATERIALIZED VIEW {view}")
        after = time.perf_counter() - start
        sizes = conn.execute(
            "SELECT pg_relation_size('ix_gene_versions_embedding_hnsw'),"
            " pg_total_relation_size('gene_versions'), (SELECT sum(pg_relation_size(indexrelid))"
            " FROM pg_index WHERE indrelid = 'gene_versions'::regclass"
            "  AND indexrelid::regclass::text LIKE 'ix_gene_versions_embedding_hnsw_%%')"
        ).fetchone()
        assert sizes is not None
    rate, base_rate = (size - args.baseline_records) / bulk_seconds, args.baseline_records / ordinary
    print(
        f"  import --trust-embeddings: {rate:8.0f} Genes/s"
        f" ({bulk_seconds:.0f} s, after {startup:.0f} s to start)"
    )
    print(
        f"  baseline import (publish + encode each): {base_rate:6.1f} Genes/s; ratio {rate / base_rate:.0f}x"
    )
    print(
        f"  HNSW build (m {args.m}, ef_construction {args.ef_construction}): {build:.0f} s;"
        f" index {sizes[0] / 2**30:.2f} GiB, gene_versions {sizes[1] / 2**30:.2f} GiB;"
        f" vacuum+analyze+views {after:.0f} s"
    )
    print(f"  the 4 family HNSW indexes (migration 0017): {family_build:.0f} s, {sizes[2] / 2**30:.2f} GiB")
    if notices:
        print(f"  notices: {notices}")
    # Three query sets: the labelled queries' text embeddings (what consumers send, and what the
    # targets are about), the same with the family filter (exact truth among that family's Genes),
    # and Gene-like vectors (synthesized Genes that are not in the index: the usual ANN benchmark's
    # queries, drawn from the indexed distribution). Where the first falls short and the last does
    # not, the gap is the queries sitting apart from the documents.
    plain_sql = "SELECT gene_id FROM gene_versions WHERE valid_to IS NULL ORDER BY embedding <=> %s LIMIT 10"
    family_sql = (
        f"SELECT gene_id FROM gene_versions WHERE valid_to IS NULL AND task_family = '{FAMILY}'"
        " ORDER BY embedding <=> %s LIMIT 10"
    )
    in_family = np.flatnonzero(np.asarray(families) == FAMILY)
    print(f"  task_family {FAMILY}: {len(in_family) / size:.0%} of the Genes")
    cases: dict[str, Case] = {}
    for name, probes, sql, among in (
        ("text queries", query_vectors.astype(np.float32), plain_sql, None),
        (f"text, {FAMILY} only", query_vectors.astype(np.float32), family_sql, in_family),
        ("Gene-like", probe_vectors, plain_sql, None),
    ):
        rows, cosines = exact_top(vectors if among is None else vectors[among], probes, 20)
        if among is not None:
            rows = among[rows]
        # Distance-tolerant recall (ann-benchmarks' "epsilon" recall): a returned Gene counts when
        # its cosine distance is within 1 % of the exact 10th's. Where the 10th and the 20th
        # neighbours are nearly as far, plain recall counts ties it cannot tell apart as misses.
        cases[name] = Case(probes, sql, [{ids[r] for r in top} for top in rows[:, :10]], 1.0 - cosines[:, 9])
        print(f"  {name}: {neighbourhood(cosines)}")
    splits = [q["split"] for q in queries]  # the text queries'; the Gene-like ones have none
    row_of = {gene_id: row for row, gene_id in enumerate(ids)}
    encode_ms = encode_latencies(embedder, texts)
    encode_p50 = statistics.median(encode_ms)
    print(f"  baseline encode p50 {encode_p50:.2f} ms", flush=True)
    hnsw = {
        ef: vector_recall(
            url, f"SET hnsw.ef_search = {int(ef)}", f"HNSW ef_search {ef}", cases, vectors, row_of, splits
        )
        for ef in args.ef_search
    }
    # The server runs with the smallest ef_search whose text-query recall on the training split
    # reaches the target (else the largest tried); the test split is reported, never chosen on.
    ef = next((ef for ef in sorted(hnsw) if hnsw[ef]["text queries"].train >= 0.98), max(hnsw))
    raw_p50 = statistics.median(hnsw[ef]["text queries"].ms)
    settings = settings.model_copy(update={"search_ef_search": ef})
    env = {"GENEBANK_SEARCH_EF_SEARCH": str(ef)}
    serve(url, args, settings, queries, f"HNSW, ef_search {ef}", env, encode_p50 + raw_p50)
    if "ivfflat" in args.index:
        # As an operator switches (docs/scaling.md): the command builds the IVFFlat indexes, drops
        # the HNSW ones and sets the shipped probes on the database for every new connection.
        start = time.perf_counter()
        # (--force below the command's minimum: a dry run at a small size)
        small = ["--force"] if size < MIN_IVFFLAT_ROWS else []
        switched = cli_command(
            url, settings, "vector-index", "ivfflat", "--maintenance-work-mem", "4GB", *small
        )
        print(f"  genebank vector-index ivfflat: {time.perf_counter() - start:.0f} s", flush=True)
        for line in switched.splitlines():
            print(f"    {line}")
        ivf = {
            p: vector_recall(
                url, f"SET ivfflat.probes = {int(p)}", f"IVFFlat probes {p}", cases, vectors, row_of, splits
            )
            for p in args.probes
        }
        chosen = next((p for p in sorted(ivf) if ivf[p]["text queries"].train >= 0.98), max(ivf))
        shipped = DEFAULT_PROBES
        print(
            f"  IVFFlat: fewest probes reaching 0.98 on the training split here: {chosen};"
            f" the server runs the shipped default, {shipped}"
        )
        raw = ivf[shipped] if shipped in ivf else ivf[chosen]
        raw_p50 = statistics.median(raw["text queries"].ms)
        serve(url, args, settings, queries, f"IVFFlat, probes {shipped}", env, encode_p50 + raw_p50)
    if args.hold:
        hold(args.hold, url)
    print("  p50 / (encode + raw vector query p50) is each configuration's own baseline ratio")


class Case(NamedTuple):
    """A query set for the vector stage: its vectors, its statement, each query's exact top 10
    (Gene ids) and the exact 10th's cosine distance."""

    vectors: np.ndarray
    sql: str
    truth: list[set[str]]
    tenth: np.ndarray


class Recall(NamedTuple):
    mean: float
    train: float
    test: float
    tolerant: float
    ms: list[float]


def vector_recall(
    url: str,
    setting: str,
    label: str,
    cases: dict[str, Case],
    vectors: np.ndarray,
    row_of: dict[str, int],
    splits: list[str],
) -> dict[str, Recall]:
    """recall@10 of the raw vector query against the exact top 10 under `setting`, per query set and
    split, with its latency; printed as it goes."""
    found_at: dict[str, Recall] = {}
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        register_vector(conn)
        conn.execute(setting)
        for vector in cases["text queries"].vectors[:20]:
            conn.execute(cases["text queries"].sql, (vector,)).fetchall()
        for name, case in cases.items():
            recalls, tolerant, ms = [], [], []
            for vector, truth_set, limit in zip(case.vectors, case.truth, case.tenth, strict=True):
                t = time.perf_counter()
                found = {row[0] for row in conn.execute(case.sql, (vector,)).fetchall()}
                ms.append((time.perf_counter() - t) * 1000)
                recalls.append(len(found & truth_set) / 10)
                distances = 1.0 - vectors[[row_of[gene_id] for gene_id in found]] @ vector
                tolerant.append(float(np.sum(distances <= limit * 1.01)) / 10)
            by_split = {split: split_mean(recalls, splits, split) for split in ("train", "test")}
            found_at[name] = Recall(
                statistics.mean(recalls), by_split["train"], by_split["test"], statistics.mean(tolerant), ms
            )
            splits_shown = (
                f" (train {by_split['train']:.3f}, test {by_split['test']:.3f})"
                if name != "Gene-like"
                else ""
            )
            print(
                f"  {label}, {name}: recall@10 vs exact {statistics.mean(recalls):.3f}{splits_shown},"
                f" within 1 % of the 10th's distance {statistics.mean(tolerant):.3f};"
                f" raw p50 {statistics.median(ms):.2f} ms, p95 {np.percentile(ms, 95):.2f} ms",
                flush=True,
            )
    return found_at


def split_mean(recalls: list[float], splits: list[str], split: str) -> float:
    """The mean recall over one split's queries (nan where it has none)."""
    picked = [recall for recall, of in zip(recalls, splits, strict=False) if of == split]
    return statistics.mean(picked) if picked else float("nan")


def serve(
    url: str,
    args: argparse.Namespace,
    settings: Settings,
    queries: list[dict[str, Any]],
    label: str,
    extra: dict[str, str],
    baseline_ms: float,
) -> None:
    """POST /v1/search on a fresh API process (it opens its connections after any switch): a warm-up,
    then 1 client unfiltered and filtered, its peak RSS, and with --profile the in-process stages."""
    auth = bearer(api_key(url))
    port = free_port()
    env = {"GENEBANK_EMBEDDING_CACHE_SIZE": "0", **extra}
    with api_server(url, port, settings.embedding_backend, settings.data_dir, **env):
        plain = [
            json.dumps({"query": q["query"], "signals": q.get("signals") or [], "k": 10}).encode()
            for q in queries
        ]
        filtered = [
            json.dumps(
                {"query": q["query"], "signals": q.get("signals") or [], "k": 10, "task_family": FAMILY}
            ).encode()
            for q in queries
        ]
        if args.warm_seconds:
            # A serving registry has its index and hot rows in memory; right after the build they
            # are not. Warm up on texts that are not the measured queries (the corpus's summaries,
            # half of them with the family filter), so that no measured query has been seen before.
            warming = run_load(
                port,
                cycling_requests(warm_bodies(FAMILY), auth),
                clients=2,
                seconds=args.warm_seconds,
                warmup=0,
            )
            print(
                f"  [{label}] warm-up: {warming.requests} searches of corpus summaries in"
                f" {args.warm_seconds:.0f} s (2 clients), p50 {warming.percentile(50):.2f} ms",
                flush=True,
            )
        single = run_load(port, cycling_requests(plain, auth), clients=1, seconds=args.seconds, warmup=2)
        family = run_load(port, cycling_requests(filtered, auth), clients=1, seconds=args.seconds, warmup=2)
        rss = peak_rss_mib(server_pid(port))
        if args.profile:
            stages, keyword = profile(url, settings, queries), keyword_coverage(url, settings, queries)
    if single.errors or family.errors:
        raise RuntimeError(f"error responses: {single.first_error!r} {family.first_error!r}")
    print(
        f"  [{label}] /v1/search 1 client: p50 {single.percentile(50):.2f} ms,"
        f" p95 {single.percentile(95):.2f} ms (targets 20 / 40); {single.throughput:.0f} req/s;"
        f" p50 / (encode + raw vector query p50 {baseline_ms:.2f} ms)"
        f" {single.percentile(50) / baseline_ms:.2f}"
    )
    print(
        f"  [{label}] /v1/search task_family={FAMILY}: p50 {family.percentile(50):.2f} ms,"
        f" p95 {family.percentile(95):.2f} ms (target p50 30)"
    )
    print(f"  [{label}] API process peak RSS: {rss:.0f} MiB (target <= 1536)", flush=True)
    if args.profile:
        print(
            f"  [{label}] in-process stages, p50 ms (the service call runs encode and keyword stage at once):"
        )
        for name, ms in stages.items():
            print(f"    {name:<18} {ms:6.2f}")
        rest = single.percentile(50) - stages["service call"] - stages["serialize"]
        what = "HTTP, middleware, loop" if args.warm_seconds else "HTTP, loop, and a colder cache"
        print(f"    end-to-end p50 - service call - serialize ({what}): {rest:6.2f}")
        print(
            f"  keyword stage: {keyword}/{len(queries)} queries found any candidate"
            f" (posting budget {POSTING_BUDGET} documents)"
        )


if __name__ == "__main__":
    main()
