"""Publish throughput beside the embedder's own rate, in one run.

A Genebank server in its own process (query cache off, no worker) takes POST /v1/genes from 1 and
from 4 keep-alive clients, each request a new Gene (a corpus Gene under a fresh id), for --seconds.
Baselines, measured in the same run on the same Genes, in this process while the server idles, on
the texts a publish encodes: each Gene's embedding text *and* its redacted task description (a
search key, app/genes/task_keys.py; every corpus Gene has one, so 2 texts a Gene):
- one encode: the p50 of encoding one Gene's texts in one call on one thread (the CPU a publish
  has to spend at least), and, as the floor of a lone publish with two idle lanes, the p50 of its
  two texts queued as a publish queues them (two requests at once to a service of the server's
  shape, so each runs in a lane of its own);
- the embedder's best throughput on all cores: the most Genes/s (texts/s) of a bulk
  EmbeddingService request over every text of the sampled Genes, over a few (lanes, threads,
  token budget) shapes, the configured one included.
Before this baseline counted one text a Gene (the embedding text alone): those figures are still
printed ("old baseline") beside the corrected ones, so runs before and after can be compared.
It also prints the server process's CPU time per publish (all its threads, the encode included).
Targets (issue 19): 4 clients >= 0.9x the best throughput; 1 client p50 <= 1.2x one encode.
With --compare DIR, before/after in the same run: rounds of 1 and of 4 clients alternate between this
checkout's server and one running DIR's code (e.g. a clone of main) on the same database, each side's
Genes/s, p50 and server CPU a publish printed.

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
from app.embeddings import EmbeddingService, create_embedding_service, load_embedder
from app.embeddings.onnx_backend import OnnxEmbedder
from app.genes import bulk
from app.genes.schemas import PublishRequest
from app.genes.service import _scrub

DATA = Path(__file__).resolve().parent / "data"


def one_encode_ms(embedder: OnnxEmbedder, groups: list[list[str]]) -> tuple[float, float]:
    """p50 wall ms of encoding one group of texts in one call, and its mean CPU ms (all threads of
    this process)."""
    for group in groups[:5]:
        embedder.encode(group)
    times = []
    cpu = time.process_time()
    for group in groups[:100]:
        start = time.perf_counter()
        embedder.encode(group)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), (time.process_time() - cpu) * 1000 / len(times)


def lanes_floor_ms(settings: Settings, groups: list[list[str]]) -> float:
    """p50 wall ms of one Gene's texts queued as a publish queues them: each text its own request to
    a service shaped like the server's, all at once (with two idle lanes, in parallel)."""
    service = create_embedding_service(settings.model_copy(update={"embedding_cache_size": 0}))

    async def measure() -> float:
        times = []
        for n, group in enumerate(groups[:105]):
            start = time.perf_counter()
            await asyncio.gather(*(service.embed_texts([text]) for text in group))
            if n >= 5:
                times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    try:
        return asyncio.run(measure())
    finally:
        service.close()


