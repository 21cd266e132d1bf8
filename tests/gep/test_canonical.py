"""Tests for GEP canonical JSON and asset ids, cross-checked against Node.js (the reference runtime)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import struct
import subprocess
from collections.abc import Iterator
from enum import IntEnum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.gep.canonical import ASSET_ID_PATTERN, JSONValue, canonical_json, compute_asset_id, js_number

NODE = "/usr/bin/node"

# ---------------------------------------------------------------------------------------------------------
# Fixed vectors
# ---------------------------------------------------------------------------------------------------------


JS_NUMBER_VECTORS: list[tuple[int | float, str]] = [
    (1e21, "1e+21"),
    (1.5e-7, "1.5e-7"),
    (1e-7, "1e-7"),
    (-1e-7, "-1e-7"),
    (1e-6, "0.000001"),
    (1e-5, "0.00001"),
    (0.0001, "0.0001"),
    (1.0, "1"),
    (-0.0, "0"),
    (0.0, "0"),
    (0, "0"),
    (0.1, "0.1"),
    (-2.5, "-2.5"),
    (1e16, "10000000000000000"),
    (123456789012345680000.0, "123456789012345680000"),
    (123456789012345680000, "123456789012345680000"),
    (1e20, "100000000000000000000"),
    (1.2345e21, "1.2345e+21"),
    (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (float("inf"), "null"),
    (float("-inf"), "null"),
    (float("nan"), "null"),
    (2**53, "9007199254740992"),
    (-(2**53), "-9007199254740992"),
    # Beyond 2**53 JavaScript's JSON parser rounds to the nearest double (ties to even).
    (2**53 + 1, "9007199254740992"),
    (2**53 + 3, "9007199254740996"),
    (2**60, "1152921504606847000"),
    (-(2**60), "-1152921504606847000"),
    (10**21, "1e+21"),
    (2**1024 - 2**970 - 1, "1.7976931348623157e+308"),
    # Exactly halfway to the next (unrepresentable) double rounds to even, i.e. to Infinity.
    (2**1024 - 2**970, "null"),
    (10**400, "null"),
]


@pytest.mark.parametrize(("value", "expected"), JS_NUMBER_VECTORS)
def test_js_number_vectors(value: int | float, expected: str) -> None:
    assert js_number(value) == expected
    assert canonical_json(value) == expected


class _Level(IntEnum):
    HIGH = 3


def test_number_subclasses_use_their_numeric_value() -> None:
    assert canonical_json(_Level.HIGH) == "3"
    assert canonical_json([True, 1, False, 0]) == "[true,1,false,0]"


CANONICAL_VECTORS: list[tuple[JSONValue, str]] = [
    (None, "null"),
    (True, "true"),
    (False, "false"),
    ("", '""'),
    ("plain", '"plain"'),
    ('q"b\\s', '"q\\"b\\\\s"'),
    ("\b\f\n\r\t", '"\\b\\f\\n\\r\\t"'),
    ("\x00\x01\x1f", '"\\u0000\\u0001\\u001f"'),
    ("\x7f\x80", '"\x7f\x80"'),
    ("\u2028\u2029", '"\u2028\u2029"'),
    ("日本語 é 😀", '"日本語 é 😀"'),
    ("/", '"/"'),
    # Lone surrogates are escaped (well-formed JSON.stringify), pairs are emitted as the astral char.
    ("\ud800", '"\\ud800"'),
    ("a\udfffb", '"a\\udfffb"'),
    ("\ude00\ud83d", '"\\ude00\\ud83d"'),
    ("\ud83d\ude00", '"😀"'),
    ("\ud83d\ud83d\ude00", '"\\ud83d😀"'),
    ([], "[]"),
    ({}, "{}"),
    ([1, "a", None, [2, [3]], {"k": []}], '[1,"a",null,[2,[3]],{"k":[]}]'),
    ({"b": 1, "a": {"d": [True], "c": None}}, '{"a":{"c":null,"d":[true]},"b":1}'),
    ({"b": 1, "B": 2, "_": 3, "a": 4, "10": 5, "9": 6}, '{"10":5,"9":6,"B":2,"_":3,"a":4,"b":1}'),
    ({"x": float("nan"), "y": [float("inf")]}, '{"x":null,"y":[null]}'),
]


@pytest.mark.parametrize(("value", "expected"), CANONICAL_VECTORS)
def test_canonical_json_vectors(value: JSONValue, expected: str) -> None:
    assert canonical_json(value) == expected


def test_control_characters_match_json_stringify() -> None:
    short = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}
    for code in range(0x20):
        assert canonical_json(chr(code)) == '"' + short.get(code, f"\\u{code:04x}") + '"'


def test_keys_sort_by_utf16_code_units() -> None:
    # JavaScript compares UTF-16 units: U+1F600 is D83D DE00, which sorts before U+E000 and U+FFFF.
    doc: dict[str, JSONValue] = {"\ue000": 1, "\U0001f600": 2, "\uffff": 3, "z": 4, "\ud7ff": 5}
    assert canonical_json(doc) == '{"z":4,"\ud7ff":5,"\U0001f600":2,"\ue000":1,"\uffff":3}'
    assert sorted(doc) != ["z", "\ud7ff", "\U0001f600", "\ue000", "\uffff"]  # Python's order differs
    # A lone low surrogate (unit DC00) sorts after the high unit D83D of an astral character.
    assert canonical_json({"\udc00": 1, "\U0001f600": 2}) == '{"\U0001f600":2,"\\udc00":1}'


@pytest.mark.parametrize(
    "value",
    [
        (1, 2),
        {1, 2},
        b"bytes",
        object(),
        {1: "int key"},
        {"nested": {None: 1}},
        [1, {"ok": [complex(1, 2)]}],
    ],
)
def test_non_json_values_raise_type_error(value: Any) -> None:
    with pytest.raises(TypeError):
        canonical_json(value)


def test_asset_id_excludes_only_top_level_asset_id() -> None:
    doc: dict[str, JSONValue] = {"type": "Gene", "n": {"asset_id": "inner"}}
    with_id = {**doc, "asset_id": "sha256:" + "0" * 64}
    expected = "sha256:" + hashlib.sha256(b'{"n":{"asset_id":"inner"},"type":"Gene"}').hexdigest()
    assert compute_asset_id(doc) == expected
    assert compute_asset_id(with_id) == expected
    assert compute_asset_id({"type": "Gene", "n": {}}) != expected
    assert "asset_id" in with_id  # the caller's mapping is left untouched
    assert ASSET_ID_PATTERN.match(expected)


def test_asset_id_of_known_document() -> None:
    doc: dict[str, JSONValue] = {
        "type": "Gene",
        "schema_version": "1.13.0",
        "id": "gene_gep_repair_from_errors",
        "category": "repair",
        "signals_match": [
            "timeout",
            "/timeout|ECONNREFUSED/i",
            "creative template|创意生成模板|創造テンプレート",
        ],
        "strategy": ["Read the failing log\n", "Patch the retry loop 😀"],
        "constraints": {"max_files": 5, "forbidden_paths": [".git", "secrets/"]},
        "validation": ["npm test"],
        "routing_hint": None,
        "score": 0.1,
        "big": 1e21,
        "tiny": 1.5e-7,
        "asset_id": "sha256:" + "0" * 64,
    }
    assert canonical_json({k: v for k, v in doc.items() if k != "asset_id"}) == (
        '{"big":1e+21,"category":"repair","constraints":{"forbidden_paths":[".git","secrets/"],"max_files":5},'
        '"id":"gene_gep_repair_from_errors","routing_hint":null,"schema_version":"1.13.0","score":0.1,'
        '"signals_match":["timeout","/timeout|ECONNREFUSED/i",'
        '"creative template|创意生成模板|創造テンプレート"],'
        '"strategy":["Read the failing log\\n","Patch the retry loop 😀"],"tiny":1.5e-7,"type":"Gene",'
        '"validation":["npm test"]}'
    )
    # Obtained by running Appendix A's computeAssetId (canonicalize + crypto sha256) on the same object
    # literal under Node.js v20.20.2.
    expected = "sha256:92a53b6e087a176b02d6df2260bc0e309545d5150fd54f456d3a7c2d0e258a0f"
    assert compute_asset_id(doc) == expected


def test_asset_id_pattern() -> None:
    assert ASSET_ID_PATTERN.match("sha256:" + "ab" * 32)
    assert not ASSET_ID_PATTERN.match("sha256:" + "AB" * 32)
    assert not ASSET_ID_PATTERN.match("sha256:" + "ab" * 31)
    # "$" also matches before a trailing newline, so validators must use fullmatch.
    assert ASSET_ID_PATTERN.match("sha256:" + "ab" * 32 + "\n")
    assert not ASSET_ID_PATTERN.fullmatch("sha256:" + "ab" * 32 + "\n")
    assert not ASSET_ID_PATTERN.match("md5:" + "ab" * 32)


def test_document_with_lone_surrogate_hashes() -> None:
    assert ASSET_ID_PATTERN.match(compute_asset_id({"s": "\udc00", "\ud800": 1}))


# ---------------------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------------------


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def _bits_to_float(bits: int) -> float:
    value: float = struct.unpack("<d", struct.pack("<Q", bits))[0]
    return value


# Pieces where JavaScript and naive Python disagree. They are concatenated rather than used as a text()
# alphabet, because hypothesis folds character alphabets into code point ranges and then almost never
# draws surrogates or these exact characters.
_TRICKY_PIECES = [
    "\ue000",
    "\uffff",
    "\U0001f600",
    "\U0010ffff",
    "\ud83d",
    "\ude00",
    "\ud83d\ude00",  # a surrogate pair held as two code points: one character to JavaScript
    "\u2028",
    "\x7f",
    "\x00",
    "\x1f",
    "\n",
    '"',
    "\\",
]
_any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=4)
_pieces = st.one_of(
    st.text(st.characters(max_codepoint=0x7F), max_size=4), _any_text, st.sampled_from(_TRICKY_PIECES)
)
_text = st.lists(_pieces, max_size=5).map("".join)
# JSON has no NaN literal, so NaN travels to Node as a one-key object under a key never generated here.
_NAN_KEY = "\udfff\x00NaN"
_keys = st.lists(_pieces, max_size=2).map("".join).filter(lambda key: key != _NAN_KEY)

_powers_of_ten = st.integers(-325, 308).map(lambda e: float(f"1e{e}"))
_floats = st.one_of(
    st.floats(),
    st.integers(0, 2**64 - 1).map(_bits_to_float),  # uniform over bit patterns: every exponent, subnormals
    _powers_of_ten,
    # Short decimal mantissas, often right at the exponents where JavaScript switches layout.
    st.builds(
        lambda digits, exponent: float(f"{str(digits)[0]}.{str(digits)[1:]}0e{exponent}"),
        st.integers(1, 10**17),
        st.sampled_from([-8, -7, -6, -5, 19, 20, 21, 22]) | st.integers(-30, 30),
    ),
    st.tuples(_powers_of_ten, st.sampled_from([math.inf, -math.inf])).map(lambda p: math.nextafter(*p)),
)
_finite_floats = _floats.filter(math.isfinite)


def _halfway_int(mantissa: int, shift: int, adjust: int, negative: bool) -> int:
    # (2m+1) * 2**shift with m in [2**52, 2**53) lies exactly between two adjacent doubles.
    value = ((2 * mantissa + 1) << shift) + adjust
    return -value if negative else value


_big_ints = st.one_of(
    st.builds(
        lambda k, d, neg: -(2**k + d) if neg else 2**k + d,
        st.integers(50, 1030),
        st.integers(-4, 4),
        st.booleans(),
    ),
    st.builds(
        _halfway_int, st.integers(2**52, 2**53 - 1), st.integers(0, 972), st.integers(-1, 1), st.booleans()
    ),
    st.integers(),
)
_safe_ints = st.integers(-(2**53), 2**53)

_SCALARS = st.one_of(st.none(), st.booleans(), _safe_ints, _big_ints, _floats, _text)
_FINITE_SCALARS = st.one_of(st.none(), st.booleans(), _safe_ints, _finite_floats, _text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Keys must stay distinct in UTF-16 too, or two Python keys would be one JavaScript key. (A unique_by
    # list would do this too, but makes hypothesis build a huge repr of the recursive strategy.)
    first: dict[bytes, tuple[str, Any]] = {}
    for key, value in pairs:
        first.setdefault(_utf16(key), (key, value))
    return dict(first.values())


def _json_values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.lists(children, max_size=6) | st.lists(st.tuples(_keys, children), max_size=6).map(_object)

    return st.recursive(scalars, extend, max_leaves=25)


_values = _json_values(_SCALARS)
_finite_values = _json_values(_FINITE_SCALARS)


# ---------------------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------------------


def _reorder(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _reorder(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_reorder(v, rng) for v in value]
    return value


@settings(max_examples=300, deadline=None)
@given(_values, st.randoms(use_true_random=False))
def test_key_insertion_order_is_irrelevant(value: Any, rng: random.Random) -> None:
    shuffled = _reorder(value, rng)
    assert canonical_json(shuffled) == canonical_json(value)
    if isinstance(value, dict):
        assert compute_asset_id(shuffled) == compute_asset_id(value)


def _normalized(value: Any) -> Any:
    """Tagged form under which JSON round trips must be lossless (numbers as doubles, UTF-16 strings)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return ("number", float(value))
    if isinstance(value, str):
        return ("string", _utf16(value))
    if isinstance(value, list):
        return [_normalized(v) for v in value]
    return {_utf16(k): _normalized(v) for k, v in value.items()}


