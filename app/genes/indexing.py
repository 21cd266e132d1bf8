"""What of a Gene document is indexed for search, and how.

- The embedding covers what says when and how a Gene applies: summary, signals, strategy and
  preconditions (guards are warnings, and would pull a Gene towards the mistakes it avoids).
- The full-text vector weighs summary and signals A, strategy B, preconditions C, guards D.
- The signal vector holds the words of `signals_match` unstemmed, for the signal stage of search:
  alternatives of plain and alias patterns, and the literal words (3+ characters) of regexes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import ColumnElement, func, literal, literal_column

from app.gep.document import guards_of
from app.gep.signals import parse_pattern

_REGEX_WORDS = re.compile(r"[A-Za-z0-9_]{3,}")
TEXT_SEARCH_CONFIG = "english"


def _items(document: Mapping[str, Any], key: str) -> list[str]:
    return [str(item) for item in document.get(key) or []]


def _readable_signal(source: str) -> str:
    pattern = parse_pattern(source)
    if pattern.regex is None:
        return " ".join(pattern.alternatives)
    return " ".join(_REGEX_WORDS.findall(source))


def embedding_text(document: Mapping[str, Any]) -> str:
    parts = [
        str(document.get("summary") or ""),
        "Signals: " + "; ".join(_readable_signal(s) for s in _items(document, "signals_match")),
        "Strategy: " + " ".join(_items(document, "strategy")),
    ]
    preconditions = _items(document, "preconditions")
    if preconditions:
        parts.append("Applies when: " + "; ".join(preconditions))
    return "\n".join(part for part in parts if part.strip())


def signal_words(document: Mapping[str, Any]) -> str:
    return " ".join(_readable_signal(s) for s in _items(document, "signals_match"))


def _tsvector(config: str, text: str) -> ColumnElement[Any]:
    # The configuration must reach PostgreSQL as regconfig, not as a bound varchar.
    return func.to_tsvector(literal_column(f"'{config}'::regconfig"), literal(text))


def _weighted(text: str, weight: str) -> ColumnElement[Any]:
    return func.setweight(_tsvector(TEXT_SEARCH_CONFIG, text), literal_column(f"'{weight}'::\"char\""))


def search_vector(document: Mapping[str, Any]) -> ColumnElement[Any]:
    return (
        _weighted(str(document.get("summary") or ""), "A")
        .op("||")(_weighted(signal_words(document), "A"))
        .op("||")(_weighted(" ".join(_items(document, "strategy")), "B"))
        .op("||")(_weighted(" ".join(_items(document, "preconditions")), "C"))
        .op("||")(_weighted(" ".join(guards_of(document)), "D"))
    )


def signals_vector(document: Mapping[str, Any]) -> ColumnElement[Any]:
    return _tsvector("simple", signal_words(document))
