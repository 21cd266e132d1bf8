"""Alembic environment: synchronous psycopg connection, URL handed in by app.migrate or the environment."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine, pool

from app.db import normalize_url
from app.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("database_url") or os.environ.get("GENEBANK_DATABASE_URL")
    if not url:
        raise RuntimeError("no database URL: run `genebank migrate` or set GENEBANK_DATABASE_URL")
    return normalize_url(str(url)).render_as_string(hide_password=False)


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