def best_rate(settings: Settings, texts: list[str]) -> tuple[float, str]:
    """The most texts/s of one bulk request for `texts`, over a few service shapes."""
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
    # What each publish encodes (bulk.plan: the publish's own code): [embedding text, task key].
    sampled = corpus[:: max(1, len(corpus) // args.sample)][: args.sample]
    groups = [item.texts for item in bulk.plan([PublishRequest.model_validate(p) for p in sampled])]
    texts = [group[0] for group in groups]  # the old baseline: the embedding text alone
    all_texts = [text for group in groups for text in group]
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
            single_encodes, best_rates, group_encodes, floors, group_rates = [], [], [], [], []
            loads: dict[int, list[Any]] = {1: [], 4: []}
            cpu_ms: dict[int, list[float]] = {1: [], 4: []}
            for _ in range(2):  # alternating rounds: baselines, then the server, twice
                embedder = load_embedder(settings.model_copy(update={"embedding_threads": 1}))
                assert isinstance(embedder, OnnxEmbedder)
                single_encodes.append(one_encode_ms(embedder, [[text] for text in texts]))
                group_encodes.append(one_encode_ms(embedder, groups))
                floors.append(lanes_floor_ms(settings, groups))
                best_rates.append(best_rate(settings, texts))
                group_rates.append(best_rate(settings, all_texts))
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
    group_encode = statistics.median(wall for wall, _ in group_encodes)
    group_cpu = statistics.median(cpu for _, cpu in group_encodes)
    floor = statistics.median(floors)
    per_gene = len(all_texts) / len(groups)
    best_genes = statistics.median(rate for rate, _ in group_rates) / per_gene
    print(f"texts a publish encodes: {per_gene:.2f} a Gene (embedding text + task key)")
    print(
        f"old baseline, the embedding text alone: one encode p50 {encode:6.1f} ms"
        f" (rounds: {', '.join(f'{e:.1f}' for e, _ in single_encodes)}; CPU {encode_cpu:.1f} ms);"
        f" best {best:6.1f} texts/s (rounds: {'; '.join(f'{r:.1f} at {s}' for r, s in best_rates)})"
    )
    print(
        f"a publish's texts, one call, 1 thread: p50 {group_encode:6.1f} ms"
        f"   (rounds: {', '.join(f'{e:.1f}' for e, _ in group_encodes)}); CPU {group_cpu:.1f} ms"
    )
    print(
        f"  queued as a publish queues them (a lane each): p50 {floor:6.1f} ms"
        f"   (rounds: {', '.join(f'{f:.1f}' for f in floors)})"
    )
    print(
        f"embedder best, all cores, a publish's texts: {best_genes:6.1f} Genes/s"
        f" ({best_genes * per_gene:.1f} texts/s; rounds:"
        f" {'; '.join(f'{r / per_gene:.1f} at {s}' for r, s in group_rates)})"
    )
    for clients, results in loads.items():
        rate = statistics.median(r.throughput for r in results)
        p50 = statistics.median(r.percentile(50) for r in results)
        print(
            f"publish {clients} client{'s' if clients > 1 else ' '}:  {rate:6.1f} Genes/s, p50 {p50:6.1f} ms;"
            f" {rate / best_genes:.2f}x the best rate (old baseline {rate / best:.2f}x),"
            f" p50 {p50 / group_encode:.2f}x one encode (old {p50 / encode:.2f}x, {p50 / floor:.2f}x the"
            f" lanes' floor); server CPU {statistics.median(cpu_ms[clients]):.0f} ms a publish"
        )
    publish_cpu = statistics.median(cpu_ms[4])
    print(
        f"CPU bound on any number of cores: publish <= {group_cpu / publish_cpu:.2f}x the embedder's rate"
        f" (encode CPU of a publish's texts {group_cpu:.1f} ms / server CPU a publish {publish_cpu:.1f} ms;"
        f" not PostgreSQL)"
    )
    print("targets: 4 clients >= 0.9x the best rate; 1 client p50 <= 1.2x one encode")
    if args.compare:
        print(
            f"before/after, {args.rounds} alternating rounds of {args.seconds / 2:.0f} s a side and client"
            " count (medians):"
        )
        for clients in (1, 4):
            for side, name in (("other", f"{args.compare} (before)"), ("this", "this checkout")):
                runs = compared[side][clients]
                print(
                    f"  {clients} client{'s' if clients > 1 else ' '} {name:<32}"
                    f" {statistics.median(r for r, _, _ in runs):6.1f} Genes/s"
                    f" (rounds {' '.join(f'{r:.1f}' for r, _, _ in runs)}),"
                    f" p50 {statistics.median(p for _, p, _ in runs):6.1f} ms"
                    f" (rounds {' '.join(f'{p:.1f}' for _, p, _ in runs)});"
                    f" server CPU {statistics.median(c for _, _, c in runs):.1f} ms a publish"
                )
            this, other = compared["this"][clients], compared["other"][clients]
            ratios = [
                statistics.median(r[i] for r in this) / statistics.median(r[i] for r in other)
                for i in range(3)
            ]
            print(
                f"  {clients} client{'s' if clients > 1 else ' '} this / before: Genes/s {ratios[0]:.2f}x,"
                f" p50 {ratios[1]:.2f}x, server CPU {ratios[2]:.2f}x"
            )


def compare(
    url: str,
    settings: Settings,
    other: Path,
    this: subprocess.Popen[bytes],
    port: int,
    request: Any,
    args: argparse.Namespace,
) -> dict[str, dict[int, list[tuple[float, float, float]]]]:
    """Genes/s, p50 and server CPU a publish with 1 and with 4 clients, this server's and `other`'s,
    rounds alternating (which side goes first too)."""
    results: dict[str, dict[int, list[tuple[float, float, float]]]] = {
        "this": {1: [], 4: []},
        "other": {1: [], 4: []},
    }
    other_port = free_port()
    with api_server(url, other_port, settings.embedding_backend, settings.data_dir, root=other) as that:
        run_load(other_port, request, clients=1, seconds=2, warmup=0)
        sides = {"this": (this, port), "other": (that, other_port)}
        for round_ in range(args.rounds):
            for side in ("this", "other") if round_ % 2 else ("other", "this"):
                process, side_port = sides[side]
                for clients in (1, 4):
                    before = cpu_seconds(process.pid)
                    result = run_load(side_port, request, clients=clients, seconds=args.seconds / 2, warmup=0)
                    if result.errors:
                        raise RuntimeError(f"{side}: {result.first_error!r}")
                    cpu = (cpu_seconds(process.pid) - before) * 1000 / max(1, result.requests)
                    results[side][clients].append((result.throughput, result.percentile(50), cpu))
    return results


if __name__ == "__main__":
    main()
