"""Bulk import of new Genes with their embeddings: `genebank import --trust-embeddings`.

An export line may carry the version's embedding next to its record (`genebank export --embeddings`
writes it, a generator may too):

    {"kind": "version", "record": {...}, "embedding": {"model": "<embedder name>", "f32": "<base64>"}}

`f32` is the vector as 384 little-endian float32, base64-encoded. With `--trust-embeddings`, first
versions (version 1, no parent) that carry one made by this registry's embedder are loaded in
batches by COPY instead of one publish each: no encode, one round trip per batch. What is checked
is what a publish checks of a record from another registry: the record validates as a publish
request, the asset_id computed here equals the record's (an altered document is refused), the
vector has 384 finite components and is not zero, and the Gene id is new here or already holds
this very version (then it is left as it is, so an interrupted import runs again). What it writes
is what a publish of a first version writes: the Gene row, the version (its full-text vectors
computed by PostgreSQL as a publish does; the feed trigger records it), a `published` evolution
event with its guards, and the task key of its task description (embedded here, once per distinct
description). Only the redaction scan is not run again: the source registry ran it at publish,
and an embedding is trusted only from a source one trusts.

Every other line (later versions, statuses, lines without an embedding) is applied by the ordinary
importer, after the batch before it, so the feed order is kept.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector_async
from psycopg.types.json import Jsonb

from app.db import libpq_conninfo
from app.embeddings import EmbeddingService
from app.embeddings.base import EMBEDDING_DIM
from app.feed.mirror import Applied, MirrorError, publish_request
from app.genes.indexing import TEXT_SEARCH_CONFIG, signal_words
from app.genes.service import _scrub
from app.genes.task_keys import task_key_sha
from app.genes.versions import API_ACTOR
from app.gep.canonical import canonical_json, compute_asset_id
from app.gep.document import guards_of
from app.models.api_key import SYSTEM_KEY_ID

BATCH = 2000


def decode_vector(field: Any) -> np.ndarray:
    try:
        raw = base64.b64decode(field, validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise MirrorError("embedding.f32 is not base64") from None
    if len(raw) != 4 * EMBEDDING_DIM:
        raise MirrorError(f"embedding.f32 holds {len(raw) // 4} floats, not {EMBEDDING_DIM}")
    vector = np.frombuffer(raw, dtype="<f4").astype(np.float32)
    if not np.isfinite(vector).all() or not vector.any():
        raise MirrorError("embedding.f32 is not a finite, non-zero vector")
    return vector


def bulk_candidate(line: dict[str, Any]) -> bool:
    """Whether a line is a first version with an embedding (the bulk path may take it)."""
    record = line.get("record")
    return (
        line.get("kind") == "version"
        and isinstance(line.get("embedding"), dict)
        and isinstance(record, dict)
        and record.get("version") == 1
        and not (record.get("document") or {}).get("parent")
    )


@dataclass
class Row:
    gene_id: str
    asset_id: str
    values: tuple[Any, ...]
    task_description: str | None


STAGE = f"""
CREATE TEMPORARY TABLE import_stage (
    n int, gene_id text, asset_id text, category text, canonical_json text, document_json text,
    document jsonb, producer_model text, gene_producer_model text, provenance_kind text, verifier jsonb,
    task_id text, task_family text, task_description text, cost_tokens bigint, cost_attempts int,
    cost_seconds double precision, embedding vector({EMBEDDING_DIM}), summary text, signal_text text,
    strategy text, preconditions text, avoid text, guards jsonb, task_key text
) ON COMMIT DELETE ROWS
"""
COLUMNS = (
    "n, gene_id, asset_id, category, canonical_json, document_json, document, producer_model,"
    " gene_producer_model, provenance_kind, verifier, task_id, task_family, task_description,"
    " cost_tokens, cost_attempts, cost_seconds, embedding, summary, signal_text, strategy,"
    " preconditions, avoid, guards, task_key"
)
TYPES = [
    "int4", "text", "text", "text", "text", "text", "jsonb", "text", "text", "text", "jsonb", "text",
    "text", "text", "int8", "int4", "float8", "vector", "text", "text", "text", "text", "text", "jsonb",
    "text",
]  # fmt: skip
KEYS_STAGE = f"""
CREATE TEMPORARY TABLE import_task_keys (
    text_sha256 text, description text, embedding vector({EMBEDDING_DIM})
) ON COMMIT DELETE ROWS
"""

# What a publish of a first version writes (app/genes/versions.py), set by set. A Gene already
# holding this asset is left alone; one whose id is taken by another lineage is reported.
CONFLICTS = """
SELECT s.gene_id FROM import_stage s JOIN genes g ON g.id = s.gene_id
WHERE NOT EXISTS (SELECT 1 FROM gene_versions v WHERE v.asset_id = s.asset_id)
ORDER BY s.n LIMIT 1
"""
NEW_GENES = """
INSERT INTO genes (id, category, task_family, current_version, current_asset_id, producer_model,
    owner_key_id)
