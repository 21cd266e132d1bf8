"""Publish throughput beside the embedder's own rate, in one run.

A Genebank server in its own process (query cache off, no worker) takes POST /v1/genes from 1 and
from 4 keep-alive clients, each request a new Gene (a corpus Gene under a fresh id), for --seconds.
Baselines, measured in the same run on the same texts (the embedding text of each Gene), in this
process while the server idles:
- one encode: the p50 of encoding one Gene text alone (what one publish has to wait for at least);
- the embedder's best throughput on all cores: the most texts/s of a bulk EmbeddingService request
  over a few (lanes, threads, token budget) shapes, the configured one included.
It also prints the server process's CPU time per publish (all its threads, the encode included).
Targets (issue 19): 4 clients >= 0.9x the best throughput; 1 client p50 <= 1.2x one encode.
With --compare DIR, before/after in the same run: 1-client rounds alternate between this checkout's
server and one running DIR's code (e.g. a clone of main) on the same database, each side's p50 and server
CPU a publish printed.

    python bench/publish.py [--seconds 10] [--backend onnx|onnx-int8] [--compare DIR [--rounds 4]]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import time
from itertools import count
from pathlib import Path
from typing import Any

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
from app.embeddings.onnx_backend import OnnxEmbedder
from app.genes.indexing import embedding_text
from app.genes.schemas import PublishRequest
from app.genes.service import _scrub

DATA = Path(__file__).resolve().parent / "data"


def one_encode_ms(embedder: OnnxEmbedder, texts: list[str]) -> tuple[float, float]:
    """p50 wall ms of one encode alone, and its mean CPU ms (all threads of this process)."""
    for text in texts[:5]:
        embedder.encode([text])
    times = []
    cpu = time.process_time()
    for text in texts[:100]:
        start = time.perf_counter()
        embedder.encode([text])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), (time.process_time() - cpu) * 1000 / len(times)


def best_rate(settings: Settings, texts: list[str]) -> tuple[float, str]:
    shapes = {
        (settings.embedding_lanes, settings.embedding_threads, settings.embedding_batch_tokens),
        (2, 1, 1),
        (2, 1, 256),
        (1, 2, 1),
    }
    results = []
    for lanes, threads, tokens in sorted(shapes):
        embedder = load_embedder(
            settings.model_copy(update={"embedding_threads": threads, "embedding_batch_tokens": tokens})
        )
        service = EmbeddingService(embedder, 0, lanes=lanes, batch_size=settings.embedding_batch_size)

        async def measure(service: EmbeddingService = service) -> float:
            await service.embed_texts(texts[:8])
            start = time.perf_counter()
            await service.embed_texts(texts)
            return len(texts) / (time.perf_counter() - start)

        results.append((asyncio.run(measure()), f"lanes {lanes}, threads {threads}, tokens {tokens}"))
        service.close()
    return max(results)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--backend", choices=["onnx", "onnx-int8"], default=None)
    parser.add_argument("--compare", type=Path, help="another checkout (e.g. a clone of main): before/after")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds of --compare")
    args = parser.parse_args()
    settings = Settings(**({"embedding_backend": args.backend} if args.backend else {}))
    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    # The few corpus Genes that quote a credential-like string are refused by publish (422): left out.
    corpus = [
        payload
        for payload in corpus
        if not _scrub(PublishRequest.model_validate(payload), payload["gene"]).document_secrets
    ]
    texts = [embedding_text(payload["gene"]) for payload in corpus]
    texts = texts[:: max(1, len(texts) // args.sample)][: args.sample]
    serial = count()

    def request_for(auth: str) -> Any:
        def request(_: object) -> bytes:
            n = next(serial)
            payload = corpus[n % len(corpus)]
            gene = {**payload["gene"], "id": f"{payload['gene']['id'][:50]}_p{n}"}
            gene.pop("asset_id", None)
            return post_json("/v1/genes", json.dumps({**payload, "gene": gene}).encode(), auth)

        return request

    print(
        f"backend {settings.embedding_backend}; served with lanes {settings.embedding_lanes}, threads"
        f" {settings.embedding_threads}, batch {settings.embedding_batch_size} texts /"
        f" {settings.embedding_batch_tokens} tokens, wait {settings.embedding_batch_wait_ms} ms"
    )
    with scratch_database("genebank_bench_publish") as url:
        auth = bearer(api_key(url, "producer"))
        port = free_port()
        with api_server(url, port, settings.embedding_backend, settings.data_dir) as process:
            probe = request_for(auth)(None)
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(probe.replace(b"Host: bench", b"Connection: close\r\nHost: bench"))
                answer = b"".join(iter(lambda: sock.recv(65536), b""))
            if not answer.startswith(b"HTTP/1.1 201"):
                raise RuntimeError(f"publish refused: {answer.decode(errors='replace')[:2000]}")
            single_encodes, best_rates = [], []
            loads: dict[int, list[Any]] = {1: [], 4: []}
            cpu_ms: dict[int, list[float]] = {1: [], 4: []}
            for _ in range(2):  # alternating rounds: baselines, then the server, twice
                embedder = load_embedder(settings.model_copy(update={"embedding_threads": 1}))
                assert isinstance(embedder, OnnxEmbedder)
                single_encodes.append(one_encode_ms(embedder, texts))
                best_rates.append(best_rate(settings, texts))
                for clients in (1, 4):
                    before = cpu_seconds(process.pid)
                    result = run_load(
                        port, request_for(auth), clients=clients, seconds=args.seconds, warmup=0
                    )
                    cpu_ms[clients].append(
                        (cpu_seconds(process.pid) - before) * 1000 / max(1, result.requests)
                    )
                    if result.errors:
                        raise RuntimeError(
                            f"{result.errors} errors ({clients} clients): {result.first_error!r}"
                        )
                    loads[clients].append(result)
            if args.compare:
                compared = compare(url, settings, args.compare, process, port, request_for(auth), args)
    encode = statistics.median(wall for wall, _ in single_encodes)
    encode_cpu = statistics.median(cpu for _, cpu in single_encodes)
    best = statistics.median(rate for rate, _ in best_rates)
    print(
        f"one encode p50 (1 thread):  {encode:6.1f} ms"
        f"   (rounds: {', '.join(f'{e:.1f}' for e, _ in single_encodes)}); CPU {encode_cpu:.1f} ms"
    )
    print(
        f"embedder best, all cores:   {best:6.1f} texts/s"
        f"   (rounds: {'; '.join(f'{r:.1f} at {s}' for r, s in best_rates)})"
    )
    for clients, results in loads.items():
        rate = statistics.median(r.throughput for r in results)
        p50 = statistics.median(r.percentile(50) for r in results)
        print(
            f"publish {clients} client{'s' if clients > 1 else ' '}:  {rate:6.1f} Genes/s, p50 {p50:6.1f} ms;"
            f" {rate / best:.2f}x the best rate, p50 {p50 / encode:.2f}x one encode;"
            f" server CPU {statistics.median(cpu_ms[clients]):.0f} ms a publish"
        )
    publish_cpu = statistics.median(cpu_ms[4])
    print(
        f"CPU bound on any number of cores: publish <= {encode_cpu / publish_cpu:.2f}x the embedder's rate"
        f" (encode CPU {encode_cpu:.1f} ms / server CPU a publish {publish_cpu:.1f} ms; not PostgreSQL)"
    )
    print("targets: 4 clients >= 0.9x the best rate; 1 client p50 <= 1.2x one encode")
    if args.compare:
        print(f"before/after, {args.rounds} alternating rounds of {args.seconds / 2:.0f} s, 1 client:")
        for side, name in (("other", f"{args.compare} (before)"), ("this", "this checkout")):
            p50s = [p50 for p50, _ in compared[side]]
            cpu = statistics.median(c for _, c in compared[side])
            print(
                f"  {name:<32} p50 {statistics.median(p50s):6.1f} ms"
                f" (rounds {' '.join(f'{p:.1f}' for p in p50s)}); server CPU {cpu:.0f} ms a publish"
            )
        ratio = statistics.median(p for p, _ in compared["this"]) / statistics.median(
            p for p, _ in compared["other"]
        )
        print(f"  this / before: {ratio:.3f}")


def compare(
    url: str,
    settings: Settings,
    other: Path,
    this: subprocess.Popen[bytes],
    port: int,
    request: Any,
    args: argparse.Namespace,
) -> dict[str, list[tuple[float, float]]]:
    """1-client p50 and server CPU a publish, this server's and `other`'s, rounds alternating."""
    results: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
    other_port = free_port()
    with api_server(url, other_port, settings.embedding_backend, settings.data_dir, root=other) as that:
        run_load(other_port, request, clients=1, seconds=2, warmup=0)
        sides = {"this": (this, port), "other": (that, other_port)}
        for round_ in range(args.rounds):
            for side in ("this", "other") if round_ % 2 else ("other", "this"):
                process, side_port = sides[side]
                before = cpu_seconds(process.pid)
                result = run_load(side_port, request, clients=1, seconds=args.seconds / 2, warmup=0)
                if result.errors:
                    raise RuntimeError(f"{side}: {result.first_error!r}")
                cpu = (cpu_seconds(process.pid) - before) * 1000 / max(1, result.requests)
                results[side].append((result.percentile(50), cpu))
    return results


if __name__ == "__main__":
    main()
