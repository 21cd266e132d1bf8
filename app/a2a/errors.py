"""Errors of the GEP hub: `{"error": "<code>", "message": "…"}` JSON, as GEP clients read them.

The evolver client reads `error` (or `code`) and never a problem document, so /a2a answers its own
shape. Registry errors raised by the reused services are converted (`from_app`), keeping the status.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.background import BackgroundTask

from app.auth.audit import AuditTrail
from app.errors import AppError
from app.state import runtime


class A2AError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        extra: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = dict(extra or {})
        self.headers = dict(headers or {})
        # The audit entry of the refused request, written by the handler once its transaction is over.
        self.audit: dict[str, Any] | None = None

    @classmethod
    def from_app(cls, error: AppError) -> A2AError:
        # "self-report" -> "self_report": the client's codes are snake_case.
        code = re.sub(r"[^a-z0-9]+", "_", error.code.lower()).strip("_")
        return cls(error.status, code, error.detail, extra=error.extra, headers=error.headers)

    def body(self) -> dict[str, Any]:
        return {**self.extra, "error": self.code, "message": self.message}


async def a2a_error_response(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, A2AError)
    return JSONResponse(
        exc.body(),
        status_code=exc.status,
        headers=exc.headers,
        background=BackgroundTask(record_audit, request, exc.audit),
    )


async def record_audit(request: Request, entry: dict[str, Any] | None) -> None:
    """Write an /a2a audit entry on its own connection, after the request's commit or rollback."""
    if entry is not None:
        trail: AuditTrail = request.app.state.audit
        await trail.record(runtime(request).read_pool, entry)
