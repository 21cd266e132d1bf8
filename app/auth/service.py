"""API keys: creation (shown once), listing, revocation, and authenticating a bearer token."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.keys import NewKey, generate, matches, prefix_of
from app.auth.principal import Principal, Role
from app.auth.repository import KeyLookup, KeyRepository
from app.auth.schemas import AuditCursor, AuditPage, AuditRead
from app.errors import Conflict, NotFound, Unauthorized
from app.models import SYSTEM_KEY_ID, ApiKey, AuditEntry
from app.schemas import CursorCodec

BEARER = {"WWW-Authenticate": 'Bearer realm="genebank"'}
AUDIT_CURSOR = CursorCodec(AuditCursor)


class InvalidKey(Unauthorized):
    code = "invalid-key"
    title = "Invalid API key"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers=BEARER)


@dataclass(frozen=True)
class CreatedKey:
    key: ApiKey
    token: str


class KeyCache:
    """Verified tokens for a few seconds: saves a query per request; a revocation takes that long."""

    def __init__(self, ttl_seconds: float, max_entries: int = 10_000) -> None:
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, Principal]] = {}

    def get(self, token: str) -> Principal | None:
        hit = self._entries.get(token)
        if hit is None or hit[0] < time.monotonic():
            return None
        return hit[1]

    def put(self, token: str, principal: Principal) -> None:
        if len(self._entries) >= self.max_entries:
            self._entries.clear()
        self._entries[token] = (time.monotonic() + self.ttl, principal)

    def forget(self, key_id: uuid.UUID) -> None:
        self._entries = {t: e for t, e in self._entries.items() if e[1].key_id != key_id}


class KeyService:
    async def create(
        self,
        session: AsyncSession,
        *,
        name: str,
        role: Role,
        created_by: uuid.UUID | None,
        consumer_model: str | None = None,
        owner: str | None = None,
        new: NewKey | None = None,
    ) -> CreatedKey:
        """A new key; `new` is a key generated beforehand (the bootstrap admin key file), else one now."""
        if role == Role.anonymous:
            raise ValueError("anonymous is not a key role")
        new = new or generate()
        key = ApiKey(
            name=name,
            role=role.name,
            prefix=new.prefix,
            key_hash=new.digest,
            created_by=created_by,
            consumer_model=consumer_model,
            owner=owner,
        )
        return CreatedKey(await KeyRepository(session).add(key), new.token)

    async def list_keys(self, session: AsyncSession, *, include_revoked: bool = False) -> list[ApiKey]:
        return list(await KeyRepository(session).list(include_revoked=include_revoked))

    async def revoke(self, session: AsyncSession, key_id: uuid.UUID) -> ApiKey:
        repo = KeyRepository(session)
        key = await repo.get(key_id)
        if key is None:
            raise NotFound(f"no API key with id {key_id}")
        if key.id == SYSTEM_KEY_ID:
            raise Conflict("the system key is the command line's own; it cannot be used, nor revoked")
        if key.revoked_at is not None:
            raise Conflict(f"key {key_id} was already revoked")
        await repo.revoke(key_id)
        await session.refresh(key)
        return key

    async def has_keys(self, session: AsyncSession) -> bool:
        return await KeyRepository(session).count_active() > 0

    async def authenticate(
        self, conn: psycopg.AsyncConnection[Any], token: str, cache: KeyCache
    ) -> Principal:
        """The principal behind a bearer token; InvalidKey (401) for unknown, malformed or revoked keys."""
        cached = cache.get(token)
        if cached is not None:
            return cached
        prefix = prefix_of(token)
        if prefix is None:
            raise InvalidKey("the bearer token is not a Genebank API key")
        lookup = KeyLookup(conn)
        row = await lookup.by_prefix(prefix)
        if row is None or not matches(token, row["key_hash"]):
            raise InvalidKey("unknown API key")
        if row["revoked_at"] is not None:
            raise InvalidKey("this API key was revoked")
        await lookup.touch(row["id"])
        principal = Principal(
            key_id=row["id"], name=row["name"], role=Role[row["role"]], consumer_model=row["consumer_model"]
        )
        cache.put(token, principal)
        return principal

    async def audit(
        self,
        session: AsyncSession,
        principal: Principal,
        action: str,
        target: str | None,
        *,
        client: str | None = "cli",
        method: str | None = None,
        path: str | None = None,
        status: int = 200,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Record an action the access middleware does not see (command line, admin pages)."""
        await KeyRepository(session).add_audit(
            AuditEntry(
                key_id=principal.key_id,
                actor=principal.name,
                role=principal.role.name,
                action=action,
                target=target,
                client=client,
                method=method,
                path=path,
                status=status,
                detail=detail,
            )
        )

    async def audit_page(
        self, session: AsyncSession, *, limit: int, cursor: str | None, **filters: Any
    ) -> AuditPage:
        """Newest first; `filters` are those of KeyRepository.audit_page."""
        position = AUDIT_CURSOR.decode(cursor)
        entries = await KeyRepository(session).audit_page(
            limit=limit + 1, before=(position.at, position.id) if position else None, **filters
        )
        page, next_cursor = AUDIT_CURSOR.page(entries, limit, lambda e: AuditCursor(at=e.at, id=e.id))
        return AuditPage(
            items=[AuditRead.model_validate(entry, from_attributes=True) for entry in page],
            next_cursor=next_cursor,
        )


def key_fields(key: ApiKey) -> dict[str, Any]:
    return {
        "id": key.id,
        "name": key.name,
        "role": key.role,
        "consumer_model": key.consumer_model,
        "owner": key.owner,
        "prefix": key.prefix,
        "created_at": key.created_at,
        "created_by": key.created_by,
        "revoked_at": key.revoked_at,
        "last_used_at": key.last_used_at,
    }


key_service = KeyService()
