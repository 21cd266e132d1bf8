"""Writing Gene versions: the one way a new immutable version enters the registry, used by a publish
(app/genes/service.py) and by the evolution worker alike. Never commits.

A version carries the provenance of its *strategy* (`VersionSource`): from a publish's provenance,
from the trajectory that founded the Gene, or, when only guards change, from the version before it.
The runs behind a version are linked with their role (the strategy's run, or runs that changed its
guards), and every change is an event in the Gene's history.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from app.genes.indexing import embedding_text, search_vector, signals_vector
from app.genes.repository import GeneRepository
from app.genes.task_keys import add_task_keys, add_trajectory_keys
from app.gep.canonical import canonical_json, compute_asset_id
from app.gep.document import guards_of
from app.models import EventKind, EvidenceRole, Gene, GeneVersion, Trajectory
from app.schemas import Cost, TaskRef


class VersionReason(StrEnum):
    """Why a version exists (gene_versions.reason)."""

    published = "published"  # sent to POST /v1/genes
    founded = "founded"  # the worker founded the Gene from a run
    guards_added = "guards_added"  # a guard entered the served guards (anti_patterns)
    guards_merged = "guards_merged"  # a served guard took a producer's wording for the same warning
    reordered = "reordered"  # the same guards, ranked anew by evidence
    dropped = "dropped"  # a guard left the list (the cap, a review, a rejection)
    gep_format = "gep_format"  # the same content moved to GEP fields (migration 0018)


def guard_change_reason(old: Sequence[str], new: Sequence[str], *, reworded: bool = False) -> VersionReason:
    """The reason of a version that changes only its guards from `old` to `new`."""
    if reworded:
        return VersionReason.guards_merged
    if set(new) - set(old):
        return VersionReason.guards_added
    if set(old) - set(new):
        return VersionReason.dropped
    return VersionReason.reordered


# The actor of a publish's event (the worker names its host and process).
API_ACTOR = "api"


@dataclass(frozen=True)
class VersionSource:
    """The provenance columns of a new version: where its strategy came from and who published it."""

    producer_model: str
    kind: str
    published_by: uuid.UUID
    verifier: dict[str, Any] | None = None
    task_id: str | None = None
    task_family: str | None = None
    task_description: str | None = None
    cost_tokens: int | None = None
    cost_attempts: int | None = None
    cost_seconds: float | None = None

    @classmethod
    def from_provenance(
        cls,
        *,
        kind: str,
        producer_model: str,
        published_by: uuid.UUID,
        verifier: dict[str, Any] | None,
        task: TaskRef | None,
        task_description: str | None,
        cost: Cost | None,
    ) -> VersionSource:
        """A publish: its (redacted) verifier and task description, as the caller scrubbed them."""
        cost = cost or Cost()
        return cls(
            producer_model=producer_model,
            kind=kind,
            published_by=published_by,
            verifier=verifier,
            task_id=task.id if task else None,
            task_family=task.family if task else None,
            task_description=task_description,
            cost_tokens=cost.tokens,
            cost_attempts=cost.attempts,
            cost_seconds=cost.seconds,
        )

    @classmethod
    def from_trajectory(cls, trajectory: Trajectory) -> VersionSource:
        """A Gene founded from a verified run: the run is the strategy's provenance."""
        return cls(
            producer_model=trajectory.producer_model,
            kind="verified_trajectory",
            published_by=trajectory.submitted_by,
            verifier=trajectory.verifier,
            task_id=trajectory.task_id,
            task_family=trajectory.task_family,
            task_description=trajectory.task_description,
            cost_tokens=trajectory.cost_tokens,
            cost_attempts=trajectory.cost_attempts,
            cost_seconds=trajectory.cost_seconds,
        )

    @classmethod
    def from_version(cls, version: GeneVersion, published_by: uuid.UUID) -> VersionSource:
        """A version that changes only guards keeps the strategy's provenance of the one before."""
        return cls(
            producer_model=version.producer_model,
            kind=version.provenance_kind,
            published_by=published_by,
            verifier=version.verifier,
            task_id=version.task_id,
            task_family=version.task_family,
            task_description=version.task_description,
            cost_tokens=version.cost_tokens,
            cost_attempts=version.cost_attempts,
            cost_seconds=version.cost_seconds,
        )


MAX_LEARNING_HISTORY = 20  # GEP keeps the last 20 entries


def _logged(raw: dict[str, Any], reason: VersionReason) -> dict[str, Any]:
    """`raw` with one more learning_history entry: this change, and when the registry made it."""
    entry = {
        "at": datetime.now(UTC).isoformat(timespec="microseconds"),
        "mode": "registry",
        "reason_class": reason.value,
    }
    history = [*(raw.get("learning_history") or []), entry][-MAX_LEARNING_HISTORY:]
    return {**raw, "learning_history": history}


