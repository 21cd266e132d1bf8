"""Search quality on the labelled set in bench/data: hybrid beside vector-only and keyword-only.

Publishes bench/data/corpus.jsonl into a scratch database, runs every query of
bench/data/queries.jsonl three ways and prints MRR@10 and recall@5 (overall and per family).
Then checks the relevance band: how often a labelled query is `found` / `low_confidence` /
`no_match`, how often an unrelated query (bench/data/negatives.jsonl) gets `no_match`, and the
similarity figures the band thresholds were chosen from.

    python bench/search_quality.py [--backend torch|onnx|onnx-int8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import psycopg
from harness import conninfo, scratch_database

from app.config import Settings
from app.db import configure_read_connection, create_engine, create_sessionmaker
from app.embeddings import EmbeddingService, load_embedder
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.search.repository import Filters, SearchRepository
from app.search.schemas import SearchRequest
from app.search.service import DEFAULT_STATUSES, query_text, search_service
from app.search.term_stats import refresh_term_stats

DATA = Path(__file__).resolve().parent / "data"


def load(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


async def publish(url: str, settings: Settings, embeddings: EmbeddingService) -> None:
    engine = create_engine(url, settings)
    sessionmaker = create_sessionmaker(engine)
    try:
        for payload in load("corpus.jsonl"):
            async with sessionmaker.begin() as session:
                await gene_service.publish(session, PublishRequest.model_validate(payload), embeddings)
    finally:
        await engine.dispose()
    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        await refresh_term_stats(conn)


async def gene_of(conn: psycopg.AsyncConnection[Any], version_id: int) -> str:
    row = await (
        await conn.execute("SELECT gene_id FROM gene_versions WHERE id = %s", (version_id,))
    ).fetchone()
    assert row is not None
    return str(row[0])


def mrr_at_10(ranking: list[str], relevant: set[str]) -> float:
    for position, gene_id in enumerate(ranking[:10], start=1):
        if gene_id in relevant:
            return 1 / position
    return 0.0


def recall_at_5(ranking: list[str], relevant: set[str]) -> float:
    return len(set(ranking[:5]) & relevant) / len(relevant)


async def rankings(
    conn: psycopg.AsyncConnection[Any],
    query: dict[str, Any],
    embeddings: EmbeddingService,
    settings: Settings,
) -> tuple[dict[str, list[str]], str, float]:
    request = SearchRequest(query=query["query"], signals=query.get("signals") or [], k=10)
    response = await search_service.search(conn, request, embeddings, settings)
    hybrid = [result.gene_id for result in response.results]
    text = query_text(request.query, request.signals)
    repo = SearchRepository(conn)
    filters = Filters(statuses=DEFAULT_STATUSES)
    lexical = await repo.lexical(keyword_text=text, signal_text=None, filters=filters, per_stage=10)
    rows = await repo.candidates(
        query_vector=await embeddings.embed_query(text),
        extra_ids=[],
        filters=filters,
        per_stage=10,
        exact=False,
    )
    by_id = {int(r["id"]): r["gene_id"] for r in rows}
    vector = [r["gene_id"] for r in sorted(rows, key=lambda r: int(r["vector_rank"]))]
    keyword_ids = sorted(lexical["keyword"], key=lambda version_id: lexical["keyword"][version_id])
    keyword = [by_id.get(i) or await gene_of(conn, i) for i in keyword_ids]
    top_similarity = max((float(r["similarity"]) for r in rows), default=0.0)
    return {"hybrid": hybrid, "vector-only": vector, "keyword-only": keyword}, response.band, top_similarity


async def evaluate(url: str, settings: Settings, embeddings: EmbeddingService) -> None:
    queries, negatives = load("queries.jsonl"), load("negatives.jsonl")
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    bands: dict[str, int] = defaultdict(int)
    positive_similarity, negative_similarity = [], []
    negative_bands: dict[str, int] = defaultdict(int)
    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        await configure_read_connection(conn, ef_search=settings.search_ef_search)
        for query in queries:
            ranked, band, top_similarity = await rankings(conn, query, embeddings, settings)
            relevant = set(query["relevant"])
            for mode, ranking in ranked.items():
                for family in ("all", query["family"]):
                    scores[mode][f"mrr:{family}"].append(mrr_at_10(ranking, relevant))
                    scores[mode][f"recall:{family}"].append(recall_at_5(ranking, relevant))
            bands[band] += 1
            positive_similarity.append(top_similarity)
        for query in negatives:
            _, band, top_similarity = await rankings(conn, query, embeddings, settings)
            negative_bands[band] += 1
            negative_similarity.append(top_similarity)

    families = sorted({q["family"] for q in queries})
    print(f"{len(queries)} labelled queries over {len(load('corpus.jsonl'))} Genes, model {embeddings.name}")
    print(f"{'mode':<13} {'MRR@10':>7} {'recall@5':>9}   " + "  ".join(f"{f[:12]:>12}" for f in families))
    for mode in ("hybrid", "vector-only", "keyword-only"):
        mrr = statistics.mean(scores[mode]["mrr:all"])
        recall = statistics.mean(scores[mode]["recall:all"])
        per_family = "  ".join(f"{statistics.mean(scores[mode][f'mrr:{f}']):>12.3f}" for f in families)
        print(f"{mode:<13} {mrr:>7.3f} {recall:>9.3f}   {per_family}")
    print("(per-family columns are MRR@10)")

    def share(counts: dict[str, int], total: int) -> str:
        return ", ".join(
            f"{b} {counts.get(b, 0) / total:.0%}" for b in ("found", "low_confidence", "no_match")
        )

    found, low = settings.search_found_similarity, settings.search_low_similarity
    print(f"\nbands (found >= {found}, low_confidence >= {low}):")
    print(f"  labelled queries:  {share(bands, len(queries))}")
    print(f"  unrelated queries: {share(negative_bands, len(negatives))}")
    quantiles = statistics.quantiles(positive_similarity, n=20)
    print(
        "  top-1 similarity, labelled: "
        f"p5 {quantiles[0]:.3f}  p25 {quantiles[4]:.3f}  median {statistics.median(positive_similarity):.3f}"
    )
    print(
        "  top-1 similarity, unrelated: "
        f"median {statistics.median(negative_similarity):.3f}  max {max(negative_similarity):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["torch", "onnx", "onnx-int8"], default=None)
    args = parser.parse_args()
    with scratch_database() as url:
        overrides: dict[str, Any] = {"database_url": url}
        if args.backend:
            overrides["embedding_backend"] = args.backend
        settings = Settings(**overrides)
        embeddings = EmbeddingService(load_embedder(settings))
        try:
            asyncio.run(publish(url, settings, embeddings))
            asyncio.run(evaluate(url, settings, embeddings))
        finally:
            embeddings.close()


if __name__ == "__main__":
    main()
