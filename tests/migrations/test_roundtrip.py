"""Every migration upgrades, downgrades and upgrades again on a real database."""

from __future__ import annotations

import psycopg
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, make_url

from app import migrate
from app.db import normalize_url
from app.models import SYSTEM_KEY_ID, Base


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


def test_trust_migration_gives_every_gene_and_run_an_owner(scratch_url: str) -> None:
    """Genes loaded before ownership existed (demo, loaders) get the system key, not "nobody"."""
    migrate.upgrade(scratch_url, "0007")
    conninfo = make_url(scratch_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as conn:
        conn.execute(
            "INSERT INTO genes (id, category, current_version, current_asset_id, producer_model) "
            "VALUES ('gene_unowned', 'repair', 1, 'sha256:aa', 'm')"
        )
        conn.execute(
            "INSERT INTO gene_versions (gene_id, version, asset_id, canonical_json, document_json,"
            " document, producer_model, provenance_kind, valid_from)"
            " VALUES ('gene_unowned', 1, 'sha256:aa', '{}', '{}', '{}', 'm', 'manual', now())"
        )
        conn.execute(
            "INSERT INTO trajectories (id, content_hash, task_id, task_description, producer_model, steps,"
            " verifier, verifier_passed) VALUES (gen_random_uuid(), 'h', 't', 'd', 'm', '[]', '{}', true)"
        )
    migrate.upgrade(scratch_url)
    with psycopg.connect(conninfo) as conn:
        owner, publisher, submitter = conn.execute(
            "SELECT g.owner_key_id::text, v.published_by::text, (SELECT submitted_by::text FROM trajectories)"
            " FROM genes g JOIN gene_versions v ON v.gene_id = g.id"
        ).fetchone() or (None, None, None)
    assert owner == publisher == submitter == str(SYSTEM_KEY_ID)
