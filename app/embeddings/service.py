"""Async access to an embedder: one service per process, batching concurrent requests.

Every path that embeds (publish, search, match, the evolution worker, re-embedding) goes through
the process's one EmbeddingService. Requests do not call the model themselves: their texts join a
queue, and `lanes` executor threads take batches of at most `batch_size` texts from it, oldest
first, so that concurrent requests share model runs (the way inference servers batch). A free lane
that finds fewer than `batch_size` texts waiting holds the oldest for at most `wait_ms` to gather
more; texts that queued while every lane was busy have waited already and go at once. The backend
sorts each batch by token count and caps its padding (app/embeddings/onnx_backend.py); a request's
own texts are queued shortest first, so a bulk request is cut into batches of similar lengths.

The model runs in the executor threads (onnxruntime and the tokenizer release the GIL), never on
the event loop. Queries are also kept in an LRU cache. Defaults measured by bench/embedding.py.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from app.embeddings.base import EMBEDDING_DIM, Embedder, Vectors

_Item = tuple[str, "asyncio.Future[Vectors]", float]


class EmbeddingService:
    def __init__(
        self,
        embedder: Embedder,
        cache_size: int = 4096,
        *,
        lanes: int = 1,
        batch_size: int = 64,
        wait_ms: float = 0.0,
    ) -> None:
        """`lanes` > 1 needs an embedder whose `encode` may run in several threads at once."""
        self.embedder = embedder
        self.name = embedder.name
        self.cache_size = cache_size
        self.lanes = lanes
        self.batch_size = batch_size
        self.wait = wait_ms / 1000
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._executor = ThreadPoolExecutor(max_workers=lanes, thread_name_prefix="embedder")
        self._pending: deque[_Item] = deque()
        self._busy = 0
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.batches = 0  # model calls so far (the tests and benchmarks read it)

    async def embed_query(self, text: str) -> Vectors:
        """One vector for a search query (or any single text); repeats come from the LRU cache."""
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        [future] = self._submit([text])
        vector = await future
        self._remember(text, vector)
        return vector

    async def embed_texts(self, texts: Sequence[str]) -> Vectors:
        """Vectors for documents (Genes, guards), in order; not cached."""
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        futures = self._submit([texts[index] for index in order])
        vectors = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
        vectors[order] = np.stack(await asyncio.gather(*futures))
        return vectors

    def _submit(self, texts: Sequence[str]) -> list[asyncio.Future[Vectors]]:
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        futures: list[asyncio.Future[Vectors]] = [loop.create_future() for _ in texts]
        self._pending.extend((text, future, now) for text, future in zip(texts, futures, strict=True))
        self._dispatch()
        return futures

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.lanes:
            while self._pending and self._pending[0][1].done():  # its request was cancelled
                self._pending.popleft()
            if not self._pending:
                return
            if len(self._pending) < self.batch_size and self.wait > 0:
                due = self._pending[0][2] + self.wait
                if time.monotonic() < due:
                    if self._timer is None:
                        self._timer = loop.call_at(loop.time() + (due - time.monotonic()), self._wake)
                    return
            batch: list[_Item] = []
            while self._pending and len(batch) < self.batch_size:
                item = self._pending.popleft()
                if not item[1].done():
                    batch.append(item)
            if batch:
                self._busy += 1
                task = loop.create_task(self._run(batch))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def _wake(self) -> None:
        self._timer = None
        self._dispatch()

    async def _run(self, batch: list[_Item]) -> None:
        try:
            self.batches += 1
            texts = [text for text, _, _ in batch]
            loop = asyncio.get_running_loop()
            try:
                vectors = await loop.run_in_executor(self._executor, self.embedder.encode, texts)
            except Exception as exc:  # every waiter must hear about the failure
                for _, future, _ in batch:
                    if not future.done():
                        future.set_exception(exc)
                return
            for (_, future, _), vector in zip(batch, vectors, strict=True):
                if not future.done():
                    future.set_result(vector)
        finally:
            self._busy -= 1
            self._dispatch()

    def _remember(self, text: str, vector: Vectors) -> None:
        if self.cache_size == 0:
            return
        self._cache[text] = vector
        self._cache.move_to_end(text)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._executor.shutdown(wait=True)
