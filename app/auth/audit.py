"""The audit trail of the API and the admin pages: entries written on their own autocommit connection.

Repeated identical refusals are aggregated, not dropped. A refusal (401, 403, 413, 429) is written at
once the first time it happens; the same refusal again (same client address, key, action, target and
status) is only counted in memory, and every `flush_seconds` (and at shutdown) the repeats since the
last flush are written as one entry with `repeat_count` and the times of the first and last of them.
A flood of 1,000 keyless writes from one address thus costs a handful of rows, not 1,000, and the log
still says how many there were, from where, and when. An entry with no repeat since the last flush is
forgotten, so the next occurrence is written at once again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import psycopg

from app.auth.repository import KeyLookup
from app.errors import database_unavailable

log = logging.getLogger(__name__)

AGGREGATED_STATUSES = frozenset({401, 403, 413, 429})
# Distinct refusals kept in memory at once; past it a refusal is written as it comes.
MAX_TRACKED = 10_000


class ConnectionSource(Protocol):
    def connection(self) -> Any: ...


@dataclass
class _Repeats:
    entry: dict[str, Any]
    count: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None


def _key(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry["client"], entry["key_id"], entry["action"], entry["target"], entry["status"])


class AuditTrail:
    def __init__(self, flush_seconds: float) -> None:
        self.flush_seconds = flush_seconds
        self._repeats: dict[tuple[Any, ...], _Repeats] = {}

    async def record(self, pool: ConnectionSource, entry: dict[str, Any]) -> None:
        """Write the entry, or count it when it repeats a refusal already written. Never raises."""
        if entry["status"] in AGGREGATED_STATUSES:
            key = _key(entry)
            seen = self._repeats.get(key)
            if seen is not None:
                now = datetime.now(UTC)
                seen.count += 1
                seen.first_at = seen.first_at or now
                seen.last_at = now
                return
            if len(self._repeats) < MAX_TRACKED:
                self._repeats[key] = _Repeats(entry)
        try:
            # Its own autocommit statement: a request that failed and rolled back is audited too.
            async with pool.connection() as conn:
                await KeyLookup(conn).audit(entry)
        except Exception as error:  # the answer is known; losing an audit row must be loud, not a 500
            _lost(error, 1, entry)

    def pending(self) -> int:
        """Refusals counted and not yet written."""
        return sum(seen.count for seen in self._repeats.values())

    async def flush(self, pool: ConnectionSource) -> int:
        """Write the repeats counted since the last flush (one entry per refusal); how many entries."""
        rows = []
        for key, seen in list(self._repeats.items()):
            if seen.count == 0:
                del self._repeats[key]  # quiet since the last flush
                continue
            rows.append(
                {**seen.entry, "repeat_count": seen.count, "first_at": seen.first_at, "last_at": seen.last_at}
            )
            seen.count, seen.first_at, seen.last_at = 0, None, None
        if not rows:
            return 0
        try:
            async with pool.connection() as conn:
                await KeyLookup(conn).audit_repeats(rows)
        except Exception as error:
            _lost(error, sum(row["repeat_count"] for row in rows), rows[0])
            return 0
        return len(rows)

    async def run(self, pool: ConnectionSource) -> None:
        """Flush every `flush_seconds` until cancelled (the caller flushes once more at shutdown)."""
        while True:
            await asyncio.sleep(self.flush_seconds)
            await self.flush(pool)


def _lost(error: Exception, count: int, entry: dict[str, Any]) -> None:
    what = f"{count} audit entr{'y' if count == 1 else 'ies'} ({entry['method']} {entry['path']})"
    if database_unavailable(error) or isinstance(error, psycopg.OperationalError):
        log.error("database unavailable: %s not written", what)
    else:
        log.exception("could not write %s", what, exc_info=error)
