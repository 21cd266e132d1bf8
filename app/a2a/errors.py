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

from app.errors import AppError


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

    @classmethod
    def from_app(cls, error: AppError) -> A2AError:
        # "self-report" -> "self_report": the client's codes are snake_case.
        code = re.sub(r"[^a-z0-9]+", "_", error.code.lower()).strip("_")
        return cls(error.status, code, error.detail, extra=error.extra, headers=error.headers)

    def body(self) -> dict[str, Any]:
        return {**self.extra, "error": self.code, "message": self.message}


async def a2a_error_response(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, A2AError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)
