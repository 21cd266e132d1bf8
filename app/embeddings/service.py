"""Async access to an embedder: encoding off the event loop, micro-batched, with a query cache.

One worker thread owns the model (fast tokenizers refuse concurrent use, and the model's own
intra-op threads already use the cores). Queries that arrive while a batch is encoding wait and go
together in the next batch, which is what keeps throughput up under concurrent search traffic.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from app.embeddings.base import Embedder, Vectors

MAX_BATCH = 64


class EmbeddingService:
    def __init__(self, embedder: Embedder, cache_size: int = 4096) -> None:
        self.embedder = embedder
        self.name = embedder.name
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embedder")
        self._waiting: list[tuple[str, asyncio.Future[Vectors]]] = []
        self._draining = False

    async def embed_query(self, text: str) -> Vectors:
        """One vector for a search query; repeated queries come from the LRU cache."""
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        future: asyncio.Future[Vectors] = asyncio.get_running_loop().create_future()
        self._waiting.append((text, future))
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().create_task(self._drain())
        vector = await future
        self._remember(text, vector)
        return vector

    async def embed_texts(self, texts: Sequence[str]) -> Vectors:
        """Vectors for documents (Genes, guards); not cached, one executor call."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.embedder.encode, list(texts))

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
                texts = [text for text, _ in batch]
                try:
                    vectors = await loop.run_in_executor(self._executor, self.embedder.encode, texts)
                except Exception as exc:  # every waiter must hear about the failure
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), vector in zip(batch, vectors, strict=True):
                    if not future.done():
                        future.set_result(vector)
        finally:
            self._draining = False

    def _remember(self, text: str, vector: Vectors) -> None:
        self._cache[text] = vector
        self._cache.move_to_end(text)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
