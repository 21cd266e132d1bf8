"""GEP signals_match semantics: case-insensitive substring, /regex/flags, a|b|c aliases."""

from __future__ import annotations

import time

import pytest

from app.gep.signals import InvalidSignalPattern, matching_patterns, parse_pattern


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
