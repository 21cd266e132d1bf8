"""The admin API: keys and the audit log."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi import status as http

from app.auth.dependencies import AdminKey
from app.auth.principal import Role
from app.auth.schemas import AuditPage, KeyCreated, KeyIn, KeyRead
from app.auth.service import key_fields, key_service
from app.db import SessionDep
from app.errors import ValidationFailed
from app.jsonbody import JSONRoute
from app.schemas import CursorParam, Limit, page_size
from app.state import settings_of

router = APIRouter(prefix="/v1/admin", tags=["admin"], route_class=JSONRoute)


@router.post("/keys", status_code=http.HTTP_201_CREATED, response_model=KeyCreated)
async def create_key(body: KeyIn, session: SessionDep, admin: AdminKey) -> KeyCreated:
    """Create a key; the answer is the only time the key itself is shown."""
    created = await key_service.create(
        session,
        name=body.name,
        role=Role[body.role],
        created_by=admin.key_id,
        consumer_model=body.consumer_model,
        owner=body.owner,
    )
    return KeyCreated(**key_fields(created.key), key=created.token)


@router.get("/keys", response_model=list[KeyRead])
async def list_keys(
    session: SessionDep, _: AdminKey, include_revoked: Annotated[bool, Query()] = False
) -> list[KeyRead]:
    return [
        KeyRead(**key_fields(key))
        for key in await key_service.list_keys(session, include_revoked=include_revoked)
    ]


@router.delete("/keys/{key_id}", response_model=KeyRead)
async def revoke_key(key_id: uuid.UUID, session: SessionDep, request: Request, _: AdminKey) -> KeyRead:
    """Revoke a key: refused from then on here, within GENEBANK_KEY_CACHE_SECONDS in other processes."""
    revoked = await key_service.revoke(session, key_id)
    request.app.state.key_cache.forget(key_id)
    return KeyRead(**key_fields(revoked))


@router.get("/audit", response_model=AuditPage)
async def audit_log(
    session: SessionDep,
    request: Request,
    _: AdminKey,
    limit: Limit = None,
    cursor: CursorParam = None,
    key_id: uuid.UUID | None = None,
    action: Annotated[str | None, Query(max_length=100)] = None,
    target: Annotated[str | None, Query(max_length=300)] = None,
    since: datetime | None = None,
    until: datetime | None = None,
    failed: bool | None = None,
) -> AuditPage:
    """Writes, lifecycle and key actions, newest first, filtered; `next_cursor` pages on."""
    for moment in (since, until):
        if moment is not None and moment.tzinfo is None:
            raise ValidationFailed("timestamps need a UTC offset, e.g. 2026-12-01T10:00:00Z")
    return await key_service.audit_page(
        session,
        limit=page_size(settings_of(request), limit),
        cursor=cursor,
        key_id=key_id,
        action=action,
        target=target,
        since=since,
        until=until,
        failed=failed,
    )
