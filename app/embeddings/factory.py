"""Build the configured embedder (once, at start-up)."""

from __future__ import annotations

from app.config import Settings
from app.embeddings.base import Embedder


def load_embedder(settings: Settings) -> Embedder:
    if settings.embedding_backend == "torch":
        from app.embeddings.torch_backend import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(threads=settings.embedding_threads)
    from app.embeddings.onnx_backend import OnnxEmbedder

    return OnnxEmbedder(
        settings.data_dir / "models",
        quantized=settings.embedding_backend == "onnx-int8",
        threads=settings.embedding_threads,
    )
