"""Do two failure guards say the same thing? A small logistic model over signals the embedding misses.

MiniLM's cosine alone cannot tell a paraphrase ("Do not call the live API from tests; mock the HTTP
layer with respx" / "Tests must not reach the real service: stub HTTP calls with respx") from a
near-miss (the same words, different advice: "with replacement" / "without replacement", the same
mistake with another fix). The merge decision combines it with what a reader looks at:

| feature | what it measures |
| --- | --- |
| `cosine` | the embeddings' cosine (all-MiniLM-L6-v2) |
| `jaccard`, `containment` | overlap of the two texts' content words (light stemming, no stop words) |
| `mistake` | overlap of the "do not …" clauses: the action warned against, verb and object |
| `remedy` | overlap of the "instead …" clauses: what to do |
| `error_class` | +1 the same error class named on both sides, -1 different ones, 0 otherwise |
| `antonyms` | words one side has and the other contradicts (with/without, before/after, more/fewer…) |
| `negation` | difference in the number of negations (not, never, without, no…) |
| `numbers` | 1 when both name numbers and share none |
| `only_a`, `only_b` | share of each side's content words the other lacks |

An extracted guard whose run named no cause ("When the tests fail with X, do not run them again
unchanged; instead Y") carries no action to compare: for such a pair the remedies decide (their
cosine at least `remedy_only_threshold`, and no conflicting error classes). That is how a producer's
"Do not call the live API from tests; mock the HTTP layer with respx" meets the rule extracted from
another run of the same failure.

The weights and the decision thresholds are fitted by `bench/guard_dedup.py` on the train split of
bench/data/guard_pairs.jsonl and committed as `guard_match.json` beside this file; at run time only
numpy is used. The threshold is the one that keeps near-misses merged at most 5 % on the train
split, with the best F1 there. `candidate_floor` is the lowest cosine at which the model can still
say "same": guards below it are not even scored (and the dropped guards the ledger loads are those
within it).

With GENEBANK_GUARD_MODEL_DIR set, a fine-tuned cross-encoder (app/evolution/pair_model.py) gives the
probability instead, against its own threshold (`with_pair_model`). The candidate floor, the
remedy-only rule and the failure-key rule (`logistic`) stay the logistic model's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from app.evolution.extraction import NO_CAUSE_RULES

if TYPE_CHECKING:
    from app.evolution.pair_model import GuardPairModel

WEIGHTS_PATH = Path(__file__).with_name("guard_match.json")

FEATURES = (
    "cosine",
    "mistake_cosine",
    "remedy_cosine",
    "cross_cosine",
    "jaccard",
    "containment",
    "mistake",
    "remedy",
    "error_class",
    "antonyms",
    "negation",
    "numbers",
    "only_a",
    "only_b",
)

_WORD = re.compile(r"[a-z][a-z0-9_+.#-]*[a-z0-9]|[a-z]|\d+(?:[./]\d+)*")
_NUMBER = re.compile(r"(?<![\w<])\d+(?:[.,/]\d+)*")
_ERROR_CLASS = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Warning|Timeout|NotAvailable|Exit))\b")
_NEGATIONS = frozenset(
    ["not", "no", "never", "without", "avoid", "don't", "dont", "nor", "cannot", "can't", "isn't", "aren't"]
)
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "this",
        "those",
        "to",
        "was",
        "were",
        "when",
        "where",
        "which",
        "while",
        "will",
        "with",
        "you",
        "your",
        "do",
        "not",
        "don't",
        "never",
        "avoid",
        "instead",
        "use",
        "using",
        "should",
        "must",
        "always",
        "any",
        "all",
        "each",
        "one",
        "same",
        "than",
        "only",
        "just",
        "first",
        "what",
    ]
)
_ANTONYMS: tuple[tuple[str, str], ...] = (
    ("with", "without"),
    ("before", "after"),
    ("more", "fewer"),
    ("more", "less"),
    ("increase", "decrease"),
    ("raise", "lower"),
    ("add", "remove"),
    ("always", "never"),
    ("inclusive", "exclusive"),
    ("inclusive", "strictly"),
    ("least", "most"),
    ("exceed", "fewer"),
    ("upper", "lower"),
    ("true", "false"),
    ("enable", "disable"),
    ("local", "remote"),
    ("mean", "median"),
    ("integer", "float"),
    ("sync", "async"),
    ("json", "yaml"),
    ("words", "characters"),
    ("degrees", "radians"),
)
_MISTAKE = re.compile(
    r"(?:\bdo not\b|\bdon'?t\b|\bnever\b|\bavoid\b|\bnot\b|\bmust not\b)(?P<clause>[^;:.]*)", re.IGNORECASE
)
_REMEDY = re.compile(r"(?:\binstead\b|;|:|\buse\b|\bprefer\b)(?P<clause>[^;]*)$", re.IGNORECASE)
_CONDITION = re.compile(r"^\s*(?:when|if|on|in|for|after|before|while)\b[^,;]*,\s*", re.IGNORECASE)
_NEGATION_CUE = re.compile(r"\b(?:do not|don'?t|never|avoid|must not|should not|not)\b\s*", re.IGNORECASE)
_REMEDY_CUE = re.compile(r"\s*(?:;|:|\binstead\b|\s[-—–]\s|\.\s)\s*(?:instead\s*,?\s*)?", re.IGNORECASE)


def clauses(text: str) -> tuple[str, str]:
    """(the action warned against, what to do instead) of a guard, each at least a few words: the
    parts the merge compares separately ("same mistake, another fix" is a different guard)."""
    body = _CONDITION.sub("", text.strip(), count=1)
    cue = _NEGATION_CUE.search(body)
    start = cue.end() if cue else 0
    split = _REMEDY_CUE.search(body, start)
    if split is None:
        return body[start:].strip(" .") or text, text
    mistake = body[start : split.start()].strip(" .,")
    remedy = body[split.end() :].strip(" .")
    if not cue:
        # "Use X, not Y" / free text: the whole sentence stands for both.
        mistake = body[: split.start()].strip(" .,")
    return mistake or text, remedy or text


Vector = npt.NDArray[np.float64]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _tokens(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and not w[0].isdigit()}


def _raw_words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _clause(pattern: re.Pattern[str], text: str) -> set[str]:
    match = pattern.search(text)
    return _tokens(match.group("clause")) if match else set()


@dataclass(frozen=True)
class _Parsed:
    tokens: set[str]
    words: set[str]
    mistake: set[str]
    remedy: set[str]
    errors: set[str]
    negations: int
    numbers: set[str]


@lru_cache(maxsize=4096)
def _parse(text: str) -> _Parsed:
    words = _raw_words(text)
    return _Parsed(
        tokens=_tokens(text),
        words=words,
        mistake=_clause(_MISTAKE, text),
        remedy=_clause(_REMEDY, text),
        errors=set(_ERROR_CLASS.findall(text)),
        negations=sum(1 for w in re.findall(r"[a-z']+", text.lower()) if w in _NEGATIONS),
        numbers=set(_NUMBER.findall(text)),
    )


def features(a: str, b: str, cosine: float, clause_cosines: tuple[float, float, float]) -> Vector:
    """The feature vector of a pair (in FEATURES order); `clause_cosines` are the cosines of the
    mistakes, of the remedies, and the larger of each side's mistake against the other's remedy."""
    pa, pb = _parse(a), _parse(b)
    shared = pa.tokens & pb.tokens
    smaller = min(len(pa.tokens), len(pb.tokens))
    error_class = (1.0 if pa.errors & pb.errors else -1.0) if pa.errors and pb.errors else 0.0
    antonyms = 0.0
    for x, y in _ANTONYMS:
        if (x in pa.words and y not in pa.words and y in pb.words and x not in pb.words) or (
            y in pa.words and x not in pa.words and x in pb.words and y not in pb.words
        ):
            antonyms += 1.0
    numbers = 1.0 if pa.numbers and pb.numbers and not pa.numbers & pb.numbers else 0.0
    return np.array(
        [
            cosine,
            *clause_cosines,
            _jaccard(pa.tokens, pb.tokens),
            len(shared) / smaller if smaller else 0.0,
            _jaccard(pa.mistake, pb.mistake),
            _jaccard(pa.remedy, pb.remedy),
            error_class,
            antonyms,
            float(abs(pa.negations - pb.negations)),
            numbers,
            len(pa.tokens - pb.tokens) / len(pa.tokens) if pa.tokens else 0.0,
            len(pb.tokens - pa.tokens) / len(pb.tokens) if pb.tokens else 0.0,
        ]
    )


def no_cause(text: str) -> bool:
    """An extracted guard whose run named no cause: only its condition and remedy say anything."""
    return clauses(text)[0] in NO_CAUSE_RULES


@dataclass(frozen=True)
class GuardMatcher:
    """The fitted model: standardized features, logistic weights, a decision threshold; and, when
    served, the cross-encoder that replaces its probability (`threshold` is then the cross-encoder's)."""

    mean: Vector
    scale: Vector
    weights: Vector
    bias: float
    threshold: float
    candidate_floor: float
    remedy_only_threshold: float
    pair_model: GuardPairModel | None = None

    def with_pair_model(self, model: GuardPairModel) -> GuardMatcher:
        """This matcher deciding by `model`'s probability at `model`'s threshold."""
        return replace(self, pair_model=model, threshold=model.threshold)

    def scored_pairs(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
        """The pairs `probability` asks the cross-encoder about (a remedy-only pair it does not)."""
        return [(a, b) for a, b in pairs if a != b and not (no_cause(a) or no_cause(b))]

    @classmethod
    def from_json(cls, data: dict[str, object]) -> GuardMatcher:
        if list(data["features"]) != list(FEATURES):  # type: ignore[call-overload]
            raise ValueError(f"{WEIGHTS_PATH.name} was fitted on other features; rerun bench/guard_dedup.py")
        return cls(
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            weights=np.asarray(data["weights"], dtype=np.float64),
            bias=float(data["bias"]),  # type: ignore[arg-type]
            threshold=float(data["threshold"]),  # type: ignore[arg-type]
            candidate_floor=float(data["candidate_floor"]),  # type: ignore[arg-type]
            remedy_only_threshold=float(data["remedy_only_threshold"]),  # type: ignore[arg-type]
        )

    def probabilities(self, rows: npt.NDArray[np.float64]) -> Vector:
        z = ((rows - self.mean) / self.scale) @ self.weights + self.bias
        return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)

    def probability(self, a: str, b: str, cosine: float, clause_cosines: tuple[float, float, float]) -> float:
        """The probability that `a` and `b` say the same (the cross-encoder's when served); a
        remedy-only pair scores 1 or 0."""
        if no_cause(a) or no_cause(b):
            conflict = features(a, b, cosine, clause_cosines)[FEATURES.index("error_class")] < 0
            return 1.0 if clause_cosines[1] >= self.remedy_only_threshold and not conflict else 0.0
        if self.pair_model is not None:
            return self.pair_model.probability(a, b)
        return float(self.probabilities(features(a, b, cosine, clause_cosines)[None, :])[0])

    def logistic(self, a: str, b: str, cosine: float, clause_cosines: tuple[float, float, float]) -> float:
        """The model's probability without the remedy-only rule (for a pair already known to come
        from the same failure, app/evolution/merge.py: a rule without a cause is then compared whole)."""
        return float(self.probabilities(features(a, b, cosine, clause_cosines)[None, :])[0])

    def best(
        self,
        text: str,
        others: Sequence[str],
        cosines: Sequence[float],
        *,
        clause_cosines: Sequence[tuple[float, float, float] | None],
    ) -> tuple[int, float]:
        """The index of the guard among `others` most likely to mean the same as `text`, and that
        probability (-1, 0.0 when none reaches the candidate floor). A pair without clause cosines
        uses its whole cosine for each."""
        candidates = [i for i, c in enumerate(cosines) if c >= self.candidate_floor]
        if not candidates:
            return -1, 0.0
        scores = np.array(
            [
                self.probability(
                    text, others[i], float(cosines[i]), clause_cosines[i] or (float(cosines[i]),) * 3
                )
                for i in candidates
            ]
        )
        top = int(np.argmax(scores))
        return candidates[top], float(scores[top])


@lru_cache(maxsize=1)
def default_matcher() -> GuardMatcher:
    return GuardMatcher.from_json(json.loads(WEIGHTS_PATH.read_text()))
