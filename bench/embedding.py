"""Embedding backends side by side: sentence-transformers (torch, the reference), ONNX fp32, ONNX int8.

For each backend: median single-query latency, batch throughput on the Gene texts of
bench/data/corpus.jsonl, and cosine similarity to the reference vectors on that same sample
(min and mean). The int8 backend is acceptable where its minimum cosine stays >= 0.99.
`--threads` sets the intra-op threads (default: the libraries' own, one per core); `--busy N` keeps
N other processes spinning meanwhile, as a server's event loop and PostgreSQL would.

    python bench/embedding.py [--queries 200] [--sample 1064] [--threads N] [--busy N]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from harness import encode_latencies

from app.embeddings.base import Embedder
from app.embeddings.onnx_backend import OnnxEmbedder
from app.embeddings.torch_backend import SentenceTransformerEmbedder
from app.genes.indexing import embedding_text

DATA = Path(__file__).resolve().parent / "data"


def spin() -> None:
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--sample", type=int, default=1064)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--busy", type=int, default=0)
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for process in spinners:
        process.start()
    try:
        with tempfile.TemporaryDirectory(prefix="genebank-onnx-") as models_dir:
            compare(args, Path(models_dir))
    finally:
        for process in spinners:
            process.terminate()


def compare(args: argparse.Namespace, models_dir: Path) -> None:
    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    texts = [embedding_text(payload["gene"]) for payload in corpus[: args.sample]]
    queries = [json.loads(line)["query"] for line in (DATA / "queries.jsonl").read_text().splitlines()]
    queries = (queries * (args.queries // len(queries) + 1))[: args.queries]

    backends: dict[str, Embedder] = {
        "torch (reference)": SentenceTransformerEmbedder(threads=args.threads),
        "onnx fp32": OnnxEmbedder(models_dir, quantized=False, threads=args.threads),
        "onnx int8": OnnxEmbedder(models_dir, quantized=True, threads=args.threads),
    }
    reference = None
    threads = args.threads or "default"
    print(
        f"{len(texts)} Gene texts, {len(queries)} single queries;"
        f" threads: {threads}; busy processes: {args.busy}"
    )
    print(f"{'backend':<18} {'query p50 ms':>12} {'batch texts/s':>14} {'cos min':>8} {'cos mean':>9}")
    for name, embedder in backends.items():
        latencies = encode_latencies(embedder, queries)
        start = time.perf_counter()
        vectors = embedder.encode(texts)
        throughput = len(texts) / (time.perf_counter() - start)
        if reference is None:
            reference = vectors
        cosines = np.sum(vectors * reference, axis=1)
        print(
            f"{name:<18} {statistics.median(latencies):>12.2f} {throughput:>14.0f}"
            f" {float(cosines.min()):>8.4f} {float(cosines.mean()):>9.4f}"
        )


if __name__ == "__main__":
    main()
