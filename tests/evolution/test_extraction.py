"""Deterministic guard extraction: the documented rules on written cases."""

from __future__ import annotations

from typing import Any

from app.evolution.extraction import MAX_GUARD_CHARS, error_signature, extract_guards, signals_of

PASSED = {"name": "pytest", "passed": True}

TRACEBACK = """Traceback (most recent call last):
  File "/app/client.py", line 41, in fetch
    response = session.get(url, timeout=5)
  File "/venv/lib/python3.11/site-packages/requests/sessions.py", line 602, in get
requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', port=443): Max retries \
exceeded (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a2b1c9d90>'))"""


def test_failed_step_with_correction_becomes_a_when_avoid_instead_guard() -> None:
    steps = [
        {
            "action": "pytest -q",
            "ok": False,
            "error": TRACEBACK,
            "correction": "mock the HTTP layer with respx",
        },
        {"action": "add respx mocks", "ok": True},
    ]
    [guard] = extract_guards(steps, PASSED)
    assert guard.startswith("when ConnectionError: HTTPSConnectionPool(host='api.example.com'")
    assert guard.endswith(", avoid pytest -q; instead mock the HTTP layer with respx")
    assert len(guard) <= MAX_GUARD_CHARS


def test_without_error_text_the_guard_has_no_when_clause() -> None:
    steps = [
        {
            "action": "edit the generated lockfile by hand",
            "ok": False,
            "correction": "regenerate it with uv lock",
        }
    ]
    assert extract_guards(steps, PASSED) == [
        "avoid edit the generated lockfile by hand; instead regenerate it with uv lock"
    ]


def test_failed_step_without_correction_and_successful_steps_yield_nothing() -> None:
    steps = [
        {"action": "pytest -q", "ok": False, "error": "AssertionError: 41 != 42"},
        {"action": "fix the rounding", "ok": True, "correction": "ignored: the step succeeded"},
    ]
    assert extract_guards(steps, PASSED) == []


def test_failed_verifier_becomes_a_guard_from_its_error_class_and_message() -> None:
    verifier: dict[str, Any] = {
        "name": "answer-match",
        "passed": False,
        "details": {"error": "Traceback (most recent call last):\nValueError: expected 7/12, got 0.583"},
    }
    steps = [{"action": "compute the probability", "ok": True}]
    assert extract_guards(steps, verifier) == [
        "when verified by answer-match, avoid ValueError: expected 7/12, got 0.583"
    ]
    with_class = {
        "name": "schema-check",
        "passed": False,
        "details": {"error_class": "SchemaError", "message": "extra key 'notes'"},
    }
    assert extract_guards(steps, with_class) == [
        "when verified by schema-check, avoid SchemaError: extra key 'notes'"
    ]
    as_text = {"name": "build-check", "passed": False, "details": "npm ERR! code ERESOLVE"}
    assert extract_guards(steps, as_text) == ["when verified by build-check, avoid npm ERR! code ERESOLVE"]
    # A failed verifier that says nothing about why teaches nothing.
    assert extract_guards(steps, {"name": "oracle", "passed": False, "details": {"score": 0.1}}) == []


def test_long_parts_share_the_200_character_budget() -> None:
    steps = [
        {
            "action": "run the whole integration suite against the staging cluster " * 5,
            "ok": False,
            "error": "TimeoutError: " + "waiting for the ingress controller to report ready " * 5,
            "correction": "run only the failing module locally with a stubbed ingress " * 5,
        }
    ]
    [guard] = extract_guards(steps, PASSED)
    assert len(guard) <= MAX_GUARD_CHARS
    when, rest = guard.split(", avoid ")
    avoid, instead = rest.split("; instead ")
    assert when.startswith("when TimeoutError: waiting for") and when.endswith("…")
    assert avoid.startswith("run the whole integration suite") and instead.startswith("run only the failing")
    # Fair shares: no part is starved to make room for another.
    assert min(len(when), len(avoid), len(instead)) >= 45


def test_the_same_failure_reads_the_same_across_runs() -> None:
    def run(address: str) -> list[str]:
        error = f"RuntimeError: event loop <uvloop.Loop object at {address}> is closed"
        return extract_guards(
            [
                {
                    "action": "reuse the loop",
                    "ok": False,
                    "error": error,
                    "correction": "create a new loop per test",
                }
            ],
            PASSED,
        )

    assert run("0x7f3a2b1c9d90") == run("0x7fffe01a2b30")


def test_secrets_in_steps_are_redacted_and_duplicates_dropped() -> None:
    step = {
        "action": "curl -H 'Authorization: Bearer 0123456789abcdef0123' https://api.example.com",
        "ok": False,
        "error": "HTTPError: 401 Unauthorized",
        "correction": "read the token from the environment",
    }
    guards = extract_guards([step, dict(step)], PASSED)
    assert len(guards) == 1
    assert "0123456789abcdef0123" not in guards[0] and "[REDACTED]" in guards[0]


def test_error_signature_and_signals() -> None:
    assert error_signature(TRACEBACK).startswith("ConnectionError: HTTPSConnectionPool")
    assert error_signature("E   AssertionError: assert 41 == 42") == "AssertionError: assert 41 == 42"
    assert error_signature("exit status 2\nmake: *** [all] Error 2") == "exit status 2"
    steps = [
        {"action": "a", "ok": False, "error": TRACEBACK},
        {"action": "b", "ok": False, "error": "KeyError: 'id'"},
    ]
    failed = {"name": "pytest", "passed": False, "details": {"error": "AssertionError: boom"}}
    assert signals_of(steps, failed) == ["ConnectionError", "KeyError", "AssertionError"]
