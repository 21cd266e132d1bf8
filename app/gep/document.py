"""The Gene document: GEP's Gene schema (1.13.0) plus Genebank's four extension fields.

Extensions (all optional, part of the hashed document): `avoid` (failure guards as compact strings),
`model_name` (producer model), `parent` (previous version's asset_id) and `generation_meta`.
Validation is strict (no type coercion, unknown fields refused) because the document is hashed as
sent: whatever passes here is exactly what was content-addressed.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
)

from app.gep.signals import InvalidSignalPattern, validate_patterns

GENE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{2,127}$"
ASSET_ID_REGEX = r"^sha256:[0-9a-f]{64}$"
MAX_GUARDS = 12  # GEP trims anti_patterns to the last 12; Genebank holds `avoid` to the same cap.
SHELL_OPERATORS = re.compile(r"[;&|<>`\n\r]|\$\(")


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


NotBlank = AfterValidator(_not_blank)
Line = Annotated[str, StringConstraints(max_length=1000), NotBlank]
ShortText = Annotated[str, StringConstraints(max_length=300), NotBlank]
Signal = Annotated[str, StringConstraints(max_length=260), NotBlank]
GeneId = Annotated[str, StringConstraints(pattern=GENE_ID_PATTERN)]
AssetId = Annotated[str, StringConstraints(pattern=ASSET_ID_REGEX)]


def _compiled(patterns: list[str]) -> list[str]:
    try:
        validate_patterns(patterns)
    except InvalidSignalPattern as exc:
        raise ValueError(str(exc)) from None
    return patterns


def _without_shell_operators(commands: list[str]) -> list[str]:
    # GEP clients run validation commands without a shell; operators would be a smuggled script.
    for command in commands:
        if SHELL_OPERATORS.search(command):
            raise ValueError(f"validation command {command!r} contains a shell operator")
    return commands


# `signals_match` and `validation` as every document (and every producer's draft) must hold them.
SignalPatterns = Annotated[list[Signal], Field(min_length=1, max_length=32), AfterValidator(_compiled)]
ValidationCommands = Annotated[
    list[ShortText], Field(min_length=1, max_length=10), AfterValidator(_without_shell_operators)
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _integral(value: Any) -> Any:
    # JSON has one number type: 5.0 is the integer 5 to JSON Schema and to JavaScript, and hashes alike.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class Constraints(_Strict):
    max_files: Annotated[int, BeforeValidator(_integral), Field(ge=1, le=100_000)]
    forbidden_paths: list[ShortText] = Field(min_length=1, max_length=100)


class LearningEntry(_Strict):
    model_config = ConfigDict(extra="allow", strict=True)
    at: str | None = None
    outcome: str | None = None
    mode: str | None = None
    reason_class: str | None = None
    retryable: bool | None = None
    learning_signals: list[str] | None = None


class AntiPattern(_Strict):
    model_config = ConfigDict(extra="allow", strict=True)
    at: str | None = None
    mode: str | None = None
    reason_class: str | None = None
    learning_signals: list[str] | None = None


class RoutingHint(_Strict):
    tier: Literal["cheap", "mid", "expensive"] | None = None
    reasoning_level: Literal["off", "low", "medium", "high"] | None = None


class ToolPolicy(_Strict):
    allow_only: list[ShortText] | None = Field(default=None, min_length=1)
    deny: list[ShortText] | None = Field(default=None, min_length=1)
    severity: Literal["warn", "block"] | None = None


class Claim(_Strict):
    predicate: Line
    kind: Literal["behavioral", "structural", "performance", "safety"] | None = None


class Scope(_Strict):
    signals: list[Signal] | None = Field(default=None, min_length=1)
    predicate: Line | None = None


class RuntimeProfile(_Strict):
    runtime: ShortText | None = None
    env_class: Literal["ci", "local", "prod", "sandbox"] | None = None


class VerifierProfile(_Strict):
    verifier: ShortText | None = None
    decision: Literal["pass", "fail", "inconclusive"] | None = None


class GeneDocument(_Strict):
    """A GEP Gene. `asset_id` is optional on input: the registry computes it and checks a sent one."""

    type: Literal["Gene"]
    schema_version: Annotated[str, StringConstraints(pattern=r"^\d+\.\d+\.\d+$", max_length=32)]
    id: GeneId
    category: Literal["repair", "optimize", "innovate", "explore"]
    signals_match: SignalPatterns
    preconditions: list[Line] | None = Field(default=None, max_length=20)
    strategy: list[Line] = Field(min_length=1, max_length=30)
    constraints: Constraints
    validation: ValidationCommands
    summary: ShortText | None = None
    epigenetic_marks: list[ShortText] | None = Field(default=None, max_length=32)
    learning_history: list[LearningEntry] | None = Field(default=None, max_length=20)
    anti_patterns: list[AntiPattern] | None = Field(default=None, max_length=12)
    routing_hint: RoutingHint | None = None
    tool_policy: ToolPolicy | None = None
    claims: list[Claim] | None = Field(default=None, max_length=32)
    scope: Scope | None = None
    runtime_profile: RuntimeProfile | None = None
    verifier_profile: VerifierProfile | None = None
    # Genebank extensions.
    avoid: list[ShortText] | None = Field(default=None, max_length=MAX_GUARDS)
    model_name: ShortText | None = None
    parent: AssetId | None = None
    generation_meta: dict[str, Any] | None = None
    asset_id: AssetId | None = None

    def hashed_fields(self) -> dict[str, Any]:
        """The document as sent, minus `asset_id`: exactly what the asset_id is computed over."""
        return self.model_dump(mode="python", exclude_unset=True, exclude={"asset_id"})
