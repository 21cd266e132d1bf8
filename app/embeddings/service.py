"""Async access to an embedder: one service per process, batching concurrent requests.

Every path that embeds (publish, search, match, the evolution worker, re-embedding) goes through
the process's one EmbeddingService. Requests do not call the model themselves: their texts join a
queue, and `lanes` executor threads take batches of at most `batch_size` texts from it, oldest
first, so that concurrent requests share model runs (the way inference servers batch). A free lane
that finds fewer than `batch_size` texts waiting holds the oldest for at most `wait_ms` to gather
more; texts that queued while every lane was busy have waited already and go at once. The backend
sorts each batch by token count and caps its padding (app/embeddings/onnx_backend.py); a request's
own texts are queued shortest first, so a bulk request is cut into batches of similar lengths.

Bulk requests (POST /v1/genes/batch: hundreds of texts in one call, `submit_texts`) queue apart:
a lane takes them only when no live request (a search, a publish) is waiting, so a backfill does not
hold up the queries behind it. `PrefetchedEmbeddings` lets the single-item code run unchanged on
vectors queued ahead by such a call.

The model runs in the executor threads (onnxruntime and the tokenizer release the GIL), never on
the event loop. Queries are also kept in an LRU cache. Defaults measured by bench/embedding.py.
"""

from __future__ import annotations

import asyncio
import contextlib
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
        self._bulk: deque[_Item] = deque()  # submit_texts: taken when no live text waits
        self._busy = 0
        self._timer: asyncio.TimerHandle | None = None
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

    async def embed_many(self, texts: Sequence[str]) -> list[Vectors]:
        """One vector per text, in order, like `embed_query` for each (cached), but the texts the
        cache does not hold are queued together, shortest first: a lane takes them as one batch
        instead of one model run per text."""
        found: dict[str, Vectors] = {}
        for text in texts:
            cached = self._cache.get(text)
            if cached is not None:
                self._cache.move_to_end(text)
                found[text] = cached
        missing = sorted({text for text in texts if text not in found}, key=len)
        if missing:
            for text, vector in zip(missing, await asyncio.gather(*self._submit(missing)), strict=True):
                found[text] = vector
                self._remember(text, vector)
        return [found[text] for text in texts]

    def in_hand(self, text: str) -> Vectors | None:
        """A vector this object holds for `text` without asking the encoder (KnownEmbeddings)."""
        return None

    async def embed_texts(self, texts: Sequence[str]) -> Vectors:
        """Vectors for documents (Genes, guards), in order; not cached."""
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        futures = self._submit([texts[index] for index in order])
        vectors = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
        vectors[order] = np.stack(await asyncio.gather(*futures))
        return vectors

    def submit_texts(self, texts: Sequence[str], window: int = 64) -> list[asyncio.Future[Vectors]]:
        """Queue a bulk request's texts at once, behind live requests; one future per text, in order.

        Texts are queued shortest first within each `window` of consecutive texts: runs hold texts
        of similar lengths, and the first texts' vectors arrive first (the caller uses them in order
        while the rest encode). Cancel the futures not awaited (PrefetchedEmbeddings.close).
        """
        order: list[int] = []
        for start in range(0, len(texts), window):
            order.extend(sorted(range(start, min(start + window, len(texts))), key=lambda i: len(texts[i])))
        queued = self._submit([texts[index] for index in order], bulk=True)
        futures: list[asyncio.Future[Vectors]] = [queued[0]] * len(texts) if texts else []
        for index, future in zip(order, queued, strict=True):
            futures[index] = future
        return futures

    def _submit(self, texts: Sequence[str], *, bulk: bool = False) -> list[asyncio.Future[Vectors]]:
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        futures: list[asyncio.Future[Vectors]] = [loop.create_future() for _ in texts]
        queue = self._bulk if bulk else self._pending
        queue.extend((text, future, now) for text, future in zip(texts, futures, strict=True))
        self._dispatch()
        return futures

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.lanes:
            while self._pending and self._pending[0][1].done():  # its request was cancelled
                self._pending.popleft()
            while self._bulk and self._bulk[0][1].done():
                self._bulk.popleft()
            if not self._pending:
                if self._bulk:
                    self._start(self._take(self._bulk))
                    continue
                return
            if len(self._pending) < self.batch_size and self.wait > 0:
                due = self._pending[0][2] + self.wait
                if time.monotonic() < due:
                    if self._timer is None:
                        self._timer = loop.call_at(loop.time() + (due - time.monotonic()), self._wake)
                    return
            self._start(self._take(self._pending))

    def _take(self, queue: deque[_Item]) -> list[_Item]:
        batch: list[_Item] = []
        while queue and len(batch) < self.batch_size:
            item = queue.popleft()
            if not item[1].done():
                batch.append(item)
        return batch

    def _start(self, batch: list[_Item]) -> None:
        if not batch:
            return
        self._busy += 1
        self.batches += 1
        loop = asyncio.get_running_loop()
        try:
            self._executor.submit(self._encode, loop, batch)
        except RuntimeError as exc:  # the executor is shut down (close): nobody will encode them
            self._busy -= 1
            for _, future, _ in batch:
                future.set_exception(exc)

    def _wake(self) -> None:
        self._timer = None
        self._dispatch()

    def _encode(self, loop: asyncio.AbstractEventLoop, batch: list[_Item]) -> None:
        """In a lane: one model run, its outcome handed straight back to the loop (one hop each way:
        no task or wrapped future in between, which cost a loop pass apiece for every search)."""
        outcome: Vectors | BaseException
        try:
            outcome = self.embedder.encode([text for text, _, _ in batch])
        except BaseException as exc:  # every waiter must hear about the failure
            outcome = exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            loop.call_soon_threadsafe(self._finish, batch, outcome)

    def _finish(self, batch: list[_Item], outcome: Vectors | BaseException) -> None:
        try:
            if isinstance(outcome, BaseException):
                for _, future, _ in batch:
                    if not future.done():
                        future.set_exception(outcome)
            else:
                for (_, future, _), vector in zip(batch, outcome, strict=True):
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


