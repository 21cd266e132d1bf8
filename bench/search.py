"""Search at scale: 10,000 and 100,000 generated Genes.

For each size, in one run:
- vector-stage recall@10 of the HNSW index against an exact scan (target >= 0.98);
- baselines, measured after the corpus is loaded: the embedder's encode time for the text the
  server embeds (the query and its signals), and a raw SQL HNSW query (psycopg, top 10), each in a
  loop of its own; and the two in sequence, query after query (encode, then its raw HNSW query),
  as a request must run them: its database backend idles during the encode, and the statement
  after that idle runs slower than back to back (see `sequential_baseline`);
- end-to-end POST /v1/search p50/p95 with 1 client and throughput with 4 clients, against a
  Genebank server in its own process (query-embedding cache off, so every request embeds);
- the server's peak RSS with the model loaded;
- with --compare DIR, before/after in the same run: the same 1-client load against this checkout's
  server and one running DIR's code (e.g. a clone of main) on the same database, in alternating rounds,
  each side's p50 and its CPU per request (the server process, and PostgreSQL's when it is the
  embedded one), and each round's p50 over encode + raw HNSW measured just before it; CPU time
  moves far less with other work on the machine than wall time does;
- with --profile, where a request's time goes: the same queries through the search service in this
  process (no HTTP), stage by stage (query encode, keyword stage, candidates query, the whole
  service call, response serialization); end-to-end p50 minus the in-process call is what HTTP,
  the middleware (auth, rate limits) and the event loop cost;
- with --cprofile, the CPU of a search on the server's event loop thread: the whole application
  (create_app, middleware, auth, rate limits) in this process, requests handed to it as ASGI calls,
  the query vectors looked up instead of encoded (the lane hand-off as served); cProfile on the
  loop thread's CPU clock, its time summed by package (Genebank's own by module), in ms a search,
  beside the process's and PostgreSQL's CPU a search with the profiler off.
Targets at 100,000 Genes: p50 <= 15 ms and p50 <= 2 x (encode + raw HNSW); RSS <= 1.5 GiB.

Genes are generated from bench/data/corpus.jsonl by recombining the strategy steps, signals and
settings of Genes of the same family; their embeddings are computed in batches and cached in
$TMPDIR/genebank-bench-vectors between runs. Rows are bulk-inserted and the HNSW index is built
after loading, as one would for a migration of this size.

    python bench/search.py [--sizes 10000 100000] [--seconds 10] [--backend torch|onnx|onnx-int8] [--profile]
                           [--compare DIR [--rounds 6]] [--cprofile [--top 25]]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import psycopg
from harness import (
    LoadResult,
    api_key,
    api_server,
    bearer,
    conninfo,
    cpu_seconds,
    encode_latencies,
    free_port,
    post_json,
    run_load,
    scratch_database,
)
from pgvector.psycopg import register_vector

from app.config import Settings
from app.db import configure_read_connection
from app.embeddings import create_embedding_service, load_embedder
from app.embeddings.base import Embedder
from app.genes.indexing import embedding_text, signal_words
from app.gep.canonical import canonical_json, compute_asset_id
from app.models.api_key import SYSTEM_KEY_ID
from app.models.gene_version import HNSW_FAMILIES
from app.search.repository import TERM_STATS_VIEWS, SearchRepository
from app.search.schemas import SearchRequest
from app.search.service import _filters, query_text, search_service

DATA = Path(__file__).resolve().parent / "data"
CACHE = Path(tempfile.gettempdir()) / "genebank-bench-vectors"
SETTINGS_WORDS = [
    "in CI",
    "on a laptop",
    "in production",
    "in a container",
    "under load",
    "on Windows",
    "nightly",
]


INSERT_VERSION = """
INSERT INTO gene_versions (gene_id, version, asset_id, canonical_json, document_json, document,
    producer_model, provenance_kind, task_family, embedding, embedding_model, valid_from,
    published_by, search_tsv, signals_tsv)
VALUES (%s, 1, %s, %s, %s, %s, %s, %s, %s, %s, 'bench', now(), %s,
    setweight(to_tsvector('english', %s), 'A') || setweight(to_tsvector('english', %s), 'B')
    || setweight(to_tsvector('english', %s), 'C'), to_tsvector('simple', %s))