class VersionWriter:
    def __init__(self, session: AsyncSession, embeddings: EmbeddingService) -> None:
        self.repo = GeneRepository(session)
        self.embeddings = embeddings

    async def write(
        self,
        gene: Gene,
        raw: dict[str, Any],
        asset_id: str,
        source: VersionSource,
        *,
        reason: VersionReason,
        parent: str | None,
        generation_meta: dict[str, Any] | None = None,
        embedding: tuple[list[float], str] | None = None,
    ) -> GeneVersion:
        """Append `raw` as the next version of `gene` (locked by the caller) and make it current.

        `raw` is a validated GEP document without asset_id; `parent` must already name the current
        version (None for a first version). `generation_meta` is how the worker made the document
        (the version's column, not the document). `embedding` (vector, model) reuses a vector when
        the embedded text did not change.
        """
        repo = self.repo
        while await repo.version_by_asset(asset_id) is not None:
            # The same bytes as an earlier version (guards back to an earlier list): one asset_id is one
            # version, so the change is logged in GEP's learning_history, which makes it a new document.
            raw = _logged(raw, reason)
            asset_id = compute_asset_id(raw)
        if gene.current_version > 0:
            await repo.close_current_version(gene.id)
        next_version = gene.current_version + 1
        served = {**raw, "asset_id": asset_id}
        if embedding is None:
            [vector] = await self.embeddings.embed_texts([embedding_text(raw)])
            embedding = (vector.tolist(), self.embeddings.name)
        version = await repo.insert_version(
            {
                "gene_id": gene.id,
                "version": next_version,
                "asset_id": asset_id,
                "parent_asset_id": parent,
                "generation_meta": generation_meta,
                "canonical_json": canonical_json(raw),
                "document_json": canonical_json(served),
                "document": served,
                "producer_model": source.producer_model,
                "provenance_kind": source.kind,
                "verifier": source.verifier,
                "task_id": source.task_id,
                "task_family": source.task_family,
                "task_description": source.task_description,
                "cost_tokens": source.cost_tokens,
                "cost_attempts": source.cost_attempts,
                "cost_seconds": source.cost_seconds,
                "published_by": source.published_by,
                "reason": reason.value,
                "embedding": embedding[0],
                "embedding_model": embedding[1],
                "search_tsv": search_vector(raw),
                "signals_tsv": signals_vector(raw),
            }
        )
        if source.task_description:
            await add_task_keys(
                repo.session,
                self.embeddings,
                gene.id,
                "version",
                [source.task_description],
                new_gene=gene.current_version == 0,
            )
        await repo.point_gene_at(
            gene.id,
            {
                "current_version": next_version,
                "current_asset_id": asset_id,
                "category": raw["category"],
                "task_family": source.task_family or gene.task_family,
                "producer_model": raw.get("model_name") or source.producer_model,
            },
        )
        return version

    async def link(
        self,
        version: GeneVersion,
        trajectory_ids: Sequence[uuid.UUID],
        role: EvidenceRole,
        tasks: Sequence[str] | None = None,
    ) -> None:
        """Record the trajectories as the version's evidence; `tasks`: their task descriptions, when
        the caller has them in hand (else they are read)."""
        await self.repo.link_trajectories(version.id, trajectory_ids, role)
        # The merged runs' tasks become search keys of the Gene: how users met the problem.
        await add_trajectory_keys(self.repo.session, self.embeddings, version.gene_id, trajectory_ids, tasks)

    async def record(self, event: dict[str, Any]) -> int:
        """An evolution event: one change to a Gene, with what it did to the guards."""
        return await self.repo.add_event(event)

    async def record_published(
        self, previous: GeneVersion | None, version: GeneVersion, trajectory_ids: Sequence[uuid.UUID]
    ) -> None:
        """A version sent to POST /v1/genes: its guard changes are the difference of the guard lists."""
        old_avoid = guards_of(previous.document) if previous else []
        new_avoid = guards_of(version.document)
        await self.record(
            {
                "gene_id": version.gene_id,
                "kind": EventKind.published.value,
                "trajectory_ids": list(trajectory_ids),
                "guards_added": [{"text": text} for text in new_avoid if text not in old_avoid],
                "guards_merged": [],
                "guards_dropped": [
                    {"text": text, "reason": "removed by a published version"}
                    for text in old_avoid
                    if text not in new_avoid
                ],
                "old_asset_id": previous.asset_id if previous else None,
                "new_asset_id": version.asset_id,
                "old_version": previous.version if previous else None,
                "new_version": version.version,
                "actor": API_ACTOR,
            }
        )
