"""The reference backend: sentence-transformers on PyTorch (CPU)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from app.embeddings.base import Vectors
from app.embeddings.model import embedding_model


class SentenceTransformerEmbedder:
    def __init__(
        self, batch_size: int = 64, threads: int | None = None, model_dir: Path | None = None
    ) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        if threads is not None:
            torch.set_num_threads(threads)
        self.batch_size = batch_size
        # The stock weights unless `model_dir` (GENEBANK_EMBEDDING_MODEL_DIR) names a fine-tune.
        self.model_info = embedding_model(model_dir)
        self.name = self.model_info.name
        self.model = SentenceTransformer(str(self.model_info.directory), device="cpu")

    def encode(self, texts: Sequence[str]) -> Vectors:
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
