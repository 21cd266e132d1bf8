"""Fine-tuning a one-logit cross-encoder (both texts read at once), shared by bench/guard_pair_model.py
and bench/search_rerank.py. Torch only: never imported by a serving or worker process."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np


def train_cross_encoder(
    model: Any,
    tokenizer: Any,
    examples: Sequence[tuple[str, str, float]],
    *,
    epochs: int,
    lr: float,
    seed: int,
    batch: int,
    max_length: int,
    clip: float | None = None,
) -> float:
    """Binary cross-entropy on (first text, second text, label) with AdamW, 10 % linear warm-up then
    linear decay, `epochs` shuffled passes; `clip` bounds the gradient norm. Prints each pass's mean
    loss and returns the seconds spent."""
    import torch

    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    steps = epochs * -(-len(examples) // batch)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, s / (0.1 * steps)) * max(0.0, (steps - s) / steps)
    )
    rng = np.random.default_rng(seed)
    started = time.monotonic()
    model.train()
    for epoch in range(epochs):
        total = 0.0
        order = rng.permutation(len(examples))
        for start in range(0, len(examples), batch):
            rows = [examples[j] for j in order[start : start + batch]]
            encoded = tokenizer(
                [r[0] for r in rows],
                [r[1] for r in rows],
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="pt",
            )
            logits = model(**encoded).logits.squeeze(-1)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                logits, torch.tensor([r[2] for r in rows])
            )
            loss.backward()
            if clip is not None:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            total += float(loss) * len(rows)
        print(
            f"  epoch {epoch + 1}: loss {total / len(examples):.4f} ({time.monotonic() - started:.0f} s)",
            flush=True,
        )
    model.eval()
    return time.monotonic() - started