class KnownEmbeddings(EmbeddingService):
    """The process's service with some vectors already in hand (computed ahead, in a batch with
    others): documents among them are not encoded again; any other text goes to the service."""

    def __init__(self, service: EmbeddingService, known: dict[str, Vectors]) -> None:
        # Deliberately not EmbeddingService.__init__: no executor or queue of its own.
        self.service = service
        self.embedder = service.embedder
        self.name = service.name
        self.known = known

    def in_hand(self, text: str) -> Vectors | None:
        known = self.known.get(text)
        return known if known is not None else self.service.in_hand(text)

    async def embed_query(self, text: str) -> Vectors:
        known = self.known.get(text)
        return known if known is not None else await self.service.embed_query(text)

    async def embed_many(self, texts: Sequence[str]) -> list[Vectors]:
        missing = [text for text in dict.fromkeys(texts) if text not in self.known]
        found = dict(zip(missing, await self.service.embed_many(missing), strict=True)) if missing else {}
        return [self.known[text] if text in self.known else found[text] for text in texts]

    async def embed_texts(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        missing = [text for text in dict.fromkeys(texts) if text not in self.known]
        found = dict(zip(missing, await self.service.embed_texts(missing), strict=True)) if missing else {}
        return np.stack([self.known[text] if text in self.known else found[text] for text in texts])

    def close(self) -> None:
        """Nothing to release: the service belongs to the process."""


class PrefetchedEmbeddings(EmbeddingService):
    """A bulk request's view of the process's service: its texts queued at once (`submit_texts`),
    each vector awaited when the single-item code asks for it; any other text goes to the service.

    It stands in for the EmbeddingService it wraps (same model, same name) for the span of one
    request and owns no lanes: `close` only drops what the request no longer needs.
    """

    def __init__(self, service: EmbeddingService, texts: Sequence[str]) -> None:
        # Deliberately not EmbeddingService.__init__: no executor or queue of its own.
        self.service = service
        self.embedder = service.embedder
        self.name = service.name
        unique = list(dict.fromkeys(texts))
        self._futures = dict(zip(unique, service.submit_texts(unique), strict=True))

    async def embed_query(self, text: str) -> Vectors:
        return await self.service.embed_query(text)

    async def embed_many(self, texts: Sequence[str]) -> list[Vectors]:
        return list(await self.embed_texts(texts)) if texts else []

    async def embed_texts(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        missing = [text for text in texts if text not in self._futures]
        others = iter(await self.service.embed_texts(missing)) if missing else iter(())
        # Shielded: a caller cancelled (a refused item) must not cancel a vector another item shares.
        return np.stack(
            [
                await asyncio.shield(self._futures[text]) if text in self._futures else next(others)
                for text in texts
            ]
        )

    def close(self) -> None:
        """Withdraw the texts not encoded yet (a refused batch, a client gone); the service runs on."""
        for future in self._futures.values():
            future.cancel()
