"""The ranking's pure parts, against their plain definitions (no database needed)."""

from __future__ import annotations

import math
import random

from app.gep.signals import pattern_hits
from app.search.fusion import FEATURES, fitted_model
from app.search.service import _pattern_hits

PATTERNS = [
    "ModuleNotFoundError",
    "/No module named [a-z_]+/i",
    "timeout|timed out",
    "lock-frontend",
    "/[/",  # invalid: never hits
    "",  # invalid: never hits
    "ERESOLVE",
]
SIGNALS = [
    "ModuleNotFoundError: No module named yaml",
    "E: Could not get lock /var/lib/dpkg/lock-frontend",
    "the request Timed Out after 30 s",
]


def test_pattern_hits_of_candidates_match_each_candidate_matched_alone() -> None:
    rng = random.Random(3)
    rows = [
        {"id": index, "signals_match": [rng.choice(PATTERNS) for _ in range(rng.randint(0, 4))] or None}
        for index in range(60)
    ]
    for signals in (SIGNALS, SIGNALS[:1], []):
        found = _pattern_hits(rows, signals)
        assert found == {row["id"]: pattern_hits(row["signals_match"] or [], signals) for row in rows}
    assert any(_pattern_hits(rows, SIGNALS).values())  # the rows do hit


def test_base_logit_is_the_weighted_sum_in_the_weights_order() -> None:
    model = fitted_model()
    rng = random.Random(5)
    for _ in range(200):
        features = {name: rng.uniform(-1, 1) for name in FEATURES if rng.random() < 0.9}
        expected = model.bias + sum(w * features.get(name, 0.0) for name, w in model.weights.items())
        assert model.base(features) == expected and math.isfinite(expected)
