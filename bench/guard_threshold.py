"""Tune the cosine threshold above which two failure guards count as the same warning.

Embeds the 155 hand-labelled pairs of bench/data/guard_pairs.jsonl (paraphrases against near-misses
and unrelated guards) with the registry's real model and prints, per threshold, precision, recall
and F1 of "same meaning" (cosine >= threshold), plus the score distribution per kind. A false merge
silently loses a distinct instruction, while a missed merge only leaves a duplicate that the cap of 12
eventually drops, so the threshold is chosen for precision first: the lowest threshold at which
at most --max-near-miss of the near-misses (the hard negatives) would merge; F1 is printed beside.

    python bench/guard_threshold.py [--backend torch|onnx|onnx-int8] [--max-near-miss 0.05]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.embeddings import load_embedder  # noqa: E402
from app.evolution.merge import GUARD_MERGE_THRESHOLD  # noqa: E402

PAIRS = ROOT / "bench" / "data" / "guard_pairs.jsonl"


def scores(backend: str) -> tuple[list[dict[str, object]], np.ndarray]:
    pairs = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    embedder = load_embedder(Settings(embedding_backend=backend))  # type: ignore[arg-type]
    left = embedder.encode([str(p["a"]) for p in pairs])
    right = embedder.encode([str(p["b"]) for p in pairs])
    return pairs, np.sum(left * right, axis=1)


def confusion(labels: np.ndarray, cosine: np.ndarray, threshold: float) -> tuple[float, float, float]:
    predicted = cosine >= threshold
    tp = int(np.sum(predicted & labels))
    fp = int(np.sum(predicted & ~labels))
    fn = int(np.sum(~predicted & labels))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", default="torch", choices=["torch", "onnx", "onnx-int8"])
    parser.add_argument("--max-near-miss", type=float, default=0.05)
    args = parser.parse_args()

    pairs, cosine = scores(args.backend)
    labels = np.array([bool(p["same"]) for p in pairs])
    kinds = sorted({str(p["kind"]) for p in pairs})
    print(f"{len(pairs)} pairs ({int(labels.sum())} same, {int((~labels).sum())} different), {args.backend}")
    print(f"{'kind':<11} {'n':>4} {'min':>6} {'p25':>6} {'median':>6} {'p75':>6} {'max':>6}")
    for kind in kinds:
        values = sorted(float(c) for c, p in zip(cosine, pairs, strict=True) if p["kind"] == kind)
        quartiles = statistics.quantiles(values, n=4)
        print(
            f"{kind:<11} {len(values):>4} {values[0]:>6.3f} {quartiles[0]:>6.3f} "
            f"{statistics.median(values):>6.3f} {quartiles[2]:>6.3f} {values[-1]:>6.3f}"
        )

    print(f"\n{'threshold':>9} {'precision':>9} {'recall':>7} {'F1':>6} {'near-misses merged':>19}")
    near_miss = np.array([p["kind"] == "near_miss" for p in pairs])
    best_f1 = (0.0, 0.0)
    chosen = None
    for threshold in np.arange(0.50, 0.951, 0.01):
        precision, recall, f1 = confusion(labels, cosine, float(threshold))
        wrong = int(np.sum((cosine >= threshold) & near_miss))
        marker = " <- in use" if abs(threshold - GUARD_MERGE_THRESHOLD) < 1e-9 else ""
        print(f"{threshold:>9.3f} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f} {wrong:>19}{marker}")
        best_f1 = max(best_f1, (f1, float(threshold)))
        if chosen is None and wrong <= args.max_near_miss * near_miss.sum():
            chosen = float(threshold)
    print(f"\nbest F1 {best_f1[0]:.3f} at {best_f1[1]:.3f}")
    if chosen is not None:
        precision, recall, f1 = confusion(labels, cosine, chosen)
        print(
            f"lowest threshold merging <= {args.max_near_miss:.0%} of near-misses: {chosen:.3f} "
            f"(precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f})"
        )
    precision, recall, f1 = confusion(labels, cosine, GUARD_MERGE_THRESHOLD)
    print(
        f"in use (app/evolution/merge.py): {GUARD_MERGE_THRESHOLD:.3f} "
        f"(precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f})"
    )
    margin = sorted(
        (abs(float(c) - GUARD_MERGE_THRESHOLD), float(c), p) for c, p in zip(cosine, pairs, strict=True)
    )
    print("\nclosest pairs to the threshold in use:")
    for _, value, pair in margin[:6]:
        print(f"  {value:.3f} {pair['kind']:<10} {str(pair['a'])[:60]!r} / {str(pair['b'])[:60]!r}")


if __name__ == "__main__":
    main()
