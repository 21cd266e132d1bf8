"""Strict JSON request bodies.

FastAPI's default parser accepts duplicate keys (last one wins), NaN and Infinity, integers no
JavaScript client can represent, lone surrogates and any nesting depth. A content-addressed registry
must refuse all of those: two parties would otherwise hash different documents from the same bytes.
`JSONRoute` parses every JSON body with `strict_loads` before FastAPI validates it.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.auth.middleware import audit_entry
from app.auth.principal import ANONYMOUS
from app.errors import (
    AppError,
    BadRequest,
    InvalidJSON,
    PayloadTooLarge,
    UnsupportedMediaType,
    ValidationFailed,
    problem_response,
)
from app.state import settings_of

MAX_SAFE_INTEGER = 2**53 - 1
OFF_LOOP_BYTES = 64 * 1024
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# PostgreSQL text cannot hold U+0000; refused here rather than failing at INSERT.
_NUL = "\x00"


class _Refused(ValueError):
    """Raised from inside json.loads hooks; carries the client-facing reason."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"duplicate key {key!r} in object")
            seen.add(key)
    return obj


def _refuse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


_MAX_SAFE_DIGITS = len(str(MAX_SAFE_INTEGER))


def _checked_int(text: str) -> int:
    # Judged by its length first: int() refuses more than 4,300 digits with a ValueError (and a long
    # conversion costs quadratic time before that).
    if len(text.lstrip("-")) > _MAX_SAFE_DIGITS or abs(value := int(text)) > MAX_SAFE_INTEGER:
        raise _Refused(f"integer {text[:40]} is beyond ±(2^53-1) and cannot be represented exactly")
    return value


def _checked_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"number {text[:40]} is out of the range of a double")
    return value


def _check_structure(value: Any, max_depth: int) -> None:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            if depth > max_depth:
                raise _Refused(f"JSON nesting deeper than {max_depth} levels")
            for key, child in node.items():
                if _LONE_SURROGATE.search(key):
                    raise _Refused("object key contains a lone UTF-16 surrogate")
                if _NUL in key:
                    raise _Refused("object key contains U+0000, which text cannot hold here")
                stack.append((child, depth + 1))
        elif isinstance(node, list):
            if depth > max_depth:
                raise _Refused(f"JSON nesting deeper than {max_depth} levels")
            stack.extend((child, depth + 1) for child in node)
        elif isinstance(node, str):
            if _LONE_SURROGATE.search(node):
                raise _Refused("string contains a lone UTF-16 surrogate (not valid Unicode)")
            if _NUL in node:
                raise _Refused("string contains U+0000, which text cannot hold here")


def strict_loads(body: bytes, *, max_depth: int) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidJSON(f"request body is not UTF-8 (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        raise InvalidJSON("request body starts with a byte order mark")
    try:
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_refuse_constant,
            parse_int=_checked_int,
            parse_float=_checked_float,
        )
        _check_structure(value, max_depth)
    except _Refused as exc:
        raise ValidationFailed(str(exc)) from None
    except RecursionError:
        raise ValidationFailed(f"JSON nesting deeper than {max_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise InvalidJSON(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return value


def is_json_media_type(content_type: str) -> bool:
    media_type = content_type.split(";", 1)[0].strip().lower()
    maintype, _, subtype = media_type.partition("/")
    return maintype == "application" and (subtype == "json" or subtype.endswith("+json"))


class JSONRoute(APIRoute):
    """An APIRoute whose JSON body goes through `strict_loads` and must be declared as JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def strict_handler(request: Request) -> Response:
            body = await request.body()
            if body:
                content_type = request.headers.get("content-type", "")
                if not is_json_media_type(content_type):
                    raise UnsupportedMediaType(
                        f"send the body as application/json, not {content_type or 'without a Content-Type'}"
                    )
                max_depth = settings_of(request).max_json_depth
                # Starlette caches the parsed body here; FastAPI's own request.json() then reuses it.
                # A large body is parsed off the event loop (a megabyte takes tens of ms).
                if len(body) > OFF_LOOP_BYTES:
                    request._json = await asyncio.to_thread(strict_loads, body, max_depth=max_depth)
                else:
                    request._json = strict_loads(body, max_depth=max_depth)
            return await handler(request)

        return strict_handler


async def _audit_too_large(scope: Scope) -> None:
    """A 413 answered here, before authentication: audited (aggregated) under the key if it is known."""
    state = scope["app"].state
    runtime = getattr(state, "runtime", None)
    if runtime is None:
        return
    scheme, _, token = (Headers(scope=scope).get("authorization") or "").partition(" ")
    principal = (state.key_cache.get(token.strip()) if scheme.lower() == "bearer" else None) or ANONYMOUS
    client = scope["client"][0] if scope.get("client") else None
    entry = audit_entry(scope, principal, client, 413, {"problem": PayloadTooLarge.title})
    await state.audit.record(runtime.read_pool, entry)


class BodyLimitMiddleware:
    """Refuse bodies over `max_bytes` with a 413 problem, whether or not a Content-Length was sent.

    Bulk intake (`bulk_paths`, app/batch.py) takes up to `bulk_max_bytes` instead."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        bulk_max_bytes: int | None = None,
        bulk_paths: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.bulk_max_bytes = bulk_max_bytes or max_bytes
        self.bulk_paths = bulk_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if b"%00" in scope.get("query_string", b"").lower() or "\x00" in scope.get("path", ""):
            # A NUL in a path or query value would reach the database, which cannot store it.
            await self._refuse(scope, receive, send, BadRequest("the URL contains U+0000 (%00)"))
            return
        limit = self.bulk_max_bytes if scope["path"] in self.bulk_paths else self.max_bytes
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            # isdigit() alone accepts "²"; a 5,000-digit length is too large however it parses.
            if not (declared.isascii() and declared.isdigit()):
                await self._refuse(scope, receive, send, BadRequest("Content-Length is not a number"))
                return
            digits = declared.lstrip("0") or "0"
            if len(digits) > len(str(limit)) or int(digits) > limit:
                await self._refuse(scope, receive, send, self._too_large(limit))
                await _audit_too_large(scope)
                return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise self._too_large(limit)
            return message

        await self.app(scope, counting_receive, send)

    @staticmethod
    def _too_large(limit: int) -> PayloadTooLarge:
        return PayloadTooLarge(f"request body exceeds {limit} bytes", extra={"max_bytes": limit})

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, error: AppError) -> None:
        response = problem_response(error.status, error.code, error.title, error.detail, extra=error.extra)
        await response(scope, receive, send)
