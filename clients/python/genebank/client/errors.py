"""One exception per problem type the registry answers with (RFC 9457 `type` URLs), and the client's own.

Every refusal is an `application/problem+json` document whose `type` ends in a code
(`https://genebank.dev/problems/not-owner`); `problem_from_response` raises the class registered for
that code, else the one for its HTTP status. The classes nest as the registry's do (`NotOwner` is a
`Forbidden`, `GeneNotFound` a `NotFound`), so callers catch as broadly as they like. The test suite
checks this table against every error class of the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, ClassVar

import httpx

PROBLEM_BASE = "https://genebank.dev/problems/"


class GenebankError(Exception):
    """Anything this client raises."""


class TransportError(GenebankError):
    """The registry could not be reached (or did not answer in time), retries included."""


class AssetMismatch(GenebankError):
    """A document whose GEP hash, recomputed here, is not the asset_id it was served as."""

    def __init__(self, expected: str, computed: str, where: str) -> None:
        super().__init__(f"{where}: the document hashes to {computed}, not to {expected}")
        self.expected = expected
        self.computed = computed


class WaitTimeout(GenebankError, TimeoutError):
    """`wait_for` gave up before the trajectory was merged or rejected."""


class ProblemError(GenebankError):
    """An answer of 400 or more from the registry; `code` is the last part of its problem `type`."""

    status: ClassVar[int] = 0
    code: ClassVar[str] = ""

    def __init__(self, response: httpx.Response, problem: Mapping[str, Any]) -> None:
        self.response = response
        self.status_code = response.status_code
        self.problem = dict(problem)
        self.type = str(problem.get("type") or "about:blank")
        self.title = str(problem.get("title") or response.reason_phrase)
        self.detail = str(problem.get("detail") or "")
        self.instance = problem.get("instance")
        super().__init__(f"{self.status_code} {self.problem_code}: {self.detail or self.title}")

    @property
    def problem_code(self) -> str:
        """The code of the problem as the registry sent it (a subclass may stand for several)."""
        return self.type.removeprefix(PROBLEM_BASE) if self.type.startswith(PROBLEM_BASE) else self.type

    @property
    def errors(self) -> list[dict[str, Any]]:
        """Field errors of a validation problem (`loc`, `msg`, `type`), if any."""
        found = self.problem.get("errors")
        return list(found) if isinstance(found, list) else []


class BadRequest(ProblemError):
    status, code = 400, "bad-request"


class InvalidJSON(BadRequest):
    code = "invalid-json"


class Unauthorized(ProblemError):
    status, code = 401, "unauthorized"


class InvalidKey(Unauthorized):
    code = "invalid-key"


class Forbidden(ProblemError):
    status, code = 403, "forbidden"


class NotOwner(Forbidden):
    code = "not-owner"


class SelfReport(Forbidden):
    code = "self-report"


class ModelMismatch(Forbidden):
    code = "model-mismatch"


class NotAdmin(Forbidden):
    code = "not-admin"


class CsrfRefused(Forbidden):
    code = "csrf"


class NotFound(ProblemError):
    status, code = 404, "not-found"


class GeneNotFound(NotFound):
    code = "gene-not-found"


class AssetNotFound(NotFound):
    code = "asset-not-found"


class TrajectoryNotFound(NotFound):
    code = "trajectory-not-found"


class GuardNotFound(NotFound):
    code = "guard-not-found"


class MethodNotAllowed(ProblemError):
    status, code = 405, "method-not-allowed"


class NotAcceptable(ProblemError):
    status, code = 406, "not-acceptable"


class Conflict(ProblemError):
    status, code = 409, "conflict"


class StaleParent(Conflict):
    """The published `parent` is not the Gene's current version; `current_asset_id` says which is."""

    code = "stale-parent"

    @property
    def current_asset_id(self) -> str | None:
        value = self.problem.get("current_asset_id")
        return str(value) if value else None


class ReportConflict(Conflict):
    code = "report-conflict"


class Gone(ProblemError):
    status, code = 410, "gone"


class GeneRevoked(Gone):
    code = "gene-revoked"


class PayloadTooLarge(ProblemError):
    status, code = 413, "payload-too-large"


class UnsupportedMediaType(ProblemError):
    status, code = 415, "unsupported-media-type"


class ValidationFailed(ProblemError):
    status, code = 422, "validation-failed"


class IdempotencyKeyReused(ValidationFailed):
    code = "idempotency-key-reused"


class InvalidCursor(ValidationFailed):
    """A cursor this list did not issue (from another list, or another query)."""

    code = "invalid-cursor"


class RateLimited(ProblemError):
    """Still refused after the client's retries; `retry_after` is the registry's last word, in seconds."""

    status, code = 429, "rate-limited"

    @property
    def retry_after(self) -> float | None:
        return parse_retry_after(self.response.headers.get("retry-after"))


class ServerError(ProblemError):
    status, code = 500, "internal"


class ServiceUnavailable(ProblemError):
    status, code = 503, "unavailable"


class DatabaseUnavailable(ServiceUnavailable):
    """The registry's database could not be reached (after the client's retries, which honour its
    Retry-After)."""

    code = "database-unavailable"


def _registered(root: type[ProblemError]) -> list[type[ProblemError]]:
    found = []
    for cls in root.__subclasses__():
        found.append(cls)
        found.extend(_registered(cls))
    return found


PROBLEM_TYPES: dict[str, type[ProblemError]] = {cls.code: cls for cls in _registered(ProblemError)}
# A code this client does not know yet falls back to the class of its status (the most general one).
_BY_STATUS: dict[int, type[ProblemError]] = {
    cls.status: cls for cls in _registered(ProblemError) if cls.__base__ is ProblemError
}


def parse_retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())


def problem_from_response(response: httpx.Response) -> ProblemError:
    """The exception for an error answer: by problem code, else by status, else `ProblemError`."""
    problem: Mapping[str, Any] = {}
    try:
        parsed = response.json()
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        problem = parsed
    else:
        # Not a problem document (a proxy's HTML page, say): keep what it said, briefly.
        problem = {"title": response.reason_phrase, "detail": response.text[:500]}
    code = str(problem.get("type") or "").removeprefix(PROBLEM_BASE)
    cls = PROBLEM_TYPES.get(code) or _BY_STATUS.get(response.status_code)
    if cls is None:
        cls = ServerError if response.status_code >= 500 else ProblemError
    return cls(response, problem)
