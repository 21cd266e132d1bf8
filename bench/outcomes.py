"""Does quality estimation pick the truly best Gene sooner than the raw success rate does?

A simulated registry: task clusters of equally relevant competing Genes, written by producers of
different skill, each Gene with a hidden true success rate per consumer model. A stream of outcome
reports (random Gene, random consumer model, success drawn from the hidden rate) goes through the
real OutcomeService into a scratch database. After 10, 50 and 200 reports per cluster, each
(cluster, consumer model) is ranked two ways and checked against the hidden truth:
- Genebank: the quality search ranks by (lower posterior quantile per consumer model, prior from
  the Gene's overall evidence, itself with the producer's reputation as prior);
- baseline: the raw success rate (per model when the model reported, else overall; unreported last).

    python bench/outcomes.py [--clusters 40] [--seeds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
from dataclasses import dataclass
from typing import Any

import numpy as np
from harness import scratch_database
from sqlalchemy import select

from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings.base import Vectors
from app.embeddings.service import EmbeddingService
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.models import GeneQuality, ProducerReputation
from app.outcomes.schemas import OutcomeIn
from app.outcomes.service import outcome_service
from app.search.service import SearchService

PRODUCERS = {"strong-producer": 0.72, "middling-producer": 0.55, "weak-producer": 0.40}
CONSUMERS = {"big-consumer": 0.10, "mid-consumer": 0.0, "small-consumer": -0.10}
GENES_PER_CLUSTER = 4
CHECKPOINTS = (10, 50, 200)


class ConstantEmbedder:
    """Meaning plays no part here: every Gene of a cluster is equally relevant by construction."""

    name = "constant"

    def encode(self, texts: list[str]) -> Vectors:
        vectors = np.zeros((len(texts), 384), dtype=np.float32)
        vectors[:, 0] = 1.0
        return vectors


@dataclass
class SimGene:
    gene_id: str
    asset_id: str
    producer: str
    true_rate: dict[str, float]


def payload(gene_id: str, producer: str) -> dict[str, Any]:
    return {
        "gene": {
            "type": "Gene",
            "schema_version": "1.13.0",
            "id": gene_id,
            "category": "repair",
            "summary": f"simulated gene {gene_id}",
            "signals_match": ["simulated"],
            "strategy": ["do the simulated thing"],
            "constraints": {"max_files": 1, "forbidden_paths": [".git"]},
            "validation": ["true"],
        },
        "provenance": {"kind": "manual", "producer_model": producer},
    }


def hidden_rates(rng: random.Random, producer: str) -> dict[str, float]:
    base = PRODUCERS[producer] + rng.gauss(0, 0.12)
    return {m: min(0.97, max(0.03, base + effect + rng.gauss(0, 0.08))) for m, effect in CONSUMERS.items()}


def raw_rate_order(genes: list[SimGene], counts: dict[tuple[str, str], list[int]], model: str) -> list[str]:
    def key(gene: SimGene) -> tuple[int, float]:
        per_model = counts.get((gene.gene_id, model), [0, 0])
        overall = [sum(c[i] for (g, _), c in counts.items() if g == gene.gene_id) for i in (0, 1)]
        for successes, reports in (per_model, overall):
            if reports:
                return (0, -successes / reports)
        return (1, 0.0)

    return [g.gene_id for g in sorted(genes, key=key)]


async def simulate(
    seed: int, clusters: int, url: str, settings: Settings
) -> dict[str, dict[int, list[bool]]]:
    rng = random.Random(seed)
    engine = create_engine(url, settings)
    sessionmaker = create_sessionmaker(engine)
    embeddings = EmbeddingService(ConstantEmbedder())
    hits: dict[str, dict[int, list[bool]]] = {"genebank": {}, "raw rate": {}}
    try:
        world: list[list[SimGene]] = []
        for cluster in range(clusters):
            members = []
            for index in range(GENES_PER_CLUSTER):
                producer = rng.choice(list(PRODUCERS))
                gene_id = f"gene_sim{seed}_c{cluster:03d}_g{index}"
                async with sessionmaker.begin() as session:
                    published = await gene_service.publish(
                        session, PublishRequest.model_validate(payload(gene_id, producer)), embeddings
                    )
                members.append(
                    SimGene(gene_id, published.version.asset_id, producer, hidden_rates(rng, producer))
                )
            world.append(members)

        counts: dict[tuple[str, str], list[int]] = {}
        done = 0
        for checkpoint in CHECKPOINTS:
            for cluster, members in enumerate(world):
                for report in range(done, checkpoint):
                    gene = rng.choice(members)
                    model = rng.choice(list(CONSUMERS))
                    success = rng.random() < gene.true_rate[model]
                    body = OutcomeIn(
                        asset_id=gene.asset_id,
                        consumer_model=model,
                        task_id=f"c{cluster}-r{report}",
                        success=success,
                    )
                    async with sessionmaker.begin() as session:
                        await outcome_service.report(session, gene.gene_id, body, "simulation", settings)
                    tally = counts.setdefault((gene.gene_id, model), [0, 0])
                    tally[0] += int(success)
                    tally[1] += 1
            done = checkpoint
            async with sessionmaker() as session:
                quality = {
                    (q.gene_id, q.consumer_model): q.lower_bound
                    for q in await session.scalars(select(GeneQuality))
                }
                reputations = {r.producer_model: r for r in await session.scalars(select(ProducerReputation))}
            for members in world:
                for model in CONSUMERS:
                    best = max(members, key=lambda g: g.true_rate[model]).gene_id
                    ours = max(
                        members, key=lambda g: ranked_quality(g, model, quality, reputations, settings)
                    ).gene_id
                    hits["genebank"].setdefault(checkpoint, []).append(ours == best)
                    hits["raw rate"].setdefault(checkpoint, []).append(
                        raw_rate_order(members, counts, model)[0] == best
                    )
    finally:
        embeddings.close()
        await engine.dispose()
    return hits


def ranked_quality(
    gene: SimGene,
    model: str,
    quality: dict[tuple[str, str], float],
    reputations: dict[str, ProducerReputation],
    settings: Settings,
) -> float:
    """The quality search would rank this Gene by for this consumer model (SearchService._quality)."""
    producer = reputations.get(gene.producer)
    row = {
        "quality_model": quality.get((gene.gene_id, model)),
        "quality_all": quality.get((gene.gene_id, "")),
        "producer_successes": producer.successes if producer else None,
        "producer_failures": producer.failures if producer else None,
    }
    return SearchService._quality(row, settings)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clusters", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    totals: dict[str, dict[int, list[float]]] = {"genebank": {}, "raw rate": {}}
    with scratch_database("genebank_bench_outcomes") as url:
        settings = Settings(database_url=url)
        for seed in range(args.seeds):
            hits = asyncio.run(simulate(seed, args.clusters, url, settings))
            for method, by_checkpoint in hits.items():
                for checkpoint, outcomes in by_checkpoint.items():
                    totals[method].setdefault(checkpoint, []).append(statistics.mean(outcomes))
    trials = args.clusters * len(CONSUMERS)
    print(
        f"{args.clusters} clusters x {GENES_PER_CLUSTER} Genes, {len(CONSUMERS)} consumer models, "
        f"{args.seeds} seeds: share of (cluster, consumer model) pairs whose top-ranked Gene is truly best "
        f"({trials} per seed)"
    )
    print(f"{'reports per cluster':<20}" + "".join(f"{c:>10}" for c in CHECKPOINTS))
    for method, by_checkpoint in totals.items():
        print(f"{method:<20}" + "".join(f"{statistics.mean(by_checkpoint[c]):>10.3f}" for c in CHECKPOINTS))
    print("(chance: 0.25)")


if __name__ == "__main__":
    main()
