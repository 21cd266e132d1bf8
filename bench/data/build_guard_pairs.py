"""Build bench/data/guard_pairs.jsonl: the 155 original hand-labelled pairs plus pairs drawn from the
hand-written scenarios of guard_scenarios.jsonl, each with a fixed train/test split.

A scenario is one warning written four ways (`same`: a producer's sentence, the extracted
"When …, do not …; instead …" form, free-form variants) and three near-misses (`near`: the same topic
and vocabulary, different advice). From each scenario:
- 6 paraphrase pairs (every two of its `same` texts),
- 6 near-miss pairs (each near-miss against two of the `same` texts; 12, against all four, for a
  train-only scenario),
- 1 unrelated pair (its first text against the next scenario of its family).

The split is by scenario (a scenario's pairs are all train or all test, so the test split holds
topics never seen in training) and, for the original pairs, by pair; both by a hash of a stable key,
about 40 % test. The scenarios of guard_scenarios_train.jsonl (written later, on topics of their
own) are train only: they add training data without moving or changing a test pair; their unrelated
pairs are drawn among themselves. Re-running the script gives the same file.

    python bench/data/build_guard_pairs.py
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "guard_scenarios.jsonl"
TRAIN_SCENARIOS = HERE / "guard_scenarios_train.jsonl"
PAIRS = HERE / "guard_pairs.jsonl"
TEST_SHARE = 0.4


def split_of(key: str) -> str:
    bucket = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if bucket < TEST_SHARE else "train"


def scenario_pairs(scenarios: list[dict[str, Any]], extra: bool = False) -> list[dict[str, Any]]:
    """The pairs of one file of scenarios; a scenario's `split` field, when present, fixes its split.
    Pairs of the later train-only file are marked `"extra": true`."""
    rows: list[dict[str, Any]] = []
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for scenario in scenarios:
        by_family[scenario["family"]].append(scenario)
    for scenario in scenarios:
        same, near, family = scenario["same"], scenario["near"], scenario["family"]
        group = f"scenario-{scenario['id']}"
        split = scenario.get("split") or split_of(group)
        common: dict[str, Any] = {"family": family, "group": group, "split": split}
        if extra:
            common["extra"] = True
        for a, b in itertools.combinations(same, 2):
            rows.append({"a": a, "b": b, "same": True, "kind": "paraphrase", **common})
        # A test scenario's near-miss meets two of its paraphrases; a train-only one's meets all four
        # (more hard negatives to learn from, the test split unchanged).
        offsets = range(len(same)) if extra else (0, 1)
        for index, miss in enumerate(near):
            for offset in offsets:
                rows.append(
                    {
                        "a": same[(index + offset) % len(same)],
                        "b": miss,
                        "same": False,
                        "kind": "near_miss",
                        **common,
                    }
                )
        siblings = by_family[family]
        other = siblings[(siblings.index(scenario) + 1) % len(siblings)]
        rows.append({"a": same[0], "b": other["same"][1], "same": False, "kind": "unrelated", **common})
    return rows


def build() -> list[dict[str, Any]]:
    """Every pair, in file order, from the current file's original pairs and the scenario files."""
    lines = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    original = [pair for pair in lines if not str(pair.get("group", "hand-")).startswith("scenario-")]
    # The original pairs keep their fields; they gain a group (themselves) and a split.
    rows: list[dict[str, Any]] = []
    for pair in original:
        pair = {k: v for k, v in pair.items() if k not in ("split", "group")}
        group = "hand-" + hashlib.sha256((pair["a"] + "\n" + pair["b"]).encode()).hexdigest()[:10]
        rows.append({**pair, "group": group, "split": split_of(group)})
    for path in (SCENARIOS, TRAIN_SCENARIOS):
        scenarios = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        rows.extend(scenario_pairs(scenarios, extra=path == TRAIN_SCENARIOS))
    return rows


def main() -> None:
    rows = build()
    PAIRS.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for row in rows:
        counts[(row["split"], row["kind"])] += 1
    print(f"{len(rows)} pairs:", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
