"""Every migration upgrades, downgrades and upgrades again on a real database."""

from __future__ import annotations

import psycopg
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, make_url

from app import migrate
from app.db import normalize_url
from app.models import Base


def _tables(url: str) -> set[str]:
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return {row[0] for row in rows}


def test_upgrade_downgrade_upgrade(scratch_url: str) -> None:
    migrate.upgrade(scratch_url)
    at_head = _tables(scratch_url)
    assert {"genes", "gene_versions", "trajectories", "version_trajectories"} <= at_head

    script = ScriptDirectory.from_config(migrate.alembic_config())
    revisions = [rev.revision for rev in script.walk_revisions()]  # head first
    # Step down one revision at a time, so every downgrade() runs against the schema it expects.
    for revision in revisions[1:]:
        migrate.downgrade(scratch_url, revision)
    migrate.downgrade(scratch_url, "base")
    assert _tables(scratch_url) == {"alembic_version"}

    migrate.upgrade(scratch_url)
    assert _tables(scratch_url) == at_head


def test_models_and_migrations_agree(scratch_url: str) -> None:
    """Autogenerate finds nothing to do at head: every model change has its migration."""
    migrate.upgrade(scratch_url)
    engine = create_engine(normalize_url(scratch_url))
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn)
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()
