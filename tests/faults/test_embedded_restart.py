"""`genebank serve` killed with SIGKILL, started again and stopped cleanly: the embedded PostgreSQL stops."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.faults.serving import postmaster_pid, start, stop_postmaster, wait_until

pytestmark = pytest.mark.slow


def test_after_a_kill_9_the_next_clean_stop_still_stops_the_embedded_postgres(data_dir: Path) -> None:
    pgdata = data_dir / "pgdata"
    try:
        killed = start(data_dir)
        killed.ready()
        postmaster = postmaster_pid(pgdata)
        assert postmaster is not None
        assert killed.stop(signal.SIGKILL) == -signal.SIGKILL
        # Nothing stops the server behind a killed process: it outlives it.
        assert postmaster_pid(pgdata) == postmaster

        again = start(data_dir)
        again.ready()
        assert postmaster_pid(pgdata) == postmaster, "the second start joins the running server"
        # uvicorn shuts down gracefully, then re-raises the signal it caught.
        assert again.stop(signal.SIGTERM) in (0, -signal.SIGTERM), again.log()
        wait_until(
            lambda: postmaster_pid(pgdata) is None,
            30,
            f"the embedded PostgreSQL still runs after a clean stop:\n{again.log()}",
        )
    finally:
        stop_postmaster(pgdata)
