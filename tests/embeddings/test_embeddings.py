"""The embedding service: real model, normalised vectors, cache, batching, and the ONNX backends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.embeddings import EmbeddingService
from app.embeddings.base import Vectors
from app.embeddings.onnx_backend import OnnxEmbedder

TEXTS = [
    "pytest-asyncio tests hang forever because an await never returns",
    "Do not raise the global timeout: the verifier caps runtime at 60 s",
    "Compute 2^402 mod 1000 with the Chinese remainder theorem",
    "Could not get lock /var/lib/dpkg/lock-frontend",
    "Answer with exactly one JSON object and nothing else",
]


class CountingEmbedder:
    """Wraps the real model and counts the calls that reach it."""

    def __init__(self, inner: EmbeddingService) -> None:
        self.inner = inner.embedder
        self.name = inner.name
        self.calls: list[int] = []

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(len(texts))
        return self.inner.encode(texts)


async def test_vectors_are_normalised_and_meaningful(embeddings: EmbeddingService) -> None:
    vectors = await embeddings.embed_texts(TEXTS)
    assert vectors.shape == (5, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    paraphrase = await embeddings.embed_query("my async pytest suite never finishes, an await blocks")
    similarities = vectors @ paraphrase
    assert int(np.argmax(similarities)) == 0


async def test_queries_are_cached_and_batched(embeddings: EmbeddingService) -> None:
    counting = CountingEmbedder(embeddings)
    service = EmbeddingService(counting, cache_size=3)
    try:
        results = await asyncio.gather(*(service.embed_query(text) for text in TEXTS))
        # Concurrent queries share encode calls instead of queueing one by one.
        assert sum(counting.calls) == 5 and len(counting.calls) < 5
        direct = embeddings.embedder.encode(TEXTS)
        for got, expected in zip(results, direct, strict=True):
            assert float(got @ expected) > 0.9999
        before = len(counting.calls)
        again = await service.embed_query(TEXTS[-1])
        assert len(counting.calls) == before and again is results[-1]
        await service.embed_query(TEXTS[0])  # evicted by the LRU bound of 3
        assert len(counting.calls) == before + 1
    finally:
        service.close()


async def test_encode_failures_reach_every_waiter(embeddings: EmbeddingService) -> None:
    class Broken:
        name = "broken"

        def encode(self, texts: Sequence[str]) -> Vectors:
            raise RuntimeError("model unavailable")

    service = EmbeddingService(Broken())
    try:
        outcomes = await asyncio.gather(*(service.embed_query(t) for t in TEXTS[:3]), return_exceptions=True)
        assert all(isinstance(o, RuntimeError) for o in outcomes)
    finally:
        service.close()


@pytest.mark.slow
def test_onnx_backends_agree_with_the_reference(embeddings: EmbeddingService, tmp_path: Path) -> None:
    reference = embeddings.embedder.encode(TEXTS)
    fp32 = OnnxEmbedder(tmp_path, quantized=False)
    int8 = OnnxEmbedder(tmp_path, quantized=True)
    assert fp32.name == embeddings.name and int8.name.endswith("#int8")
    assert np.min(np.sum(fp32.encode(TEXTS) * reference, axis=1)) > 0.9999
    assert np.min(np.sum(int8.encode(TEXTS) * reference, axis=1)) > 0.98
    assert (tmp_path / "all-MiniLM-L6-v2.onnx").exists()
