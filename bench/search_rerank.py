"""Would a reranker that reads the query and the Gene at once hold up among distractors? An experiment.

A cross-encoder fine-tuned from the local all-MiniLM-L6-v2 weights ("[CLS] query [SEP] Gene text
[SEP]", a one-logit head; torch, never in a serving process) rescores the committed hybrid ranking's
first `--top` candidates of every test query, on the plain labelled corpus and with `--distractors`
generated Genes beside it (the collections bench/search_quality.py caches, so run that first with the
same --cache and --distractors).

Training uses the train split only, as bench/finetune.py does: every train query and every corpus
Gene's own task description as the anchor, its Gene as the positive, and as negatives one
near-duplicate Gene (another variant of its base problem) and one other Gene of its family.
Distractors are never trained on. Binary cross-entropy, one pass by default.

Printed: test-split MRR@10 (all, hard) of the hybrid ranking, of the cross-encoder's order of the same
candidates, and of the sum of the two logits (hybrid base logit + cross-encoder logit, unweighted:
nothing is tuned on test), plain and among distractors, and the cost of a pair.

    python bench/search_rerank.py --cache FILE [--distractors 10000] [--top 10] [--epochs 1] [--threads 2]
        [--out DIR | --model DIR]

--out DIR keeps the trained cross-encoder; --model DIR scores with a kept one instead of training.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from cross_encoder import train_cross_encoder
from search_features import Asked, collected, distractors, load
from search_quality import SUBSETS

from app.embeddings.base import bundled_model_dir
from app.genes.indexing import embedding_text
from app.search.fusion import fitted_model

BATCH = 16
TOKENS = 256


def training_pairs(seed: int) -> list[tuple[str, str, float]]:
    corpus = load("corpus.jsonl")
    text = {p["gene"]["id"]: embedding_text(p["gene"]) for p in corpus}
    family = {p["gene"]["id"]: p["provenance"]["task"]["family"] for p in corpus}
    # corpus.jsonl holds each base problem's four variants on consecutive lines (build_corpus.py).
    base = {p["gene"]["id"]: line // 4 for line, p in enumerate(corpus)}
    siblings = {
        p["gene"]["id"]: [q["gene"]["id"] for q in corpus[line // 4 * 4 : line // 4 * 4 + 4] if q is not p]
        for line, p in enumerate(corpus)
    }
    by_family: dict[str, list[str]] = {}
    for gene_id, name in family.items():
        by_family.setdefault(name, []).append(gene_id)
    anchors = [
        (q["query"] + (" " + " ".join(q["signals"]) if q.get("signals") else ""), gene_id)
        for q in load("queries.jsonl")
        if q["split"] == "train"
        for gene_id in q["relevant"]
    ]
    anchors += [(p["provenance"]["task"]["description"], p["gene"]["id"]) for p in corpus]
    rng = random.Random(seed)
    pairs = []
    for anchor, gene_id in anchors:
        other = rng.choice([g for g in by_family[family[gene_id]] if base[g] != base[gene_id]])
        pairs += [
            (anchor, text[gene_id], 1.0),
            (anchor, text[rng.choice(siblings[gene_id])], 0.0),
            (anchor, text[other], 0.0),
        ]
    return pairs


# Each rescored candidate is (candidate, hybrid base logit, cross-encoder logit), in the hybrid's order.
ORDERS: dict[str, Any] = {
    "hybrid": lambda rows: rows,
    "cross-encoder": lambda rows: sorted(rows, key=lambda t: -t[2]),
    "sum of logits": lambda rows: sorted(rows, key=lambda t: -(t[1] + t[2])),
}


def mrr(rescored: list[list[tuple[Any, float, float]]], order: Any) -> float:
    total = 0.0
    for rows in rescored:
        ranking = order(rows)[:10]
        total += next((1 / i for i, (c, _, _) in enumerate(ranking, start=1) if c.relevant), 0.0)
    return total / max(1, len(rescored))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cache", type=Path, required=True, help="search_quality.py's --cache")
    parser.add_argument("--distractors", type=int, default=10000)
    parser.add_argument("--top", type=int, default=10, help="candidates of the hybrid ranking rescored")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="save the trained cross-encoder here")
    parser.add_argument("--model", type=Path, help="score with a cross-encoder saved by --out; no training")
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    collections = {"plain": collected(args.cache)}
    if args.distractors:
        crowded_cache = args.cache.with_name(f"{args.cache.name}.d{args.distractors}")
        collections[f"{args.distractors:,} distractors"] = collected(crowded_cache, args.distractors)
    text = {p["gene"]["id"]: embedding_text(p["gene"]) for p in load("corpus.jsonl")}
    text |= {p["gene"]["id"]: embedding_text(p["gene"]) for p in distractors(args.distractors)}
    queries = {q["id"]: q for q in load("queries.jsonl")}

    model_dir = args.model or bundled_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=1)
    if args.model is None:
        examples = training_pairs(args.seed)
        print(f"{len(examples)} training pairs (train split), batches of {BATCH}", flush=True)
        train_cross_encoder(
            model,
            tokenizer,
            examples,
            epochs=args.epochs,
            lr=args.lr,
            seed=args.seed,
            batch=BATCH,
            max_length=TOKENS,
            clip=1.0,
        )
        if args.out:
            model.save_pretrained(args.out)
            tokenizer.save_pretrained(args.out)
    model.eval()

    fusion = fitted_model()
    per_query: list[float] = []

    def rescored(a: Asked) -> list[tuple[Any, float, float]]:
        """The hybrid's first `top` candidates with (hybrid base logit, cross-encoder logit)."""
        probabilities = fusion.probabilities([c.features for c in a.candidates])
        ranked = sorted(zip(probabilities, a.candidates, strict=True), key=lambda pair: -pair[0])[: args.top]
        query = queries[a.id]
        anchor = query["query"] + (" " + " ".join(query["signals"]) if query.get("signals") else "")
        start = time.perf_counter()
        with torch.no_grad():
            encoded = tokenizer(
                [anchor] * len(ranked),
                [text[c.gene_id] for _, c in ranked],
                padding=True,
                truncation=True,
                max_length=TOKENS,
                return_tensors="pt",
            )
            logits = model(**encoded).logits.squeeze(-1).tolist()
        per_query.append((time.perf_counter() - start) * 1000)
        return [(c, fusion.base(c.features), logit) for (_, c), logit in zip(ranked, logits, strict=True)]

    print(f"\ntest split MRR@10 (all / hard), the hybrid's first {args.top} candidates rescored:")
    print(f"  {'registry':<22}{'hybrid':>16}{'cross-encoder':>16}{'sum of logits':>16}")
    for label, asked in collections.items():
        test = [a for a in asked if a.split == "test" and not a.negative]
        every = [rescored(a) for a in test]
        hard = [rows for a, rows in zip(test, every, strict=True) if SUBSETS["hard"](a)]
        cells = "".join(f"{mrr(every, o):>9.3f} /{mrr(hard, o):>5.3f}" for o in ORDERS.values())
        print(f"  {label:<22}{cells}")
    pair = statistics.median(per_query) / args.top
    print(
        f"cross-encoder: median {statistics.median(per_query):.1f} ms a query ({args.top} pairs in one batch,"
        f" torch, {args.threads} threads), {pair:.2f} ms a pair; {math.ceil(15 / pair)} pairs fit in 15 ms"
    )


if __name__ == "__main__":
    sys.exit(main())