@settings(max_examples=300, deadline=None)
@given(_finite_values)
def test_output_parses_back_to_input(value: Any) -> None:
    text = canonical_json(value)
    text.encode("utf-8")  # never leaks surrogate code points
    assert _normalized(json.loads(text)) == _normalized(value)


# ---------------------------------------------------------------------------------------------------------
# Cross-check against Node.js, the reference runtime
# ---------------------------------------------------------------------------------------------------------

# Appendix A verbatim; one JSON value per input line, [canonical, assetIdOrNull] per output line.
_NODE_SCRIPT = r"""
const crypto = require("crypto");
const readline = require("readline");
const NAN_KEY = "\udfff\u0000NaN";
function canonicalize(obj) {
  if (obj === null || obj === undefined) return "null";
  if (typeof obj === "boolean") return obj ? "true" : "false";
  if (typeof obj === "number") return Number.isFinite(obj) ? String(obj) : "null";
  if (typeof obj === "string") return JSON.stringify(obj);
  if (Array.isArray(obj)) return "[" + obj.map(canonicalize).join(",") + "]";
  if (typeof obj === "object") {
    const keys = Object.keys(obj).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalize(obj[k])).join(",") + "}";
  }
  return "null";
}
function computeAssetId(obj) {
  const clean = Object.assign({}, obj);
  delete clean.asset_id;
  return "sha256:" + crypto.createHash("sha256").update(canonicalize(clean), "utf8").digest("hex");
}
function revive(key, value) {
  const isNanMarker = value !== null && typeof value === "object" && Object.hasOwn(value, NAN_KEY);
  return isNanMarker ? NaN : value;
}
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  const value = JSON.parse(line, revive);
  const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  const id = isObject ? computeAssetId(value) : null;
  process.stdout.write(JSON.stringify([canonicalize(value), id]) + "\n");
});
"""


