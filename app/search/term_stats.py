"""Refreshing the lexeme statistics the keyword and signal stages choose their terms by."""

from __future__ import annotations

import asyncio
import logging

import psycopg

from app.search.repository import refresh_term_stats

log = logging.getLogger(__name__)


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
