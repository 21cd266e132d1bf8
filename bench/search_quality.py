"""Search quality on the test split of bench/data: hybrid beside dense cosine, BM25 and naive RRF.

Publishes bench/data/corpus.jsonl into a scratch database and runs every labelled and unrelated query
(bench/search_features.py). On the `test` split only (the fusion weights and band thresholds were
fitted on `train` by bench/search_fit.py), prints:

- MRR@10 and recall@5 of dense cosine (MiniLM, exact, whole corpus), BM25 (whole corpus), naive
  reciprocal-rank fusion of the two (k = 60) and Genebank's hybrid (the committed model's ranking),
  over all test queries, the hard ones (paraphrase or near-duplicate) and each kind separately;
- the bands: how often an answerable query gets `no_match`, how often an unrelated one does, and
  whether any unrelated query is `found`;
- calibration: the reliability table and ECE of the score, over every candidate and over first results;
- an ablation: the model refitted on train without each ingredient, scored on test;
- with `--distractors N`: the same queries again over the labelled corpus plus N generated distractor
  Genes (search_features.distractors: each splices a labelled Gene with another problem's Gene of its
  family, field by field), published through GeneService.publish like any Gene; MRR@10 of every
  retriever plain and with distractors, and the drop (target: hybrid drops by <= 0.03). With
  `--crowd coherent` the N Genes are whole ones instead (bench/data/crowd: hand-written problems of the
  four families that the labelled corpus does not hold, each filled in with many concrete settings).

    python bench/search_quality.py [--cache /tmp/search-candidates.pickle] [--distractors 10000]
        [--crowd spliced|coherent]

With --cache and --distractors, the crowded collection is cached beside it (<cache>.d<N> for the
spliced crowd, <cache>.c<N> for the coherent one).
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from pathlib import Path

from search_features import (
    CROWDS,
    Asked,
    choose_thresholds,
    collected,
    crowd_cache,
    fit,
    is_generated,
    probabilities,
    reliability,
    right_gene_absent,
    top1_reliability,
)

from app.search.fusion import FEATURES, MODEL_FEATURES, FusionModel, fitted_model

RRF_K = 60


def mrr_at_10(ranking: list[str], relevant: set[str]) -> float:
    for position, gene_id in enumerate(ranking[:10], start=1):
        if gene_id in relevant:
            return 1 / position
    return 0.0


def recall_at_5(ranking: list[str], relevant: set[str]) -> float:
    return len(set(ranking[:5]) & relevant) / len(relevant)


def naive_rrf(a: Asked) -> list[str]:
    fused: dict[str, float] = {}
    for ranking in (a.dense, a.bm25):
        for rank, gene_id in enumerate(ranking, start=1):
            fused[gene_id] = fused.get(gene_id, 0.0) + 1 / (RRF_K + rank)
    return sorted(fused, key=lambda g: (-fused[g], g))


def by_model(model: FusionModel) -> Callable[[Asked], list[str]]:
    def rank(a: Asked) -> list[str]:
        scored = zip(probabilities(a, model), a.candidates, strict=True)
        return [c.gene_id for _, c in sorted(scored, key=lambda pair: (-pair[0], pair[1].gene_id))]

    return rank


SUBSETS: dict[str, Callable[[Asked], bool]] = {
    "all": lambda a: True,
    "hard": lambda a: bool(a.hard),
    "paraphrase": lambda a: "paraphrase" in a.hard,
    "near-dup": lambda a: "near_duplicate" in a.hard,
    "easy": lambda a: not a.hard,
}


def mrr(queries: list[Asked], rank: Callable[[Asked], list[str]]) -> float:
    return statistics.mean(mrr_at_10(rank(a), a.relevant) for a in queries) if queries else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cache", type=Path, help="reuse (or write) the collected candidates here")
    parser.add_argument(
        "--distractors", type=int, default=0, metavar="N", help="also run with N generated distractor Genes"
    )
    parser.add_argument(
        "--crowd", choices=CROWDS, default="spliced", help="which generated Genes (default: spliced)"
    )
    args = parser.parse_args()
    asked = collected(args.cache)
    model = fitted_model()
    train = [a for a in asked if a.split == "train"]
    test = [a for a in asked if a.split == "test" and not a.negative]
    unrelated = [a for a in asked if a.negative and a.split == "test"]
    modes: dict[str, Callable[[Asked], list[str]]] = {
        "dense cosine": lambda a: a.dense,
        "BM25": lambda a: a.bm25,
        "naive RRF": naive_rrf,
        "hybrid": by_model(model),
    }
    counts = {name: sum(1 for a in test if keep(a)) for name, keep in SUBSETS.items()}
    print(
        f"test split: {len(test)} labelled queries ({counts['hard']} hard: {counts['paraphrase']}"
        f" paraphrases, {counts['near-dup']} near-duplicate), {len(unrelated)} unrelated;"
        f" fitted on {len(train)} train queries"
    )
    print(f"{'MRR@10':<13}" + "".join(f"{name:>12}" for name in SUBSETS) + f"{'recall@5':>10}")
    results: dict[str, dict[str, float]] = {}
    for mode, rank in modes.items():
        results[mode] = {name: mrr([a for a in test if keep(a)], rank) for name, keep in SUBSETS.items()}
        recall = statistics.mean(recall_at_5(rank(a), a.relevant) for a in test)
        print(f"{mode:<13}" + "".join(f"{results[mode][n]:>12.3f}" for n in SUBSETS) + f"{recall:>10.3f}")
    agree = sum(
        [c.gene_id for c in sorted(a.candidates, key=lambda c: (-c.score, c.gene_id))][:10]
        == modes["hybrid"](a)[:10]
        for a in test
    )
    print(f"(the service's own ranking gives the same top 10 on {agree} of {len(test)} queries)")
    best_single = max(results["dense cosine"]["all"], results["BM25"]["all"])
    best_single_hard = max(results["dense cosine"]["hard"], results["BM25"]["hard"])
    print(
        f"hybrid - best single: {results['hybrid']['all'] - best_single:+.3f} (hard"
        f" {results['hybrid']['hard'] - best_single_hard:+.3f}); hybrid - naive RRF:"
        f" {results['hybrid']['all'] - results['naive RRF']['all']:+.3f} (hard"
        f" {results['hybrid']['hard'] - results['naive RRF']['hard']:+.3f})"
    )

    def band(a: Asked) -> str:
        top = max(probabilities(a, model), default=0.0)
        return "found" if top >= model.found else "low_confidence" if top >= model.low else "no_match"

    def shares(queries: list[Asked]) -> str:
        bands = [band(a) for a in queries]
        return ", ".join(
            f"{b} {bands.count(b) / len(bands):.1%}" for b in ("found", "low_confidence", "no_match")
        )

    all_unrelated = [a for a in asked if a.negative]
    print(f"\nbands (score: found >= {model.found}, low_confidence >= {model.low}):")
    print(f"  answerable (test):       {shares(test)}")
    print(f"  unrelated (test, {len(unrelated)}):   {shares(unrelated)}")
    print(f"  unrelated (all {len(all_unrelated)}):     {shares(all_unrelated)}")
    absent = right_gene_absent(test)
    print(f"  right Gene absent (test): {shares(absent)}  <- a wrong Gene called `found`")
    found_unrelated = [a.id for a in all_unrelated if band(a) == "found"]
    print(f"  unrelated queries found: {len(found_unrelated)} {found_unrelated}")
    right = [
        a
        for a in test
        if band(a) == "found" and by_model(model)(a)[:1] and by_model(model)(a)[0] in a.relevant
    ]
    found_test = [a for a in test if band(a) == "found"]
    if found_test:
        print(f"  first result right when found: {len(right) / len(found_test):.1%} of {len(found_test)}")
        found_absent = sum(band(a) == "found" for a in absent)
        print(
            f"  ... counting the queries with their right Gene absent too:"
            f" {len(right) / (len(found_test) + found_absent):.1%} of {len(found_test) + found_absent}"
        )

    for name, (table, ece) in (
        ("every candidate", reliability(test + unrelated, model)),
        ("first result", top1_reliability(test + unrelated, model)),
    ):
        print(f"\ncalibration on the test split ({name}): ECE {ece:.3f}")
        print(f"  {'bin':<9} {'n':>6} {'predicted':>10} {'observed':>9}")
        for label, n, predicted, observed in table:
            print(f"  {label:<9} {n:>6} {predicted:>10.3f} {observed:>9.3f}")

    print("\nablation (refitted on train with or without the ingredient; test MRR@10):")
    print(f"  {'model':<34} {'all':>7} {'hard':>7} {'no_match answerable':>20} {'no_match unrelated':>19}")
    groups: dict[str, tuple[str, ...]] = {
        "model as committed": MODEL_FEATURES,
        "- task keys (experience)": tuple(f for f in MODEL_FEATURES if not f.startswith("task")),
        "- keyword and field match": tuple(f for f in MODEL_FEATURES if not f.startswith("keyword")),
        "- signal evidence": tuple(f for f in MODEL_FEATURES if f != "signal_evidence"),
        "- quality prior": tuple(f for f in MODEL_FEATURES if f != "quality"),
        "+ relative features (gaps, ranks)": FEATURES,
        "similarity only": ("similarity",),
    }
    for label, features in groups.items():
        refit = choose_thresholds(train, fit(train, features))
        rank = by_model(refit)

        def no_match(queries: list[Asked], m: FusionModel = refit) -> float:
            tops = [max(probabilities(a, m), default=0.0) for a in queries]
            return sum(t < m.low for t in tops) / len(tops)

        print(
            f"  {label:<34} {mrr(test, rank):>7.3f} {mrr([a for a in test if a.hard], rank):>7.3f}"
            f" {no_match(test):>20.1%} {no_match(unrelated):>19.1%}"
        )

    if args.distractors:
        crowded = collected(
            crowd_cache(args.cache, args.distractors, args.crowd), args.distractors, kind=args.crowd
        )
        crowded_test = [a for a in crowded if a.split == "test" and not a.negative]
        crowded_unrelated = [a for a in crowded if a.split == "test" and a.negative]
        assert [a.id for a in crowded_test] == [a.id for a in test]
        print(f"\nwith {args.distractors:,} {args.crowd} distractor Genes (test split, MRR@10):")
        print(f"  {'':<13}" + "".join(f"{name:>12}" for name in SUBSETS) + f"{'recall@5':>10}")
        for mode, rank in modes.items():
            row = {name: mrr([a for a in crowded_test if keep(a)], rank) for name, keep in SUBSETS.items()}
            recall = statistics.mean(recall_at_5(rank(a), a.relevant) for a in crowded_test)
            print(f"  {mode:<13}" + "".join(f"{row[n]:>12.3f}" for n in SUBSETS) + f"{recall:>10.3f}")
            print(f"  {'  drop':<13}" + "".join(f"{results[mode][n] - row[n]:>+12.3f}" for n in SUBSETS))
        bands = {
            name: [band(a) for a in queries]
            for name, queries in (("answerable", crowded_test), ("unrelated", crowded_unrelated))
        }
        for name, got in bands.items():
            print(
                f"  {name} (test): "
                + ", ".join(
                    f"{b} {got.count(b) / len(got):.1%}" for b in ("found", "low_confidence", "no_match")
                )
            )
        distracted = sum(1 for a in crowded_test if (top := by_model(model)(a)[:1]) and is_generated(top[0]))
        print(f"  a distractor ranked first on {distracted} of {len(crowded_test)} test queries")


if __name__ == "__main__":
    main()
