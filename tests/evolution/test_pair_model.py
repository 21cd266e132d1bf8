"""Serving a guard-pair cross-encoder (GENEBANK_GUARD_MODEL_DIR): checked, exported, run without torch.

The model is the local all-MiniLM-L6-v2 weights with a one-logit head bench/guard_pair_model.py would
train, left as initialised (seeded): what these tests check is the serving path (the manifest, the
ONNX export against torch, the cache, the worker's decision at the manifest's threshold), not its
quality, which bench/guard_dedup.py --guard-model measures on the test split.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from app.config import Settings
from app.embeddings import EmbeddingService
from app.embeddings.model import ModelUnavailable
from app.evolution.guard_match import default_matcher
from app.evolution.merge import plan_merge
from app.evolution.pair_model import MANIFEST_FILE, GuardPairModel, guard_pair_spec
from app.evolution.service import EvolutionService
from app.evolution.service import clause_vectors as clause_vectors_of
from tests.evolution.test_merge import BY_OWNER, _entry, _vectors

BENCH = Path(__file__).resolve().parents[2] / "bench"
A = "Avoid calling the live API from tests; mock the HTTP layer with respx instead"
B = "Do not hit the real API in tests: mock HTTP calls with respx"
C = "Avoid comparing floats with == in tests; use pytest.approx."


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(BENCH))
    try:
        import guard_pair_model
        import torch
    finally:
        sys.path.remove(str(BENCH))
    torch.manual_seed(3)
    model, tokenizer = guard_pair_model.new_model()
    directory: Path = guard_pair_model.package(
        tmp_path_factory.mktemp("guard-model"), model, tokenizer, 0.5, {"trained": {"epochs": 0}}
    )
    return directory


@pytest.fixture(scope="module")
def served(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> GuardPairModel:
    model = GuardPairModel(guard_pair_spec(model_dir), tmp_path_factory.mktemp("models"))
    model.load()
    return model


def test_a_directory_without_what_it_needs_is_refused_with_the_fix(model_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="not a directory"):
        guard_pair_spec(tmp_path / "missing")
    with pytest.raises(ModelUnavailable, match="holds no weights"):
        guard_pair_spec(tmp_path)
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        (copy / name).write_bytes((model_dir / name).read_bytes())
    with pytest.raises(ModelUnavailable, match=f"no readable {MANIFEST_FILE}"):
        guard_pair_spec(copy)
    manifest = json.loads((model_dir / MANIFEST_FILE).read_text())
    (copy / MANIFEST_FILE).write_text(json.dumps({**manifest, "fingerprint": "0" * 16}))
    with pytest.raises(ModelUnavailable, match="written for other weights"):
        guard_pair_spec(copy)
    (copy / MANIFEST_FILE).write_text(json.dumps({**manifest, "threshold": 1.5}))
    with pytest.raises(ModelUnavailable, match="no threshold between 0 and 1"):
        guard_pair_spec(copy)
    assert guard_pair_spec(model_dir).threshold == 0.5


def test_the_onnx_export_scores_as_torch_does_and_both_orders_count(
    model_dir: Path, served: GuardPairModel
) -> None:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    reference = AutoModelForSequenceClassification.from_pretrained(str(model_dir)).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    pairs = [(A, B), (A, C), (B, C)]
    with torch.no_grad():
        orders = [
            torch.sigmoid(
                reference(
                    **tokenizer(
                        [p[i] for p in pairs],
                        [p[1 - i] for p in pairs],
                        padding=True,
                        truncation=True,
                        max_length=128,
                        return_tensors="pt",
                    )
                ).logits.squeeze(-1)
            ).numpy()
            for i in (0, 1)
        ]
    expected = (orders[0] + orders[1]) / 2
    got = served.score(pairs)
    assert np.allclose(got, expected, atol=1e-4), (got, expected)
    assert np.allclose(served.score([(b, a) for a, b in pairs]), got, atol=1e-6)
    assert served.prepare(pairs) == 3 and served.prepare([(B, A)]) == 0
    assert served.probability(B, A) == pytest.approx(float(got[0]), abs=1e-6)


async def test_the_worker_decides_by_the_cross_encoder_at_its_threshold(
    served: GuardPairModel, model_dir: Path, embeddings: EmbeddingService
) -> None:
    vectors = await _vectors(embeddings, [A, B])
    clause_vectors = await clause_vectors_of(embeddings, [A, B])
    probability = served.probability(A, B)
    for threshold, merges in ((probability - 0.01, True), (probability + 0.01, False)):
        model = GuardPairModel(replace(guard_pair_spec(model_dir), threshold=threshold), served.models_dir)
        matcher = default_matcher().with_pair_model(model)
        assert matcher.threshold == threshold and matcher.candidate_floor == default_matcher().candidate_floor
        model.prepare(matcher.scored_pairs([(B, A)]))
        plan = plan_merge(
            [_entry(A, vectors[0], 1, 0, guard_id=1)],
            [(B, vectors[1])],
            datetime(2026, 12, 1, 10, tzinfo=UTC),
            BY_OWNER,
            matcher=matcher,
            clause_vectors=clause_vectors,
        )
        assert bool(plan.merged) is merges, (threshold, probability)
        if merges:
            assert plan.merged[0].probability == pytest.approx(probability, abs=1e-6)


def test_settings_give_the_worker_the_cross_encoder(model_dir: Path, tmp_path: Path) -> None:
    service = EvolutionService.from_settings(Settings(guard_model_dir=model_dir, models_dir=tmp_path))
    assert service.matcher is not None and service.matcher.pair_model is not None
    assert service.matcher.threshold == 0.5
    assert EvolutionService.from_settings(Settings()).matcher.pair_model is None  # type: ignore[union-attr]
