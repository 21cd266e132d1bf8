"""GEP signals_match semantics: case-insensitive substring, /regex/flags, a|b|c aliases."""

from __future__ import annotations

import time

import pytest

from app.gep.signals import InvalidSignalPattern, hit_shape, matching_patterns, parse_pattern, pattern_hits


@pytest.mark.parametrize(
    ("pattern", "signal", "hit"),
    [
        ("timeout", "perf_bottleneck:connection TIMEOUT", True),
        ("ConnectionError", "requests.exceptions.connectionerror: refused", True),
        ("timeout", "ETIMEDOUT", False),
        ("/error.*retry/i", "Error: will RETRY in 5s", True),
        ("/error.*retry/", "Error: will RETRY in 5s", False),
        ("/^fatal/m", "warning: x\nfatal: not a git repository", True),
        ("/^fatal/", "warning: x\nfatal: not a git repository", False),
        ("/timeout|ECONNREFUSED/i", "connect ECONNREFUSED 127.0.0.1:5432", True),
        ("creative template|创意生成模板|創造テンプレート", "用户需要创意生成模板", True),
        ("creative template|创意生成模板", "Creative Template requested", True),
        ("creative template|创意生成模板", "a template for creativity", False),
        ("/etc/passwd", "cat: /etc/passwd: Permission denied", True),
        ("/etc/passwd", "/etc/shadow", False),
    ],
)
def test_pattern_semantics(pattern: str, signal: str, hit: bool) -> None:
    assert parse_pattern(pattern).matches(signal) is hit


def test_matching_patterns_counts_each_pattern_once() -> None:
    patterns = ["pytest", "/connection ?error/i", "flaky|intermittent", "docker"]
    signals = ["pytest -q failed", "ConnectionError: host unreachable", "intermittent failure in pytest"]
    assert matching_patterns(patterns, signals) == ["pytest", "/connection ?error/i", "flaky|intermittent"]


@pytest.mark.parametrize("bad", ["/(unclosed/", "/(a)\\1/", "/(?=lookahead)/", "/[z-a]/i", "   ", "|"])
def test_invalid_patterns_are_refused(bad: str) -> None:
    with pytest.raises(InvalidSignalPattern):
        parse_pattern(bad)


def test_catastrophic_regex_runs_in_linear_time() -> None:
    pattern = parse_pattern("/(a+)+$/")
    start = time.perf_counter()
    assert not pattern.matches("a" * 100_000 + "b")
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize(
    ("matched", "shape"),
    [
        ("timeout", 0.3),
        ("error", 0.3),
        ("TIMEOUT", 0.6),
        ("ERESOLVE", 0.6),
        ("connection refused", 0.6),
        ("ModuleNotFoundError", 1.0),
        ("asyncio.TimeoutError", 1.0),
        ("E0502", 1.0),
        ("Could not get lock /var/lib/dpkg/lock", 1.0),
    ],
)
def test_hit_shape_tells_words_from_identifiers_and_messages(matched: str, shape: float) -> None:
    assert hit_shape(matched) == shape


def test_pattern_hits_report_what_matched_in_the_consumers_spelling() -> None:
    hits = pattern_hits(
        ["ModuleNotFoundError", "/time.?out/i", "src layout|src-layout", "absent"],
        ["ModuleNotFoundError: No module named 'app'", "Time out after 5s"],
    )
    assert [(h.pattern, h.matched) for h in hits] == [
        ("ModuleNotFoundError", "ModuleNotFoundError"),
        ("/time.?out/i", "Time out"),
    ]
