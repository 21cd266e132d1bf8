"""Running Alembic from the application: `genebank migrate`, start-up migration and /readyz."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, pool

from app.db import advisory_lock, normalize_url

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# Any constant works; it only has to be the same for every Genebank process sharing a database.
MIGRATION_LOCK_KEY = 0x67656E65


def alembic_config(database_url: str | None = None) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    if database_url:
        config.attributes["database_url"] = database_url
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _sync_url(database_url: str) -> str:
    return normalize_url(database_url).render_as_string(hide_password=False)


def upgrade(database_url: str, revision: str = "head") -> None:
    """Upgrade under an advisory lock, so an API and workers starting together migrate only once."""
    engine = create_engine(_sync_url(database_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn, advisory_lock(conn, MIGRATION_LOCK_KEY):
            config = alembic_config(database_url)
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
            conn.commit()
    finally:
        engine.dispose()


def downgrade(database_url: str, revision: str) -> None:
    engine = create_engine(_sync_url(database_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            config = alembic_config(database_url)
            config.attributes["connection"] = conn
            command.downgrade(config, revision)
            conn.commit()
    finally:
        engine.dispose()
