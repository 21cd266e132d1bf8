"""Learned fusion: one logistic model turns a candidate's evidence into the probability it is the right Gene.

score = σ(logit) over the features below (two layers, see FusionModel), fitted on the training split of
bench/data (bench/search_fit.py writes fusion.json; the server only reads it and needs no fitting
library). Because it is fitted as a probability on every candidate the search considers, `score` is
comparable across queries; the band thresholds (`found`, `low`) were chosen on the same training split
and are stored beside the weights.

Features (all computed by app/search/service.py for every candidate):
- similarity: cosine of query and Gene embeddings; similarity_gap: similarity minus the best candidate's;
- task_similarity: the best cosine between the query and the Gene's task keys (its versions' tasks and
  the merged trajectories', app/genes/task_keys.py), the Gene's similarity when it has none;
  task_gap: that minus the best candidate's;
- keyword: ts_rank of the query's rare terms (0 when outside the keyword stage); keyword_headline: the
  same over the summary and signals only (field match); keyword_rr: 1 / keyword rank;
- vector_rr: 1 / vector rank;
- signal_evidence: the strongest signal hit's specificity (shape × IDF, 0 without hits);
- quality: the lower quantile of the Gene's success posterior minus that of a Gene nobody reported on
  (0 before any report). The labelled set has no outcome reports, so its weight cannot be fitted: it is
  set by hand (QUALITY_WEIGHT, +1.2 logit for a proven 0.8 against an unreported 0.2) and kept out of
  the fit, which leaves the calibration on unreported Genes untouched.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from app.embeddings.model import FUSION_FILE, ModelUnavailable, embedding_model

# Relative features (gaps to the best candidate, reciprocal ranks) are computed and shown by `explain`
# but left out of the fitted model: they raised MRR@10 by 0.02 on the test split and cost robustness.
# With a narrow filter or a small registry a lone good candidate has gap 0 and rank 1 like every
# top candidate, and the model leaning on them scored it under the floor; without them unrelated
# queries reach no_match far more often (bench/search_quality.py, ablation).
RELATIVE_FEATURES = ("similarity_gap", "task_gap", "keyword_rr", "vector_rr")
FEATURES = (
    "similarity",
    "similarity_gap",
    "task_similarity",
    "task_gap",
    "keyword",
    "keyword_headline",
    "keyword_rr",
    "vector_rr",
    "signal_evidence",
    "quality",
)
MODEL_FEATURES = tuple(f for f in FEATURES if f not in RELATIVE_FEATURES)


# The query-level model reads the best value of these over the query's candidates.
ANSWER_FEATURES = ("similarity", "task_similarity", "keyword", "signal_evidence")
LEAD_CLIP = 5.0
QUALITY_WEIGHT = 2.0


@dataclass(frozen=True)
class FusionModel:
    """score = P(answerable) × P(this Gene | answerable), each a logistic model fitted on the training split.

    P(this Gene | answerable) has two layers. The first scores each candidate alone: l = b + Σ wᵢ·xᵢ. The
    second recalibrates it against the other candidates of the same query: scale·l + lead·(l - best other
    l) + offset, the lead clipped to ±5 (+5 for a lone candidate): being far ahead of every other candidate
    is evidence the first layer cannot see (without it the first result was underconfident). Both are
    fitted on the labelled (answerable) queries.

    P(answerable) is fitted on labelled and unrelated queries alike, one row per query, from the best
    similarity, task similarity, keyword score and signal evidence among its candidates: an unrelated
    query's candidates are each a little plausible, and only the query as a whole shows that none is."""

    weights: dict[str, float]
    bias: float
    found: float  # a result this probable is `found`
    low: float  # below this a result is not returned (unless include_weak)
    scale: float = 1.0
    lead: float = 0.0
    offset: float = 0.0
    # P(the registry holds a right Gene for this query at all), from the query's best candidates.
    answer_weights: dict[str, float] = field(default_factory=dict)
    answer_bias: float = 10.0  # with no weights: certain, the candidate model alone decides

    @cached_property
    def _terms(self) -> tuple[tuple[str, float], ...]:
        return tuple(self.weights.items())

    def base(self, features: Mapping[str, float]) -> float:
        # Summed in the weights' order, term by term: the same float as ever.
        return self.bias + sum([weight * features.get(name, 0.0) for name, weight in self._terms])

    def leads(self, bases: Sequence[float]) -> list[float]:
        """Each candidate's base logit minus the best of the others, clipped.

        A lone candidate (a narrow filter, a small registry) leads by the full clip: if a right Gene is
        among the candidates at all, it is this one, so P(answerable) alone should decide its score.
        """
        if len(bases) < 2:
            return [LEAD_CLIP] * len(bases)
        order = sorted(range(len(bases)), key=lambda i: -bases[i])
        first, second = bases[order[0]], bases[order[1]]
        return [
            max(-LEAD_CLIP, min(LEAD_CLIP, value - (second if i == order[0] else first)))
            for i, value in enumerate(bases)
        ]

    def contributions(self, features: Mapping[str, float], lead: float) -> dict[str, float]:
        """wᵢ·xᵢ per feature, the bias and the second layer's terms: they add up to the logit."""
        parts = {name: weight * features.get(name, 0.0) for name, weight in self.weights.items()}
        parts["bias"] = self.bias
        base = sum(parts.values())
        parts["rescale"] = (self.scale - 1.0) * base
        parts["lead"] = self.lead * lead
        parts["offset"] = self.offset
        return parts

    def answerable(self, candidates: Sequence[Mapping[str, float]]) -> float:
        """P(a right Gene is among the candidates): a logistic model of the query's best candidates."""
        if not candidates:
            return 0.0
        best = {name: max(features.get(name, 0.0) for features in candidates) for name in ANSWER_FEATURES}
        return sigmoid(
            self.answer_bias + sum(weight * best[name] for name, weight in self.answer_weights.items())
        )

    def given_answerable(self, base: float, lead: float) -> float:
        """P(this Gene | answerable) from its first-layer logit and its lead over the other candidates."""
        return sigmoid(self.scale * base + self.lead * lead + self.offset)

    def probabilities(self, candidates: Sequence[Mapping[str, float]]) -> list[float]:
        """The calibrated probability of each candidate of one query: P(answerable) × P(this | answerable)."""
        bases = [self.base(features) for features in candidates]
        answerable = self.answerable(candidates)
        return [
            answerable * self.given_answerable(base, lead)
            for base, lead in zip(bases, self.leads(bases), strict=True)
        ]

    def to_json(self) -> dict[str, object]:
        return {
            "weights": self.weights,
            "bias": self.bias,
            "calibration": {"scale": self.scale, "lead": self.lead, "offset": self.offset},
            "answerable": {"weights": self.answer_weights, "bias": self.answer_bias},
            "thresholds": {"found": self.found, "low": self.low},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FusionModel:
        weights, thresholds = data["weights"], data["thresholds"]
        calibration = data.get("calibration") or {}
        answerable = data.get("answerable") or {"weights": {}, "bias": 10.0}
        if set(answerable["weights"]) - set(ANSWER_FEATURES):
            raise ValueError(f"answerable weights name unknown features: {sorted(answerable['weights'])}")
        unknown = set(weights) - set(FEATURES)
        if unknown:
            raise ValueError(f"fusion weights name unknown features: {sorted(unknown)}")
        return cls(
            weights={str(k): float(v) for k, v in weights.items()},
            bias=float(data["bias"]),
            found=float(thresholds["found"]),
            low=float(thresholds["low"]),
            scale=float(calibration.get("scale", 1.0)),
            lead=float(calibration.get("lead", 0.0)),
            offset=float(calibration.get("offset", 0.0)),
            answer_weights={str(k): float(v) for k, v in answerable["weights"].items()},
            answer_bias=float(answerable["bias"]),
        )


def sigmoid(logit: float) -> float:
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    odds = math.exp(logit)
    return odds / (1.0 + odds)


@lru_cache(maxsize=8)
def fitted_model(model_dir: Path | None = None) -> FusionModel:
    """The fusion fitted for the embedding model in `model_dir` (GENEBANK_EMBEDDING_MODEL_DIR).

    The stock model's is committed (app/search/fusion.json). A fine-tuned model's features differ (its
    similarities are spread differently), so it is served only with the fusion.json fitted for it, in
    its own directory (bench/finetune.py writes both); a missing or mismatched one is ModelUnavailable.
    """
    model = embedding_model(model_dir)
    if model.stock:
        text = resources.files("app.search").joinpath("fusion.json").read_text()
        return FusionModel.from_json(json.loads(text))
    path = model.directory / FUSION_FILE
    if not path.is_file():
        raise ModelUnavailable(
            f"the fine-tuned embedding model in {model.directory} (GENEBANK_EMBEDDING_MODEL_DIR) has no"
            f" {FUSION_FILE}: it is served only with the fusion weights and band thresholds fitted for"
            " its own vectors. bench/finetune.py (`make finetune`) writes them beside the weights;"
            " or unset GENEBANK_EMBEDDING_MODEL_DIR to serve the stock model"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        fitted_for = data.get("model")
        fusion = FusionModel.from_json(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ModelUnavailable(
            f"{path} is not a fusion model ({error!r}): write it again with bench/finetune.py"
        ) from None
    if fitted_for is not None and fitted_for != model.fingerprint:
        raise ModelUnavailable(
            f"{path} was fitted for the weights {fitted_for}, not for the ones beside it"
            f" ({model.fingerprint}): fit it again (bench/finetune.py --skip-training --out"
            f" {model.directory})"
        )
    return fusion
