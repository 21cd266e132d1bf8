"""Tune the similarity above which a trajectory without a target is merged into an existing Gene.

Uses the labelled search data: bench/data/corpus.jsonl (Genes, in families of close variants such
as the same repair for pytest, Jest and JUnit, each with the task description of the run it was
distilled from) and bench/data/queries.jsonl (task descriptions with the Genes relevant to them).
Each description is routed twice, exactly as the worker does (app/evolution/destination.py: cosine of
the routing text against each Gene's embedding text, same task family):

- present: its Gene is in the registry; merging into it is right, anywhere else wrong;
- absent: its relevant Genes are left out; merging anywhere (a sibling variant) is wrong, founding
  a new Gene is right.

Per threshold it prints, for both sets, how often the right Gene is found, how often a run lands in
a wrong Gene (present / absent), and the precision of merges (right / all merges).

    python bench/routing_threshold.py [--backend torch|onnx|onnx-int8] [--min-precision 0.8]

It chose the worker's former threshold, 0.65. The worker now routes a run of a task a Gene has met by
its task keys first (app/evolution/destination.py, `choose`), and its threshold for the other runs,
0.78, was fitted on the replay of the whole loop (bench/evolution_quality.py, seed 7): this corpus has
no runs of another kind of work on the same subject, which is where the replay's wrong merges came
from. The row nearest the threshold in use is marked.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.embeddings import load_embedder  # noqa: E402
from app.evolution.destination import ROUTE_THRESHOLD, routing_text  # noqa: E402
from app.genes.indexing import embedding_text  # noqa: E402

DATA = ROOT / "bench" / "data"


@dataclass
class Routed:
    """Best score with the relevant Genes present (and whether the best is relevant), and absent."""

    present: np.ndarray
    correct: np.ndarray
    absent: np.ndarray


def route_all(
    genes: np.ndarray,
    families: np.ndarray,
    queries: np.ndarray,
    query_families: list[str],
    relevant: list[set[int]],
) -> Routed:
    scores = queries @ genes.T
    present, correct, absent = [], [], []
    for row, family, wanted in zip(scores, query_families, relevant, strict=True):
        row = np.where(families == family, row, -1.0)
        best = int(np.argmax(row))
        present.append(row[best])
        correct.append(best in wanted)
        row[list(wanted)] = -1.0
        absent.append(row.max())
    return Routed(np.array(present), np.array(correct), np.array(absent))


def figures(routed: Routed, threshold: float) -> tuple[float, float, float, float]:
    merged = routed.present >= threshold
    right = merged & routed.correct
    wrong_present = merged & ~routed.correct
    wrong_absent = routed.absent >= threshold
    n = len(routed.present)
    merges = right.sum() + wrong_present.sum() + wrong_absent.sum()
    precision = float(right.sum() / merges) if merges else 1.0
    return right.sum() / n, wrong_present.sum() / n, wrong_absent.sum() / n, precision


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", default="torch", choices=["torch", "onnx", "onnx-int8"])
    parser.add_argument("--min-precision", type=float, default=0.8)
    args = parser.parse_args()

    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    index = {row["gene"]["id"]: i for i, row in enumerate(corpus)}
    families = np.array([row["provenance"]["task"]["family"] for row in corpus])
    embedder = load_embedder(Settings(embedding_backend=args.backend))  # type: ignore[arg-type]
    genes = embedder.encode([embedding_text(row["gene"]) for row in corpus])

    query_vectors = embedder.encode([routing_text(q["query"], q.get("signals") or []) for q in queries])
    sets = {
        "queries": route_all(
            genes,
            families,
            query_vectors,
            [q["family"] for q in queries],
            [{index[g] for g in q["relevant"] if g in index} for q in queries],
        ),
        "own tasks": route_all(
            genes,
            families,
            embedder.encode([row["provenance"]["task"]["description"] for row in corpus]),
            list(families),
            [{i} for i in range(len(corpus))],
        ),
    }
    print(f"{len(corpus)} Genes, {len(queries)} queries, {args.backend}; per set: right Gene found, ")
    print("wrong Gene when the right one is present / absent, precision of merges")
    header = "".join(f" | {name:^29}" for name in sets)
    print(f"{'threshold':>9}{header}")
    chosen = None
    for threshold in np.arange(0.45, 0.851, 0.025):
        cells = []
        precisions = []
        for routed in sets.values():
            right, wrong_present, wrong_absent, precision = figures(routed, float(threshold))
            precisions.append(precision)
            cells.append(f" | {right:5.2f} {wrong_present:5.2f} {wrong_absent:5.2f}  P {precision:4.2f}")
        marker = "  <- nearest the one in use" if abs(threshold - ROUTE_THRESHOLD) <= 0.0125 else ""
        print(f"{threshold:>9.3f}{''.join(cells)}{marker}")
        if chosen is None and min(precisions) >= args.min_precision:
            chosen = float(threshold)
    if chosen is not None:
        print(
            f"\nlowest threshold with merge precision >= {args.min_precision:.2f} on both sets: {chosen:.3f}"
        )
    print(f"in use (app/evolution/destination.py): {ROUTE_THRESHOLD:.3f}")


if __name__ == "__main__":
    main()
