"""GEP `signals_match` patterns (spec §2.1): substring, `/regex/flags`, and `a|b|c` aliases.

Patterns come from producers and run against consumers' signals, so regexes are compiled with RE2:
matching is linear in the input, and a catastrophic pattern such as `(a+)+$` cannot stall a request
or a worker. RE2 refuses backreferences and lookaround, which GEP patterns do not need.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

MAX_REGEX_LENGTH = 200
_REGEX_FORM = re.compile(r"^/(.+)/([a-z]*)$", re.DOTALL)
# JavaScript's regex flags; g, y, u, v and d change nothing for one test against one string. A
# "/a/b" whose tail is not made of these letters is a plain pattern (a path, typically).
_KNOWN_FLAGS = set("imsguyvd")


class InvalidSignalPattern(ValueError):
    pass


@dataclass(frozen=True)
class SignalPattern:
    source: str
    regex: Any  # re2._Regexp; the package ships no type hints
    alternatives: tuple[str, ...]

    def matches(self, signal: str) -> bool:
        if self.regex is not None:
            return self.regex.search(signal) is not None
        lowered = signal.lower()
        return any(alt in lowered for alt in self.alternatives)


def _options(flags: str) -> Any:
    options = re2.Options()
    options.log_errors = False
    options.max_mem = 1 << 20
    options.case_sensitive = "i" not in flags
    options.dot_nl = "s" in flags
    options.never_nl = False
    # RE2's one_line=False is the multi-line behaviour of ^ and $, only honoured in POSIX syntax;
    # in Perl syntax the (?m) prefix expresses it.
    return options


@lru_cache(maxsize=8192)
def parse_pattern(source: str) -> SignalPattern:
    """Parse one `signals_match` entry; raises InvalidSignalPattern with a client-facing reason."""
    if not source.strip():
        raise InvalidSignalPattern("empty pattern")
    form = _REGEX_FORM.match(source)
    if form is not None and not set(form.group(2)) <= _KNOWN_FLAGS:
        # "/etc/passwd" is a path, not the regex /etc/ with flags "passwd".
        form = None
    if form is None:
        alternatives = tuple(part.strip().lower() for part in source.split("|") if part.strip())
        if not alternatives:
            raise InvalidSignalPattern(f"pattern {source!r} has no alternatives")
        return SignalPattern(source, None, alternatives)
    body, flags = form.groups()
    if len(body) > MAX_REGEX_LENGTH:
        raise InvalidSignalPattern(f"regex longer than {MAX_REGEX_LENGTH} characters")
    if "m" in flags:
        body = "(?m)" + body
    try:
        compiled = re2.compile(body, _options(flags))
    except re2.error as exc:
        reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise InvalidSignalPattern(f"invalid regex {source!r}: {reason}") from None
    return SignalPattern(source, compiled, ())


def validate_patterns(patterns: Iterable[str]) -> None:
    for source in patterns:
        parse_pattern(source)


def matching_patterns(patterns: Iterable[str], signals: list[str]) -> list[str]:
    """The Gene's patterns that hit at least one signal; its length is GEP's selection score."""
    hits = []
    for source in patterns:
        try:
            pattern = parse_pattern(source)
        except InvalidSignalPattern:
            continue
        if any(pattern.matches(signal) for signal in signals):
            hits.append(source)
    return hits
