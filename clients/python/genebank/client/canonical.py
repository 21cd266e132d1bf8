"""GEP canonical JSON and asset ids (GEP spec §5 and Appendix A), for verifying what a registry serves.

The reference implementation is JavaScript, so numbers are written as ``String(n)`` writes doubles,
strings as ``JSON.stringify`` writes them, and object keys sorted by UTF-16 code units as
``Array.prototype.sort`` sorts them. The registry has its own, faster implementation; the test suite
checks that both give the same text on the same documents (including its Node.js vectors).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["canonical_json", "compute_asset_id", "js_number"]

_MAX_SAFE_INT = 2**53
# json.dumps(ensure_ascii=False) escapes like JSON.stringify but leaves surrogate code points raw.
_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


def _surrogate(match: re.Match[str]) -> str:
    text = match.group()
    if len(text) == 2:  # a pair held as two code points is one astral character to JavaScript
        return chr(0x10000 + ((ord(text[0]) - 0xD800) << 10) + (ord(text[1]) - 0xDC00))
    return f"\\u{ord(text):04x}"  # a lone surrogate: well-formed JSON.stringify escapes it


def _string(text: str) -> str:
    return _SURROGATES.sub(_surrogate, json.dumps(text, ensure_ascii=False))


def js_number(value: int | float) -> str:
    """``String(n)`` of the double a JavaScript JSON parser reads for ``value``."""
    if isinstance(value, int):
        if -_MAX_SAFE_INT <= value <= _MAX_SAFE_INT:
            return str(int(value))
        try:
            value = float(int(value))  # rounds half-even, like JavaScript's parser
        except OverflowError:
            return "null"  # such a literal parses as Infinity
    value = float(value)
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"  # -0 too
    # repr gives the shortest round-trip digits; only JavaScript's layout of them differs.
    mantissa, _, exponent_text = repr(value).partition("e")
    sign = "-" if mantissa.startswith("-") else ""
    mantissa = mantissa.lstrip("-")
    if exponent_text:
        digits, exponent = mantissa.replace(".", ""), int(exponent_text)
    else:
        whole, _, fraction = mantissa.partition(".")
        fraction = "" if fraction == "0" else fraction
        digits = (whole + fraction).lstrip("0")
        exponent = len(whole) - 1 if whole != "0" else -(len(fraction) - len(fraction.lstrip("0")) + 1)
    digits = digits.rstrip("0") or "0"
    point = exponent + 1  # value == 0.<digits> * 10**point
    if point > 21 or point <= -6:
        head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{head}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    if point > 0:
        return sign + digits[:point] + "." + digits[point:]
    return sign + "0." + "0" * -point + digits


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def canonical_json(value: Any) -> str:
    """The canonical JSON text of ``value`` (a JSON value: dict, list, str, number, bool or None)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(item) for item in value) + "]"
    if isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("object keys must be str")
        keys = sorted(value, key=_utf16)
        return "{" + ",".join(_string(key) + ":" + canonical_json(value[key]) for key in keys) + "}"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def compute_asset_id(document: Mapping[str, Any]) -> str:
    """``"sha256:" + hex(sha256(canonical JSON of document without its top-level asset_id))``."""
    body = {key: item for key, item in document.items() if key != "asset_id"}
    return "sha256:" + hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
