"""Fetch-by-id throughput and latency: Genebank's GET /v1/genes/{id} beside a bare FastAPI + psycopg baseline.

Both servers run as single uvicorn processes against the same database (1,000 published Genes);
rounds alternate baseline / Genebank so drift on a shared machine hits both alike. Prints the median
over rounds of throughput, p50 and p99 at 1 and 8 concurrent keep-alive clients, and the ratio.

    python bench/fetch.py [--seconds 5] [--rounds 3] [--genes 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import random
import sys
from importlib import resources
from typing import Any

from harness import (
    UNLIMITED,
    LoadResult,
    api_key,
    bearer,
    conninfo,
    free_port,
    get_request,
    median,
    run_load,
    scratch_database,
    server,
)

from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService, load_embedder
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service


async def publish_corpus(url: str, count: int) -> list[str]:
    """Publish `count` Genes derived from the demo sample (distinct ids and summaries)."""
    samples = json.loads(resources.files("app.demo").joinpath("genes.json").read_text())
    settings = Settings(database_url=url)
    embeddings = EmbeddingService(load_embedder(settings))
    engine = create_engine(url, settings)
    sessionmaker = create_sessionmaker(engine)
    ids = []
    try:
        for index in range(count):
            payload = copy.deepcopy(samples[index % len(samples)])
            payload["gene"]["id"] = f"{payload['gene']['id']}_{index:05d}"
            payload["gene"]["summary"] = f"{payload['gene']['summary']} (variant {index})"
            async with sessionmaker.begin() as session:
                await gene_service.publish(session, PublishRequest.model_validate(payload), embeddings)
            ids.append(payload["gene"]["id"])
    finally:
        await engine.dispose()
        embeddings.close()
    return ids


def measure(
    port: int, path_prefix: str, ids: list[str], clients: int, seconds: float, headers: str = ""
) -> LoadResult:
    def request(rng: random.Random) -> bytes:
        return get_request(f"{path_prefix}{rng.choice(ids)}", headers)

    result = run_load(port, request, clients=clients, seconds=seconds)
    if result.errors:
        raise RuntimeError(f"{result.errors} error responses from {path_prefix}")
    return result


def summarize(results: list[LoadResult]) -> dict[str, float]:
    return {
        "rps": median([r.throughput for r in results]),
        "p50": median([r.percentile(50) for r in results]),
        "p99": median([r.percentile(99) for r in results]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--genes", type=int, default=1000)
    args = parser.parse_args()

    with scratch_database() as url:
        ids = asyncio.run(publish_corpus(url, args.genes))
        # Genebank's requests carry a consumer key, as real ones do: authentication is measured too.
        auth = bearer(api_key(url))
        uvicorn = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log"]
        genebank_port, baseline_port = free_port(), free_port()
        genebank_env: dict[str, Any] = {
            "GENEBANK_DATABASE_URL": url,
            "GENEBANK_MIGRATE_ON_START": "false",
            "GENEBANK_RUN_WORKER": "false",
            **UNLIMITED,
        }
        with (
            server(
                [*uvicorn, "--factory", "app.main:create_app", "--port", str(genebank_port)],
                genebank_port,
                genebank_env,
            ),
            server(
                [*uvicorn, "bench.baseline_app:app", "--port", str(baseline_port)],
                baseline_port,
                {"BASELINE_DSN": conninfo(url)},
            ),
        ):
            print(f"fetch-by-id, {len(ids)} genes, {args.rounds} rounds x {args.seconds:.0f} s, medians")
            print(f"{'clients':>7}  {'server':<9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
            for clients in (1, 8):
                runs: dict[str, list[LoadResult]] = {"baseline": [], "genebank": []}
                for _ in range(args.rounds):
                    runs["baseline"].append(measure(baseline_port, "/genes/", ids, clients, args.seconds))
                    runs["genebank"].append(
                        measure(genebank_port, "/v1/genes/", ids, clients, args.seconds, auth)
                    )
                figures = {name: summarize(results) for name, results in runs.items()}
                for name, fig in figures.items():
                    print(f"{clients:>7}  {name:<9} {fig['rps']:>8.0f} {fig['p50']:>8.2f} {fig['p99']:>8.2f}")
                ratio = figures["genebank"]["rps"] / figures["baseline"]["rps"]
                print(f"{clients:>7}  ratio genebank/baseline throughput: {ratio:.2f} (target >= 0.70)")


if __name__ == "__main__":
    main()
