"""The reference backend: sentence-transformers on PyTorch (CPU)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from app.embeddings.base import MODEL_NAME, Vectors, bundled_model_dir


class SentenceTransformerEmbedder:
    name = MODEL_NAME

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        if threads is not None:
            torch.set_num_threads(threads)
        self.batch_size = batch_size
        self.model = SentenceTransformer(str(bundled_model_dir()), device="cpu")

    def encode(self, texts: Sequence[str]) -> Vectors:
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
