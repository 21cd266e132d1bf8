"""The serving backend: the model exported to ONNX and run with onnxruntime.

The export (app/embeddings/export.py) happens once, from the configured model's weights (the
bundled ones unless GENEBANK_EMBEDDING_MODEL_DIR names a fine-tune, app/embeddings/model.py), into
`<data_dir>/models/` under a file name of its own, in a child process: serving needs neither torch
nor transformers (the tokenizer is the `tokenizers` library reading the model's tokenizer.json), and
a server's first start holds no more memory than its later ones. fp32 gives the reference vectors
(cosine ≥ 0.9999 against sentence-transformers); int8 is the dynamically quantized model, compared
by bench/embedding.py.

`encode` may be called from several threads at once (one onnxruntime session serves concurrent
runs; each thread has its own tokenizer). It sorts its texts by token count and splits them into
runs of at most `batch_size` texts and `batch_tokens` tokens (padding included) whose padding stays
under `max_padding` of the real tokens. On a CPU a bigger run is not cheaper per token past a few
hundred tokens (bench/embedding.py: Gene texts of ~94 tokens encode fastest alone, queries of ~30
tokens twice as fast by eight), so the token budget, not the text count, bounds a run.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.embeddings.base import EMBEDDING_DIM, MAX_TOKENS, Vectors
from app.embeddings.export import export_in_child
from app.embeddings.model import EmbeddingModel, embedding_model

log = logging.getLogger(__name__)

# Padding allowed in one run, as a share of its real tokens, before the run is split.
MAX_PADDING = 0.25


def ensure_model(models_dir: Path, quantized: bool, model: EmbeddingModel | None = None) -> Path:
    """The model file, exported first (by a child process, app/embeddings/export.py) if missing."""
    model = model or embedding_model()
    target = models_dir / model.onnx_file(quantized)
    if target.exists():
        return target
    log.info("exporting the embedding model to ONNX in %s (once, in a child process)", models_dir)
    arguments = ["--int8"] if quantized else []
    arguments += [] if model.stock else ["--model-dir", str(model.directory)]
    export_in_child(models_dir, arguments, target, "the embedding model")
    return target


class OnnxEmbedder:
    def __init__(
        self,
        models_dir: Path,
        *,
        quantized: bool = False,
        batch_size: int = 64,
        threads: int | None = None,
        batch_tokens: int = 1 << 30,
        max_padding: float = MAX_PADDING,
        model_dir: Path | None = None,
    ) -> None:
        import onnxruntime

        self.model = embedding_model(model_dir)
        self.name = self.model.name + ("#int8" if quantized else "")
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.max_padding = max_padding
        path = ensure_model(models_dir, quantized, self.model)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        # Idle intra-op threads sleep instead of spinning: the cores are shared with the event loop,
        # PostgreSQL and the other encodes running at once.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._local = threading.local()

    def _tokenizer(self) -> Any:
        # A fast tokenizer is not to be shared between threads that encode at the same time.
        tokenizer = getattr(self._local, "tokenizer", None)
        if tokenizer is None:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self.model.directory / "tokenizer.json"))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.no_padding()  # tokenizer.json pads to 128; runs pad to their longest text
            self._local.tokenizer = tokenizer
        return tokenizer

    def encode(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        ids = [encoding.ids for encoding in self._tokenizer().encode_batch(list(texts))]
        vectors = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
        for run in self.runs([len(row) for row in ids]):
            vectors[run] = self._run([ids[index] for index in run])
        # Quantized weights drift the norm slightly; renormalise so cosine stays an inner product.
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors

    def runs(self, lengths: Sequence[int]) -> list[list[int]]:
        """Indices grouped into model runs: by token count, ≤ batch_size texts and ≤ batch_tokens
        tokens each (a longer text runs alone), padding capped."""
        order = sorted(range(len(lengths)), key=lengths.__getitem__)
        runs: list[list[int]] = []
        current: list[int] = []
        real = 0
        for index in order:
            length = lengths[index]
            # Sorted ascending: the newest text is the longest, the one every other is padded to.
            width = length * (len(current) + 1)
            if current and (
                len(current) == self.batch_size
                or width > self.batch_tokens
                or width > (1 + self.max_padding) * (real + length)
            ):
                runs.append(current)
                current, real = [], 0
            current.append(index)
            real += length
        if current:
            runs.append(current)
        return runs

    def _run(self, ids: list[list[int]]) -> npt.NDArray[np.float32]:
        width = max(len(row) for row in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, tokens in enumerate(ids):
            input_ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}
        output: npt.NDArray[np.float32] = self.session.run(None, feed)[0]
        return output