"""
CREATE_HNSW = """
CREATE INDEX ix_gene_versions_embedding_hnsw ON gene_versions
USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 200) WHERE valid_to IS NULL
"""


def generate(count: int, seed: int = 7) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(gene, provenance) for gene, provenance, _ in generated(count, seed)]


def generated(count: int, seed: int = 7) -> Iterator[tuple[dict[str, Any], dict[str, Any], Parts]]:
    """Genes recombined from the corpus, one at a time, each with the parts it was made of.

    The sequence does not depend on `count`: the first 10,000 of 1,000,000 are the 10,000 Genes.
    """
    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    by_family: dict[str, list[dict[str, Any]]] = {}
    for payload in corpus:
        by_family.setdefault(payload["provenance"]["task"]["family"], []).append(payload)
    rng = random.Random(seed)
    for index in range(count):
        base = corpus[index % len(corpus)]
        family = base["provenance"]["task"]["family"]
        donor = rng.choice(by_family[family])
        gene = dict(base["gene"])
        gene["id"] = f"{gene['id']}_g{index:06d}"
        setting = rng.choice(SETTINGS_WORDS)
        gene["summary"] = f"{gene['summary']} ({setting})"
        steps = list(base["gene"]["strategy"])
        at = rng.randrange(len(steps) + 1)
        step = rng.choice(donor["gene"]["strategy"])
        steps.insert(at, step)
        gene["strategy"] = steps[: rng.randint(2, 3)]  # shorter texts keep embedding 100,000 Genes affordable
        signal = rng.choice(donor["gene"]["signals_match"])
        gene["signals_match"] = list(dict.fromkeys(gene["signals_match"] + [signal]))
        gene.pop("asset_id", None)
        provenance = dict(base["provenance"])
        yield gene, provenance, Parts(index % len(corpus), step, signal, setting)


class Parts(NamedTuple):
    """What a generated Gene was recombined from: its base Gene, a donor's step and signal, a setting."""

    base: int  # index in the corpus
    step: str
    signal: str
    setting: str


def encode_cached(texts: list[str], embedder: Embedder, what: str = "Genes") -> np.ndarray:
    """Embeddings of `texts`, computed in batches once and kept in CACHE between runs."""
    key = hashlib.sha256(("\n".join(texts) + embedder.name).encode()).hexdigest()[:16]
    path = CACHE / f"{key}.npy"
    if path.exists():
        return np.load(path)
    start = time.perf_counter()
    vectors = np.concatenate([embedder.encode(texts[i : i + 2048]) for i in range(0, len(texts), 2048)])
    print(f"  embedded {len(texts)} {what} in {time.perf_counter() - start:.0f} s (batched)", flush=True)
    CACHE.mkdir(exist_ok=True)
    np.save(path, vectors)
    return vectors


def vectors_for(genes: list[tuple[dict[str, Any], dict[str, Any]]], embedder: Embedder) -> np.ndarray:
    return encode_cached([embedding_text(gene) for gene, _ in genes], embedder)


