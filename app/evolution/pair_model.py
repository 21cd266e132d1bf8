"""The guard-pair cross-encoder: served on request (GENEBANK_GUARD_MODEL_DIR), in place of the logistic
model's probability.

A cross-encoder reads both guards at once ("[CLS] a [SEP] b [SEP]", one logit), so it sees "with"
against "without" where two separate embeddings blur them. bench/guard_pair_model.py fine-tunes one
from the local all-MiniLM-L6-v2 weights on the train split of bench/data/guard_pairs.jsonl (`make
guard-model`) and writes a directory: weights, tokenizer, and a manifest (`genebank-guard-model.json`)
with the decision threshold chosen on held-out train scenarios. No weights ship with the registry:
they are produced where it runs, and unset, the worker keeps the logistic model
(app/evolution/guard_match.py).

Serving needs neither torch nor transformers. The model is exported to ONNX once, by a child process
(app/embeddings/export.py), into the models directory under a name carrying a fingerprint of its
weights (`guard-pair+<16 hex>.onnx`); onnxruntime runs it and the `tokenizers` library reads its
tokenizer.json. A pair's probability is the mean of the sigmoids of both orders (the model was trained
on both), so it is symmetric, and it is cached per pair: the worker scores a merge's candidate pairs in
a thread before planning it (app/evolution/service.py), and the plan reads them from the cache.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.embeddings.export import export_in_child
from app.embeddings.model import WEIGHT_FILES, ModelUnavailable, weights_fingerprint

log = logging.getLogger(__name__)

MANIFEST_FILE = "genebank-guard-model.json"
KIND = "guard-pair cross-encoder"
# Tokens per pair (both guards, longest first truncated): what it was trained with.
MAX_LENGTH = 128
# Pairs scored in one onnxruntime run.
BATCH = 32
CACHE_SIZE = 1 << 16

_FIX = "point it at a directory written by bench/guard_pair_model.py (`make guard-model`), or unset it"


@dataclass(frozen=True)
class GuardPairSpec:
    """A checked GENEBANK_GUARD_MODEL_DIR: where the weights are, what they are, where to cut."""

    directory: Path
    fingerprint: str
    threshold: float
    manifest: dict[str, Any]

    @property
    def onnx_file(self) -> str:
        return f"guard-pair+{self.fingerprint}.onnx"


def guard_pair_spec(directory: Path) -> GuardPairSpec:
    """The model in `directory`, checked; ModelUnavailable names what is missing and the fix."""
    directory = directory.expanduser().resolve()
    where = f"GENEBANK_GUARD_MODEL_DIR ({directory})"
    if not directory.is_dir():
        raise ModelUnavailable(f"{where} is not a directory: {_FIX}")
    if not any((directory / name).is_file() for name in WEIGHT_FILES):
        raise ModelUnavailable(f"{where} holds no weights ({' or '.join(WEIGHT_FILES)}): {_FIX}")
    if not (directory / "tokenizer.json").is_file():
        raise ModelUnavailable(f"{where} holds no tokenizer.json: {_FIX}")
    try:
        manifest = json.loads((directory / MANIFEST_FILE).read_text())
    except (OSError, ValueError) as error:
        raise ModelUnavailable(f"{where} has no readable {MANIFEST_FILE} ({error}): {_FIX}") from None
    fingerprint = weights_fingerprint(directory)
    threshold = manifest.get("threshold") if isinstance(manifest, dict) else None
    if not isinstance(manifest, dict) or manifest.get("kind") != KIND:
        raise ModelUnavailable(f"{where}: {MANIFEST_FILE} is not a {KIND}'s manifest: {_FIX}")
    if manifest.get("fingerprint") != fingerprint:
        raise ModelUnavailable(
            f"{where}: {MANIFEST_FILE} was written for other weights ({manifest.get('fingerprint')},"
            f" the directory's are {fingerprint}): rerun `make guard-model`"
        )
    if not isinstance(threshold, int | float) or not 0.0 < threshold < 1.0 or math.isnan(threshold):
        raise ModelUnavailable(f"{where}: {MANIFEST_FILE} has no threshold between 0 and 1: {_FIX}")
    return GuardPairSpec(directory, fingerprint, float(threshold), manifest)


class GuardPairModel:
    """The cross-encoder of a spec, run with onnxruntime; thread-safe, its session built on first use."""

    def __init__(self, spec: GuardPairSpec, models_dir: Path, *, threads: int = 1) -> None:
        self.spec = spec
        self.models_dir = models_dir
        self.threads = threads
        self._session: Any = None
        self._load_lock = threading.Lock()
        self._cache: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._local = threading.local()

    @property
    def threshold(self) -> float:
        return self.spec.threshold

    @property
    def name(self) -> str:
        return f"guard-pair+{self.spec.fingerprint}"

    def load(self) -> None:
        """Export the model (once, in a child process) and open its session; idempotent."""
        with self._load_lock:
            if self._session is not None:
                return
            import onnxruntime

            target = self.models_dir / self.spec.onnx_file
            if not target.exists():
                log.info(
                    "exporting the guard-pair model to ONNX in %s (once, in a child process)", self.models_dir
                )
                arguments = ["--cross-encoder", str(self.spec.directory)]
                export_in_child(self.models_dir, arguments, target, "the guard-pair model")
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = self.threads or min(4, os.cpu_count() or 1)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session = onnxruntime.InferenceSession(
                str(target), options, providers=["CPUExecutionProvider"]
            )

    def _tokenizer(self) -> Any:
        tokenizer = getattr(self._local, "tokenizer", None)
        if tokenizer is None:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self.spec.directory / "tokenizer.json"))
            tokenizer.enable_truncation(max_length=MAX_LENGTH, strategy="longest_first")
            tokenizer.no_padding()
            self._local.tokenizer = tokenizer
        return tokenizer

    def _logits(self, pairs: Sequence[tuple[str, str]]) -> npt.NDArray[np.float64]:
        self.load()
        encodings = self._tokenizer().encode_batch(list(pairs))
        logits = np.empty(len(pairs), dtype=np.float64)
        order = sorted(range(len(pairs)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), BATCH):
            run = order[start : start + BATCH]
            width = max(len(encodings[i].ids) for i in run)
            ids = np.zeros((len(run), width), dtype=np.int64)
            types = np.zeros_like(ids)
            mask = np.zeros_like(ids)
            for row, index in enumerate(run):
                encoding = encodings[index]
                ids[row, : len(encoding.ids)] = encoding.ids
                types[row, : len(encoding.ids)] = encoding.type_ids
                mask[row, : len(encoding.ids)] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            logits[run] = self._session.run(None, feed)[0]
        return logits

    def score(self, pairs: Sequence[tuple[str, str]]) -> npt.NDArray[np.float64]:
        """Each pair's probability of saying the same (mean of both orders), uncached."""
        if not pairs:
            return np.zeros(0, dtype=np.float64)
        both = self._logits([*pairs, *((b, a) for a, b in pairs)])
        probabilities = 1.0 / (1.0 + np.exp(-both))
        return np.asarray((probabilities[: len(pairs)] + probabilities[len(pairs) :]) / 2, dtype=np.float64)

    def prepare(self, pairs: Iterable[tuple[str, str]]) -> int:
        """Score and cache the pairs not cached yet (call it off the event loop); how many were scored."""
        with self._cache_lock:
            missing = sorted({key for a, b in pairs if (key := _key(a, b)) not in self._cache})
        if not missing:
            return 0
        scored = self.score(missing)
        with self._cache_lock:
            for key, value in zip(missing, scored, strict=True):
                self._cache[key] = float(value)
                self._cache.move_to_end(key)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return len(missing)

    def probability(self, a: str, b: str) -> float:
        """The cached probability of a pair (scored now, on this thread, if `prepare` missed it)."""
        key = _key(a, b)
        with self._cache_lock:
            cached = self._cache.get(key)
        if cached is not None:
            return cached
        log.debug("guard pair scored outside prepare()")
        value = float(self.score([key])[0])
        with self._cache_lock:
            self._cache[key] = value
        return value


def _key(a: str, b: str) -> tuple[str, str]:
    # The probability is symmetric (both orders averaged): one cache entry per unordered pair.
    return (a, b) if a <= b else (b, a)
