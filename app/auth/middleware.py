"""Authentication, rate limiting and the audit trail, before and after every API request.

One pure ASGI layer, so the hot read path pays no per-route dependency: it resolves the bearer key
(401 for a bad one), gates anonymous callers (reads and search only, and only when the registry
allows anonymous reads), applies the rate limit of the endpoint class (reads, search, writes) per key
or, when anonymous, per client address, and writes an audit entry for every write once its answer
is known. Which role a write needs is declared by its route (app/auth/dependencies.py).

Refused authentications (no key where one is needed, a malformed, unknown or revoked key) are
counted per client address (GENEBANK_RATE_LIMIT_UNAUTHENTICATED). Past the limit that address is
answered 429 before its key is looked up; a key verified earlier (in the key cache) still passes.
429s are audited like refused writes, and repeated identical refusals are aggregated
(app/auth/audit.py), so a flood costs neither a look-up nor an audit row per request.
"""

from __future__ import annotations

import json
import logging
import math
import time
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.storage import storage_from_string
from starlette.datastructures import Headers, State
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.auth.audit import AuditTrail
from app.auth.principal import ANONYMOUS, Principal
from app.auth.service import BEARER, InvalidKey, KeyCache, key_service
from app.config import Settings
from app.errors import (
    AppError,
    DatabaseUnavailable,
    TooManyRequests,
    Unauthorized,
    database_unavailable,
    problem_response,
)

log = logging.getLogger(__name__)

# Not the API: probes, the OpenAPI document and its viewers, the admin pages (their own login), and
# the GEP hub, whose Bearer is a node secret: app/a2a/router.py authenticates, limits and audits it.
EXEMPT_PREFIXES = ("/healthz", "/readyz", "/openapi.json", "/docs", "/redoc", "/admin", "/a2a/")
SEARCH_PATHS = ("/v1/search", "/v1/match")
AUDITED_FIELDS = ("id", "gene_id", "version", "asset_id", "state", "status", "created")
# A handler may name what its answer did (a bulk request's counts), for a body too long to capture.
AUDIT_DETAIL = "audit_detail"
MAX_CAPTURE = 16_384


def endpoint_class(method: str, path: str) -> str | None:
    if path.startswith(EXEMPT_PREFIXES):
        return None
    if method in ("GET", "HEAD", "OPTIONS"):
        return "reads"
    if path in SEARCH_PATHS:
        return "search"
    return "writes"


class RateLimits:
    """Sliding-window-counter limits per endpoint class (`limits`); O(1) per hit, unlike moving windows.

    Besides the endpoint classes: refused authentications and admin sign-ins, per client address.
    """

    def __init__(self, settings: Settings) -> None:
        self.items: dict[str, RateLimitItem] = {
            "reads": parse(settings.rate_limit_reads),
            "search": parse(settings.rate_limit_search),
            "writes": parse(settings.rate_limit_writes),
            "unauthenticated": parse(settings.rate_limit_unauthenticated),
            "admin_login": parse(settings.rate_limit_admin_login),
        }
        self.policies = {
            endpoint: [(b"ratelimit-policy", f"{item.amount};w={item.get_expiry()}".encode())]
            for endpoint, item in self.items.items()
        }
        self.limiter = SlidingWindowCounterRateLimiter(storage_from_string(settings.rate_limit_storage))

    async def hit(self, endpoint: str, identity: str, cost: int = 1) -> bool:
        """Count `cost` hits (a bulk request's items) if they all fit in the window; none if not."""
        return await self.limiter.hit(self.items[endpoint], endpoint, identity, cost=cost)

    async def allows(self, endpoint: str, identity: str) -> bool:
        """Whether one more hit would pass, without counting it."""
        return await self.limiter.test(self.items[endpoint], endpoint, identity)

    async def refusal(self, endpoint: str, identity: str, what: str | None = None) -> TooManyRequests:
        headers = await self.refusal_headers(endpoint, identity)
        return TooManyRequests(
            f"rate limit for {what or endpoint} exceeded; retry in {headers['Retry-After']} s",
            headers=headers,
        )

    async def refusal_headers(self, endpoint: str, identity: str) -> dict[str, str]:
        """The full picture for a 429; successful answers carry only the static RateLimit-Policy.

        Reading the window's state on every request cost a fifth of a fetch-by-id (bench/fetch.py).
        """
        item = self.items[endpoint]
        stats = await self.limiter.get_window_stats(item, endpoint, identity)
        reset = max(1, math.ceil(stats.reset_time - time.time()))
        return {
            "RateLimit-Limit": str(item.amount),
            "RateLimit-Remaining": str(stats.remaining),
            "RateLimit-Reset": str(reset),
            "RateLimit-Policy": f"{item.amount};w={item.get_expiry()}",
            "Retry-After": str(reset),
        }


def rate_limits(state: State) -> RateLimits:
    """The process's limits, built on first use (tests set small limits before their first request)."""
    limits: RateLimits | None = getattr(state, "rate_limits", None)
    if limits is None:
        limits = RateLimits(state.settings)
        state.rate_limits = limits
    return limits