def load(url: str, genes: list[tuple[dict[str, Any], dict[str, Any]]], vectors: np.ndarray) -> None:
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        register_vector(conn)
        conn.execute("DROP INDEX IF EXISTS ix_gene_versions_embedding_hnsw")
        for family in HNSW_FAMILIES:  # migration 0017's, rebuilt after the load as the main one
            conn.execute(f"DROP INDEX IF EXISTS ix_gene_versions_embedding_hnsw_{family}")
        with conn.cursor() as cur:
            for start in range(0, len(genes), 1000):
                chunk = list(zip(genes[start : start + 1000], vectors[start : start + 1000], strict=True))
                cur.executemany(
                    "INSERT INTO genes (id, category, task_family, status, current_version, current_asset_id,"
                    " producer_model, owner_key_id) VALUES (%s, %s, %s, 'candidate', 1, %s, %s, %s)",
                    [
                        (
                            g["id"],
                            g["category"],
                            p["task"]["family"],
                            compute_asset_id(g),
                            p["producer_model"],
                            SYSTEM_KEY_ID,  # loaded by the command line, as `genebank import` would
                        )
                        for (g, p), _ in chunk
                    ],
                )
                rows = []
                for (gene, provenance), vector in chunk:
                    asset_id = compute_asset_id(gene)
                    served = {**gene, "asset_id": asset_id}
                    rows.append(
                        (
                            gene["id"],
                            asset_id,
                            canonical_json(gene),
                            canonical_json(served),
                            json.dumps(served),
                            provenance["producer_model"],
                            provenance["kind"],
                            provenance["task"]["family"],
                            vector,
                            SYSTEM_KEY_ID,
                            gene["summary"] + " " + signal_words(gene),
                            " ".join(gene["strategy"]),
                            " ".join(gene.get("preconditions") or []),
                            signal_words(gene),
                        )
                    )
                cur.executemany(INSERT_VERSION, rows)
        start = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute(CREATE_HNSW)
        for family in HNSW_FAMILIES:
            conn.execute(
                CREATE_HNSW.replace("_hnsw ON", f"_hnsw_{family} ON").replace(
                    "WHERE valid_to IS NULL", f"WHERE valid_to IS NULL AND task_family = '{family}'"
                )
            )
        conn.execute("VACUUM ANALYZE gene_versions")
        conn.execute("VACUUM ANALYZE genes")
        conn.execute("CHECKPOINT")  # the bulk load's writes, flushed before anything is timed
        for view in TERM_STATS_VIEWS:
            conn.execute(f"REFRESH MATERIALIZED VIEW {view}")
        built = time.perf_counter() - start
        print(f"  built the HNSW indexes (main and 4 families) in {built:.0f} s", flush=True)


# The raw HNSW query of the baselines: the current versions' top 10 by cosine distance.
RAW_HNSW = "SELECT id FROM gene_versions WHERE valid_to IS NULL ORDER BY embedding <=> %s LIMIT 10"


@contextmanager
def raw_connection(url: str, ef_search: int) -> Iterator[psycopg.Connection[Any]]:
    """A plain psycopg connection set up for the raw HNSW query as the service's read connections are."""
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        register_vector(conn)
        conn.execute(f"SET hnsw.ef_search = {int(ef_search)}")
        conn.execute("SET random_page_cost = 1.1")
        yield conn


def vector_baselines(url: str, query_vectors: np.ndarray, ef_search: int) -> tuple[float, list[float]]:
    """Recall@10 of HNSW against an exact scan, and raw HNSW query latencies (ms)."""
    recalls, latencies = [], []
    exact = (
        "WITH c AS MATERIALIZED (SELECT id, embedding FROM gene_versions WHERE valid_to IS NULL)"
        " SELECT id FROM c ORDER BY embedding <=> %s LIMIT 10"
    )
    with raw_connection(url, ef_search) as conn:
        # Exact answers first: interleaved, their full scans would evict the index the timed queries use.
        truths = [{row[0] for row in conn.execute(exact, (vector,)).fetchall()} for vector in query_vectors]
        for vector in query_vectors[:20]:
            conn.execute(RAW_HNSW, (vector,)).fetchall()
        for vector, truth in zip(query_vectors, truths, strict=True):
            start = time.perf_counter()
            approximate = {row[0] for row in conn.execute(RAW_HNSW, (vector,)).fetchall()}
            latencies.append((time.perf_counter() - start) * 1000)
            recalls.append(len(approximate & truth) / 10)
    return statistics.mean(recalls), latencies


