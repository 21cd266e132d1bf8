"""Deterministic guard extraction: the documented rules on written cases."""

from __future__ import annotations

from typing import Any

from app.evolution.extraction import (
    MAX_GUARD_CHARS,
    error_signature,
    extract_guards,
    extract_keyed_guards,
    failure_key,
    mask,
    signals_of,
)

PASSED = {"name": "pytest", "passed": True}

TRACEBACK = """Traceback (most recent call last):
  File "/app/client.py", line 41, in fetch
    response = session.get(url, timeout=5)
  File "/venv/lib/python3.11/site-packages/requests/sessions.py", line 602, in get
requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', port=443): Max retries \
exceeded (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a2b1c9d90>'))"""


def test_failed_step_with_correction_becomes_a_when_do_not_instead_rule() -> None:
    steps = [
        {
            "action": "pip install psycopg2",
            "ok": False,
            "error": "error: pg_config executable not found",
            "correction": "install psycopg[binary] instead",
        },
    ]
    assert extract_guards(steps, PASSED) == [
        "When error: pg_config executable not found, do not pip install psycopg2; "
        "instead install psycopg[binary] instead"
    ]


def test_a_failing_test_run_is_not_the_mistake() -> None:
    """Running the tests shows the failure; the rule names the step that caused it, or none."""
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
    assert guard.startswith(
        "When the tests fail with ConnectionError: HTTPSConnectionPool(host=<host>, port=<port>)"
    )
    assert guard.endswith(", do not run them again unchanged; instead mock the HTTP layer with respx")
    assert "pytest" not in guard and "api.example.com" not in guard
    assert len(guard) <= MAX_GUARD_CHARS

    caused = [
        {"action": "point the client at the live API in src/client.py", "ok": True},
        {"action": "cat logs/test.log", "ok": True},
        {
            "action": "npm test",
            "ok": False,
            "error": "Error: connect ECONNREFUSED 10.0.0.7:8443",
            "correction": "stub the HTTP layer with nock",
        },
    ]
    assert extract_guards(caused, PASSED) == [
        "When the tests fail with Error: connect ECONNREFUSED <host>:<port>, do not point the client at "
        "the live API in <path>; instead stub the HTTP layer with nock"
    ]
    # A diagnostic that passed after a step clears it: that step did not cause the later failure.
    cleared = [caused[0], {"action": "pytest -q", "ok": True}, {**caused[2], "action": "pytest -x"}]
    [rule] = extract_guards(cleared, PASSED)
    assert "do not run them again unchanged" in rule and "live API" not in rule


def test_thirty_runs_of_one_failure_make_one_clean_guard() -> None:
    """The issue's example: one failure, a different host and test file each run."""
    guards = set()
    for run in range(30):
        error = (
            f"requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api{run}.example.com', "
            f"port={443 + run}): Max retries exceeded with url: /v1/items/{run} (Caused by "
            f"NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a2b1c{run:04x}>'))"
        )
        steps = [
            {
                "action": f"pytest -q tests/test_api_{run}.py",
                "ok": False,
                "error": error,
                "correction": "patch requests with responses fixtures",
            },
            {"action": "add responses fixtures", "ok": True},
        ]
        guards.update(extract_guards(steps, PASSED))
    [guard] = guards
    assert guard == (
        "When the tests fail with ConnectionError: HTTPSConnectionPool(host=<host>, port=<port>): Max "
        "retries exceeded with…, do not run them again unchanged; instead patch requests with responses "
        "fixtures"
    )
    assert "example.com" not in guard and "pytest" not in guard and "test_api" not in guard


def test_masking_keeps_limits_status_codes_and_well_known_files() -> None:
    assert mask("timeout=30 exceeded after 30 s on /srv/app/run_17.py line 88", numbers=True) == (
        "timeout=30 exceeded after 30 s on <path> line <n>"
    )
    assert mask("assert 41 == 42 for job id=88213 in data_2024.csv", numbers=True) == (
        "assert <n> == <n> for job id=<id> in <file>"
    )
    assert mask("HTTPError: 401 Unauthorized at https://api.example.com/v1/x?k=1", numbers=True) == (
        "HTTPError: 401 Unauthorized at <url>"
    )
    assert mask("file exceeds 512 MB, at most 3 retries, exit status 2", numbers=True) == (
        "file exceeds 512 MB, at most 3 retries, exit status 2"
    )
    # What a run measured is its own, whatever its unit; the limit it broke is the lesson's.
    assert mask("TimeoutError: request took 48419 ms, budget 200 ms", numbers=True) == (
        "TimeoutError: request took <n> ms, budget 200 ms"
    )
    assert mask("MemoryError: used 1.5 GB, limit 512 MB; elapsed: 31.2 s", numbers=True) == (
        "MemoryError: used <n> GB, limit 512 MB; elapsed: <n> s"
    )
    assert mask("edit conftest.py and pyproject.toml, not tests/test_x.py") == (
        "edit conftest.py and pyproject.toml, not <path>"
    )
    # Numbers in an instruction are the instruction.
    assert (
        mask("use 4/52 * 3/51 and/or retry on localhost:5432")
        == "use 4/52 * 3/51 and/or retry on localhost:<port>"
    )


