"""The coherent crowd (bench/data/crowd): whole, valid Genes, reproducible, none a labelled Gene."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.genes.schemas import PublishRequest

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
sys.path.insert(0, str(DATA))

from crowd import FAMILIES, fill, generate  # noqa: E402


def test_the_crowd_is_reproducible_valid_and_holds_no_labelled_gene() -> None:
    crowd = generate(10_000)
    assert [p["gene"]["id"] for p in crowd] == [p["gene"]["id"] for p in generate(10_000)]
    assert len({p["gene"]["id"] for p in crowd}) == 10_000
    assert Counter(p["provenance"]["task"]["family"] for p in crowd) == dict.fromkeys(FAMILIES, 2_500)
    labelled = [json.loads(line) for line in (DATA / "corpus.jsonl").read_text().splitlines() if line]
    ids = {p["gene"]["id"] for p in labelled}
    summaries = {p["gene"]["summary"].lower() for p in labelled}
    tasks = {p["provenance"]["task"]["description"].lower() for p in labelled}
    for payload in crowd:
        gene, task = payload["gene"], payload["provenance"]["task"]["description"]
        assert gene["id"] not in ids and gene["id"].startswith("crowd_")
        assert gene["summary"].lower() not in summaries and task.lower() not in tasks
        PublishRequest.model_validate(payload)


def test_a_smaller_crowd_spreads_over_every_problem() -> None:
    from crowd import problems

    crowd = generate(1_000)
    slugs = {p["gene"]["id"].removeprefix("crowd_").rsplit("_", 1)[0] for p in crowd}
    every = {problem.slug for listed in problems().values() for problem in listed}
    # 250 a family over 62-71 problems a family: each problem appears at least three times.
    assert slugs == every


def test_a_template_slot_without_a_value_is_refused_not_left_in_the_text() -> None:
    assert fill("Shrink a {lang} image", {"lang": "Go"}) == "Shrink a Go image"
    with pytest.raises(KeyError, match="lang"):
        fill("Shrink a {lang} image", {"runner": "go test"})
