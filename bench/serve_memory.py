"""Peak memory of a serving process, first start (the model exported) and warm start.

A server whose models directory is empty exports the ONNX model on its first start. The export
needs torch and sentence-transformers; it runs in a child process (app/embeddings/export.py), so
the server itself never imports them. For each start this prints the server's peak RSS (VmHWM)
after it became ready and answered `--seconds` of search traffic (4 clients, query cache off, so
every request encodes), whether torch's libraries are mapped into it, and the start-up time.
Target: peak RSS <= 400 MiB, first start included.

    python bench/serve_memory.py [--seconds 5] [--backend onnx|onnx-int8]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from harness import UNLIMITED, api_key, bearer, free_port, post_json, run_load, scratch_database, server

DATA = Path(__file__).resolve().parent / "data"


def status(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def holds_torch(pid: int) -> bool:
    maps = Path(f"/proc/{pid}/maps").read_text()
    return "libtorch" in maps or "/torch/" in maps


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--backend", choices=["onnx", "onnx-int8"], default="onnx")
    args = parser.parse_args()
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    bodies = [
        json.dumps({"query": q["query"], "signals": q.get("signals") or [], "k": 10}).encode()
        for q in queries
    ]
    with tempfile.TemporaryDirectory(prefix="genebank-models-") as scratch:
        measure(args, bodies, Path(scratch) / "models")


def measure(args: argparse.Namespace, bodies: list[bytes], models: Path) -> None:
    print(f"backend {args.backend}; models directory {models} (empty before the first start)")
    print(f"{'start':<7} {'ready s':>8} {'RSS ready':>10} {'peak RSS':>9} {'torch mapped':>13} {'req/s':>6}")
    with scratch_database("genebank_bench_memory") as url:
        auth = bearer(api_key(url))
        worst = 0.0
        for label in ("first", "warm"):
            port = free_port()
            env = {
                "GENEBANK_DATABASE_URL": url,
                "GENEBANK_MIGRATE_ON_START": "false",
                "GENEBANK_RUN_WORKER": "false",
                "GENEBANK_EMBEDDING_CACHE_SIZE": "0",
                "GENEBANK_EMBEDDING_BACKEND": args.backend,
                "GENEBANK_MODELS_DIR": str(models),
                "GENEBANK_DATA_DIR": str(models.parent / "data"),
                **UNLIMITED,
            }
            command = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log"]
            start = time.perf_counter()
            with server(
                [*command, "--factory", "app.main:create_app", "--port", str(port)], port, env
            ) as process:
                ready = time.perf_counter() - start
                rss_ready = status(process.pid, "VmRSS")
                position = 0

                def request(_: object) -> bytes:
                    nonlocal position
                    position += 1
                    return post_json("/v1/search", bodies[position % len(bodies)], auth)

                load = run_load(port, request, clients=4, seconds=args.seconds)  # type: ignore[arg-type]
                peak, torch = status(process.pid, "VmHWM"), holds_torch(process.pid)
            if load.errors:
                raise RuntimeError(f"{load.errors} error responses")
            worst = max(worst, peak)
            print(
                f"{label:<7} {ready:>8.1f} {rss_ready:>9.0f}M {peak:>8.0f}M {'yes' if torch else 'no':>13}"
                f" {load.throughput:>6.0f}"
            )
    print(f"worst peak RSS {worst:.0f} MiB (target <= 400): {'met' if worst <= 400 else 'NOT met'}")


if __name__ == "__main__":
    main()
