"""`genebank demo` loads a realistic sample once, and loading it again changes nothing."""

from __future__ import annotations

import json
from importlib import resources

import psycopg
from sqlalchemy import make_url

from app.cli import load_demo
from app.config import Settings
from app.embeddings import EmbeddingService
from app.gep.signals import matching_patterns
from app.models import SYSTEM_KEY_ID


def test_demo_sample_covers_the_four_families() -> None:
    genes = json.loads(resources.files("app.demo").joinpath("genes.json").read_text())
    families = [payload["provenance"]["task"]["family"] for payload in genes]
    assert sorted(set(families)) == [
        "agent_environment",
        "code_generation",
        "math_reasoning",
        "rule_following",
    ]
    assert len(genes) >= 12
    for payload in genes:
        provenance = payload["provenance"]
        if provenance["kind"] == "verified_trajectory":
            # A sample Gene should fire on the errors its own trajectory met.
            seen = [provenance["task"]["description"]]
            seen += [step.get("error") or "" for step in provenance["trajectory"]["steps"]]
            assert matching_patterns(payload["gene"]["signals_match"], seen), provenance["task"]["id"]


async def test_demo_loads_once(migrated_url: str, embeddings: EmbeddingService) -> None:
    settings = Settings(database_url=migrated_url)
    first = await load_demo(migrated_url, settings, embeddings)
    assert all(created for _, _, created in first)
    assert [version for *_, version, _ in first].count(2) == 1
    second = await load_demo(migrated_url, settings, embeddings)
    assert [(gene_id, version) for gene_id, version, _ in second] == [(g, v) for g, v, _ in first]
    assert not any(created for _, _, created in second)

    conninfo = make_url(migrated_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as conn:
        genes, versions, trajectories = conn.execute(
            "SELECT (SELECT count(*) FROM genes), (SELECT count(*) FROM gene_versions),"
            " (SELECT count(*) FROM trajectories)"
        ).fetchone() or (0, 0, 0)
        audited = conn.execute(
            "SELECT status, actor, count(*) FROM audit_log WHERE action = 'publish_gene'"
            " GROUP BY status, actor ORDER BY status"
        ).fetchall()
    assert (genes, versions) == (len(first) - 1, len(first))
    assert trajectories >= 9
    # Every publish is audited like the API's, the unchanged second load included.
    assert audited == [(200, "system", len(second)), (201, "system", len(first))]
    # What the command line loads belongs to its own system key: no producer may rewrite it.
    with psycopg.connect(conninfo) as conn:
        owners = conn.execute("SELECT DISTINCT owner_key_id::text FROM genes").fetchall()
    assert owners == [(str(SYSTEM_KEY_ID),)]