def audit_entry(
    scope: Scope,
    principal: Principal,
    client: str | None,
    status: int,
    detail: dict[str, Any],
    *,
    action: str | None = None,
) -> dict[str, Any]:
    route = scope.get("route")
    params = scope.get("path_params") or {}
    target = ",".join(str(v) for v in params.values()) or detail.get("gene_id") or detail.get("id")
    return {
        "key_id": principal.key_id,
        "actor": principal.name,
        "role": principal.role.name,
        "action": action or getattr(route, "name", None) or f"{scope['method']} {scope['path']}",
        "target": str(target) if target else None,
        "client": client,
        "method": scope["method"],
        "path": scope["path"],
        "status": status,
        "detail": json.dumps(detail) if detail else None,
    }


class AccessMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        endpoint = endpoint_class(scope["method"], scope["path"])
        if endpoint is None:
            await self.app(scope, receive, send)
            return
        state: State = scope["app"].state
        settings: Settings = state.settings
        runtime = state.runtime
        trail: AuditTrail = state.audit
        limits = rate_limits(state)
        client = scope["client"][0] if scope.get("client") else None
        address = f"addr:{client}"

        try:
            principal = await self._principal(scope, runtime, state.key_cache, limits, address)
            if not principal.authenticated and (endpoint == "writes" or not settings.anonymous_read):
                raise Unauthorized(
                    "send an API key: Authorization: Bearer gb_…"
                    + ("" if endpoint == "writes" else " (this registry does not serve anonymous reads)"),
                    headers=BEARER,
                )
        except TooManyRequests as limited:
            await self._refuse_and_audit(scope, receive, send, trail, runtime, client, limited)
            return
        except DatabaseUnavailable as error:
            await _refuse(scope, receive, send, error)
            return
        except AppError as error:
            if not await limits.hit("unauthenticated", address):
                # This address has used up its refused authentications: no more look-ups for it.
                over = await limits.refusal("unauthenticated", address, "refused authentications")
                await self._refuse_and_audit(scope, receive, send, trail, runtime, client, over)
                return
            if endpoint == "writes":
                entry = audit_entry(scope, ANONYMOUS, client, error.status, {"problem": error.title})
                await trail.record(runtime.read_pool, entry)
            await _refuse(scope, receive, send, error)
            return
        except Exception as error:
            if not database_unavailable(error):
                raise
            log.warning("database unavailable for the key look-up: %s", error)
            await _refuse(scope, receive, send, DatabaseUnavailable())
            return

        identity = str(principal.key_id) if principal.key_id else address
        if not await limits.hit(endpoint, identity):
            refusal = await limits.refusal(endpoint, identity)
            entry = audit_entry(
                scope, principal, client, 429, {"problem": refusal.title}, action=f"rate_limited:{endpoint}"
            )
            await trail.record(runtime.read_pool, entry)
            await _refuse(scope, receive, send, refusal)
            return

        scope.setdefault("state", {})["principal"] = principal
        status = 500
        captured: list[bytes] = []
        size = 0
        encoded_headers = limits.policies[endpoint]

        async def send_with_headers(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), *encoded_headers]
            elif message["type"] == "http.response.body" and endpoint == "writes" and size < MAX_CAPTURE:
                chunk = message.get("body", b"")
                captured.append(chunk[: MAX_CAPTURE - size])
                size += len(chunk)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            if endpoint == "writes" or status == 413:
                detail = scope["state"].get(AUDIT_DETAIL) or _summary(b"".join(captured))
                entry = audit_entry(scope, principal, client, status, detail)
                await trail.record(runtime.read_pool, entry)

    @staticmethod
    async def _principal(
        scope: Scope, runtime: Any, cache: KeyCache, limits: RateLimits, address: str
    ) -> Principal:
        authorization = Headers(scope=scope).get("authorization")
        if authorization is None:
            return ANONYMOUS
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise InvalidKey("use the Bearer scheme: Authorization: Bearer gb_…")
        token = token.strip()
        cached = cache.get(token)
        if cached is not None:
            return cached
        if not await limits.allows("unauthenticated", address):
            raise await limits.refusal("unauthenticated", address, "refused authentications")
        async with runtime.read_pool.connection() as conn:
            return await key_service.authenticate(conn, token, cache)

    @staticmethod
    async def _refuse_and_audit(
        scope: Scope,
        receive: Receive,
        send: Send,
        trail: AuditTrail,
        runtime: Any,
        client: str | None,
        limited: AppError,
    ) -> None:
        entry = audit_entry(
            scope,
            ANONYMOUS,
            client,
            limited.status,
            {"problem": limited.title},
            action="rate_limited:unauthenticated",
        )
        await trail.record(runtime.read_pool, entry)
        await _refuse(scope, receive, send, limited)


def _summary(body: bytes) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    if not isinstance(value, dict):
        return {}
    if "title" in value and "type" in value:  # a problem document
        return {"problem": value["title"]}
    return {key: value[key] for key in AUDITED_FIELDS if key in value}


async def _refuse(scope: Scope, receive: Receive, send: Send, error: AppError) -> None:
    response = problem_response(
        error.status, error.code, error.title, error.detail, instance=scope["path"], headers=error.headers
    )
    await response(scope, receive, send)
