"""CPU-heavy pure functions off the event loop.

A thread is enough for small inputs, but a thread running Python holds the GIL: while it redacts and
hashes a megabyte of trajectory (tens of ms), the event loop only gets the interpreter back every
switch interval, and every other request, /healthz included, waits its turn several times over
(50-250 ms stalls measured on this 2-core machine by tests/trajectories/test_hostile_text.py). Large
inputs therefore go to a worker process of their own, started with each serving process.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")

# Below this many characters of text a thread costs less than shipping the input to a process.
PROCESS_THRESHOLD = 64 * 1024


def _import(module: str) -> None:
    importlib.import_module(module)


class CpuPool:
    """`processes` worker processes for large inputs; with 0, everything runs in threads."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, size: int, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` in a thread, or in the worker process when `size` is large.

        `fn` and its arguments must be picklable when `size` reaches PROCESS_THRESHOLD.
        """
        if size < PROCESS_THRESHOLD or self.processes == 0:
            return await asyncio.to_thread(fn, *args, **kwargs)
        pool = self._start()
        return await asyncio.get_running_loop().run_in_executor(pool, partial(fn, *args, **kwargs))

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the serving process runs threads (uvicorn, onnxruntime, psycopg).
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context)
        return self._pool

    def warm(self, module: str) -> None:
        """Start the worker process and import `module` there now, not on the first large request."""
        if self.processes:
            self._start().submit(_import, module)

    def close(self) -> None:
        """Stop the worker process (the pool may start a new one if used again)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# Threads only: for the command line and other one-shot callers, which own no worker process.
THREADS = CpuPool(processes=0)
