"""A Gene document checked twice: against GEP's official Gene schema and against Genebank's own rules.

The official schema (`app/gep/schemas/gene.schema.json`, GEP 1.13.0, vendored with its licence) is
the interoperability contract: what any GEP client accepts. Genebank's rules (`GeneDocument`) are
stricter: length caps, no blank strings, signal patterns that compile on RE2, no shell operators in
validation commands, and an `asset_id` that matches the content.

Genebank's documents may carry four fields the official schema does not know (`avoid`,
`model_name`, `parent`, `generation_meta`); the schema is closed (`additionalProperties: false`), so
a strict GEP validator refuses them. Those are reported as GEP-compatibility warnings, not errors:
the document is valid here and hashes the same, but a strict GEP client would not take it as is.

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
from app.gep.document import GeneDocument

EXTENSIONS = ("avoid", "model_name", "parent", "generation_meta")
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
    official = {key: value for key, value in document.items() if key not in EXTENSIONS}
    official.setdefault("asset_id", asset_id)
    errors = []
    for error in _gene_validator().iter_errors(official):
        errors.append(Finding("gep", _pointer(error.absolute_path), _short(error.message)))
        if len(errors) >= MAX_FINDINGS:
            break
    errors.sort(key=lambda finding: finding.path)
    return errors, warnings


def _genebank_findings(document: dict[str, Any], asset_id: str) -> list[Finding]:
    findings = []
    try:
        GeneDocument.model_validate(document)
    except ValidationError as exc:
        for error in exc.errors(include_url=False)[:MAX_FINDINGS]:
            findings.append(Finding("genebank", _pointer(error["loc"]), _short(error["msg"])))
    claimed = document.get("asset_id")
    if isinstance(claimed, str) and claimed != asset_id:
        findings.append(
            Finding("genebank", "/asset_id", f"{claimed} does not match the document; expected {asset_id}")
        )
    return findings


def validate_gene(document: dict[str, Any]) -> Verdict:
    """Both verdicts on a parsed JSON object; pure CPU work (call it off the event loop)."""
    asset_id = compute_asset_id(document)
    gep_errors, warnings = _gep_findings(document, asset_id)
    return Verdict(asset_id, gep_errors + _genebank_findings(document, asset_id), warnings)
