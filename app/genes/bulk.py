"""Publishing a batch (POST /v1/genes/batch): every item gets the answer the single publish gives it,
and the batch's new lineages are written set by set. No HTTP, never commits.

The single publish's general path (GeneService._publish_new) costs some 7 round trips and ~10 ms of
CPU a Gene besides its encode (ORM rows, SAVEPOINTs, the vector sent and read back); a single publish
that founds a lineage writes it with this module's statements, as a chunk of one. A batch instead:

1. plans every item off the event loop: its asset_id (a mismatch with a claimed one is its
   problem), the texts its publish embeds (`plan`);
2. asks the database once which asset_ids and Gene ids exist, and queues the texts of the unknown
   documents with the embedder in one call;
3. while they encode, prepares off the event loop the rows of the items that found a new lineage
   (`Fresh`: the secret scan, the redacted provenance, canonical and served JSON, the text of the
   full-text vectors);
4. walks the items in order. A run of consecutive new lineages is written in chunks of CHUNK, one
   SAVEPOINT and four multi-row INSERTs a chunk (genes, gene_versions — whose trigger writes the
   feed rows, the webhooks' outbox —, gene_task_keys, evolution_events), as soon as the chunk's
   vectors are there: the next chunks encode meanwhile. Every other item (a known document, a next
   version, a lineage id sent twice, a trajectory cited or inline) is published by the single
   publish's code in its own SAVEPOINT. The statements are GeneRepository.found_lineages.

A chunk writes exactly the rows the single publish of each of its items writes (tests/genes/
test_batch_rows.py compares them). Should a chunk fail in the database (a concurrent publish took
one of its ids, anything else), its SAVEPOINT is rolled back and its items are published one by
one, each judged alone as the single publish judges it: one item does not take the chunk down.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal
from app.cpu import THREADS, CpuPool
from app.embeddings import EmbeddingService
from app.errors import AppError, ValidationFailed
from app.genes.indexing import embedding_text, signal_words
from app.genes.repository import GeneRepository
from app.genes.schemas import PublishRequest
from app.genes.task_keys import task_key_sha
from app.genes.versions import API_ACTOR
from app.gep.canonical import canonical_json, compute_asset_id
from app.gep.document import guards_of
from app.models import EventKind
from app.redaction import Redactor

CHUNK = 64  # new lineages a SAVEPOINT; the embedder's queue window (submit_texts) is 64 texts too


def asset_mismatch(request: PublishRequest, asset_id: str) -> ValidationFailed | None:
    """The single publish's refusal of a claimed asset_id that is not the document's (a document
    with legacy fields may claim the asset_id of its form as sent)."""
    claimed = request.gene.asset_id
    if (
        claimed is None
        or claimed == asset_id
        or (request.gene.legacy() and claimed == compute_asset_id(request.gene.sent_fields()))
    ):
        return None
    return ValidationFailed(
        f"asset_id {claimed} does not match the document; expected {asset_id}",
        extra={"expected_asset_id": asset_id},
    )


def secret_refusal(kinds: Sequence[str]) -> ValidationFailed:
    return ValidationFailed(
        "the Gene document contains what looks like a secret ("
        + ", ".join(kinds)
        + "): a published document is served as sent, so remove it and publish again"
    )


@dataclass
class Planned:
    """One item of the batch as its publish sees it before the database: document, id, texts."""

    request: PublishRequest
    raw: dict[str, Any]
    asset_id: str
    texts: list[str]  # its embedding text, then its redacted task description if any
    problem: AppError | None = None


def plan(requests: Sequence[PublishRequest]) -> list[Planned]:
    """Each request's document, asset_id and the texts its publish embeds (CPU: off the loop)."""
    planned = []
    for request in requests:
        raw = request.gene.hashed_fields()
        asset_id = compute_asset_id(raw)
        texts = [embedding_text(raw)]
        task = request.provenance.task
        if task is not None and task.description and (key := Redactor().text(task.description).strip()):
            texts.append(key)
        planned.append(Planned(request, raw, asset_id, texts, asset_mismatch(request, asset_id)))
    return planned


def _vector_text(vector: np.ndarray) -> str:
    # pgvector's own text form (what its SQLAlchemy type sends for the single publish).
    return "[" + ",".join(map(str, vector.tolist())) + "]"


def _json(value: Any) -> str | None:
    # SQLAlchemy's JSON type writes Python None as JSON null, not SQL NULL: the same here.
    return json.dumps(value)


@dataclass
class Fresh:
    """The rows of a first version that founds its lineage, as its single publish writes them."""

    index: int
    gene_id: str
    asset_id: str
    category: str
    task_family: str | None
    gene_producer_model: str
    version: tuple[Any, ...]  # the columns of repository.FIRST_VERSIONS, but the vector
    task_key: str | None  # the redacted, stripped task description (a search key), if any
    guards: str  # guards_added of its published event (JSON)
    texts: list[str] = field(default_factory=list)


