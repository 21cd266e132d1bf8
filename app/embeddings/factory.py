"""Build the configured embedder and the process's one EmbeddingService (once, at start-up)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.config import Settings
from app.embeddings.base import Embedder
from app.embeddings.model import EmbeddingModel, embedding_model
from app.embeddings.service import EmbeddingService

log = logging.getLogger(__name__)


def served_model(settings: Settings) -> EmbeddingModel:
    """The configured model, checked: its weights exist and, for a fine-tune, so does its fusion.json;
    so does the guard-pair model's manifest when GENEBANK_GUARD_MODEL_DIR is set.

    Raises ModelUnavailable with the directory and the fix; `genebank serve`, the worker and the
    lifespan call it before the database starts."""
    from app.evolution.pair_model import guard_pair_spec
    from app.search.fusion import fitted_model

    model = embedding_model(settings.embedding_model_dir)
    fitted_model(settings.embedding_model_dir)
    if settings.guard_model_dir is not None:
        guard_pair_spec(settings.guard_model_dir)
    return model


def load_embedder(settings: Settings) -> Embedder:
    # A fine-tuned model without its own fusion weights is refused here, before any weights load.
    served_model(settings)
    if settings.embedding_backend != "torch":
        from app.embeddings.onnx_backend import OnnxEmbedder

        try:
            return OnnxEmbedder(
                settings.embedding_models_dir,
                quantized=settings.embedding_backend == "onnx-int8",
                threads=settings.embedding_threads,
                batch_size=settings.embedding_batch_size,
                batch_tokens=settings.embedding_batch_tokens,
                model_dir=settings.embedding_model_dir,
            )
        except Exception:
            # Without onnxruntime (or a model export) the reference backend still works.
            log.warning("ONNX embedding backend unavailable, using sentence-transformers", exc_info=True)
    from app.embeddings.torch_backend import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(
        threads=settings.embedding_threads,
        batch_size=settings.embedding_batch_size,
        model_dir=settings.embedding_model_dir,
    )


def create_embedding_service(
    settings: Settings, wrap: Callable[[Embedder], Embedder] | None = None
) -> EmbeddingService:
    """The service every path of this process embeds through, with the configured batching.

    `wrap` may decorate the backend (the metrics time each encode); it must be thread-safe."""
    from app.embeddings.onnx_backend import OnnxEmbedder

    embedder = load_embedder(settings)
    # sentence-transformers' tokenizer may not be used by two threads at once: one lane.
    lanes = settings.embedding_lanes if isinstance(embedder, OnnxEmbedder) else 1
    return EmbeddingService(
        wrap(embedder) if wrap is not None else embedder,
        settings.embedding_cache_size,
        lanes=lanes,
        batch_size=settings.embedding_batch_size,
        wait_ms=settings.embedding_batch_wait_ms,
    )
