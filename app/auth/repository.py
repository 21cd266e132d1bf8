"""SQL for API keys and the audit log."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row
from sqlalchemy import func, literal, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import SYSTEM_KEY_ID, ApiKey, AuditEntry

_BY_PREFIX = "SELECT id, name, role, key_hash, revoked_at, consumer_model FROM api_keys WHERE prefix = %s"
# At most one write a minute per key: last_used_at is for humans, not an access log.
_TOUCH = (
    "UPDATE api_keys SET last_used_at = now() WHERE id = %s "
    "AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')"
)
_AUDIT = (
    "INSERT INTO audit_log (key_id, actor, role, action, target, client, method, path, status, detail) "
    "VALUES (%(key_id)s, %(actor)s, %(role)s, %(action)s, %(target)s, %(client)s, %(method)s, %(path)s, "
    "%(status)s, %(detail)s)"
)
_AUDIT_REPEATS = (
    "INSERT INTO audit_log (key_id, actor, role, action, target, client, method, path, status, detail, "
    "repeat_count, first_at, last_at) "
    "VALUES (%(key_id)s, %(actor)s, %(role)s, %(action)s, %(target)s, %(client)s, %(method)s, %(path)s, "
    "%(status)s, %(detail)s, %(repeat_count)s, %(first_at)s, %(last_at)s)"
)


class KeyLookup:
    """The per-request path (authentication, audit) on a plain autocommit connection."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def by_prefix(self, prefix: str) -> dict[str, Any] | None:
        async with self.conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_BY_PREFIX, (prefix,))
            return await cursor.fetchone()

    async def touch(self, key_id: uuid.UUID) -> None:
        await self.conn.execute(_TOUCH, (key_id,))

    async def audit(self, entry: dict[str, Any]) -> None:
        await self.conn.execute(_AUDIT, entry)

    async def audit_repeats(self, entries: Sequence[dict[str, Any]]) -> None:
        """Entries standing for several identical refusals (repeat_count, first_at, last_at)."""
        async with self.conn.cursor() as cursor:
            await cursor.executemany(_AUDIT_REPEATS, entries)


# Any constant works; it only has to be the same for every Genebank process sharing a database.
BOOTSTRAP_LOCK_KEY = 0x67656E66


class KeyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, key: ApiKey) -> ApiKey:
        self.session.add(key)
        await self.session.flush()
        await self.session.refresh(key)
        return key

    async def lock_bootstrap(self) -> None:
        """Serialize first starts: API processes starting together on an empty registry make one key."""
        await self.session.execute(select(func.pg_advisory_xact_lock(BOOTSTRAP_LOCK_KEY)))

    async def count_active(self) -> int:
        return int(
            await self.session.scalar(
                select(func.count())
                .select_from(ApiKey)
                .where(ApiKey.revoked_at.is_(None), ApiKey.id != SYSTEM_KEY_ID)
            )
            or 0
        )

    async def list(self, *, include_revoked: bool) -> Sequence[ApiKey]:
        # populate_existing: last_used_at is written on another connection by the access middleware.
        # The system key is not a key anyone holds: it owns what the command line wrote.
        stmt = (
            select(ApiKey)
            .where(ApiKey.id != SYSTEM_KEY_ID)
            .order_by(ApiKey.created_at, ApiKey.id)
            .execution_options(populate_existing=True)
        )
        if not include_revoked:
            stmt = stmt.where(ApiKey.revoked_at.is_(None))
        return (await self.session.scalars(stmt)).all()

    async def get(self, key_id: uuid.UUID) -> ApiKey | None:
        return await self.session.get(ApiKey, key_id)

    async def owners(self, key_ids: set[uuid.UUID]) -> dict[uuid.UUID, str | None]:
        """The recorded owner of each key (None when the admin who issued it recorded none)."""
        rows = await self.session.execute(select(ApiKey.id, ApiKey.owner).where(ApiKey.id.in_(key_ids)))
        return {key_id: owner for key_id, owner in rows.all()}

    async def revoke(self, key_id: uuid.UUID) -> None:
        await self.session.execute(update(ApiKey).where(ApiKey.id == key_id).values(revoked_at=func.now()))

    async def add_audit(self, entry: AuditEntry) -> None:
        self.session.add(entry)
        await self.session.flush()

    async def audit_page(
        self,
        *,
        limit: int,
        before: tuple[datetime, int] | None,
        key_id: uuid.UUID | None,
        action: str | None,
        target: str | None,
        since: datetime | None,
        until: datetime | None,
        failed: bool | None,
    ) -> Sequence[AuditEntry]:
        """Newest first; `before` is the (at, id) of the last entry of the previous page."""
        stmt = select(AuditEntry)
        if key_id is not None:
            stmt = stmt.where(AuditEntry.key_id == key_id)
        if action is not None:
            stmt = stmt.where(AuditEntry.action == action)
        if target is not None:
            stmt = stmt.where(AuditEntry.target == target)
        if since is not None:
            stmt = stmt.where(AuditEntry.at >= since)
        if until is not None:
            stmt = stmt.where(AuditEntry.at < until)
        if failed is not None:
            stmt = stmt.where(AuditEntry.status >= 400 if failed else AuditEntry.status < 400)
        if before is not None:
            stmt = stmt.where(
                tuple_(AuditEntry.at, AuditEntry.id) < tuple_(literal(before[0]), literal(before[1]))
            )
        stmt = stmt.order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(limit)
        return (await self.session.scalars(stmt)).all()
