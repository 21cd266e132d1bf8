"""The admin's one shared statement: the key behind a session. Each page family has its own repository."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
from psycopg.rows import dict_row

_SESSION_KEY = "SELECT name, role, revoked_at FROM api_keys WHERE id = %s"


class SessionKeyLookup:
    """The key behind an admin session, read on every admin request (never cached: revocation is at once).

    A plain autocommit connection, like the API's own key lookups (app/auth/repository.py).
    """

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def key(self, key_id: uuid.UUID) -> dict[str, Any] | None:
        async with self.conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_SESSION_KEY, (key_id,))
            return await cursor.fetchone()
