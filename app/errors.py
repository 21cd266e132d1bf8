"""Typed errors rendered as RFC 9457 problem details (application/problem+json).

Every error a client can cause is an AppError subclass carrying its status; one handler renders it.
422 is reserved for payload validation; conflicts, missing things and refusals have their own codes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
PROBLEM_BASE = "https://genebank.dev/problems/"
_QUOTED = re.compile(r"'([^']*)'")


class AppError(Exception):
    status: ClassVar[int] = 400
    code: ClassVar[str] = "bad-request"
    title: ClassVar[str] = "Bad request"

    def __init__(
        self,
        detail: str,
        *,
        extra: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = dict(extra or {})
        self.headers = dict(headers or {})


class BadRequest(AppError):
    pass


class InvalidJSON(AppError):
    code = "invalid-json"
    title = "Request body is not valid JSON"


class Unauthorized(AppError):
    status = 401
    code = "unauthorized"
    title = "Authentication required"


class Forbidden(AppError):
    status = 403
    code = "forbidden"
    title = "Not allowed"


class NotFound(AppError):
    status = 404
    code = "not-found"
    title = "Not found"


class Conflict(AppError):
    status = 409
    code = "conflict"
    title = "Conflict"


class Gone(AppError):
    status = 410
    code = "gone"
    title = "Gone"


class PayloadTooLarge(AppError):
    status = 413
    code = "payload-too-large"
    title = "Request body too large"


class UnsupportedMediaType(AppError):
    status = 415
    code = "unsupported-media-type"
    title = "Unsupported media type"


class ValidationFailed(AppError):
    status = 422
    code = "validation-failed"
    title = "Request payload is not valid"


class TooManyRequests(AppError):
    status = 429
    code = "rate-limited"
    title = "Too many requests"


class ServiceUnavailable(AppError):
    status = 503
    code = "unavailable"
    title = "Service unavailable"


# What a client is told to wait when the database cannot be reached (or no connection is free).
DATABASE_RETRY_AFTER_SECONDS = 5


class DatabaseUnavailable(ServiceUnavailable):
    code = "database-unavailable"
    title = "Database unavailable"

    def __init__(self, detail: str = "the database cannot be reached right now; retry shortly") -> None:
        super().__init__(detail, headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)})


def database_unavailable(exc: BaseException) -> bool:
    """True when `exc` (or what caused it) says the database is unreachable, not that the request is wrong.

    Connection failures, a connection lost mid-request, a pool that gave no connection in time, a
    server shutting down or starting up: psycopg's OperationalError and SQLAlchemy's wrappers of it.
    """
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, DatabaseUnavailable | psycopg.OperationalError | sa_exc.TimeoutError):
            return True
        if isinstance(current, sa_exc.DBAPIError) and (
            current.connection_invalidated or isinstance(current, sa_exc.OperationalError)
        ):
            return True
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        pending.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return False


def problem_body(
    status: int,
    code: str,
    title: str,
    detail: str,
    *,
    instance: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"type": PROBLEM_BASE + code, "title": title, "status": status, "detail": detail}
    if instance:
        body["instance"] = instance
    if extra:
        body.update(extra)
    return body


def problem_of(error: AppError, *, instance: str | None = None) -> dict[str, Any]:
    """The problem document of an error, as a dict (a bulk request answers one per refused item)."""
    return problem_body(
        error.status, error.code, error.title, error.detail, instance=instance, extra=error.extra
    )


def problem_response(
    status: int,
    code: str,
    title: str,
    detail: str,
    *,
    instance: str | None = None,
    extra: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = problem_body(status, code, title, detail, instance=instance, extra=extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=dict(headers or {}))


def clean_validation_errors(errors: Sequence[Any]) -> list[dict[str, Any]]:
    cleaned = []
    for err in errors:
        # Echoing the offending input back could reflect secrets or megabytes of payload.
        loc = [str(part) for part in err.get("loc", ())]
        entry: dict[str, Any] = {"loc": loc, "msg": str(err.get("msg", "")), "type": str(err.get("type", ""))}
        if entry["type"] == "literal_error":
            # The values the field accepts, as a list a client can act on (the msg says them in prose).
            entry["valid"] = _QUOTED.findall(str((err.get("ctx") or {}).get("expected", "")))
        cleaned.append(entry)
    return cleaned


async def _app_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    return problem_response(
        exc.status,
        exc.code,
        exc.title,
        exc.detail,
        instance=request.url.path,
        extra=exc.extra,
        headers=exc.headers,
    )


async def _validation_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = clean_validation_errors(exc.errors())
    where = ".".join(errors[0]["loc"]) if errors else ""
    message = str(errors[0]["msg"]) if errors else "invalid"
    return problem_response(
        422,
        ValidationFailed.code,
        ValidationFailed.title,
        f"{where}: {message}" if where else message,
        instance=request.url.path,
        extra={"errors": errors},
    )


_HTTP_CODES = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    413: "payload-too-large",
    415: "unsupported-media-type",
    429: "rate-limited",
}


async def _http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "http-error")
    title = code.replace("-", " ").capitalize()
    detail: str = exc.detail if isinstance(exc.detail, str) else title
    return problem_response(
        exc.status_code, code, title, detail, instance=request.url.path, headers=exc.headers
    )


def database_problem(exc: BaseException, *, instance: str | None = None) -> JSONResponse:
    log.warning("database unavailable: %s", exc)
    unavailable = DatabaseUnavailable()
    return problem_response(
        unavailable.status,
        unavailable.code,
        unavailable.title,
        unavailable.detail,
        instance=instance,
        headers=unavailable.headers,
    )


async def _database_error_handler(request: Request, exc: Exception) -> JSONResponse:
    if database_unavailable(exc):
        return database_problem(exc, instance=request.url.path)
    return await _unhandled_error_handler(request, exc)


async def _unhandled_error_handler(request: Request, exc: Exception) -> JSONResponse:
    if database_unavailable(exc):
        # Raised outside the routes (a middleware): still the database's fault, not the request's.
        return database_problem(exc, instance=request.url.path)
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(
        500, "internal", "Internal server error", "An unexpected error occurred; it has been logged."
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AppError, _app_error_handler)
    app.add_exception_handler(RequestValidationError, _validation_error_handler)
    app.add_exception_handler(StarletteHTTPException, _http_error_handler)
    for database_error in (psycopg.Error, sa_exc.DBAPIError, sa_exc.TimeoutError):
        app.add_exception_handler(database_error, _database_error_handler)
    app.add_exception_handler(Exception, _unhandled_error_handler)
