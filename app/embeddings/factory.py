"""Build the configured embedder (once, at start-up)."""

from __future__ import annotations

import logging

from app.config import Settings
from app.embeddings.base import Embedder

log = logging.getLogger(__name__)


def load_embedder(settings: Settings) -> Embedder:
    if settings.embedding_backend != "torch":
        from app.embeddings.onnx_backend import OnnxEmbedder

        try:
            return OnnxEmbedder(
                settings.embedding_models_dir,
                quantized=settings.embedding_backend == "onnx-int8",
                threads=settings.embedding_threads,
            )
        except Exception:
            # The export needs torch's ONNX exporter; without it the reference backend still works.
            log.warning("ONNX embedding backend unavailable, using sentence-transformers", exc_info=True)
    from app.embeddings.torch_backend import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(threads=settings.embedding_threads)
