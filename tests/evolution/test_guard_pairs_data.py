"""The labelled guard pairs: reproducible from their sources, and a test split nothing trains on."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "bench" / "data"
# sha256 of the test split (its rows re-serialized) as main measured it before the extra scenarios.
TEST_DIGEST = "1fef237c39711aba38518bfccbe4704650d5f256932535b6ea0722c685b35436"


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_guard_pairs", DATA / "build_guard_pairs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pairs_file_is_what_the_builder_makes() -> None:
    lines = (DATA / "guard_pairs.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == _builder().build()


def test_the_extra_scenarios_are_train_only_and_leave_the_test_split_as_it_was() -> None:
    rows = [json.loads(line) for line in (DATA / "guard_pairs.jsonl").read_text().splitlines()]
    extra = [row for row in rows if row.get("extra")]
    # 280 train-only scenarios, 19 pairs each: 6 paraphrases, each of 3 near-misses against all four
    # `same` texts, 1 unrelated.
    assert len(extra) == 5320 and {row["split"] for row in extra} == {"train"}
    test = [row for row in rows if row["split"] == "test"]
    assert len(test) == 310
    # The test split, byte for byte, as it was measured before the extra scenarios were written.
    digest = hashlib.sha256("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in test).encode())
    assert digest.hexdigest() == TEST_DIGEST
    test_topics = {row["group"] for row in test}
    assert not test_topics & {row["group"] for row in extra}
