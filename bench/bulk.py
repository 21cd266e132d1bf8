"""Bulk publish throughput (POST /v1/genes/batch) beside the embedder's own batched rate, in one run.

A Genebank server in its own process (no worker, limits off) takes --genes distinct new Genes in
batches of --batch (JSON arrays, one client, one batch after the other). The Genes are the corpus
Genes (bench/data/corpus.jsonl, those quoting a credential-like string left out: publish refuses
them) under fresh ids, each summary marked with its copy and round so that every document and
embedding text is new.

Baseline, measured in the same run, in this process while the server idles: the embedder's own
batched throughput on exactly the texts the server embeds for those Genes (each Gene's embedding
text and its redacted task description, a search key; deduplicated per batch as the server does),
through an EmbeddingService built like the server's (same backend, lanes, threads, batch size),
fed with the same one call per batch (`submit_texts`). It is printed as Genes/s (Genes whose texts
were encoded a second) and as texts/s.

For comparison, single-item publish (POST /v1/genes, a Gene a request) from 4 keep-alive clients
for --single-seconds. Rounds alternate baseline and server (--rounds, medians). The server's CPU
time per Gene is read from /proc, beside the embedder's CPU per Gene in the baseline.
Targets (issue 18): >= 100 Genes/s, and >= 0.8x the embedder's batched rate on the same texts.

    python bench/bulk.py [--genes 2000] [--batch 500] [--rounds 2] [--backend onnx|onnx-int8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from itertools import count
from pathlib import Path
from typing import Any

import httpx
from harness import (
    api_key,
    api_server,
    bearer,
    cpu_seconds,
    free_port,
    post_json,
    run_load,
    scratch_database,
)

from app.config import Settings
from app.embeddings import EmbeddingService, load_embedder
from app.genes.schemas import PublishRequest
from app.genes.service import _bulk_texts, _scrub

DATA = Path(__file__).resolve().parent / "data"


def corpus() -> list[dict[str, Any]]:
    payloads = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    return [
        payload
        for payload in payloads
        if not _scrub(PublishRequest.model_validate(payload), payload["gene"]).document_secrets
    ]


def genes(base: list[dict[str, Any]], total: int, tag: str) -> list[dict[str, Any]]:
    """`total` distinct publish bodies: corpus Genes under new ids, each summary marked."""
    made = []
    for index in range(total):
        payload = base[index % len(base)]
        gene = {
            **payload["gene"],
            "id": f"{payload['gene']['id'][:80]}_{tag}_{index}",
            "summary": f"{payload['gene']['summary'][:250]} ({tag}, copy {index // len(base)})",
        }
        gene.pop("asset_id", None)
        made.append({**payload, "gene": gene})
    return made


def batches(items: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def server_texts(batch: list[dict[str, Any]]) -> list[str]:
    """The texts the server embeds for one batch of new Genes, deduplicated as it does."""
    planned = _bulk_texts([PublishRequest.model_validate(item) for item in batch])
    return list(dict.fromkeys(text for _, texts in planned for text in texts))


def embedder_rate(settings: Settings, text_batches: list[list[str]]) -> tuple[float, float, float]:
    """Seconds, and this process's CPU seconds, to encode every batch's texts through a service
    shaped like the server's; and the number of texts."""
    service = EmbeddingService(
        load_embedder(settings),
        0,
        lanes=settings.embedding_lanes,
        batch_size=settings.embedding_batch_size,
        wait_ms=settings.embedding_batch_wait_ms,
    )

    async def measure() -> tuple[float, float]:
        await asyncio.gather(*service.submit_texts(text_batches[0][:16]))  # warm-up
        cpu = time.process_time()
        start = time.perf_counter()
        for texts in text_batches:
            await asyncio.gather(*service.submit_texts(texts))
        return time.perf_counter() - start, time.process_time() - cpu

    try:
        wall, cpu = asyncio.run(measure())
    finally:
        service.close()
    return wall, cpu, float(sum(len(texts) for texts in text_batches))


