"""Reads on streaming replicas: search and fetch throughput with 0, 1 and 2 read servers.

One run, one machine: an embedded PostgreSQL primary loaded with generated Genes (bench/search.py's
corpus), two hot standbys made from it with `pg_basebackup -R` (tests/replica.py), and a Genebank
API process started three times: reads on the primary only (the baseline), then
GENEBANK_READ_DATABASE_URL naming one standby, then both. Each configuration serves the same closed
loop of POST /v1/search and GET /v1/genes/{id} requests from `--clients` connections.

What it shows on a small machine is the cost of the routing (a replica's reads against the
primary's, same hardware); what replicas buy is database capacity on *other* machines, which one
box cannot show: see docs/scaling.md.

    python bench/replicas.py [--genes 5000] [--seconds 10] [--clients 8]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

import psycopg
from harness import (
    UNLIMITED,
    LoadResult,
    api_key,
    bearer,
    conninfo,
    free_port,
    get_request,
    post_json,
    run_load,
    server,
)
from search import DATA, generate, load, vectors_for

from app import embedded_pg, migrate
from app.config import Settings
from app.embeddings import load_embedder
from tests.replica import StreamingReplica


def transactions(url: str) -> int:
    """Committed transactions of the genebank database on one server (pg_stat_database)."""
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = 'genebank'").fetchone()
    return int(row[0]) if row else 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--genes", type=int, default=5_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()

    settings = Settings()
    genes = generate(args.genes)
    vectors = vectors_for(genes, load_embedder(settings))
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    bodies = [
        json.dumps({"query": q["query"], "signals": q.get("signals") or [], "k": 10}).encode()
        for q in queries
    ]
    ids = [gene["id"] for gene, _ in genes]

    with tempfile.TemporaryDirectory(prefix="genebank-replicas-") as tmp:
        base = Path(tmp)
        primary = embedded_pg.start(base / "primary")
        try:
            url = primary.url()
            migrate.upgrade(url)
            load(url, genes, vectors)
            auth = bearer(api_key(url))
            with (
                StreamingReplica(primary, base / "standby1") as one,
                StreamingReplica(primary, base / "standby2") as two,
            ):
                configurations = {
                    "primary only": "",
                    "1 standby": one.url(),
                    "2 standbys": f"{one.url()},{two.url()}",
                }
                results: dict[str, tuple[LoadResult, LoadResult]] = {}
                shares: dict[str, str] = {}
                servers = {"primary": url, "standby 1": one.url(), "standby 2": two.url()}
                for name, read_urls in configurations.items():
                    port = free_port()
                    env = {
                        "GENEBANK_DATABASE_URL": url,
                        "GENEBANK_READ_DATABASE_URL": read_urls,
                        "GENEBANK_MIGRATE_ON_START": "false",
                        "GENEBANK_RUN_WORKER": "false",
                        "GENEBANK_DATA_DIR": str(settings.data_dir),
                        **UNLIMITED,
                    }
                    command = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log"]
                    before = {where: transactions(dsn) for where, dsn in servers.items()}
                    with server(
                        [*command, "--factory", "app.main:create_app", "--port", str(port)], port, env
                    ):

                        def search(rng: random.Random) -> bytes:
                            return post_json("/v1/search", rng.choice(bodies), auth)

                        def fetch(rng: random.Random) -> bytes:
                            return get_request(f"/v1/genes/{rng.choice(ids)}", auth)

                        searched = run_load(
                            port, search, clients=args.clients, seconds=args.seconds, warmup=2
                        )
                        fetched = run_load(port, fetch, clients=args.clients, seconds=args.seconds, warmup=1)
                    if searched.errors or fetched.errors:
                        raise RuntimeError(f"{name}: {searched.errors + fetched.errors} error responses")
                    results[name] = (searched, fetched)
                    done = {where: transactions(dsn) - before[where] for where, dsn in servers.items()}
                    total = sum(done.values()) or 1
                    shares[name] = ", ".join(f"{where} {count / total:.0%}" for where, count in done.items())
        finally:
            primary.stop()

    base_search, base_fetch = results["primary only"]
    print(f"{args.genes:,} Genes, {args.clients} clients, {args.seconds:g} s per measurement")
    columns = f"{'req/s':>8} {'p50 ms':>7} {'x base':>7}"
    print(f"{'reads on':<14} search {columns}   fetch {columns}")
    for name, (searched, fetched) in results.items():
        print(
            f"{name:<14}        {searched.throughput:8.0f} {searched.percentile(50):7.2f}"
            f" {searched.throughput / base_search.throughput:7.2f}         {fetched.throughput:8.0f}"
            f" {fetched.percentile(50):7.2f} {fetched.throughput / base_fetch.throughput:7.2f}"
        )
    for name, share in shares.items():
        print(f"transactions during '{name}': {share}")


if __name__ == "__main__":
    main()
