"""The embedder at its best on this machine: speed by (lanes, threads, batch size), int8 against fp32.

Every figure goes through app.embeddings.EmbeddingService, the path every request takes.
1. Single-text latency (p50 ms) of a Gene text and of a query, at 1 and 2 intra-op threads.
2. Throughput (texts/s) of --sample Gene texts and as many queries, submitted as one bulk request,
   by (lanes, threads per lane, run size): lanes are model runs at once (one onnxruntime session
   shared), each on `threads` intra-op threads; a run is one text (b1: a budget of 1 token), or up
   to 16 texts within a token budget (t256: 256 tokens, padding included; t4096: in effect 16 texts).
3. Closed-loop clients: 1 and 4 clients each encoding one Gene text at a time (what publish does), by
   batch wait (ms), at the best (lanes, threads, batch) of step 2.
4. Quality of int8 against fp32: cosine agreement on Gene texts and queries, vector-only MRR@10 of
   bench/data/queries.jsonl against the corpus (train and test halves by query id; the decision is
   read on train, test is reported), and how many guard merge decisions of bench/data/guard_pairs.jsonl
   (cosine >= GUARD_MERGE_THRESHOLD) change.
Backends: fp32 and int8 of the ONNX model, exported into a temporary directory (or --models).

    python bench/embedding.py [--sample 256] [--seconds 6] [--models DIR] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from harness import ROOT

from app.embeddings import EmbeddingService
from app.embeddings.onnx_backend import OnnxEmbedder
from app.evolution.merge import GUARD_MERGE_THRESHOLD
from app.genes.indexing import embedding_text
from app.search.service import query_text

DATA = ROOT / "bench" / "data"


def lines(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


async def bulk_rate(service: EmbeddingService, texts: list[str]) -> float:
    await service.embed_texts(texts[:8])  # warm-up
    start = time.perf_counter()
    await service.embed_texts(texts)
    return len(texts) / (time.perf_counter() - start)


async def clients_rate(
    service: EmbeddingService, texts: list[str], clients: int, seconds: float
) -> tuple[float, float]:
    """`clients` loops each embedding one text at a time: texts/s and p50 latency (ms)."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def client(offset: int) -> None:
        position = offset
        while time.perf_counter() < stop:
            start = time.perf_counter()
            await service.embed_texts([texts[position % len(texts)]])
            latencies.append((time.perf_counter() - start) * 1000)
            position += clients

    begin = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return len(latencies) / (time.perf_counter() - begin), statistics.median(latencies)


def latency(embedder: OnnxEmbedder, texts: list[str]) -> float:
    for text in texts[:5]:
        embedder.encode([text])
    times = []
    for text in texts:
        start = time.perf_counter()
        embedder.encode([text])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def mrr(
    query_vectors: np.ndarray, gene_vectors: np.ndarray, gene_ids: list[str], relevant: list[set[str]]
) -> float:
    ranks = np.argsort(-(query_vectors @ gene_vectors.T), axis=1)[:, :10]
    total = 0.0
    for row, wanted in zip(ranks, relevant, strict=True):
        for position, index in enumerate(row):
            if gene_ids[index] in wanted:
                total += 1 / (position + 1)
                break
    return total / len(relevant)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--quick", action="store_true", help="fewer configurations")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="genebank-onnx-") as scratch:
        asyncio.run(run(args, args.models or Path(scratch)))