def sequential_baseline(
    url: str, embedder: Embedder, texts: Sequence[str], ef_search: int
) -> tuple[list[float], list[float]]:
    """Each text encoded, then its raw HNSW query run, one query after the other on one connection:
    the least a request that embeds and then queries can take (ms), and the query's share of it.

    Measured alone, each in a loop of its own, both steps run warm. A request cannot: its database
    backend idles while the query is embedded, and on these virtual machines a statement after
    ~10 ms of idling runs slower than back to back (the raw HNSW query at 10,000 Genes: 2.9-3.2 ms
    against 1.7-2.0; docs/benchmarks.md). This baseline pays that as a request does.
    """
    totals, queries = [], []
    with raw_connection(url, ef_search) as conn:
        warmup = list(texts[:10])
        for number, text in enumerate(warmup + list(texts)):
            start = time.perf_counter()
            vector = embedder.encode([text])[0]
            encoded = time.perf_counter()
            conn.execute(RAW_HNSW, (vector,)).fetchall()
            end = time.perf_counter()
            if number >= len(warmup):
                totals.append((end - start) * 1000)
                queries.append((end - encoded) * 1000)
    return totals, queries


def cycling_requests(bodies: list[bytes], headers: str) -> Callable[[random.Random], bytes]:
    """Each request the next query, so the server embeds a different text every time."""
    position = 0

    def request(_: random.Random) -> bytes:
        nonlocal position
        position += 1
        return post_json("/v1/search", bodies[position % len(bodies)], headers)

    return request


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def server_pid(port: int) -> int:
    import psutil

    for conn in psutil.net_connections("tcp"):
        if conn.laddr and conn.laddr.port == port and conn.status == "LISTEN" and conn.pid:
            return int(conn.pid)
    raise RuntimeError("server process not found")


def postgres_cpu(url: str) -> float | None:
    """CPU seconds of the embedded PostgreSQL's backends so far (None for a server elsewhere)."""
    import psutil
    from sqlalchemy import make_url

    host = make_url(url).query.get("host")
    pid_file = Path(str(host)) / "postmaster.pid" if isinstance(host, str) else None
    if pid_file is None or not pid_file.exists():
        return None
    total = 0.0
    for child in psutil.Process(int(pid_file.read_text().split()[0])).children():
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def compare(
    url: str,
    settings: Settings,
    other: Path,
    request: Callable[[random.Random], bytes],
    seconds: float,
    rounds: int,
    baseline: Callable[[], tuple[float, float]],
) -> None:
    """1-client p50 and CPU per request of this checkout's server and `other`'s, rounds alternating;
    `baseline()` (encode + raw HNSW p50, ms, each measured alone and in sequence) is measured right
    before each round, for its ratios."""
    results: dict[str, list[tuple[float, float, float | None]]] = {"this": [], "other": []}
    ratios: dict[str, list[float]] = {"this": [], "other": []}
    in_sequence: dict[str, list[float]] = {"this": [], "other": []}
    cache_off = {"GENEBANK_EMBEDDING_CACHE_SIZE": "0"}
    ports = {"this": free_port(), "other": free_port()}
    backend, data_dir = settings.embedding_backend, settings.data_dir
    with (
        api_server(url, ports["this"], backend, data_dir, **cache_off) as this,
        api_server(url, ports["other"], backend, data_dir, root=other, **cache_off) as that,
    ):
        processes = {"this": this, "other": that}
        for side in ("this", "other"):  # warm both: plans prepared, pages cached
            run_load(ports[side], request, clients=1, seconds=2, warmup=0)
        for round_ in range(rounds):
            for side in ("this", "other") if round_ % 2 == 0 else ("other", "this"):
                base_ms, sequence_ms = baseline()
                cpu, pg = cpu_seconds(processes[side].pid), postgres_cpu(url)
                result = run_load(ports[side], request, clients=1, seconds=seconds, warmup=0)
                ratios[side].append(result.percentile(50) / base_ms)
                in_sequence[side].append(result.percentile(50) / sequence_ms)
                if result.errors:
                    raise RuntimeError(f"{side}: {result.first_error!r}")
                pg_after = postgres_cpu(url)
                per = 1000 / result.requests
                results[side].append(
                    (
                        result.percentile(50),
                        (cpu_seconds(processes[side].pid) - cpu) * per,
                        None if pg is None or pg_after is None else (pg_after - pg) * per,
                    )
                )
    print(
        f"  before/after, {rounds} alternating rounds of {seconds:.0f} s, 1 client"
        f" (load average {os.getloadavg()[0]:.1f}):"
    )
    medians = {}
    for side, name in (("other", f"{other} (before)"), ("this", "this checkout")):
        p50 = statistics.median(r[0] for r in results[side])
        server_cpu = statistics.median(r[1] for r in results[side])
        pgs = [r[2] for r in results[side] if r[2] is not None]
        pg = f", PostgreSQL {statistics.median(pgs):.2f}" if pgs else ""
        medians[side] = p50
        rounds_text = " ".join(f"{r[0]:.1f}" for r in results[side])
        ratio_text = " ".join(f"{r:.2f}" for r in ratios[side])
        print(
            f"    {name:<32} p50 {p50:6.2f} ms (rounds {rounds_text});"
            f" CPU ms a request: server {server_cpu:.2f}{pg}"
        )
        print(
            f"    {'':<32} p50 / (encode + raw HNSW) of its round: median"
            f" {statistics.median(ratios[side]):.2f} (rounds {ratio_text})"
        )
        sequence_text = " ".join(f"{r:.2f}" for r in in_sequence[side])
        print(
            f"    {'':<32} the same, encode then raw HNSW in sequence: median"
            f" {statistics.median(in_sequence[side]):.2f} (rounds {sequence_text})"
        )
    print(f"    this / before: {medians['this'] / medians['other']:.3f}")