SELECT gene_id, category, task_family, 1, asset_id, gene_producer_model, %(key)s
FROM import_stage ORDER BY n
ON CONFLICT (id) DO NOTHING
RETURNING id
"""
VERSIONS = f"""
INSERT INTO gene_versions (gene_id, version, asset_id, parent_asset_id, canonical_json,
    document_json, document, producer_model, provenance_kind, verifier, task_id, task_family,
    task_description, cost_tokens, cost_attempts, cost_seconds, published_by, reason, embedding,
    embedding_model, search_tsv, signals_tsv, valid_from)
SELECT s.gene_id, 1, s.asset_id, NULL, s.canonical_json, s.document_json, s.document,
    s.producer_model, s.provenance_kind, s.verifier, s.task_id, s.task_family, s.task_description,
    s.cost_tokens, s.cost_attempts, s.cost_seconds, %(key)s, 'published', s.embedding, %(model)s,
    setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, s.summary), 'A')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, s.signal_text), 'A')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, s.strategy), 'B')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, s.preconditions), 'C')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, s.avoid), 'D'),
    to_tsvector('simple'::regconfig, s.signal_text), now()
FROM import_stage s WHERE s.gene_id = ANY(%(new)s) ORDER BY s.n
"""  # noqa: S608 (a constant)
EVENTS = """
INSERT INTO evolution_events (gene_id, kind, trajectory_ids, guards_added, guards_merged,
    guards_dropped, old_asset_id, new_asset_id, old_version, new_version, actor)
SELECT s.gene_id, 'published', '{}',
    COALESCE((SELECT jsonb_agg(jsonb_build_object('text', t) ORDER BY o)
              FROM jsonb_array_elements_text(s.guards) WITH ORDINALITY AS g (t, o)), '[]'),
    '[]', '[]', NULL, s.asset_id, NULL, 1, %(actor)s
