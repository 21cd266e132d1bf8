"""The validated Gene document hashes exactly like the JSON sent (legacy fields converted first)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.gep.canonical import compute_asset_id
from app.gep.document import GeneDocument, guards_of
from app.gep.validation import EXTENSIONS, gep_schema
from tests.factories import gene_doc

text = st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=40).filter(
    lambda s: s.strip() != ""
)
json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)


def _substring_pattern(source: str) -> bool:
    """A valid substring signal: not a /regex/, and at least one non-blank `|` alternative."""
    return not source.startswith("/") and any(part.strip() for part in source.split("|"))


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "type": "Gene",
        "schema_version": "1.13.0",
        "id": "gene_" + draw(st.from_regex(r"[a-z0-9_]{3,20}", fullmatch=True)),
        "category": draw(st.sampled_from(["repair", "optimize", "innovate", "explore"])),
        "signals_match": draw(st.lists(text.filter(_substring_pattern), min_size=1, max_size=4)),
        "strategy": draw(st.lists(text, min_size=1, max_size=4)),
        "constraints": {
            "max_files": draw(st.integers(1, 50) | st.integers(1, 50).map(float)),
            "forbidden_paths": draw(st.lists(text, min_size=1, max_size=3)),
        },
        "validation": draw(
            st.lists(text.filter(lambda s: not any(c in s for c in ";&|<>`\n\r$")), min_size=1, max_size=5)
        ),
    }
    optional = {
        "summary": text,
        "preconditions": st.lists(text, max_size=3),
        "anti_patterns": st.lists(
            st.fixed_dictionaries({"mode": st.just("avoid"), "reason_class": text})
            | st.fixed_dictionaries({"mode": text, "reason_class": text, "learning_signals": st.lists(text)}),
            max_size=3,
        ),
        "model_name": text,
        "routing_hint": st.none()
        | st.fixed_dictionaries({"tier": st.sampled_from(["cheap", "mid", "expensive"])}),
        "claims": st.lists(st.fixed_dictionaries({"predicate": text}), max_size=2),
    }
    for key, strategy in optional.items():
        if draw(st.booleans()):
            doc[key] = draw(strategy)
    return doc


@settings(max_examples=200, deadline=None)
@given(documents())
def test_validated_document_hashes_like_the_raw_json(raw: dict[str, Any]) -> None:
    # Round-trip through JSON text first: the server only ever sees parsed JSON.
    sent = json.loads(json.dumps(raw))
    validated = GeneDocument.model_validate(sent)
    assert compute_asset_id(validated.hashed_fields()) == compute_asset_id(sent)


@settings(max_examples=200, deadline=None)
@given(documents(), st.lists(text, max_size=3), st.dictionaries(text, json_value, max_size=4))
def test_legacy_fields_are_converted_before_hashing(
    raw: dict[str, Any], avoid: list[str], meta: dict[str, Any]
) -> None:
    sent = json.loads(
        json.dumps({**raw, "avoid": avoid, "generation_meta": meta, "parent": "sha256:" + "a" * 64})
    )
    try:
        validated = GeneDocument.model_validate(sent)
    except ValidationError:
        assume(False)  # more than 12 anti-patterns together
        return
    hashed = validated.hashed_fields()
    assert not set(hashed) & {"avoid", "parent", "generation_meta"}
    assert guards_of(hashed) == list(dict.fromkeys(guards_of(raw) + avoid))
    # The converted document is a GEP document like any other: converting it again changes nothing.
    assert GeneDocument.model_validate(json.loads(json.dumps(hashed))).hashed_fields() == hashed
    assert validated.legacy() == ["avoid", "parent", "generation_meta"]


def test_documents_validate_against_the_gep_schema_without_extensions() -> None:
    schema = gep_schema("gene")  # the vendored official schema, as the package ships it
    doc = {k: v for k, v in gene_doc().items() if k not in EXTENSIONS}
    doc["asset_id"] = compute_asset_id(doc)
    jsonschema.validate(doc, schema)
    GeneDocument.model_validate(doc)