async def run(args: argparse.Namespace, models: Path) -> None:
    corpus = lines("corpus.jsonl")
    queries = lines("queries.jsonl")
    genes = [embedding_text(payload["gene"]) for payload in corpus]  # type: ignore[arg-type]
    sample = genes[:: max(1, len(genes) // args.sample)][: args.sample]
    query_texts = [query_text(str(q["query"]), list(q.get("signals") or [])) for q in queries]  # type: ignore[arg-type]
    query_sample = (query_texts * (args.sample // len(query_texts) + 1))[: args.sample]

    def tokens(texts: list[str]) -> float:
        return statistics.median(
            len(e.ids) for e in OnnxEmbedder(models, threads=1)._tokenizer().encode_batch(texts)
        )

    print(
        f"{len(sample)} Gene texts (median {tokens(sample):.0f} tokens), {len(query_sample)} queries"
        f" (median {tokens(query_sample):.0f} tokens)"
    )

    print("\n1. single-text latency p50 (ms)")
    print(f"{'precision':<9} {'threads':>7} {'Gene text':>10} {'query':>7}")
    for quantized in (False, True):
        for threads in (1, 2):
            embedder = OnnxEmbedder(models, quantized=quantized, threads=threads)
            print(
                f"{'int8' if quantized else 'fp32':<9} {threads:>7} {latency(embedder, sample[:60]):>10.1f}"
                f" {latency(embedder, query_sample[:100]):>7.1f}"
            )

    print("\n2. bulk throughput through the service (texts/s)")
    shapes = [(1, 1), (1, 2), (2, 1)]
    budgets = [(16, 1), (16, 256), (16, 512), (16, 4096)]
    if args.quick:
        budgets = [(16, 1), (16, 256), (16, 4096)]

    def label(batch: int, tokens: int) -> str:
        return "b1" if tokens == 1 else f"t{tokens}"

    print(
        f"{'precision':<9} {'lanes':>5} {'threads':>7} "
        + " ".join(f"{'Gene ' + label(*b):>10}" for b in budgets)
        + " "
        + " ".join(f"{'query ' + label(*b):>11}" for b in budgets)
    )
    best: dict[bool, tuple[float, int, int, int, int]] = {}
    for quantized in (False, True):
        for lanes, threads in shapes:
            embedder = OnnxEmbedder(models, quantized=quantized, threads=threads)
            gene_rates, query_rates = [], []
            for batch, budget in budgets:
                embedder.batch_size, embedder.batch_tokens = batch, budget
                service = EmbeddingService(embedder, 0, lanes=lanes, batch_size=batch)
                gene_rates.append(await bulk_rate(service, sample))
                query_rates.append(await bulk_rate(service, query_sample))
                service.close()
                if gene_rates[-1] > best.get(quantized, (0.0,))[0]:
                    best[quantized] = (gene_rates[-1], lanes, threads, batch, budget)
            print(
                f"{'int8' if quantized else 'fp32':<9} {lanes:>5} {threads:>7} "
                + " ".join(f"{rate:>10.1f}" for rate in gene_rates)
                + " "
                + " ".join(f"{rate:>11.1f}" for rate in query_rates),
                flush=True,
            )
    for quantized, (rate, lanes, threads, batch, budget) in best.items():
        print(
            f"best {'int8' if quantized else 'fp32'}: {rate:.1f} Gene texts/s"
            f" at lanes {lanes}, threads {threads}, {label(batch, budget)}"
        )

    print("\n3. closed-loop clients, one Gene text per request, each precision's best shape, 8 texts a lane")
    print(
        f"{'precision':<9} {'wait ms':>7} {'1 client /s':>11} {'p50 ms':>7}"
        f" {'4 clients /s':>12} {'p50 ms':>7}"
    )
    for quantized, (_, lanes, threads, batch, budget) in best.items():
        embedder = OnnxEmbedder(
            models, quantized=quantized, threads=threads, batch_size=batch, batch_tokens=budget
        )
        for wait in (0.0, 2.0, 5.0):
            service = EmbeddingService(embedder, 0, lanes=lanes, batch_size=8, wait_ms=wait)
            one = await clients_rate(service, sample, 1, args.seconds / 2)
            four = await clients_rate(service, sample, 4, args.seconds / 2)
            service.close()
            print(
                f"{'int8' if quantized else 'fp32':<9} {wait:>7.0f} {one[0]:>11.1f} {one[1]:>7.1f}"
                f" {four[0]:>12.1f} {four[1]:>7.1f}",
                flush=True,
            )

    print("\n4. int8 against fp32")
    fp32, int8 = OnnxEmbedder(models, threads=2), OnnxEmbedder(models, quantized=True, threads=2)
    all_genes = {name: e.encode(genes) for name, e in (("fp32", fp32), ("int8", int8))}
    all_queries = {name: e.encode(query_texts) for name, e in (("fp32", fp32), ("int8", int8))}
    for label, vectors in (("Gene texts", all_genes), ("queries", all_queries)):
        cosines = np.sum(vectors["fp32"] * vectors["int8"], axis=1)
        print(
            f"cosine int8 vs fp32, {len(cosines)} {label}: min {cosines.min():.4f}, mean {cosines.mean():.4f}"
        )
    gene_ids = [str(payload["gene"]["id"]) for payload in corpus]  # type: ignore[index]
    ordered = sorted(range(len(queries)), key=lambda i: str(queries[i]["id"]))
    halves = {"train": ordered[: len(ordered) // 2], "test": ordered[len(ordered) // 2 :]}
    for half, indices in halves.items():
        relevant = [set(queries[i]["relevant"]) for i in indices]  # type: ignore[arg-type]
        scores = {
            name: mrr(all_queries[name][indices], all_genes[name], gene_ids, relevant)
            for name in ("fp32", "int8")
        }
        print(
            f"vector-only MRR@10, {half} ({len(indices)} queries):"
            f" fp32 {scores['fp32']:.4f}, int8 {scores['int8']:.4f}"
            f" (delta {scores['int8'] - scores['fp32']:+.4f})"
        )
    pairs = lines("guard_pairs.jsonl")
    decisions = {}
    for name, embedder in (("fp32", fp32), ("int8", int8)):
        left = embedder.encode([str(p["a"]) for p in pairs])
        right = embedder.encode([str(p["b"]) for p in pairs])
        decisions[name] = np.sum(left * right, axis=1) >= GUARD_MERGE_THRESHOLD
    changed = int(np.sum(decisions["fp32"] != decisions["int8"]))
    print(
        f"guard merge decisions (threshold {GUARD_MERGE_THRESHOLD}) changed by int8:"
        f" {changed} of {len(pairs)}"
    )


if __name__ == "__main__":
    main()
