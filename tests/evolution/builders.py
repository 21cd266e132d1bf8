"""Realistic trajectory payloads for the trajectories and evolution tests."""

from __future__ import annotations

import copy
from typing import Any

from app.trajectories.schemas import TrajectoryIn

BASE_TRAJECTORY: dict[str, Any] = {
    "task": {
        "id": "code-0042",
        "family": "code_generation",
        "description": "Make the test suite of a small HTTP client pass without network access",
    },
    "producer": {"model": "claude-opus-4-5", "agent": "swe-agent 1.2"},
    "steps": [
        {
            "action": "pytest -q",
            "ok": False,
            "error": "E   requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', "
            "port=443): Max retries exceeded with url: /v1/items",
            "correction": "mock the HTTP layer with respx instead of calling the live API",
        },
        {
            "action": "add respx mocks for the client's three endpoints in conftest.py",
            "ok": True,
            "observation": "42 passed in 1.8s",
        },
        {"action": "pytest -q", "ok": True, "observation": "42 passed in 1.7s"},
    ],
    "verifier": {"name": "pytest", "version": "8.3", "passed": True, "score": 1.0, "details": {"tests": 42}},
    "cost": {"tokens": 48213, "attempts": 3, "seconds": 412.5},
}

FAILED_VERIFIER: dict[str, Any] = {
    "name": "pytest",
    "version": "8.3",
    "passed": False,
    "score": 0.4,
    "details": {"error": "AssertionError: expected 3 retries, got 0 in test_retry_on_503"},
}


def trajectory_payload(**overrides: Any) -> dict[str, Any]:
    payload = copy.deepcopy(BASE_TRAJECTORY)
    payload.update(overrides)
    return {k: v for k, v in payload.items() if v is not None}


def trajectory_in(**overrides: Any) -> TrajectoryIn:
    return TrajectoryIn.model_validate(trajectory_payload(**overrides))
