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
        return self.match(signal) is not None

    def match(self, signal: str) -> str | None:
        """The text of `signal` the pattern hit (the regex's match, or the alternative found), or None."""
        if self.regex is not None:
            found = self.regex.search(signal)
            return None if found is None else str(found.group(0))
        lowered = signal.lower()
        for alt in self.alternatives:
            at = lowered.find(alt)
            if at >= 0:
                # The consumer's own spelling (ModuleNotFoundError, not modulenotfounderror) when the
                # lowercasing kept the length, so that the hit's shape can be judged.
                return signal[at : at + len(alt)] if len(lowered) == len(signal) else alt
        return None


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
    return [hit.pattern for hit in pattern_hits(patterns, signals)]


@dataclass(frozen=True)
class Hit:
    pattern: str  # the Gene's signals_match entry
    matched: str  # the longest text of any consumer signal it hit


def pattern_hits(patterns: Iterable[str], signals: list[str]) -> list[Hit]:
    """Like matching_patterns, with what each pattern matched: the evidence a hit carries is in that text."""
    hits = []
    for source in patterns:
        try:
            pattern = parse_pattern(source)
        except InvalidSignalPattern:
            continue
        matched = [text for text in (pattern.match(signal) for signal in signals) if text is not None]
        if matched:
            hits.append(Hit(source, max(matched, key=len)))
    return hits


_WORDS = re.compile(r"\w+")
# An identifier or code rather than a word: CamelCase inside, digits, or joined by . _ : / -
# (ModuleNotFoundError, E0502, asyncio.TimeoutError, lock-frontend).
_IDENTIFIER = re.compile(r"[a-z][A-Z]|\d|\w[._:/-]\w")
_CAPITALS = re.compile(r"[A-Z]{4,}")


def hit_shape(matched: str) -> float:
    """How much the form of the matched text says, before any corpus statistics (0..1).

    An exact error message (three or more words) or an identifier is strong evidence; two ordinary
    words or a word in capitals are some; a single dictionary word such as `timeout` or `error` is
    weak, however rare it happens to be in a small registry.
    """
    words = _WORDS.findall(matched)
    if len(words) >= 3 or _IDENTIFIER.search(matched.strip()):
        return 1.0
    # Two words, or one in capitals: ERESOLVE and ETIMEDOUT are codes, but TIMEOUT is a word shouted.
    if len(words) == 2 or _CAPITALS.search(matched):
        return 0.6
    return 0.3
