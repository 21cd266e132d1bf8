"""`genebank import --trust-embeddings`: first versions with their vectors loaded in batches (COPY).

Checked against the ordinary import (one publish each) of the same lines into another database:
the same rows, but for the vector, which is the one the line carried. Re-running changes nothing;
an altered document, a vector of another model and a malformed vector are refused with nothing
of their batch written.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from sqlalchemy import make_url

from app.embeddings import EmbeddingService
from app.feed.mirror import encode_vector
from app.genes.indexing import embedding_text
from app.gep.canonical import compute_asset_id
from tests.conftest import DatabaseInfo, empty_database
from tests.factories import gene_doc, publish_payload
from tests.live import subprocess_env

pytestmark = pytest.mark.slow


def _conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def second_url(database: DatabaseInfo) -> Iterator[str]:
    with empty_database(database, "genebank_bulk") as url:
        yield url


def _import(url: str, path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from app.cli import main; main()", "import", str(path), *options],
        env=subprocess_env(GENEBANK_DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=600,
    )


def _lines(
    embeddings: EmbeddingService, genes: list[tuple[dict[str, Any], dict[str, Any]]]
) -> list[dict[str, Any]]:
    vectors = embeddings.embedder.encode([embedding_text(doc) for doc, _ in genes])
    return [
        {
            "kind": "version",
            "record": {
                "gene_id": doc["id"],
                "version": 1,
                "asset_id": compute_asset_id(doc),
                "document": doc,
                "provenance": provenance,
            },
            "embedding": {"model": embeddings.name, "f32": encode_vector(vector)},
        }
        for (doc, provenance), vector in zip(genes, vectors, strict=True)
    ]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _genes() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    plain = publish_payload(gene_doc(id="bulk_gene_a"))
    other = publish_payload(
        gene_doc(
            id="bulk_gene_b",
            summary="Pin the clock in tests that compare timestamps",
            avoid=["Do not sleep in tests to wait for the clock"],
        ),
        task={"id": "code-0002", "family": "rule_following", "description": "Make timestamp tests stable"},
    )
    bare = publish_payload(
        gene_doc(id="bulk_gene_c", summary="Retry a flaky download with backoff"), task=None
    )
    bare["provenance"].pop("verifier", None)
    bare["provenance"]["kind"] = "manual"
    return [(p["gene"], p["provenance"]) for p in (plain, other, bare)]


ROWS = {
    "genes": "SELECT id, category, task_family, status, current_version, current_asset_id, producer_model,"
    " owner_key_id FROM genes ORDER BY id",
    "gene_versions": "SELECT gene_id, version, asset_id, parent_asset_id, canonical_json, document_json,"
    " document, producer_model, provenance_kind, verifier, task_id, task_family, task_description,"
    " cost_tokens, cost_attempts, cost_seconds, published_by, reason, embedding_model, search_tsv::text,"
    " signals_tsv::text, valid_to FROM gene_versions ORDER BY gene_id",
    "evolution_events": "SELECT gene_id, kind, trajectory_ids, guards_added, guards_merged, guards_dropped,"
    " old_asset_id, new_asset_id, old_version, new_version, actor, details FROM evolution_events"
    " ORDER BY gene_id",
    "gene_task_keys": "SELECT gene_id, source, text_sha256, description, embedding_model FROM gene_task_keys"
    " ORDER BY gene_id",
    "feed_events": "SELECT kind, gene_id, version, asset_id FROM feed_events ORDER BY gene_id",
}


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    with psycopg.connect(_conninfo(url)) as conn:
        return {table: conn.execute(query).fetchall() for table, query in ROWS.items()}


def test_trusted_embeddings_load_what_a_publish_writes_with_the_given_vectors(
    scratch_url: str, second_url: str, embeddings: EmbeddingService, tmp_path: Path
) -> None:
    lines = _lines(embeddings, _genes())
    export = _write(tmp_path / "export.jsonl", lines)

    bulk = _import(scratch_url, export, "--trust-embeddings")
    assert bulk.returncode == 0, bulk.stderr
    assert "3 versions created, 0 already here" in bulk.stdout
    ordinary = _import(second_url, export)
    assert ordinary.returncode == 0, ordinary.stderr
    assert "3 versions created" in ordinary.stdout

    loaded, published = _rows(scratch_url), _rows(second_url)
    assert len(loaded["gene_versions"]) == 3 and len(loaded["gene_task_keys"]) == 2
    assert loaded == published
    with psycopg.connect(_conninfo(scratch_url)) as conn:
        stored = dict(conn.execute("SELECT gene_id, embedding::text FROM gene_versions").fetchall())
    for line in lines:
        sent = np.frombuffer(base64.b64decode(line["embedding"]["f32"]), dtype="<f4")
        assert np.allclose(json.loads(stored[line["record"]["gene_id"]]), sent, atol=1e-6)

    again = _import(scratch_url, export, "--trust-embeddings")
    assert again.returncode == 0, again.stderr
    assert "0 versions created, 3 already here" in again.stdout
    assert _rows(scratch_url) == loaded


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda line: line["record"]["document"].update(summary="Altered after hashing"), "asset_id"),
        (lambda line: line["embedding"].update(model="another/model"), "another/model"),
        (lambda line: line["embedding"].update(f32=line["embedding"]["f32"][:40]), "floats"),
        (lambda line: line["embedding"].update(f32="!!not base64!!"), "base64"),
    ],
)
def test_a_spoiled_line_is_refused_and_nothing_of_its_batch_is_written(
    scratch_url: str, embeddings: EmbeddingService, tmp_path: Path, spoil: Any, message: str
) -> None:
    lines = _lines(embeddings, _genes())
    spoil(lines[2])
    result = _import(scratch_url, _write(tmp_path / "spoiled.jsonl", lines), "--trust-embeddings")
    assert result.returncode != 0
    assert "line 3" in result.stderr and message in result.stderr
    assert _rows(scratch_url)["gene_versions"] == []


def test_the_million_gene_benchmarks_export_lines_are_what_the_import_accepts(
    scratch_url: str, embeddings: EmbeddingService, tmp_path: Path
) -> None:
    """bench/million.py writes its export itself; its records must hash as a publish stores them.

    Corpus Genes carry legacy `avoid` guards, which a publish turns into GEP anti_patterns: an
    asset_id over the legacy form is refused by the import."""
    bench = Path(__file__).resolve().parents[2] / "bench"
    sys.path.insert(0, str(bench))
    try:
        import million
        import search
    finally:
        sys.path.remove(str(bench))
    genes = [(gene, provenance) for gene, provenance, _ in search.generated(3)]
    assert any("avoid" in gene for gene, _ in genes)
    vectors = embeddings.embedder.encode([embedding_text(gene) for gene, _ in genes])
    lines = [
        {
            "kind": "version",
            "record": million.version_record(gene, provenance),
            "embedding": {"model": embeddings.name, "f32": encode_vector(vector)},
        }
        for (gene, provenance), vector in zip(genes, vectors, strict=True)
    ]
    result = _import(scratch_url, _write(tmp_path / "million.jsonl", lines), "--trust-embeddings")
    assert result.returncode == 0, result.stderr
    assert "3 versions created, 0 already here" in result.stdout
    with psycopg.connect(_conninfo(scratch_url)) as conn:
        stored = dict(conn.execute("SELECT gene_id, asset_id FROM gene_versions").fetchall())
    assert stored == {line["record"]["gene_id"]: line["record"]["asset_id"] for line in lines}
