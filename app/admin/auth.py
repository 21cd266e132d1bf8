"""Admin sessions: an admin API key once at login, then a signed cookie; CSRF tokens; the key re-check.

The cookie (Starlette's SessionMiddleware, signed with itsdangerous) holds the key's id, the login
time and the CSRF token, never the key itself. Every request looks the key up again, so revoking it
(or demoting it) ends its sessions at once, and a session ends GENEBANK_ADMIN_SESSION_MAX_AGE_SECONDS
after login however active it is.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.datastructures import State
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from app.admin.repository import SessionKeyLookup
from app.admin.secret import session_secret
from app.auth.principal import ANONYMOUS, Principal, Role
from app.auth.service import key_service
from app.config import Settings
from app.errors import AppError, Forbidden, ValidationFailed
from app.state import runtime, settings_of

COOKIE = "genebank_admin"
CSRF_FIELD = "csrf_token"


@dataclass(frozen=True)
class AdminUser:
    key_id: uuid.UUID
    name: str

    @property
    def principal(self) -> Principal:
        return Principal(key_id=self.key_id, name=self.name, role=Role.admin)


class LoginRequired(Exception):
    """No valid session: the handler answers with a redirect to the login page."""

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(reason or "please sign in")
        self.reason = reason


class NotAdminKey(Forbidden):
    code = "not-admin"
    title = "Not an admin key"


class CsrfRefused(AppError):
    status = 403
    code = "csrf"
    title = "Form refused"


class AdminSessionMiddleware:
    """SessionMiddleware whose secret is read on first use (no file is written by merely building the app)."""

    def __init__(self, app: ASGIApp, state: State) -> None:
        self.app = app
        self.state = state
        self._sessions: SessionMiddleware | None = None

    def _build(self) -> SessionMiddleware:
        settings: Settings = self.state.settings
        return SessionMiddleware(
            self.app,
            secret_key=session_secret(settings),
            session_cookie=COOKIE,
            max_age=settings.admin_session_max_age_seconds,
            path="/admin",
            same_site="lax",
            https_only=settings.admin_session_https_only,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._sessions is None:
            self._sessions = self._build()
        await self._sessions(scope, receive, send)


def _now() -> float:
    return time.time()


def csrf_token(request: Request) -> str:
    """The session's CSRF token, created with the session (a login form needs one too)."""
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


async def audit_refusal(
    request: Request, action: str, status: int, problem: str, target: str | None = None
) -> None:
    """A refused admin request in the audit log, on its own connection (the request's rolls back).

    Repeats of the same refusal from the same address are aggregated (app/auth/audit.py).
    """
    admin: AdminUser | None = getattr(request.state, "admin", None)
    principal = admin.principal if admin is not None else ANONYMOUS
    entry = {
        "key_id": principal.key_id,
        "actor": principal.name,
        "role": principal.role.name,
        "action": action,
        "target": target,
        "client": request.client.host if request.client else None,
        "method": request.method,
        "path": request.url.path,
        "status": status,
        "detail": json.dumps({"problem": problem}),
    }
    await request.app.state.audit.record(runtime(request).read_pool, entry)


async def verify_csrf(request: Request) -> None:
    """Every POST carries the session's token in a hidden field; a forged cross-site form cannot know it.

    A field holding U+0000 (which PostgreSQL text cannot store) is refused first, and audited.
    """
    form = await request.form()
    if any(
        "\x00" in name or (isinstance(value, str) and "\x00" in value) for name, value in form.multi_items()
    ):
        refused = ValidationFailed(
            "a form field contains U+0000, which cannot be stored; remove it and retry"
        )
        await audit_refusal(request, "admin.invalid_form", refused.status, refused.detail)
        raise refused
    sent = form.get(CSRF_FIELD)
    expected = request.session.get("csrf")
    if not isinstance(sent, str) or not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
        raise CsrfRefused("this form has expired or did not come from this site; reload the page and retry")


def flash(request: Request, message: str, kind: str = "info") -> None:
    request.session.setdefault("flash", []).append({"kind": kind, "message": message})


def pop_flashes(request: Request) -> list[dict[str, str]]:
    messages: list[dict[str, str]] = request.session.pop("flash", [])
    return messages


async def log_in(request: Request, token: str) -> AdminUser:
    """Verify the key (InvalidKey, NotAdminKey otherwise) and start a fresh session for it."""
    async with runtime(request).read_pool.connection() as conn:
        principal = await key_service.authenticate(conn, token.strip(), request.app.state.key_cache)
    if not principal.at_least(Role.admin) or principal.key_id is None:
        raise NotAdminKey(
            f"the key {principal.name!r} is a {principal.role.name} key; the admin needs an admin key"
        )
    # A new session: nothing chosen before login (a planted cookie, its CSRF token) carries over.
    request.session.clear()
    request.session.update(key_id=str(principal.key_id), login_at=_now(), csrf=secrets.token_urlsafe(32))
    return AdminUser(principal.key_id, principal.name)


def log_out(request: Request) -> None:
    request.session.clear()


async def admin_of(request: Request) -> AdminUser | None:
    """The admin behind this request's session, checked against the database; None ends the session."""
    session: dict[str, Any] = request.session
    raw_id, login_at = session.get("key_id"), session.get("login_at")
    if raw_id is None:
        return None
    max_age = settings_of(request).admin_session_max_age_seconds
    reason = None
    row = None
    try:
        key_id = uuid.UUID(str(raw_id))
    except ValueError:
        key_id = None
    if key_id is None or not isinstance(login_at, int | float) or _now() - login_at > max_age:
        reason = "your session expired; please sign in again"
    else:
        async with runtime(request).read_pool.connection() as conn:
            row = await SessionKeyLookup(conn).key(key_id)
        if row is None or row["revoked_at"] is not None:
            reason = "the key of your session was revoked; sign in with another admin key"
        elif row["role"] != Role.admin.name:
            reason = "the key of your session is no longer an admin key"
    if reason is not None or row is None or key_id is None:
        session.clear()
        flash(request, reason or "please sign in", "error")
        return None
    return AdminUser(key_id, row["name"])


async def current_admin(request: Request) -> AdminUser:
    user = await admin_of(request)
    if user is None:
        raise LoginRequired()
    request.state.admin = user
    return user


AdminDep = Annotated[AdminUser, Depends(current_admin)]
CsrfChecked = Depends(verify_csrf)