FROM import_stage s WHERE s.gene_id = ANY(%(new)s) ORDER BY s.n
"""
TASK_KEYS = """
INSERT INTO gene_task_keys (gene_id, source, text_sha256, description, embedding, embedding_model)
SELECT s.gene_id, 'version', k.text_sha256, k.description, k.embedding, %(model)s
FROM import_stage s JOIN import_task_keys k ON k.description = s.task_key
WHERE s.gene_id = ANY(%(new)s)
"""


class BulkImporter:
    """Loads batches of first versions with trusted embeddings; counts into the importer's `applied`."""

    def __init__(self, database_url: str, embeddings: EmbeddingService, applied: Applied) -> None:
        self.database_url = database_url
        self.embeddings = embeddings
        self.applied = applied
        self.rows: list[Row] = []
        self.task_vectors: dict[str, np.ndarray] = {}  # description -> its embedding, across batches
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self.writing: asyncio.Task[None] | None = None

    async def __aenter__(self) -> BulkImporter:
        self.conn = await psycopg.AsyncConnection.connect(libpq_conninfo(self.database_url))
        await register_vector_async(self.conn)
        await self.conn.execute(STAGE)
        await self.conn.execute(KEYS_STAGE)
        await self.conn.commit()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.writing is not None:  # left by an error elsewhere: its outcome no longer matters
            self.writing.cancel()
            with contextlib.suppress(BaseException):
                await self.writing
        if self.conn is not None:
            await self.conn.close()

    async def add(self, line: dict[str, Any]) -> None:
        """Check one line (a bulk candidate) and queue it; a full batch is sent to be written.

        The batch before is written meanwhile (PostgreSQL works while this process checks the
        next lines); its error, if any, is raised here or by `finish`.
        """
        self.rows.append(self.row(line["record"], line["embedding"]))
        if len(self.rows) >= BATCH:
            await self.flush()
        elif len(self.rows) % 50 == 0:
            await asyncio.sleep(0)  # lets the batch being written send its next statement

    async def flush(self) -> None:
        """Send the queued rows to be written, after the batch before has been."""
        await self.wait()
        if self.rows:
            rows, self.rows = self.rows, []
            self.writing = asyncio.create_task(self.write(rows))

    async def wait(self) -> None:
        if self.writing is not None:
            writing, self.writing = self.writing, None
            await writing

    async def finish(self) -> None:
        """Write everything queued, and wait for it."""
        await self.flush()
        await self.wait()

    def row(self, record: dict[str, Any], embedding: dict[str, Any]) -> Row:
        if embedding.get("model") != self.embeddings.name:
            raise MirrorError(
                f"{record.get('gene_id')}: embedding made by {embedding.get('model')!r}, "
                f"this registry embeds with {self.embeddings.name!r}"
            )
        vector = decode_vector(embedding.get("f32"))
        request = publish_request(record)
        raw = request.gene.hashed_fields()
        asset_id = compute_asset_id(raw)
        if asset_id != record["asset_id"]:
            raise MirrorError(f"{record['gene_id']}: asset_id {asset_id} != {record['asset_id']}")
        scrubbed = _scrub(request, raw)  # what a publish stores of the provenance, and refuses
        if scrubbed.document_secrets:
            raise MirrorError(
                f"{record['gene_id']}: the document contains what looks like a secret "
                f"({', '.join(scrubbed.document_secrets)})"
            )
        provenance = request.provenance
        task, cost = provenance.task, provenance.cost
        description = scrubbed.task_description
        key = description.strip() if description and description.strip() else None
        served = {**raw, "asset_id": asset_id}
        values = (
            len(self.rows),
            request.gene.id,
            asset_id,
            request.gene.category,
            canonical_json(raw),
            canonical_json(served),
            Jsonb(served),
            provenance.producer_model,
            raw.get("model_name") or provenance.producer_model,
            provenance.kind,
            Jsonb(scrubbed.verifier) if scrubbed.verifier is not None else None,
            task.id if task else None,
            str(task.family) if task and task.family else None,
            description,
            cost.tokens if cost else None,
            cost.attempts if cost else None,
            cost.seconds if cost else None,
            vector,
            str(raw.get("summary") or ""),
            signal_words(raw),
            " ".join(str(s) for s in raw.get("strategy") or []),
            " ".join(str(s) for s in raw.get("preconditions") or []),
            " ".join(guards_of(raw)),
            Jsonb(guards_of(raw)),
            key,
        )
        return Row(request.gene.id, asset_id, values, key)

    async def write(self, rows: list[Row]) -> None:
        """Write rows in one transaction."""
        assert self.conn is not None
        wanted = sorted({r.task_description for r in rows if r.task_description} - set(self.task_vectors))
        if wanted:
            vectors = await self.embeddings.embed_texts(wanted)
            self.task_vectors.update(zip(wanted, vectors, strict=True))
        conn = self.conn
        async with conn.cursor() as cur:
            async with cur.copy(f"COPY import_stage ({COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(TYPES)
                for row in rows:
                    await copy.write_row(row.values)
            descriptions = sorted({r.task_description for r in rows if r.task_description})
            async with cur.copy("COPY import_task_keys FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["text", "text", "vector"])
                for description in descriptions:
                    key = (task_key_sha(description), description, self.task_vectors[description])
                    await copy.write_row(key)
            await cur.execute(CONFLICTS)
            if taken := await cur.fetchone():
                await conn.rollback()
                raise MirrorError(f"{taken[0]} v1: this registry holds another lineage under that id")
            await cur.execute(NEW_GENES, {"key": SYSTEM_KEY_ID})
            new = [gene_id for (gene_id,) in await cur.fetchall()]
            params = {"key": SYSTEM_KEY_ID, "model": self.embeddings.name, "new": new, "actor": API_ACTOR}
            if new:
                await cur.execute(VERSIONS, params)
                await cur.execute(EVENTS, params)
                await cur.execute(TASK_KEYS, params)
        await conn.commit()
        self.applied.created += len(new)
        self.applied.unchanged += len(rows) - len(new)


def parse(text: str) -> dict[str, Any]:
    line = json.loads(text)
    if not isinstance(line, dict):
        raise MirrorError("a line is not a JSON object")
    return line
