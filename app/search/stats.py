"""Refreshing the lexeme statistics the keyword and signal stages choose their terms by."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import psycopg

log = logging.getLogger(__name__)

# Any constant works, as long as every Genebank process uses the same one.
REFRESH_LOCK_KEY = 0x67656E66
VIEWS = ("search_term_stats", "signal_term_stats")


async def refresh_term_stats(conn: psycopg.AsyncConnection[Any]) -> bool:
    """Refresh both views unless another process is doing it right now (then False)."""
    locked = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (REFRESH_LOCK_KEY,))).fetchone()
    if not locked or not locked[0]:
        return False
    try:
        for view in VIEWS:
            # CONCURRENTLY: searches keep reading the previous figures meanwhile.
            await conn.execute(f"REFRESH MATERIALIZED VIEW CONCURRENTLY {view}")
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (REFRESH_LOCK_KEY,))
    return True


async def refresh_periodically(conninfo: str, every_seconds: float) -> None:
    """Background task of the API: refresh at start, then every `every_seconds`."""
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                if await refresh_term_stats(conn):
                    log.debug("search term statistics refreshed")
        except psycopg.Error:
            log.warning("could not refresh search term statistics; retrying later", exc_info=True)
        await asyncio.sleep(every_seconds)