def publish_batches(port: int, token: str, parts: list[list[dict[str, Any]]]) -> tuple[float, int]:
    """Seconds to publish every batch, one request after the other; Genes created."""
    created = 0
    with httpx.Client(
        base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {token}"}, timeout=900
    ) as client:
        start = time.perf_counter()
        for part in parts:
            answer = client.post("/v1/genes/batch", json=part)
            answer.raise_for_status()
            body = answer.json()
            if body["rejected"]:
                problems = [r for r in body["results"] if r["status"] >= 400]
                raise RuntimeError(f"{body['rejected']} refused: {problems[:2]}")
            created += sum(1 for r in body["results"] if r["created"])
        return time.perf_counter() - start, created


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--genes", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--single-seconds", type=float, default=10.0)
    parser.add_argument("--backend", choices=["onnx", "onnx-int8"], default=None)
    args = parser.parse_args()
    settings = Settings(**({"embedding_backend": args.backend} if args.backend else {}))
    base = corpus()
    print(
        f"backend {settings.embedding_backend}; server and baseline: lanes {settings.embedding_lanes},"
        f" threads {settings.embedding_threads}, batch {settings.embedding_batch_size} texts /"
        f" {settings.embedding_batch_tokens} tokens; {args.genes} Genes a round in batches of {args.batch}"
        f" ({len(base)} corpus Genes); load average {os.getloadavg()[0]:.1f}"
    )
    serial = count()
    with scratch_database("genebank_bench_bulk") as url:
        token = api_key(url, "producer")
        port = free_port()
        with api_server(url, port, settings.embedding_backend, settings.data_dir) as process:
            publish_batches(port, token, [genes(base, 16, "warm")])
            rows: list[dict[str, float]] = []
            for round_ in range(args.rounds):
                parts = batches(genes(base, args.genes, f"r{round_}"), args.batch)
                texts = [server_texts(part) for part in parts]
                wall, cpu, n_texts = embedder_rate(settings, texts)
                before = cpu_seconds(process.pid)
                seconds, created = publish_batches(port, token, parts)
                server_cpu = cpu_seconds(process.pid) - before
                if created != args.genes:
                    raise RuntimeError(f"{created} Genes created of {args.genes}")

                def single(_: object) -> bytes:
                    n = next(serial)
                    [payload] = genes([base[n % len(base)]], 1, f"s{n}")
                    return post_json("/v1/genes", json.dumps(payload).encode(), bearer(token))

                load = run_load(port, single, clients=4, seconds=args.single_seconds, warmup=1)
                if load.errors:
                    raise RuntimeError(f"single publish: {load.errors} errors: {load.first_error!r}")
                row = {
                    "bulk": args.genes / seconds,
                    "embedder": args.genes / wall,
                    "texts_per_s": n_texts / wall,
                    "single": load.throughput,
                    "server_cpu_ms": server_cpu * 1000 / args.genes,
                    "embed_cpu_ms": cpu * 1000 / args.genes,
                }
                rows.append(row)
                print(
                    f"round {round_ + 1}: bulk {row['bulk']:.1f} Genes/s;"
                    f" embedder {row['embedder']:.1f} Genes/s"
                    f" ({row['texts_per_s']:.1f} texts/s, {n_texts / args.genes:.2f} texts a Gene);"
                    f" single publish {row['single']:.1f} Genes/s; server CPU {row['server_cpu_ms']:.1f} ms"
                    f" a Gene, embedder CPU {row['embed_cpu_ms']:.1f} ms a Gene"
                )

    def med(key: str) -> float:
        return statistics.median(row[key] for row in rows)

    bulk, embedder, single = med("bulk"), med("embedder"), med("single")
    print(f"embedder batched, same texts:   {embedder:6.1f} Genes/s ({med('texts_per_s'):.1f} texts/s)")
    print(f"POST /v1/genes/batch:           {bulk:6.1f} Genes/s = {bulk / embedder:.2f}x the embedder")
    print(
        f"POST /v1/genes, 4 clients:      {single:6.1f} Genes/s = {single / embedder:.2f}x;"
        f" bulk {bulk / single:.1f}x it"
    )
    print(
        f"CPU a Gene: server {med('server_cpu_ms'):.1f} ms, embedder alone {med('embed_cpu_ms'):.1f} ms"
        f" (bound on any number of cores: {med('embed_cpu_ms') / med('server_cpu_ms'):.2f}x)"
    )
    print("targets: >= 100 Genes/s; >= 0.8x the embedder's batched rate")


if __name__ == "__main__":
    main()
