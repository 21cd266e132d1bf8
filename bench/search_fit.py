"""Fit the search fusion model on the training split and write app/search/fusion.json.

Publishes bench/data/corpus.jsonl into a scratch database, collects every query's candidates and
features (bench/search_features.py), fits an L2-regularised logistic model on the `train` queries and
unrelated queries only, chooses the band thresholds on the same split, and writes the weights with the
thresholds. Then prints the reliability table and expected calibration error on the `test` split.

    python bench/search_fit.py [--dry-run] [--cache /tmp/search-candidates.pickle]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from search_features import choose_thresholds, collected, fit, reliability, top1_reliability

WEIGHTS = Path(__file__).resolve().parent.parent / "app" / "search" / "fusion.json"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dry-run", action="store_true", help="print, do not write fusion.json")
    parser.add_argument("--cache", type=Path, help="reuse (or write) the collected candidates here")
    args = parser.parse_args()
    asked = collected(args.cache)
    train = [a for a in asked if a.split == "train"]
    test = [a for a in asked if a.split == "test"]
    model = choose_thresholds(train, fit(train))
    labelled = sum(not a.negative for a in train)
    print(f"trained on {labelled} labelled + {len(train) - labelled} unrelated queries")
    print("weights:", json.dumps(model.weights), "bias", model.bias)
    print(f"second layer: scale {model.scale}, lead {model.lead}, offset {model.offset}")
    print("answerable:", json.dumps(model.answer_weights), "bias", model.answer_bias)
    print(f"thresholds: found >= {model.found}, low_confidence >= {model.low}")
    for name, (table, ece) in (
        ("every candidate", reliability(test, model)),
        ("first result", top1_reliability(test, model)),
    ):
        print(f"\nreliability on the test split ({name}): ECE {ece:.3f}")
        print(f"{'bin':<9} {'n':>6} {'predicted':>10} {'observed':>9}")
        for label, n, predicted, observed in table:
            print(f"{label:<9} {n:>6} {predicted:>10.3f} {observed:>9.3f}")
    if not args.dry_run:
        WEIGHTS.write_text(json.dumps(model.to_json(), indent=2, sort_keys=True) + "\n")
        print(f"\nwrote {WEIGHTS}")


if __name__ == "__main__":
    main()