def _to_js(value: Any) -> str:
    """JSON text that JavaScript parses to the same doubles and UTF-16 strings (ASCII only, one line)."""
    if isinstance(value, float):
        if math.isnan(value):
            return json.dumps({_NAN_KEY: 0})
        if math.isinf(value):
            return "1e999" if value > 0 else "-1e999"  # JSON.parse overflows these to +/-Infinity
        return repr(value)
    if isinstance(value, list):
        return "[" + ",".join(_to_js(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _to_js(v) for k, v in value.items()) + "}"
    # Integers go out exactly; JavaScript's parser then rounds them, as js_number assumes.
    return json.dumps(value)


class _Node:
    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [NODE, "-e", _NODE_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def canonicalize(self, value: Any) -> tuple[str, str | None]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(_to_js(value).encode("ascii") + b"\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"node exited with {self._proc.wait()}")
        canonical, asset_id = json.loads(line)
        return canonical, asset_id

    def close(self) -> None:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.close()
        self._proc.wait(timeout=10)
        self._proc.stdout.close()


@pytest.fixture(scope="module")
def node() -> Iterator[_Node]:
    if not os.path.exists(NODE):
        pytest.skip(f"{NODE} not available")
    proc = _Node()
    yield proc
    proc.close()


def test_node_harness_transports_values_faithfully(node: _Node) -> None:
    value = [float("nan"), float("inf"), -0.0, 2**53 + 1, "\ud800", "\ud83d\ude00", {"asset_id": 1, "a": 2}]
    assert node.canonicalize(value)[0] == '[null,null,0,9007199254740992,"\\ud800","😀",{"a":2,"asset_id":1}]'


def test_every_code_point_matches_node(node: _Node) -> None:
    # The separator keeps surrogates apart so that each one is lone; pairs are covered by the properties.
    every = "x".join(chr(code) for code in range(0x110000))
    expected, _ = node.canonicalize(every)
    assert canonical_json(every) == expected


@settings(max_examples=300, deadline=None)
@given(_values)
def test_matches_node(node: _Node, value: Any) -> None:
    expected, expected_id = node.canonicalize(value)
    assert canonical_json(value) == expected
    if expected_id is not None:
        assert compute_asset_id(value) == expected_id


@settings(max_examples=400, deadline=None)
@given(st.one_of(_floats, _big_ints, _safe_ints))
def test_numbers_match_node(node: _Node, value: int | float) -> None:
    assert js_number(value) == node.canonicalize(value)[0]
