"""Mixed load on two API processes and two workers, one of each killed with SIGKILL mid-run: every
acknowledged write survives and every run is merged or rejected exactly once (tests/load_scenario.py;
bench/load.py runs the 200-client, 60-second version)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.live import served_model_env
from tests.load_scenario import run_scenario

pytestmark = pytest.mark.slow


def test_a_kill_under_load_loses_and_doubles_nothing(tmp_path: Path) -> None:
    report = run_scenario(tmp_path, clients=24, seconds=20, model_env=served_model_env())
    print("\n".join(report.lines()))
    assert report.other_errors == []
    assert report.acknowledged_publishes > 0 and report.acknowledged_runs > 0
    assert report.by_kind.get("fetch", 0) > 0 and report.by_kind.get("search", 0) > 0
    assert report.missing_publishes == 0
    assert report.runs_left_pending == 0
    assert report.runs_merged + report.runs_rejected == report.acknowledged_runs
    assert report.runs_in_two_events == 0
    assert report.runs_merged_without_event == 0
