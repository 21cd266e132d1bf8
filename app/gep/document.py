"""The Gene document: GEP's Gene schema (1.13.0) plus `model_name`, the one extension GEP's reference
client adds itself.

Failure guards are GEP `anti_patterns` (at most 12), one object per guard:
`{"mode": "avoid", "reason_class": "<guard text>"}`, in the order the registry ranks them. Entries of
another mode (a GEP client's own anti-patterns) are kept as sent, ahead of the guards, and are not
guards. Nothing in a guard's entry depends on when it was written, so the same guards always give the
same bytes and the same `asset_id`.

Three older Genebank fields are still accepted on input and never hashed (`legacy` below): `avoid`
(guards as strings) becomes guard entries of `anti_patterns`, `parent` names the version a new one
follows (the registry keeps it in its own column) and `generation_meta` (how the worker made the
document) goes to the version's `generation_meta` column. `hashed_fields()` is the document after that
conversion: exactly what is content-addressed and served. Validation is otherwise strict (no type
coercion, unknown fields refused).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from app.gep.signals import InvalidSignalPattern, validate_patterns

GENE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{2,127}$"
ASSET_ID_REGEX = r"^sha256:[0-9a-f]{64}$"
MAX_GUARDS = 12  # GEP trims anti_patterns to the last 12; guards are anti_patterns.
GUARD_MODE = "avoid"  # the `mode` of an anti_patterns entry that is a Genebank guard
# Accepted on input, converted or moved out before hashing (see the module docstring).
LEGACY_FIELDS = ("avoid", "parent", "generation_meta")
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

    @model_validator(mode="after")
    def _guard_text(self) -> AntiPattern:
        # A guard's text is a compact warning, like every guard the registry writes.
        if self.mode == GUARD_MODE:
            text = self.reason_class
            if text is None or not text.strip() or len(text) > 300:
                raise ValueError(
                    'an anti-pattern of mode "avoid" is a guard: its reason_class must be a non-blank '
                    "text of at most 300 characters"
                )
        return self


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
    model_name: ShortText | None = None  # the extension GEP's reference client adds itself
    # Legacy input, never hashed (see the module docstring).
    avoid: list[ShortText] | None = Field(default=None, max_length=MAX_GUARDS)
    parent: AssetId | None = None
    generation_meta: dict[str, Any] | None = None
    asset_id: AssetId | None = None

    @model_validator(mode="after")
    def _guards_fit(self) -> GeneDocument:
        if self.avoid is not None:
            entries = len(
                with_guards(self.sent_fields(), guards_of(self.sent_fields())).get("anti_patterns", [])
            )
            if entries > MAX_GUARDS:
                raise ValueError(
                    f"`avoid` becomes guard entries of `anti_patterns`, and together they hold {entries} "
                    f"entries: GEP allows at most {MAX_GUARDS}"
                )
        return self

    def sent_fields(self) -> dict[str, Any]:
        """The document as sent, minus `asset_id` (legacy fields included)."""
        return self.model_dump(mode="python", exclude_unset=True, exclude={"asset_id"})

    def legacy(self) -> list[str]:
        """The legacy fields this document was sent with, in LEGACY_FIELDS order."""
        return [name for name in LEGACY_FIELDS if name in self.model_fields_set]

    def hashed_fields(self) -> dict[str, Any]:
        """The GEP document, minus `asset_id`: exactly what the asset_id is computed over and served."""
        return to_gep(self.sent_fields())


def guard_entry(text: str) -> dict[str, Any]:
    """The anti_patterns entry of a guard."""
    return {"mode": GUARD_MODE, "reason_class": text}


def _is_guard(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and entry.get("mode") == GUARD_MODE
        and isinstance(entry.get("reason_class"), str)
    )


def guard_entries(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The document's anti_patterns entries that are guards."""
    return [entry for entry in document.get("anti_patterns") or [] if _is_guard(entry)]


def guards_of(document: Mapping[str, Any]) -> list[str]:
    """The guard texts of a document, in order: its guard entries of `anti_patterns`, then (a version
    written before guards were anti_patterns) its `avoid` strings; each text once."""
    texts = [str(entry["reason_class"]) for entry in guard_entries(document)]
    texts += [str(text) for text in document.get("avoid") or [] if isinstance(text, str)]
    return list(dict.fromkeys(texts))


def with_guards(document: Mapping[str, Any], guards: Sequence[str]) -> dict[str, Any]:
    """`document` with `guards` as its guard entries of `anti_patterns` (and no `avoid`).

    The document's other anti-patterns stay first, as they were; a guard that already had an entry
    keeps it (with whatever else the entry carried). Without any entry, `anti_patterns` is left out.
    """
    result = {key: value for key, value in document.items() if key != "avoid"}
    current = list(document.get("anti_patterns") or [])
    existing: dict[str, Any] = {}
    for entry in current:
        if _is_guard(entry):
            existing.setdefault(entry["reason_class"], entry)
    entries = [entry for entry in current if not _is_guard(entry)]
    entries += [existing.get(text) or guard_entry(text) for text in dict.fromkeys(guards)]
    if entries:
        result["anti_patterns"] = entries
    else:
        result.pop("anti_patterns", None)
    return result


def to_gep(document: Mapping[str, Any]) -> dict[str, Any]:
    """The GEP form of a (possibly legacy) document: `avoid` as guard entries, no `parent` or
    `generation_meta`. A document already in GEP form is returned equal to itself."""
    result = {key: value for key, value in document.items() if key not in ("parent", "generation_meta")}
    if "avoid" in result:
        result = with_guards(result, guards_of(result))
    return result