def prepare(planned: Planned, index: int) -> Fresh | AppError:
    """What the single publish computes of a new lineage before writing it; its secret refusal."""
    request, raw = planned.request, planned.raw
    provenance = request.provenance
    scanner = Redactor()
    scanner.json(raw)
    if scanner.kinds:
        return secret_refusal(sorted(scanner.kinds))
    redactor = Redactor()
    verifier = provenance.verifier.model_dump(exclude_none=True) if provenance.verifier else None
    verifier = redactor.json(verifier)
    task, cost = provenance.task, provenance.cost
    description = redactor.text(task.description) if task else None
    served = {**raw, "asset_id": planned.asset_id}
    guards = guards_of(raw)
    version = (
        request.gene.id,
        planned.asset_id,
        _json(request.gene.generation_meta),
        canonical_json(raw),
        canonical_json(served),
        json.dumps(served),
        provenance.producer_model,
        provenance.kind,
        _json(verifier),
        task.id if task else None,
        task.family if task else None,
        description,
        cost.tokens if cost else None,
        cost.attempts if cost else None,
        cost.seconds if cost else None,
        str(raw.get("summary") or ""),
        signal_words(raw),
        " ".join(str(s) for s in raw.get("strategy") or []),
        " ".join(str(s) for s in raw.get("preconditions") or []),
        " ".join(guards),
    )
    return Fresh(
        index=index,
        gene_id=request.gene.id,
        asset_id=planned.asset_id,
        category=raw["category"],
        task_family=task.family if task else None,
        gene_producer_model=raw.get("model_name") or provenance.producer_model,
        version=version,
        task_key=description.strip() if description and description.strip() else None,
        guards=json.dumps([{"text": text} for text in guards]),
        texts=planned.texts,
    )


def prepare_all(planned: Sequence[tuple[int, Planned]]) -> list[Fresh | AppError]:
    return [prepare(item, index) for index, item in planned]


class ChunkTaken(Exception):
    """A chunk's Gene id was created by another transaction meanwhile: publish its items one by one."""


def chunk_params(
    chunk: Sequence[Fresh], vectors: np.ndarray, actor: Principal, model: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
    """The parameters of a chunk's four statements (CPU: off the loop). `vectors` are those of the
    chunk's texts, in order."""
    by_text: dict[str, str] = {}
    doc_vectors = []
    position = 0
    for fresh in chunk:
        doc_vectors.append(_vector_text(vectors[position]))
        for offset, text in enumerate(fresh.texts[1:], start=1):
            if text not in by_text:
                by_text[text] = _vector_text(vectors[position + offset])
        position += len(fresh.texts)
    ids = [fresh.gene_id for fresh in chunk]
    assets = [fresh.asset_id for fresh in chunk]
    genes = {
        "owner": actor.key_id,
        "ids": ids,
        "categories": [fresh.category for fresh in chunk],
        "families": [fresh.task_family for fresh in chunk],
        "assets": assets,
        "models": [fresh.gene_producer_model for fresh in chunk],
    }
    columns = list(zip(*(fresh.version for fresh in chunk), strict=True))
    versions = {
        **{f"c{i}": list(column) for i, column in enumerate(columns)},
        "vectors": doc_vectors,
        "key": actor.key_id,
        "model": model,
    }
    keyed = [(fresh.gene_id, fresh.task_key) for fresh in chunk if fresh.task_key]
    keys = (
        {
            "ids": [gene_id for gene_id, _ in keyed],
            "shas": [task_key_sha(key) for _, key in keyed],
            "descriptions": [key for _, key in keyed],
            "vectors": [by_text[key] for _, key in keyed],
            "model": model,
        }
        if keyed
        else None
    )
    events = {
        "kind": EventKind.published.value,
        "actor": API_ACTOR,
        "ids": ids,
        "assets": assets,
        "guards": [fresh.guards for fresh in chunk],
    }
    return genes, versions, keys, events


async def write_chunk(
    session: AsyncSession,
    chunk: Sequence[Fresh],
    embeddings: EmbeddingService,
    actor: Principal,
    cpu: CpuPool = THREADS,
) -> None:
    """Write a chunk of new lineages, four statements (call inside a SAVEPOINT), once its texts are
    encoded. Raises ChunkTaken when one of its Gene ids exists by then."""
    vectors = await embeddings.embed_texts([text for fresh in chunk for text in fresh.texts])
    genes, versions, keys, events = await cpu.run(0, chunk_params, chunk, vectors, actor, embeddings.name)
    if not await GeneRepository(session).found_lineages(genes, versions, keys, events):
        raise ChunkTaken


def founds_lineage(planned: Planned) -> bool:
    """Whether an item may be written set-wise if its Gene id is new: a first version citing no run."""
    provenance = planned.request.provenance
    return (
        planned.request.gene.parent is None
        and provenance.trajectory_id is None
        and provenance.trajectory is None
    )


async def classify(session: AsyncSession, planned: Sequence[Planned]) -> tuple[set[str], set[str]]:
    """The asset_ids and the Gene ids of the batch that the registry holds already."""
    repo = GeneRepository(session)
    known = await repo.known_assets([item.asset_id for item in planned])
    genes = await repo.known_genes([item.request.gene.id for item in planned])
    return known, genes
