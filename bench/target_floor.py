"""Tune the resemblance floor: how similar a run must be to the Gene its `gene_id` names.

A producer may name the Gene a run is evidence for. The worker checks that the run is about what the
Gene is about (app/evolution/service.py `_check_resemblance`): the cosine of the run's routing text
(task description and the error classes it met, app/evolution/destination.py) to the Gene's embedding
text must reach the floor, else the run is rejected instead of merged.

Labelled pairs from bench/data:
- right: a task description and a Gene that applies to it (queries.jsonl with their relevant Genes,
  and every Gene's own task description in corpus.jsonl);
- wrong, same family: the description and a Gene of another base problem of its family (an HTTP
  ConnectionError run sent to the SQL-migration Gene);
- wrong, other family: the description and a Gene of another task family.

Base problems (the `gene_<base>_<variant>` families of close variants) are split in two: the floor
is chosen on the training half as the highest value that still lets `--keep` (99 %) of its right
pairs through, then the held-out half reports how many right pairs pass and how many wrong ones are
refused. Sibling variants of one base problem are neither right nor wrong here (a run may
legitimately be named for the Gene it came from while resembling a sibling as much).

    python bench/target_floor.py [--backend onnx] [--keep 0.99] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.embeddings import load_embedder  # noqa: E402
from app.evolution.destination import TARGET_FLOOR, routing_text  # noqa: E402
from app.genes.indexing import embedding_text  # noqa: E402

DATA = ROOT / "bench" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", default="onnx", choices=["torch", "onnx", "onnx-int8"])
    parser.add_argument("--keep", type=float, default=0.99, help="share of right pairs that must pass")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    corpus = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line.strip()]
    queries = [json.loads(line) for line in (DATA / "queries.jsonl").read_text().splitlines() if line.strip()]
    ids = [row["gene"]["id"] for row in corpus]
    families = [row["provenance"]["task"]["family"] for row in corpus]
    # The corpus lists each base problem's four variants one after another (bench/data/README.md).
    base = {gene_id: str(i // 4) for i, gene_id in enumerate(ids)}
    bases = sorted(set(base.values()))
    rng.shuffle(bases)
    train_bases = set(bases[: len(bases) // 2])

    embedder = load_embedder(Settings(embedding_backend=args.backend))  # type: ignore[arg-type]
    genes = embedder.encode([embedding_text(row["gene"]) for row in corpus])
    index = {gene_id: i for i, gene_id in enumerate(ids)}

    # (description vector, its family, the base problems it belongs to, the Genes that apply).
    runs: list[tuple[str, str, set[str], set[int]]] = []
    for query in queries:
        relevant = {index[g] for g in query["relevant"] if g in index}
        if relevant:
            text = routing_text(query["query"], query.get("signals") or [])
            runs.append((text, query["family"], {base[ids[i]] for i in relevant}, relevant))
    for i, row in enumerate(corpus):
        runs.append((row["provenance"]["task"]["description"], families[i], {base[ids[i]]}, {i}))
    vectors = embedder.encode([text for text, _, _, _ in runs])

    by_family: dict[str, list[int]] = {}
    for i, family in enumerate(families):
        by_family.setdefault(family, []).append(i)
    pairs: dict[str, dict[str, list[float]]] = {
        split: {"right": [], "same family": [], "other family": []} for split in ("train", "test")
    }
    for vector, (_, family, run_bases, relevant) in zip(vectors, runs, strict=True):
        split = "train" if run_bases <= train_bases else "test" if not run_bases & train_bases else None
        if split is None:
            continue
        scores = genes @ vector
        for i in relevant:
            pairs[split]["right"].append(float(scores[i]))
        same = [i for i in by_family[family] if base[ids[i]] not in run_bases]
        other = [i for i in range(len(ids)) if families[i] != family]
        for i in rng.sample(same, 3):
            pairs[split]["same family"].append(float(scores[i]))
        for i in rng.sample(other, 3):
            pairs[split]["other family"].append(float(scores[i]))

    train = np.array(pairs["train"]["right"])
    chosen = float(np.floor(np.quantile(train, 1 - args.keep) * 100) / 100)
    print(
        f"{len(ids)} Genes, {len(runs)} runs, backend {args.backend}, {len(bases)} base problems split in two"
    )
    print(f"floor chosen on the training half (keep {args.keep:.0%} of right pairs): {chosen:.2f}")
    print(f"in use (app/evolution/destination.py TARGET_FLOOR): {TARGET_FLOOR:.2f}\n")
    columns = f"{'split':<6} {'pairs':<13} {'n':>5} {'median':>7} {'p01':>6} {'p99':>6}"
    print(f"{columns} | at {chosen:.2f} | at {TARGET_FLOOR:.2f}")
    for split, kinds in pairs.items():
        for kind, values in kinds.items():
            scores = np.array(values)
            passing = [(scores >= floor).mean() for floor in (chosen, TARGET_FLOOR)]
            print(
                f"{split:<6} {kind:<13} {len(scores):>5} {np.median(scores):>7.3f} "
                f"{np.quantile(scores, 0.01):>6.3f} {np.quantile(scores, 0.99):>6.3f} | "
                f"{passing[0]:>5.1%} pass | {passing[1]:>5.1%} pass"
            )


if __name__ == "__main__":
    main()
