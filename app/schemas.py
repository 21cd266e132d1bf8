"""API types shared by several domains: provenance parts, trajectory steps, pagination."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Generic, Literal, TypeVar

from fastapi import Query
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from app.config import Settings
from app.errors import ValidationFailed
from app.gep.document import NotBlank

Name = Annotated[str, StringConstraints(max_length=200), NotBlank]
Text = Annotated[str, StringConstraints(max_length=4000), NotBlank]
LongText = Annotated[str, StringConstraints(max_length=20_000)]
TaskFamily = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,63}$"),
    Field(
        description="Task family slug; the research uses code_generation, math_reasoning, rule_following "
        "and agent_environment",
        examples=["code_generation"],
    ),
]
ProvenanceKindName = Literal["verified_trajectory", "manual", "reference"]


class StrictModel(BaseModel):
    """Request models: unknown fields are refused and nothing is coerced (no "true" for true)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# Verifier details are free-form JSON that other people will read: every part of it is bounded, so
# that neither storage nor redaction (linear, but still proportional) meets an unbounded input.
DETAILS_MAX_STRING = 4000
DETAILS_MAX_KEY = 200
DETAILS_MAX_ITEMS = 200
DETAILS_MAX_VALUES = 2000


def _check_details(details: Any) -> Any:
    stack, values = [("details", details)], 0
    while stack:
        where, node = stack.pop()
        values += 1
        if values > DETAILS_MAX_VALUES:
            raise ValueError(f"verifier details hold more than {DETAILS_MAX_VALUES} values")
        if isinstance(node, str) and len(node) > DETAILS_MAX_STRING:
            raise ValueError(
                f"{where}: strings in verifier details are at most {DETAILS_MAX_STRING} characters"
            )
        if isinstance(node, dict | list) and len(node) > DETAILS_MAX_ITEMS:
            raise ValueError(f"{where}: at most {DETAILS_MAX_ITEMS} entries per object or list")
        if isinstance(node, dict):
            for key, value in node.items():
                if len(key) > DETAILS_MAX_KEY:
                    raise ValueError(
                        f"{where}: keys in verifier details are at most {DETAILS_MAX_KEY} characters"
                    )
                stack.append((f"{where}.{key[:40]}", value))
        elif isinstance(node, list):
            stack.extend((f"{where}[{index}]", value) for index, value in enumerate(node))
    return details


class Verifier(StrictModel):
    name: Name
    version: Name | None = None
    passed: bool
    score: float | None = Field(default=None, allow_inf_nan=False)
    details: dict[str, Any] | LongText | None = Field(
        default=None,
        description=f"free-form JSON (strings ≤ {DETAILS_MAX_STRING} characters, keys ≤ {DETAILS_MAX_KEY}, "
        f"≤ {DETAILS_MAX_ITEMS} entries per object or list, ≤ {DETAILS_MAX_VALUES} values in all), or text",
    )

    @field_validator("details")
    @classmethod
    def _bounded(cls, details: Any) -> Any:
        return _check_details(details) if isinstance(details, dict) else details


class TaskRef(StrictModel):
    id: Name
    family: TaskFamily | None = None
    description: Text


class Cost(StrictModel):
    tokens: int | None = Field(default=None, ge=0)
    attempts: int | None = Field(default=None, ge=0)
    seconds: float | None = Field(default=None, ge=0, allow_inf_nan=False)


class Step(StrictModel):
    action: Text
    observation: LongText | None = None
    ok: bool
    error: LongText | None = None
    correction: Text | None = None


# Pagination: every list (API and admin pages) pages the same way. A page asks for `limit` items
# (capped by the settings), the repository fetches limit + 1, and the extra row, when there is one,
# means a next page whose cursor encodes where this one ended. Cursors are typed: a model per list,
# its JSON in URL-safe base64; anything that does not decode into that model is the same 422.

Limit = Annotated[int | None, Query(ge=1, description="page size (capped by the server)")]
CursorParam = Annotated[str | None, Query(max_length=512, description="`next_cursor` of the previous page")]


class CursorModel(BaseModel):
    """A list's position: exactly these fields (so one list's cursor is never another's)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


C = TypeVar("C", bound=CursorModel)
T = TypeVar("T")


class InvalidCursor(ValidationFailed):
    code = "invalid-cursor"
    title = "Cursor not issued for this list"


def page_size(settings: Settings, limit: int | None) -> int:
    return min(limit or settings.page_size_default, settings.page_size_max)


class CursorCodec(Generic[C]):
    """Encodes a list's position (`model`) into an opaque cursor, and back."""

    def __init__(self, model: type[C]) -> None:
        self.model = model

    def encode(self, position: C) -> str:
        return base64.urlsafe_b64encode(position.model_dump_json().encode()).decode().rstrip("=")

    def decode(self, cursor: str | None) -> C | None:
        if not cursor:
            return None
        try:
            padded = cursor + "=" * (-len(cursor) % 4)
            return self.model.model_validate_json(base64.urlsafe_b64decode(padded.encode()))
        except (binascii.Error, ValueError):
            raise InvalidCursor("cursor is not one this service issued for this list") from None

    def page(self, rows: Sequence[T], limit: int, position: Callable[[T], C]) -> tuple[list[T], str | None]:
        """`rows` fetched with `limit + 1`: this page's rows, and the next page's cursor or None."""
        items = list(rows[:limit])
        return items, self.encode(position(items[-1])) if len(rows) > limit else None