def profile(url: str, settings: Settings, queries: list[dict[str, Any]]) -> dict[str, float]:
    """Median ms of each stage of a search, in this process, on the server's read-connection setup."""
    import asyncio

    async def run() -> dict[str, float]:
        embeddings = create_embedding_service(settings.model_copy(update={"embedding_cache_size": 0}))
        times: dict[str, list[float]] = {}
        conn = await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True)
        try:
            await configure_read_connection(conn, ef_search=settings.search_ef_search)
            repo = SearchRepository(conn)
            for round_ in range(2):  # the first round warms caches and plans
                for q in queries:
                    request = SearchRequest(query=q["query"], signals=q.get("signals") or [], k=10)
                    text = query_text(request.query, request.signals)
                    per_stage = max(settings.search_candidates, request.k + 10)
                    marks = [time.perf_counter()]
                    vector = await embeddings.embed_query(text)
                    marks.append(time.perf_counter())
                    found = await repo.lexical(
                        keyword_text=text,
                        signal_text=" ".join(request.signals) if request.signals else None,
                        filters=_filters(request),
                        per_stage=per_stage,
                    )
                    marks.append(time.perf_counter())
                    await repo.candidates(
                        query_vector=vector,
                        extra_ids=sorted(set(found.keyword) | set(found.signals)),
                        filters=_filters(request),
                        per_stage=per_stage,
                        exact=False,
                    )
                    marks.append(time.perf_counter())
                    response = await search_service.search(conn, request, embeddings, settings)
                    marks.append(time.perf_counter())
                    response.model_dump_json()
                    marks.append(time.perf_counter())
                    if round_:
                        names = ["encode", "keyword stage", "candidates query", "service call", "serialize"]
                        for name, start, end in zip(names, marks, marks[1:], strict=False):
                            times.setdefault(name, []).append((end - start) * 1000)
        finally:
            await conn.close()
            embeddings.close()
        return {name: statistics.median(values) for name, values in times.items()}

    return asyncio.run(run())


class Lookup:
    """An embedder that returns precomputed vectors: the loop's work around an encode, without one."""

    name = "lookup"

    def __init__(self, texts: list[str], vectors: np.ndarray) -> None:
        self.vectors = dict(zip(texts, vectors, strict=True))

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.vectors[text] for text in texts])


def package_of(filename: str) -> str:
    """Where a profiled function lives: a site-package, a Genebank module, or the standard library."""
    parts = Path(filename).parts
    if "site-packages" in parts:
        name = parts[parts.index("site-packages") + 1]
        return name.split(".")[0].removesuffix(".py")
    if "app" in parts and filename.endswith(".py"):
        module = parts[parts.index("app") :]
        return (
            ".".join(module).removesuffix(".py")
            if len(module) <= 2
            else ".".join(module[:3]).removesuffix(".py")
        )
    return "builtins (C)" if filename == "~" else "standard library"


