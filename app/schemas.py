"""API types shared by several domains: provenance parts, trajectory steps, pagination."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

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


def encode_cursor(values: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(values, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> dict[str, Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        value = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ValidationFailed("cursor is not one this service issued") from None
    if not isinstance(value, dict):
        raise ValidationFailed("cursor is not one this service issued")
    return value
