"""GEP content addressing (spec §5, Appendix A).

The reference implementation is JavaScript, so ``canonical_json`` reproduces ``String(number)``,
``JSON.stringify(string)`` and ``Array.prototype.sort`` exactly; any divergence yields a different
asset_id for the same asset.
"""

from __future__ import annotations

import hashlib
import json.encoder
import math
import re
from collections.abc import Callable, Mapping
from typing import TypeAlias

__all__ = [
    "ASSET_ID_PATTERN",
    "JSONValue",
    "canonical_json",
    "compute_asset_id",
    "js_number",
]

JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"

# Validate with fullmatch: Python's "$" also matches before a trailing "\n". The pattern keeps this
# portable form so its text can be reused in JSON Schema / pydantic, where "$" means end of string.
ASSET_ID_PATTERN = re.compile(r"^sha256:[0-9a-f]{64}$")

# Every integer up to 2**53 is an exact double whose shortest digits are the integer itself.
_MAX_SAFE_INT = 2**53

# The string encoder behind json.dumps(s, ensure_ascii=False) escapes exactly like JSON.stringify (the tests
# check every code point against Node) except that it leaves surrogate code points raw; _quote repairs
# those. It is called directly because JSONEncoder.encode adds ~15% to canonical_json for no benefit.
_encode_str_raw = json.encoder.encode_basestring
_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


def _fix_surrogate(match: re.Match[str]) -> str:
    text = match.group()
    if len(text) == 2:
        # A high+low pair stored as two code points is one astral character to JavaScript.
        return chr(0x10000 + ((ord(text[0]) - 0xD800) << 10) + (ord(text[1]) - 0xDC00))
    return f"\\u{ord(text):04x}"


def _quote(text: str) -> str:
    encoded: str = _encode_str_raw(text)
    # isascii() is a constant-time flag check, so ASCII-only strings skip the regex scan entirely.
    if not encoded.isascii() and _SURROGATES.search(encoded) is not None:
        encoded = _SURROGATES.sub(_fix_surrogate, encoded)
    return encoded


def _utf16_units(key: str) -> bytes:
    # Big-endian UTF-16 bytes compare in the same order as JavaScript's UTF-16 code units.
    return key.encode("utf-16-be", "surrogatepass")


def js_number(value: int | float) -> str:
    """Format ``value`` as ECMAScript ``String(n)`` would after JSON-parsing it into a double."""
    if isinstance(value, int):
        number = int(value)  # strips bool/IntEnum so their own __str__ cannot leak in
        if -_MAX_SAFE_INT <= number <= _MAX_SAFE_INT:
            return str(number)
        try:
            value = float(number)  # correctly rounded, half-even, like JavaScript's parser
        except OverflowError:
            return "null"  # JavaScript parses such a literal as Infinity
    else:
        value = float(value)
    if not math.isfinite(value):
        return "null"
    if value == 0.0:
        return "0"  # also covers -0, which repr would render as "-0.0"
    # repr already yields the shortest round-trip digits; only the layout differs from JavaScript.
    text = repr(value)
    mantissa, sep, exp_text = text.partition("e")
    if not sep:
        # repr is positional only for decimal exponents -4..15, all inside JavaScript's positional range.
        return text[:-2] if text.endswith(".0") else text
    exponent = int(exp_text)
    sign = ""
    if mantissa[0] == "-":
        sign = "-"
        mantissa = mantissa[1:]
    point = exponent + 1  # value == 0.<digits> * 10**point
    if point > 21 or point <= -6:
        return f"{sign}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
    digits = mantissa.replace(".", "")
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    if point > 0:
        return sign + digits[:point] + "." + digits[point:]
    return sign + "0." + "0" * -point + digits


def _emit(value: object, out: Callable[[str], object]) -> None:
    # Exact type checks first: they are the common case and much cheaper than isinstance chains.
    if type(value) is str:
        out(_quote(value))
    elif value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif type(value) is int:
        out(str(value) if -_MAX_SAFE_INT <= value <= _MAX_SAFE_INT else js_number(value))
    elif type(value) is float:
        out(js_number(value))
    elif isinstance(value, dict):
        _emit_object(value, out)
    elif isinstance(value, list):
        _emit_array(value, out)
    elif isinstance(value, str):
        out(_quote(value))
    elif isinstance(value, (int, float)):
        out(js_number(value))
    else:
        raise TypeError(f"{type(value).__name__} is not a JSON value")


def _emit_object(obj: Mapping[str, object], out: Callable[[str], object]) -> None:
    keys = list(obj)
    if not keys:
        out("{}")
        return
    try:
        joined = "".join(keys)
    except TypeError:
        raise TypeError("object keys must be str") from None
    if joined.isascii():
        keys.sort()
    else:
        # Code point order differs from UTF-16 order once astral or surrogate characters are involved.
        keys.sort(key=_utf16_units)
    separator = "{"
    for key in keys:
        out(separator + _quote(key) + ":")
        separator = ","
        _emit(obj[key], out)
    out("}")


def _emit_array(items: list[object], out: Callable[[str], object]) -> None:
    if not items:
        out("[]")
        return
    separator = "["
    for item in items:
        out(separator)
        separator = ","
        _emit(item, out)
    out("]")


def canonical_json(value: JSONValue) -> str:
    """Return the canonical JSON text of ``value``, byte-identical to the reference ``canonicalize``."""
    parts: list[str] = []
    _emit(value, parts.append)
    return "".join(parts)


def compute_asset_id(document: Mapping[str, JSONValue]) -> str:
    """Return ``"sha256:<hex>"`` of the canonical form of ``document`` minus its top-level ``asset_id``."""
    body = {key: value for key, value in document.items() if key != "asset_id"}
    return "sha256:" + hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
