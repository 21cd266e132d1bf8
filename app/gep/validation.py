"""A Gene document checked twice: against GEP's official Gene schema and against Genebank's own rules.

The official schema (`app/gep/schemas/gene.schema.json`, GEP 1.13.0, vendored with its licence) is
the interoperability contract: what any GEP client accepts. Genebank's rules (`GeneDocument`) are
stricter: length caps, no blank strings, signal patterns that compile on RE2, no shell operators in
validation commands, and an `asset_id` that matches the content.

Genebank's documents are GEP documents plus `model_name`, which GEP's reference client adds itself;
the schema is closed (`additionalProperties: false`), so it is reported as a GEP-compatibility
warning, not an error. Three older Genebank fields (`avoid`, `parent`, `generation_meta`) are still
accepted: the registry converts `avoid` to guard entries of `anti_patterns` and moves the other two
out of the document before hashing (app/gep/document.py). Each is a warning saying so, and the
verdict's `asset_id` and the schema check are those of the converted document, the one the registry
would store and serve.

A document without `asset_id` is checked against the schema with the `asset_id` the registry would
compute, since that is the document the registry would serve.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

from jsonschema import Draft7Validator
from pydantic import ValidationError

from app.gep.canonical import compute_asset_id
from app.gep.document import LEGACY_FIELDS, GeneDocument, to_gep

EXTENSIONS = ("model_name",)  # outside GEP's schema, kept in the document (the reference client adds it)
_LEGACY_NOTES = {
    "avoid": "the registry stores these guards as anti_patterns entries {mode: avoid, reason_class}",
    "parent": "the registry keeps the parent in the version's record, outside the document",
    "generation_meta": "the registry keeps it in the version's record, outside the document",
}
# Enough to fix a document; a document with hundreds of errors gets the first ones.
MAX_FINDINGS = 50
MAX_MESSAGE = 300

Source = Literal["gep", "genebank"]


@dataclass(frozen=True)
class Finding:
    source: Source
    path: str  # a JSON Pointer into the document; "" is the document itself
    message: str


@dataclass
class Verdict:
    asset_id: str
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors


def gep_schema(name: str) -> dict[str, Any]:
    """One of GEP's official schemas, read from the package (e.g. "gene" for gene.schema.json)."""
    text = resources.files("app.gep").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _gene_validator() -> Draft7Validator:
    schema = gep_schema("gene")
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def _pointer(parts: Any) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _short(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _gep_findings(document: dict[str, Any], asset_id: str) -> tuple[list[Finding], list[Finding]]:
    warnings = [
        Finding(
            "gep",
            _pointer([name]),
            f"{name!r} is a Genebank extension: GEP's Gene schema allows no additional properties, "
            "so a strict GEP validator refuses this field",
        )
        for name in EXTENSIONS
        if name in document
    ]
    warnings += [
        Finding(
            "gep",
            _pointer([name]),
            f"{name!r} is an older Genebank field that GEP's Gene schema refuses: {_LEGACY_NOTES[name]}, "
            "and the asset_id is that of the converted document",
        )
        for name in LEGACY_FIELDS
        if name in document
    ]
    converted = _converted(document)
    official = {key: value for key, value in converted.items() if key not in EXTENSIONS}
    if "asset_id" not in document or any(name in document for name in LEGACY_FIELDS):
        official["asset_id"] = asset_id
    errors = []
    for error in _gene_validator().iter_errors(official):
        errors.append(Finding("gep", _pointer(error.absolute_path), _short(error.message)))
        if len(errors) >= MAX_FINDINGS:
            break
    errors.sort(key=lambda finding: finding.path)
    return errors, warnings


def _converted(document: dict[str, Any]) -> dict[str, Any]:
    """The document the registry would store: legacy fields converted (when they have the shape to be)."""
    try:
        return to_gep(document)
    except (TypeError, AttributeError, KeyError):
        return document  # malformed legacy fields: the Genebank rules report them


def _genebank_findings(document: dict[str, Any], asset_id: str) -> list[Finding]:
    findings = []
    try:
        GeneDocument.model_validate(document)
    except ValidationError as exc:
        for error in exc.errors(include_url=False)[:MAX_FINDINGS]:
            findings.append(Finding("genebank", _pointer(error["loc"]), _short(error["msg"])))
    claimed = document.get("asset_id")
    # A legacy document's sender may have hashed it as sent: the registry accepts that id too.
    as_sent = compute_asset_id(document) if any(name in document for name in LEGACY_FIELDS) else asset_id
    if isinstance(claimed, str) and claimed not in (asset_id, as_sent):
        findings.append(
            Finding("genebank", "/asset_id", f"{claimed} does not match the document; expected {asset_id}")
        )
    return findings


def validate_gene(document: dict[str, Any]) -> Verdict:
    """Both verdicts on a parsed JSON object; pure CPU work (call it off the event loop)."""
    asset_id = compute_asset_id(_converted(document))
    gep_errors, warnings = _gep_findings(document, asset_id)
    return Verdict(asset_id, gep_errors + _genebank_findings(document, asset_id), warnings)