def test_without_error_text_the_guard_has_no_when_clause() -> None:
    steps = [
        {
            "action": "edit the generated lockfile by hand",
            "ok": False,
            "correction": "regenerate it with uv lock",
        }
    ]
    assert extract_guards(steps, PASSED) == [
        "Do not edit the generated lockfile by hand; instead regenerate it with uv lock"
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
        "When verified by answer-match, do not leave ValueError: expected <n>/<n>, got <n> unresolved"
    ]
    with_class = {
        "name": "schema-check",
        "passed": False,
        "details": {"error_class": "SchemaError", "message": "extra key 'notes'"},
    }
    assert extract_guards(steps, with_class) == [
        "When verified by schema-check, do not leave SchemaError: extra key 'notes' unresolved"
    ]
    as_text = {"name": "build-check", "passed": False, "details": "npm ERR! code ERESOLVE"}
    assert extract_guards(steps, as_text) == [
        "When verified by build-check, do not leave npm ERR! code ERESOLVE unresolved"
    ]
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
    when, rest = guard.split(", do not ")
    avoid, instead = rest.split("; instead ")
    assert when.startswith("When TimeoutError: waiting for") and when.endswith("…")
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
    assert error_signature("E   AssertionError: assert 41 == 42") == "AssertionError: assert <n> == <n>"
    assert error_signature("exit status 2\nmake: *** [all] Error 2") == "exit status 2"
    frame = '  File "/srv/app/test_api_7.py", line 88\nResolutionImpossible: conflicting dependencies'
    assert error_signature(frame) == "ResolutionImpossible: conflicting dependencies"
    assert error_signature("psycopg.errors.LockNotAvailable: canceling statement due to lock timeout") == (
        "LockNotAvailable: canceling statement due to lock timeout"
    )
    steps = [
        {"action": "a", "ok": False, "error": TRACEBACK},
        {"action": "b", "ok": False, "error": "KeyError: 'id'"},
    ]
    failed = {"name": "pytest", "passed": False, "details": {"error": "AssertionError: boom"}}
    assert signals_of(steps, failed) == ["ConnectionError", "KeyError", "AssertionError"]


def _failed(error: str, correction: str) -> dict[str, object]:
    return {"action": "pytest -q tests/test_perf_3.py", "ok": False, "error": error, "correction": correction}


def test_the_failure_key_names_the_error_and_its_fix_not_the_runs_numbers() -> None:
    slow = "AssertionError: p95 latency {} ms exceeds the 50 ms target"
    fix = "move the CPU-heavy rendering to a thread with asyncio.to_thread"
    key = failure_key(_failed(f'  File "/srv/app/x.py", line 12\n{slow.format(35049)}', fix))
    assert key is not None and len(key) == 16
    # Another run's latency, file and line: the same failure.
    assert failure_key(_failed(f'  File "/srv/app/y.py", line 90\n{slow.format(812)}', fix)) == key
    # The same error fixed another way, or another error fixed the same way: other lessons.
    assert failure_key(_failed(slow.format(812), "cache the rendered report for a minute")) != key
    assert failure_key(_failed("AssertionError: expected at most 3 queries, got 17", fix)) != key
    # Nothing to key without an error or a correction, or on a step that passed.
    assert failure_key(_failed("", fix)) is None
    assert failure_key(_failed(slow.format(1), "")) is None
    assert failure_key({**_failed(slow.format(1), fix), "ok": True}) is None


def test_extracted_guards_carry_the_keys_of_the_steps_they_came_from() -> None:
    steps = [
        _failed("AssertionError: p95 latency 812 ms exceeds the 50 ms target", "move it to a thread"),
        {"action": "move the rendering to asyncio.to_thread", "ok": True},
    ]
    failed = {"name": "pytest", "passed": False, "details": {"error": "AssertionError: 3 tests failed"}}
    keyed = extract_keyed_guards(steps, failed)
    assert list(keyed) == extract_guards(steps, failed)
    step_guard, verifier_guard = keyed
    assert keyed[step_guard] == {failure_key(steps[0])} and keyed[verifier_guard] == set()
