"""Does quality estimation pick the truly best Gene sooner than the raw success rate does, and how
many keys does it take to forge it?

1. Ranking. A simulated registry: task clusters of equally relevant competing Genes, written by
   producers of different skill, each Gene with a hidden true success rate per consumer model. A
   stream of outcome reports (random Gene, random consumer model, one of that model's bound keys,
   success drawn from the hidden rate) goes through the real OutcomeService into a scratch database.
   After 10, 50 and 200 reports per cluster, each (cluster, consumer model) is ranked two ways and
   checked against the hidden truth:
   - Genebank: the quality search ranks by (lower posterior quantile per consumer model, prior from
     the Gene's overall evidence, itself with the producer's reputation as prior);
   - baseline: the raw success rate (per model when the model reported, else overall; unreported last).
2. Sybils (`--sybil`). Two equally relevant Genes of one producer, a good one (true success 0.8) and
   a bad one (0.3), each with 40 honest reports from 12 keys bound to three consumer models. Then k
   adversary keys (unbound, each claiming a consumer model) send 20 reports each: successes for the
   bad Gene (promote) or failures for the good one (bury). The bench finds (doubling, then bisection)
   the smallest k at which the bad Gene outranks the good one (for consumers in general, and for the
   model the sybils claim), and at which the bad Gene is promoted / the good one deprecated. "before"
   counts every report (a cap so high it never binds, rules needing a single key); "after" is
   Genebank's defaults (per-key cap, distinct-key rules, per-model figures from bound keys only).

    python bench/outcomes.py [--clusters 40] [--seeds 3]
    python bench/outcomes.py --sybil [--max-keys 40]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from harness import scratch_database
from sqlalchemy import select

from app.auth.principal import Principal, Role
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings.base import Vectors
from app.embeddings.service import EmbeddingService
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.models import Gene, GeneQuality, ProducerReputation
from app.outcomes.schemas import OutcomeIn
from app.outcomes.service import outcome_service
from app.search.service import SearchService

PRODUCERS = {"strong-producer": 0.72, "middling-producer": 0.55, "weak-producer": 0.40}
CONSUMERS = {"big-consumer": 0.10, "mid-consumer": 0.0, "small-consumer": -0.10}
GENES_PER_CLUSTER = 4
CHECKPOINTS = (10, 50, 200)
KEYS_PER_MODEL = 4
SYBIL_REPORTS = 20
SYBIL_MODEL = "big-consumer"
# Counting every report, as before reports were counted by key.
LEGACY = {
    "quality_max_weight_per_key": 1e9,
    "promote_min_reporters": 1,
    "deprecate_min_reporters": 1,
}


def consumer_keys(rng: random.Random) -> dict[str, list[Principal]]:
    """Honest consumers: a few keys per model, each bound to it."""
    return {
        model: [
            Principal(
                uuid.UUID(int=rng.getrandbits(128)), f"{model}-{i}", Role.consumer, consumer_model=model
            )
            for i in range(KEYS_PER_MODEL)
        ]
        for model in CONSUMERS
    }


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
    keys = consumer_keys(rng)
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
                    reporter = rng.choice(keys[model])
                    async with sessionmaker.begin() as session:
                        await outcome_service.report(session, gene.gene_id, body, reporter, settings)
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


@dataclass
class Attack:
    """Smallest number of adversary keys that achieved each effect (None: not within the bound)."""

    outranks: int | None = None  # the bad Gene ranks above the good one for consumers in general
    outranks_model: int | None = None  # … for the consumer model the sybils claim
    status: int | None = None  # the bad Gene promoted (promote) / the good one deprecated (bury)


async def sybil_trial(
    url: str, settings: Settings, attack: str, keys: int, label: str, seed: int
) -> tuple[bool, bool, bool]:
    """One world, `keys` sybils: (outranks overall, outranks for the claimed model, status changed).

    Every trial has its own Genes and producer, so no trial's reports reach another's priors; the
    honest reports are the same in every trial (same seed).
    """
    rng = random.Random(seed)
    engine = create_engine(url, settings)
    sessionmaker = create_sessionmaker(engine)
    embeddings = EmbeddingService(ConstantEmbedder())
    honest = consumer_keys(rng)
    prefix = f"gene_sybil_{attack}_{label}_{keys}"
    producer = f"producer-{attack}-{label}-{keys}"
    try:
        genes: dict[str, SimGene] = {}
        for which, rate in (("good", 0.8), ("bad", 0.3)):
            async with sessionmaker.begin() as session:
                published = await gene_service.publish(
                    session,
                    PublishRequest.model_validate(payload(f"{prefix}_{which}", producer)),
                    embeddings,
                )
            genes[which] = SimGene(published.version.gene_id, published.version.asset_id, producer, {})
            for report in range(40):
                model = rng.choice(list(CONSUMERS))
                body = OutcomeIn(
                    asset_id=published.version.asset_id,
                    consumer_model=model,
                    task_id=f"honest-{report}",
                    success=rng.random() < rate,
                )
                async with sessionmaker.begin() as session:
                    await outcome_service.report(
                        session, published.version.gene_id, body, rng.choice(honest[model]), settings
                    )
        target = genes["bad"] if attack == "promote" else genes["good"]
        for sybil in range(keys):
            principal = Principal(uuid.UUID(int=rng.getrandbits(128)), f"sybil-{sybil}", Role.consumer)
            for report in range(SYBIL_REPORTS):
                body = OutcomeIn(
                    asset_id=target.asset_id,
                    consumer_model=SYBIL_MODEL,
                    task_id=f"sybil-{sybil}-{report}",
                    success=attack == "promote",
                )
                async with sessionmaker.begin() as session:
                    await outcome_service.report(session, target.gene_id, body, principal, settings)
        async with sessionmaker() as session:
            rows = await session.scalars(select(GeneQuality))
            quality = {(q.gene_id, q.consumer_model): q.lower_bound for q in rows}
            reputations = {r.producer_model: r for r in await session.scalars(select(ProducerReputation))}
            status = {
                gene.gene_id: (await session.get(Gene, gene.gene_id)).status  # type: ignore[union-attr]
                for gene in genes.values()
            }

        def ranked(gene: SimGene, model: str) -> float:
            return ranked_quality(gene, model, quality, reputations, settings)

        overall = ranked(genes["bad"], "") > ranked(genes["good"], "")
        per_model = ranked(genes["bad"], SYBIL_MODEL) > ranked(genes["good"], SYBIL_MODEL)
        changed = (
            status[genes["bad"].gene_id] == "promoted"
            if attack == "promote"
            else status[genes["good"].gene_id] == "deprecated"
        )
        return overall, per_model, changed
    finally:
        embeddings.close()
        await engine.dispose()


async def sybil_attack(
    url: str, settings: Settings, attack: str, label: str, max_keys: int, seed: int
) -> Attack:
    """The smallest k for each effect: doubling, then bisection (each effect grows with k)."""
    trials: dict[int, tuple[bool, bool, bool]] = {}

    async def trial(keys: int) -> tuple[bool, bool, bool]:
        if keys not in trials:
            trials[keys] = await sybil_trial(url, settings, attack, keys, label, seed)
        return trials[keys]

    async def smallest(effect: int) -> int | None:
        if (await trial(0))[effect]:
            return 0
        low, high = 0, 1
        while not (await trial(high))[effect]:
            if high >= max_keys:
                return None
            low, high = high, min(high * 2, max_keys)
        while high - low > 1:
            middle = (low + high) // 2
            if (await trial(middle))[effect]:
                high = middle
            else:
                low = middle
        return high

    return Attack(await smallest(0), await smallest(1), await smallest(2))


def sybil_main(max_keys: int, seed: int) -> None:
    with scratch_database("genebank_bench_sybil") as url:
        defaults = Settings(database_url=url)
        legacy = defaults.model_copy(update=LEGACY)
        rows = []
        for attack in ("promote", "bury"):
            for label, settings in (("before", legacy), ("after", defaults)):
                found = asyncio.run(sybil_attack(url, settings, attack, label, max_keys, seed))
                rows.append((attack, label, found))

    def shown(value: int | None) -> str:
        return f"{value}" if value is not None else f">{max_keys}"

    print(
        f"Adversary keys ({SYBIL_REPORTS} reports each, claiming {SYBIL_MODEL}) needed against 2 Genes with "
        "40 honest reports each (good: true success 0.8, bad: 0.3); 0 = already so without them"
    )
    print(f"{'attack':<9}{'counting':<9}{'bad outranks good':>19}{'… for ' + SYBIL_MODEL:>22}{'status':>22}")
    for attack, label, found in rows:
        status = "bad promoted" if attack == "promote" else "good deprecated"
        print(
            f"{attack:<9}{label:<9}{shown(found.outranks):>19}{shown(found.outranks_model):>22}"
            f"{shown(found.status) + ' (' + status + ')':>22}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clusters", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sybil", action="store_true", help="run the adversary experiment instead")
    parser.add_argument("--max-keys", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    if args.sybil:
        sybil_main(args.max_keys, args.seed)
        return
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
