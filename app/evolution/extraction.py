"""Deterministic guard extraction from a trajectory's own text (used when the producer sent no guards).

The registry never writes advice of its own: a guard is the producer's words (its failed action, the
error it saw, its correction, the verifier's message) put into one fixed template. The rules:

1. A failed step (`ok: false`) that carries a `correction` becomes
   "when <error signature>, avoid <failed action>; instead <correction>"
   (without an error text: "avoid <failed action>; instead <correction>"). A failed step without a
   correction teaches no alternative and yields nothing.
2. A failed verifier run whose details name an error becomes
   "when verified by <verifier>, avoid <ErrorClass>: <message>".
3. Error signature: the last "SomethingError: message" line of the error text (tracebacks end with it;
   a dotted module prefix is dropped), else its first line. Memory addresses, long hex ids and
   UUIDs are masked so the same failure reads the same across runs.
4. Each guard is at most 200 characters: the parts share the budget fairly, longer ones are cut at a
   word boundary with "…". Duplicates within one trajectory are dropped; at most 12 guards.

The texts were redacted when the trajectory was stored; they are redacted again here (before ids
are masked), which costs little and keeps this function safe on its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.gep.document import MAX_GUARDS
from app.redaction import Redactor

MAX_GUARD_CHARS = 200
ELLIPSIS = "…"

_ERROR_LINE = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*\.)*"
    r"(?P<cls>[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault|Timeout))\b:?\s*(?P<msg>.*)$"
)
_VOLATILE = (
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x…"),
    (
        re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE),
        "<uuid>",
    ),
    (re.compile(r"\b[0-9a-f]{16,}\b"), "<hex>"),
)
_SPACE = re.compile(r"\s+")
_DETAIL_CLASS_KEYS = ("error_class", "error_type", "exception", "error_code", "code")
_DETAIL_MESSAGE_KEYS = ("message", "error", "reason", "failure", "detail", "stderr", "output")


def squash(text: str) -> str:
    """One line, single spaces, volatile ids masked."""
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return _SPACE.sub(" ", text).strip()


def shorten(text: str, limit: int) -> str:
    """Cut at a word boundary within `limit` characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + ELLIPSIS


def fit(template: str, parts: Sequence[str], limit: int = MAX_GUARD_CHARS) -> str:
    """Fill `template`'s {} slots with `parts`, sharing the remaining budget fairly between them."""
    budget = limit - len(template.replace("{}", ""))
    lengths = [len(part) for part in parts]
    shares = [0] * len(parts)
    remaining = budget
    # Water-filling: short parts keep their length; what they leave goes to the longer ones.
    for index in sorted(range(len(parts)), key=lambda i: lengths[i]):
        fair = remaining // (len(parts) - sum(1 for s in shares if s))
        shares[index] = max(1, min(lengths[index], fair))
        remaining -= shares[index]
    return template.format(*(shorten(part, share) for part, share in zip(parts, shares, strict=True)))


def error_signature(error: str) -> str:
    """ "ErrorClass: message" from the last line that names an error class, else the first line."""
    lines = [line for line in error.splitlines() if line.strip()]
    for line in reversed(lines):
        match = _ERROR_LINE.search(line)
        if match:
            message = squash(match.group("msg"))
            return f"{match.group('cls')}: {message}" if message else match.group("cls")
    return squash(lines[0]) if lines else ""


def _verifier_signature(details: Any) -> str:
    if isinstance(details, str):
        return error_signature(details)
    if not isinstance(details, Mapping):
        return ""
    error_class = next((str(details[k]) for k in _DETAIL_CLASS_KEYS if details.get(k)), "")
    message = next(
        (details[k] for k in _DETAIL_MESSAGE_KEYS if isinstance(details.get(k), str) and details[k]), ""
    )
    signature = error_signature(message) if message else ""
    if error_class and not signature.startswith(error_class):
        signature = f"{error_class}: {signature}" if signature else error_class
    return squash(signature)


def extract_guards(steps: Sequence[Mapping[str, Any]], verifier: Mapping[str, Any]) -> list[str]:
    """The guards rules 1-4 above derive from a trajectory's steps and verifier result."""
    redactor = Redactor()
    guards: list[str] = []
    for step in steps:
        if step.get("ok") or not step.get("correction"):
            continue
        action = squash(redactor.text(str(step.get("action", ""))))
        correction = squash(redactor.text(str(step["correction"])))
        signature = error_signature(redactor.text(str(step.get("error") or "")))
        if signature:
            guard = fit("when {}, avoid {}; instead {}", [signature, action, correction])
        else:
            guard = fit("avoid {}; instead {}", [action, correction])
        guards.append(guard)
    if not verifier.get("passed"):
        signature = _verifier_signature(redactor.json(verifier.get("details")))
        if signature:
            guards.append(
                fit("when verified by {}, avoid {}", [squash(str(verifier.get("name", ""))), signature])
            )
    return list(dict.fromkeys(guards))[:MAX_GUARDS]


def compact_producer_guard(text: str) -> str:
    """A producer's guard as written, on one line (it was redacted and length-checked on submission)."""
    return shorten(_SPACE.sub(" ", text).strip(), 300)


def signals_of(steps: Sequence[Mapping[str, Any]], verifier: Mapping[str, Any]) -> list[str]:
    """Error classes a run ran into, in order of appearance: its signals for routing and distillation."""
    found: list[str] = []
    texts = [str(step.get("error") or "") for step in steps]
    details = verifier.get("details")
    if isinstance(details, str):
        texts.append(details)
    elif isinstance(details, Mapping):
        texts.extend(str(details[k]) for k in (*_DETAIL_CLASS_KEYS, *_DETAIL_MESSAGE_KEYS) if details.get(k))
    for text in texts:
        for line in text.splitlines():
            match = _ERROR_LINE.search(line)
            if match:
                found.append(match.group("cls"))
    return list(dict.fromkeys(found))
