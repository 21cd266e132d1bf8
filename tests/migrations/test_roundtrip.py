"""Every migration upgrades, downgrades and upgrades again on a real database."""

from __future__ import annotations

import json

import psycopg
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, make_url

from app import migrate
from app.db import normalize_url
from app.gep.canonical import canonical_json, compute_asset_id
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


def test_gep_format_migration_writes_a_gep_version_and_keeps_the_old_one(scratch_url: str) -> None:
    """0018: a Gene whose current version has `avoid`/`parent`/`generation_meta` gets a next version
    with the same content in GEP form; the old version and its asset_id stay; downgrade undoes it."""
    migrate.upgrade(scratch_url, "0017")
    conninfo = make_url(scratch_url).set(drivername="postgresql").render_as_string(hide_password=False)
    old = {
        "type": "Gene",
        "id": "gene_legacy",
        "avoid": ["Do not retry on 401"],
        "parent": "sha256:" + "b" * 64,
        "generation_meta": {"source": "draft", "ratio": 1e21},
        "anti_patterns": [{"mode": "drift", "reason_class": "x", "learning_signals": ["s"]}],
    }
    old_asset = compute_asset_id(old)
    with psycopg.connect(conninfo) as conn:
        conn.execute(
            "INSERT INTO genes (id, category, current_version, current_asset_id, producer_model,"
            " owner_key_id) VALUES ('gene_legacy', 'repair', 1, %s, 'm', %s)",
            (old_asset, SYSTEM_KEY_ID),
        )
        served = canonical_json({**old, "asset_id": old_asset})
        conn.execute(
            "INSERT INTO gene_versions (gene_id, version, asset_id, canonical_json, document_json, document,"
            " producer_model, provenance_kind, valid_from, published_by)"
            " VALUES ('gene_legacy', 1, %s, %s, %s, %s::jsonb, 'm', 'manual', now(), %s)",
            (old_asset, canonical_json(old), served, served, SYSTEM_KEY_ID),
        )
    migrate.upgrade(scratch_url)
    with psycopg.connect(conninfo) as conn:
        rows = conn.execute(
            "SELECT version, asset_id, parent_asset_id, document_json, reason, generation_meta,"
            " valid_to IS NULL FROM gene_versions WHERE gene_id = 'gene_legacy' ORDER BY version"
        ).fetchall()
        current = conn.execute("SELECT current_version, current_asset_id FROM genes").fetchone()
    assert [row[0] for row in rows] == [1, 2]
    assert rows[0][1] == old_asset and rows[0][6] is False  # the old version, unchanged, closed
    _, new_asset, parent, document_json, reason, meta, is_current = rows[1]
    document = json.loads(document_json)
    expected = {
        "type": "Gene",
        "id": "gene_legacy",
        "anti_patterns": [
            {"mode": "drift", "reason_class": "x", "learning_signals": ["s"]},
            {"mode": "avoid", "reason_class": "Do not retry on 401"},
        ],
    }
    assert document == {**expected, "asset_id": new_asset} and new_asset == compute_asset_id(expected)
    assert document_json == canonical_json(document)  # the bytes served are the bytes hashed
    assert (parent, reason, is_current) == (old_asset, "gep_format", True)
    assert meta == {"source": "draft", "ratio": 1e21}
    assert current == (2, new_asset)

    migrate.downgrade(scratch_url, "0017")
    with psycopg.connect(conninfo) as conn:
        back = conn.execute("SELECT current_version, current_asset_id FROM genes").fetchone()
        count = conn.execute("SELECT count(*) FROM gene_versions").fetchone()
    assert back == (1, old_asset) and count == (1,)