def loop_profile(
    url: str, settings: Settings, texts: list[str], vectors: np.ndarray, bodies: list[bytes], top: int
) -> None:
    """CPU ms a search on the event loop's thread by package (cProfile, thread_time), in this process."""
    import asyncio
    import cProfile
    import pstats
    from collections import Counter

    from harness import UNLIMITED
    from publish_profile import call

    from app.embeddings import EmbeddingService
    from app.main import create_app

    token = api_key(url)
    for key, value in {**UNLIMITED, "GENEBANK_EMBEDDING_CACHE_SIZE": "0"}.items():
        os.environ[key] = value

    async def requests(app: Any, which: list[bytes]) -> None:
        for body in which:
            status, answer = await call(app, body, token, "/v1/search")
            if status != 200:
                raise RuntimeError(f"search refused: {status} {answer[:300]!r}")

    async def run() -> tuple[cProfile.Profile, float, float, float, int]:
        served = Settings(
            database_url=url,
            migrate_on_start=False,
            run_worker="false",
            embedding_backend=settings.embedding_backend,
        )
        app = create_app(served)
        async with app.router.lifespan_context(app):
            runtime = app.state.runtime
            model = runtime.embeddings
            runtime.embeddings = EmbeddingService(Lookup(texts, vectors), 0, lanes=1, batch_size=8)
            model.close()
            runtime.embeddings.name = model.name
            await requests(app, bodies[:50])  # warm: statements prepared, plans generic, caches full
            measured = bodies * 2
            pg, cpu = postgres_cpu(url), time.process_time()
            await requests(app, measured)
            pg, cpu = (postgres_cpu(url) or 0.0) - (pg or 0.0), time.process_time() - cpu
            profile = cProfile.Profile(time.thread_time)
            loop_cpu = time.thread_time()
            profile.enable()
            await requests(app, measured)
            profile.disable()
            loop_cpu = time.thread_time() - loop_cpu
            runtime.embeddings.close()
        return profile, cpu, pg, loop_cpu, len(measured)

    profile, cpu, pg, loop_cpu, n = asyncio.run(run())
    stats = pstats.Stats(profile)
    spent: Counter[str] = Counter()
    for (filename, _, _), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        spent[package_of(filename)] += own
    total = sum(spent.values())
    print(
        f"  event loop CPU, {n} searches in-process (load average {os.getloadavg()[0]:.1f}): process"
        f" {cpu * 1000 / n:.2f} ms a search, PostgreSQL {pg * 1000 / n:.2f} ms (profiler off);"
        f" loop thread {loop_cpu * 1000 / n:.2f} ms profiled, by package (own time, ms a search):"
    )
    for package, seconds in spent.most_common(top):
        print(f"    {package:<36} {seconds * 1000 / n:6.3f}  {seconds / total:6.1%}")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--backend", choices=["torch", "onnx", "onnx-int8"], default=None)
    parser.add_argument("--profile", action="store_true", help="time each stage of a search in-process")
    parser.add_argument("--compare", type=Path, help="another checkout (e.g. a clone of main): before/after")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds of --compare")
    parser.add_argument("--cprofile", action="store_true", help="the event loop's CPU a search, by package")
    parser.add_argument("--top", type=int, default=25, help="rows of --cprofile's listings")
    args = parser.parse_args()

    settings = Settings(**({"embedding_backend": args.backend} if args.backend else {}))
    # Bulk indexing may use every core; queries are then measured with the served thread setting.
    bulk = load_embedder(settings.model_copy(update={"embedding_threads": os.cpu_count() or 1}))
    corpora = {size: generate(size) for size in args.sizes}
    vectors_by_size = {size: vectors_for(corpora[size], bulk) for size in args.sizes}
    del bulk
    embedder = load_embedder(settings)
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    queries = (queries * (args.queries // len(queries) + 1))[: args.queries]
    # Exactly the text the server embeds for each request (the query, then its signals).
    texts = [query_text(q["query"], q.get("signals") or []) for q in queries]
    query_vectors = embedder.encode(texts)
    print(
        f"backend {settings.embedding_backend} ({embedder.name}, {settings.embedding_threads} thread);"
        f" {len(texts)} distinct queries"
    )

    for size in args.sizes:
        print(f"\n== {size:,} Genes ==", flush=True)
        genes, vectors = corpora[size], vectors_by_size[size]
        with scratch_database("genebank_bench_search") as url:
            load(url, genes, vectors)
            auth = bearer(api_key(url))
            # Both baselines under the conditions the server meets: the corpus loaded, PostgreSQL up.
            encode_ms = encode_latencies(embedder, texts)
            ef = settings.search_ef_search
            recall, hnsw_ms = vector_baselines(url, query_vectors, ef)
            sequence_ms, after_encode_ms = sequential_baseline(url, embedder, texts, ef)
            port = free_port()
            cache_off = {"GENEBANK_EMBEDDING_CACHE_SIZE": "0"}
            with api_server(url, port, settings.embedding_backend, settings.data_dir, **cache_off):
                bodies = [
                    json.dumps({"query": q["query"], "signals": q.get("signals") or [], "k": 10}).encode()
                    for q in queries
                ]
                request = cycling_requests(bodies, auth)
                single: LoadResult = run_load(port, request, clients=1, seconds=args.seconds, warmup=2)
                four: LoadResult = run_load(port, request, clients=4, seconds=args.seconds, warmup=1)
                rss = peak_rss_mib(server_pid(port))
            if single.errors or four.errors:
                raise RuntimeError(f"{single.errors + four.errors} error responses")
            encode_p50, hnsw_p50 = statistics.median(encode_ms), statistics.median(hnsw_ms)
            p50 = single.percentile(50)
            print(f"  vector-stage recall@10 vs exact scan: {recall:.3f} (target >= 0.98, ef_search {ef})")
            print(f"  baseline encode p50:       {encode_p50:6.2f} ms")
            print(f"  baseline raw HNSW p50:     {hnsw_p50:6.2f} ms (p95 {np.percentile(hnsw_ms, 95):.2f})")
            p95, rate = single.percentile(95), single.throughput
            print(f"  /v1/search 1 client:  p50 {p50:6.2f} ms, p95 {p95:6.2f} ms, {rate:.0f} req/s")
            print(f"  /v1/search 4 clients: {four.throughput:.0f} req/s (p50 {four.percentile(50):.2f} ms)")
            sequence_p50 = statistics.median(sequence_ms)
            print(
                f"  baseline encode, then raw HNSW, query after query: p50 {sequence_p50:6.2f} ms"
                f" (its raw HNSW query p50 {statistics.median(after_encode_ms):.2f} ms after the encode)"
            )
            print(
                f"  p50 / (encode + raw HNSW): {p50 / (encode_p50 + hnsw_p50):.2f} each measured alone,"
                f" {p50 / sequence_p50:.2f} in sequence (target <= 1.3)"
            )
            print(f"  server peak RSS: {rss:.0f} MiB (target <= 1536)")
            if args.compare:

                def baseline() -> tuple[float, float]:
                    """Encode + raw HNSW p50 now (60 queries each), measured alone and in sequence: the
                    ratios' denominators of one round."""
                    encode = statistics.median(encode_latencies(embedder, texts[:60]))
                    _, hnsw = vector_baselines(url, query_vectors[:60], settings.search_ef_search)
                    sequence, _ = sequential_baseline(url, embedder, texts[:60], settings.search_ef_search)
                    return encode + statistics.median(hnsw), statistics.median(sequence)

                compare(url, settings, args.compare, request, args.seconds / 2, args.rounds, baseline)
            if args.profile:
                stages = profile(url, settings, queries)
                print("  in-process stages, p50 ms (the service call runs encode and keyword stage at once):")
                for name, ms in stages.items():
                    print(f"    {name:<18} {ms:6.2f}")
                http = p50 - stages["service call"] - stages["serialize"]
                print(
                    f"    HTTP + middleware + loop (end-to-end p50 - service call - serialize): {http:6.2f}"
                )
            if args.cprofile:
                loop_profile(url, settings, texts, query_vectors, bodies, args.top)
        os.environ.pop("GENEBANK_DATABASE_URL", None)


if __name__ == "__main__":
    main()
