"""Read replicas: PostgreSQL streaming standbys serve the reads, the primary keeps the writes.

`GENEBANK_READ_DATABASE_URL` names one or more standbys (comma-separated). Fetch, search, match and
the listings read from them in turn; every write, and the key checks, audit and admin pages, stay on
the primary. Scaling reads is then PostgreSQL's own replication, nothing home-made.

**Reading one's own writes.** A standby replays the primary's WAL a little behind it. After a key's
write commits, this process notes the primary's WAL position (`pg_current_wal_lsn()`, one statement
on the same connection); for `GENEBANK_READ_YOUR_WRITES_SECONDS` afterwards, a read by that key
first asks the standby whether it has replayed that far (`pg_last_wal_replay_lsn()`) and goes to the
primary if not. So a publisher fetches the version it just published, a producer lists the run it
just sent, and everyone else reads the standbys without any check. The positions live in this
process: with several API processes, route each key to one of them (nginx `hash $http_authorization
consistent`, docs/scaling.md) or accept a window where another process's read is older.

A standby that cannot be reached is skipped (its reads go to the primary) until it answers again.
"""

from __future__ import annotations

import itertools
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any, TypeVar

import psycopg
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.db import (
    ReadPool,
    create_engine,
    create_read_pool,
    create_sessionmaker,
    replayed,
    session_replayed,
)
from app.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

# Keys whose last write is remembered (the oldest forgotten first): a bound on this process's memory.
MAX_REMEMBERED_WRITERS = 100_000
H = TypeVar("H")
# What a standby that is down or restarting raises on the way to a connection.
UNREACHABLE = (psycopg.OperationalError, OperationalError, DBAPIError, DatabaseUnavailable)
# A standby that failed is left alone this long before it is tried again.
_RETRY_DOWN_SECONDS = 5.0


class Replica:
    def __init__(self, url: str, settings: Settings) -> None:
        self.pool: ReadPool = create_read_pool(url, settings)
        self.engine: AsyncEngine = create_engine(url, settings)
        self.sessionmaker: async_sessionmaker[AsyncSession] = create_sessionmaker(self.engine)
        self.down_until = 0.0

    @property
    def usable(self) -> bool:
        return time.monotonic() >= self.down_until

    def failed(self, error: BaseException) -> None:
        if self.usable:
            log.warning("read replica unavailable, reading from the primary for now: %s", error)
        self.down_until = time.monotonic() + _RETRY_DOWN_SECONDS


class Replicas:
    def __init__(self, urls: list[str], settings: Settings) -> None:
        self.members = [Replica(url, settings) for url in urls]
        self.window = settings.read_your_writes_seconds
        self._turn = itertools.count()
        self._writes: OrderedDict[uuid.UUID, tuple[str, float]] = OrderedDict()
        # Reads served per standby and by the primary instead (for operators and tests).
        self.served = [0] * len(self.members)
        self.fell_back = 0

    async def open(self) -> None:
        # A standby that is down at start is skipped until it answers; the primary serves meanwhile.
        for member in self.members:
            await member.pool.open(wait=False)

    async def close(self) -> None:
        for member in self.members:
            await member.pool.close()
            await member.engine.dispose()

    def wrote(self, key_id: uuid.UUID, lsn: str) -> None:
        """`key_id` committed a write that ends at WAL position `lsn` on the primary."""
        self._writes[key_id] = (lsn, time.monotonic())
        self._writes.move_to_end(key_id)
        while len(self._writes) > MAX_REMEMBERED_WRITERS:
            self._writes.popitem(last=False)

    def must_reach(self, key_id: uuid.UUID | None) -> str | None:
        """The WAL position a read by `key_id` must see, while its last write is recent."""
        if key_id is None:
            return None
        entry = self._writes.get(key_id)
        if entry is None:
            return None
        lsn, at = entry
        if time.monotonic() - at > self.window:
            del self._writes[key_id]
            return None
        return lsn

    def _next(self) -> tuple[int, Replica] | None:
        count = len(self.members)
        start = next(self._turn)
        for offset in range(count):
            index = (start + offset) % count
            if self.members[index].usable:
                return index, self.members[index]
        return None

    async def connection(
        self, stack: AsyncExitStack, key_id: uuid.UUID | None
    ) -> psycopg.AsyncConnection[Any] | None:
        """A standby's psycopg connection entered on `stack`, or None: read from the primary."""
        return await self._enter(stack, key_id, lambda member: member.pool.connection(), replayed)

    async def session(self, stack: AsyncExitStack, key_id: uuid.UUID | None) -> AsyncSession | None:
        """A session on a standby entered on `stack`, or None: read from the primary."""
        # Its first statement also connects: an unreachable standby fails here, not in the handler.
        return await self._enter(stack, key_id, lambda member: member.sessionmaker(), session_replayed)

    async def _enter(
        self,
        stack: AsyncExitStack,
        key_id: uuid.UUID | None,
        open_on: Callable[[Replica], AbstractAsyncContextManager[H]],
        caught_up: Callable[[H, str | None], Awaitable[bool]],
    ) -> H | None:
        """The next usable standby's handle, if it has replayed the caller's last write."""
        chosen = self._next()
        if chosen is not None:
            index, member = chosen
            held = AsyncExitStack()
            try:
                handle = await held.enter_async_context(open_on(member))
                if await caught_up(handle, self.must_reach(key_id)):
                    stack.push_async_exit(held.pop_all())
                    self.served[index] += 1
                    return handle
            except UNREACHABLE as error:
                member.failed(error)
            await held.aclose()
        self.fell_back += 1
        return None
