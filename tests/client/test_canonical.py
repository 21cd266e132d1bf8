"""The client's own GEP canonical JSON gives the registry's text and asset_id on the same documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.gep import canonical as server
from genebank.client import canonical as client
from tests.gep.test_canonical import (
    _NAN_KEY,
    CANONICAL_VECTORS,
    JS_NUMBER_VECTORS,
    _floats,
    _values,
    test_asset_id_of_known_document,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("value", "expected"), JS_NUMBER_VECTORS)
def test_number_vectors(value: int | float, expected: str) -> None:
    assert client.js_number(value) == expected
    assert client.canonical_json(value) == expected


@pytest.mark.parametrize(("value", "expected"), CANONICAL_VECTORS)
def test_canonical_vectors(value: Any, expected: str) -> None:
    assert client.canonical_json(value) == expected


def test_the_known_document_has_the_reference_asset_id(monkeypatch: pytest.MonkeyPatch) -> None:
    # The registry's test of Appendix A's computeAssetId under Node.js, run on the client's functions.
    from tests.gep import test_canonical

    monkeypatch.setattr(test_canonical, "canonical_json", client.canonical_json)
    monkeypatch.setattr(test_canonical, "compute_asset_id", client.compute_asset_id)
    test_asset_id_of_known_document()


def test_keys_sort_by_utf16_code_units_and_surrogates_escape() -> None:
    doc = {"\ue000": 1, "\U0001f600": 2, "\uffff": 3, "z": 4, "\ud7ff": 5, "\udc00": 6}
    assert client.canonical_json(doc) == server.canonical_json(doc)
    assert client.canonical_json(["\ud83d\ude00", "\ud800"]) == '["😀","\\ud800"]'


@pytest.mark.parametrize("value", [(1, 2), {1, 2}, b"bytes", object(), {1: "x"}, [complex(1, 2)]])
def test_non_json_values_raise(value: Any) -> None:
    with pytest.raises(TypeError):
        client.canonical_json(value)


def test_every_code_point_matches_the_registry() -> None:
    every = "x".join(chr(code) for code in range(0x110000))
    assert client.canonical_json(every) == server.canonical_json(every)


@settings(max_examples=400, deadline=None)
@given(_values.filter(lambda v: not (isinstance(v, dict) and _NAN_KEY in v)))
def test_any_json_value_matches_the_registry(value: Any) -> None:
    assert client.canonical_json(value) == server.canonical_json(value)
    if isinstance(value, dict):
        assert client.compute_asset_id(value) == server.compute_asset_id(value)


@settings(max_examples=600, deadline=None)
@given(st.one_of(_floats, st.integers()))
def test_any_number_matches_the_registry(value: int | float) -> None:
    assert client.js_number(value) == server.js_number(value)


def test_every_demo_gene_hashes_alike() -> None:
    genes = json.loads((ROOT / "app" / "demo" / "genes.json").read_text())
    for payload in genes:
        assert client.compute_asset_id(payload["gene"]) == server.compute_asset_id(payload["gene"])
