"""One job of the evolution worker: merge one pending trajectory into a Gene. Never commits.

The caller (the worker) runs each job in its own transaction: the claim (a row lock taken with SKIP
LOCKED), the routing, the guard merge, the new version and the trajectory's final state commit
together or not at all. Merges into one Gene are serialized by a row lock on the Gene, taken after
the embeddings are computed so that the lock is held only for the database work.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from app.evolution.distill import CannotFound, founding_document, gene_id_for
from app.evolution.events import guard_changes, worker_actor
from app.evolution.extraction import compact_producer_guard, extract_guards, signals_of
from app.evolution.merge import GUARD_MERGE_THRESHOLD, GuardEntry, MergePlan, Vector, plan_merge
from app.evolution.repository import EvolutionRepository, RouteCandidate
from app.evolution.routing import ROUTE_THRESHOLD, routing_text
from app.genes.repository import GeneRepository
from app.genes.service import VersionSource, gene_service
from app.gep.canonical import compute_asset_id
from app.gep.document import GeneDocument
from app.models import EventKind, Gene, GeneStatus, GeneVersion, Guard, Trajectory, TrajectoryState
from app.search.indexing import embedding_text
from app.trajectories.repository import TrajectoryRepository

DEFAULT_MAX_ATTEMPTS = 5


@dataclass(frozen=True)
class JobResult:
    trajectory_id: uuid.UUID
    state: TrajectoryState
    reason: str
    gene_id: str | None = None
    asset_id: str | None = None
    new_version: int | None = None


class Rejected(Exception):
    """The trajectory cannot contribute; raised before anything is written."""

    def __init__(self, reason: str, gene_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.gene_id = gene_id


@dataclass
class _Job:
    """What a trajectory brings, computed before any lock is taken."""

    trajectory: Trajectory
    guards: list[str]
    vectors: list[Vector]
    route: RouteCandidate | None = None
    best_similarity: float | None = None


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error.get("loc", ()))
    return f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg", "invalid"))


class EvolutionService:
    def __init__(
        self,
        *,
        actor: str | None = None,
        guard_threshold: float = GUARD_MERGE_THRESHOLD,
        route_threshold: float = ROUTE_THRESHOLD,
    ) -> None:
        self.actor = actor or worker_actor()
        self.guard_threshold = guard_threshold
        self.route_threshold = route_threshold

    async def process_next(
        self, session: AsyncSession, embeddings: EmbeddingService, *, max_attempts: int = DEFAULT_MAX_ATTEMPTS
    ) -> JobResult | None:
        """Claim the oldest pending trajectory nobody else holds and process it; None when there is none."""
        trajectory = await TrajectoryRepository(session).claim_next(max_attempts)
        if trajectory is None:
            return None
        return await self.process(session, trajectory, embeddings)

    async def process(
        self, session: AsyncSession, trajectory: Trajectory, embeddings: EmbeddingService
    ) -> JobResult:
        try:
            result = await self._process(session, trajectory, embeddings)
        except Rejected as rejected:
            result = JobResult(trajectory.id, TrajectoryState.rejected, rejected.reason, rejected.gene_id)
        await TrajectoryRepository(session).finish(
            trajectory.id,
            state=result.state,
            reason=result.reason,
            gene_id=result.gene_id,
            asset_id=result.asset_id,
        )
        return result

    async def _process(
        self, session: AsyncSession, trajectory: Trajectory, embeddings: EmbeddingService
    ) -> JobResult:
        genes = GeneRepository(session)
        evolution = EvolutionRepository(session)
        draft: dict[str, Any] = trajectory.gene_draft or {}
        passed = trajectory.verifier_passed
        if trajectory.guards:
            guards = list(dict.fromkeys(compact_producer_guard(str(g)) for g in trajectory.guards))
        else:
            guards = extract_guards(trajectory.steps, trajectory.verifier)
        if not passed and not guards:
            raise Rejected("a failed run contributes only failure guards, and none could be taken from it")

        gene_id: str | None = None
        how = ""
        found_as: str | None = None
        target = trajectory.target_gene_id
        draft_id = draft.get("id")
        if target is not None:
            if await genes.get_gene(target) is not None:
                gene_id, how = target, "target"
            elif passed and draft_id == target:
                found_as = target
            else:
                raise Rejected(f"target Gene {target} does not exist")
        elif draft_id is not None and await genes.get_gene(draft_id) is not None:
            gene_id, how = draft_id, "named by its draft"

        routed = gene_id is None and found_as is None
        texts = list(guards)
        if routed:
            texts.append(routing_text(trajectory.task_description, self._signals(trajectory)))
        vectors = await self._embed(embeddings, texts)
        job = _Job(trajectory, guards, vectors[: len(guards)])
        if routed:
            gene_id = await self._route(evolution, job, vectors[-1])
            how = "semantic match"
            if gene_id is None and not passed:
                raise Rejected(
                    f"no Gene matches this failed run (best similarity {job.best_similarity or 0:.2f}, "
                    f"threshold {self.route_threshold:.2f}); "
                    "a failed run only adds guards to an existing Gene"
                )
            if gene_id is None:
                # Serialize founders, then look again: a similar run may have founded a Gene meanwhile.
                await evolution.lock_founding(trajectory.task_family)
                gene_id = await self._route(evolution, job, vectors[-1])
        if gene_id is None:
            return await self._found(session, job, embeddings, found_as or draft_id)
        return await self._merge(session, job, embeddings, gene_id, how)

    @staticmethod
    def _signals(trajectory: Trajectory) -> list[str]:
        draft_signals = [
            s for s in (trajectory.gene_draft or {}).get("signals_match") or [] if not str(s).startswith("/")
        ]
        return list(dict.fromkeys([*draft_signals, *signals_of(trajectory.steps, trajectory.verifier)]))

    @staticmethod
    async def _embed(embeddings: EmbeddingService, texts: Sequence[str]) -> list[Vector]:
        # embed_query micro-batches: the texts of every job running in this process share encoder calls.
        return list(await asyncio.gather(*(embeddings.embed_query(text) for text in texts)))

    async def _route(self, evolution: EvolutionRepository, job: _Job, vector: Vector) -> str | None:
        candidates = await evolution.route(vector, job.trajectory.task_family)
        if not candidates:
            return None
        best = candidates[0]
        job.best_similarity = best.similarity
        if best.similarity < self.route_threshold:
            return None
        job.route = best
        return best.gene_id

    def _source(self, trajectory: Trajectory, producer_model: str) -> VersionSource:
        return VersionSource(
            producer_model=producer_model,
            kind="verified_trajectory",
            verifier=trajectory.verifier,
            task_id=trajectory.task_id,
            task_family=trajectory.task_family,
            task_description=trajectory.task_description,
            cost_tokens=trajectory.cost_tokens,
            cost_attempts=trajectory.cost_attempts,
            cost_seconds=trajectory.cost_seconds,
        )

    async def _found(
        self, session: AsyncSession, job: _Job, embeddings: EmbeddingService, named_id: str | None
    ) -> JobResult:
        trajectory = job.trajectory
        genes = GeneRepository(session)
        evolution = EvolutionRepository(session)
        gene_id = named_id or gene_id_for(
            trajectory.task_family, trajectory.task_description, trajectory.content_hash
        )
        now = await evolution.clock()
        plan = plan_merge(
            [], list(zip(job.guards, job.vectors, strict=True)), now, threshold=self.guard_threshold
        )
        try:
            raw_document = founding_document(
                gene_id=gene_id,
                description=trajectory.task_description,
                task_id=trajectory.task_id,
                producer_model=trajectory.producer_model,
                steps=trajectory.steps,
                verifier=trajectory.verifier,
                draft=trajectory.gene_draft,
                avoid=plan.avoid,
            )
            document = GeneDocument.model_validate(raw_document)
        except CannotFound as exc:
            raise Rejected(f"cannot found a Gene from this run: {exc}") from None
        except ValidationError as exc:
            raise Rejected(f"the Gene distilled from this run is not valid: {_first_error(exc)}") from None
        raw = document.hashed_fields()
        asset_id = compute_asset_id(raw)
        created = await genes.insert_gene_if_absent(
            {
                "id": gene_id,
                "category": raw["category"],
                "task_family": trajectory.task_family,
                "current_version": 0,
                "current_asset_id": asset_id,
                "producer_model": trajectory.producer_model,
                # The key that sent the founding run owns the Gene, as if it had published it.
                "owner_key_id": trajectory.submitted_by,
            }
        )
        if not created:
            # Founded by a concurrent job between our look-up and our insert: merge into it instead.
            return await self._merge(session, job, embeddings, gene_id, "named by its draft")
        gene = await genes.lock_gene(gene_id)
        assert gene is not None
        version = await gene_service.write_version(
            genes, gene, raw, asset_id, self._source(trajectory, trajectory.producer_model), embeddings
        )
        await genes.link_trajectories(version.id, [trajectory.id])
        await self._write_guards(evolution, gene_id, plan, [], embeddings.name, trajectory.id, now)
        await evolution.add_event(
            {
                "gene_id": gene_id,
                "kind": EventKind.founded.value,
                "trajectory_ids": [trajectory.id],
                **guard_changes(plan),
                "old_asset_id": None,
                "new_asset_id": asset_id,
                "old_version": None,
                "new_version": version.version,
                "actor": self.actor,
                "details": {"source": raw["generation_meta"]["source"], **self._route_details(job)},
            }
        )
        reason = f"founded candidate Gene {gene_id}" + self._guard_summary(plan)
        return JobResult(trajectory.id, TrajectoryState.merged, reason, gene_id, asset_id, version.version)

    async def _merge(
        self, session: AsyncSession, job: _Job, embeddings: EmbeddingService, gene_id: str, how: str
    ) -> JobResult:
        trajectory = job.trajectory
        genes = GeneRepository(session)
        evolution = EvolutionRepository(session)
        gene = await genes.lock_gene(gene_id)
        if gene is None:
            raise Rejected(f"Gene {gene_id} no longer exists")
        if gene.status == GeneStatus.revoked:
            raise Rejected(f"Gene {gene_id} is revoked and takes no new evidence", gene_id)
        current = await evolution.current_version(gene)
        document: dict[str, Any] = json.loads(current.document_json)
        document.pop("asset_id", None)
        old_avoid: list[str] = list(document.get("avoid") or [])
        now = await evolution.clock()

        rows = await self._candidate_guards(evolution, gene_id, job, old_avoid)
        entries, resynced = await self._resync(evolution, gene_id, rows, old_avoid, embeddings, now)
        before = {entry.id: (entry.evidence, entry.last_seen, entry.kept) for entry in entries}
        dropped_at = {row.id: row.dropped_at for row in rows}
        plan = plan_merge(
            entries, list(zip(job.guards, job.vectors, strict=True)), now, threshold=self.guard_threshold
        )

        version: GeneVersion | None = None
        if plan.avoid != old_avoid:
            version = await self._next_version(
                genes, gene, current, document, plan.avoid, trajectory, embeddings
            )
        updates = [
            {
                "id": e.id,
                "evidence_count": e.evidence,
                "last_seen_at": e.last_seen,
                "kept": e.kept,
                # A guard that stays dropped keeps the time it was dropped.
                "dropped_at": None if e.kept else (now if before[e.id][2] else dropped_at[e.id]),
            }
            for e in entries
            if e.id is not None and before[e.id] != (e.evidence, e.last_seen, e.kept)
        ]
        await self._write_guards(evolution, gene_id, plan, updates, embeddings.name, trajectory.id, now)
        asset_id = version.asset_id if version else current.asset_id
        new_version = version.version if version else current.version
        await evolution.add_event(
            {
                "gene_id": gene_id,
                "kind": EventKind.merged.value,
                "trajectory_ids": [trajectory.id],
                **guard_changes(plan, resynced),
                "old_asset_id": current.asset_id,
                "new_asset_id": asset_id,
                "old_version": current.version,
                "new_version": new_version,
                "actor": self.actor,
                "details": {
                    "routed_by": how,
                    "verifier_passed": trajectory.verifier_passed,
                    **self._route_details(job),
                },
            }
        )
        outcome = f"new version {new_version}" if version else "document unchanged"
        reason = f"merged into {gene_id} ({how}){self._guard_summary(plan)}; {outcome}"
        return JobResult(
            trajectory.id,
            TrajectoryState.merged,
            reason,
            gene_id,
            asset_id,
            version.version if version else None,
        )

    async def _next_version(
        self,
        genes: GeneRepository,
        gene: Gene,
        current: GeneVersion,
        document: dict[str, Any],
        avoid: list[str],
        trajectory: Trajectory,
        embeddings: EmbeddingService,
    ) -> GeneVersion:
        """The current document with the new `avoid` list; strategy and everything else as they were."""
        raw = {**document, "parent": current.asset_id}
        if avoid:
            raw["avoid"] = avoid
        else:
            raw.pop("avoid", None)
        # Guards are not embedded (app/search/indexing.py), so the current vector still describes it.
        embedding = None
        if (
            current.embedding is not None
            and current.embedding_model
            and embedding_text(raw) == embedding_text(document)
        ):
            embedding = ([float(x) for x in current.embedding], current.embedding_model)
        validated = GeneDocument.model_validate(raw).hashed_fields()
        asset_id = compute_asset_id(validated)
        # The strategy's author stays the version's producer; the trajectory is its evidence.
        version = await gene_service.write_version(
            genes,
            gene,
            validated,
            asset_id,
            self._source(trajectory, current.producer_model),
            embeddings,
            embedding=embedding,
        )
        await genes.link_trajectories(version.id, [trajectory.id])
        return version

    async def _candidate_guards(
        self, evolution: EvolutionRepository, gene_id: str, job: _Job, avoid: list[str]
    ) -> list[Guard]:
        """The kept guards, plus the dropped ones this merge may touch: named by the document, or
        the nearest to an incoming guard when within the merge threshold."""
        rows = {row.id: row for row in await evolution.kept_guards(gene_id)}
        kept_texts = {row.text for row in rows.values()}
        for row in await evolution.dropped_guards(gene_id, [t for t in avoid if t not in kept_texts]):
            rows[row.id] = row
        for row in await evolution.nearest_dropped(gene_id, job.vectors, self.guard_threshold):
            rows[row.id] = row
        return sorted(rows.values(), key=lambda row: row.id)

    async def _resync(
        self,
        evolution: EvolutionRepository,
        gene_id: str,
        rows: Sequence[Guard],
        avoid: list[str],
        embeddings: EmbeddingService,
        now: datetime,
    ) -> tuple[list[GuardEntry], list[dict[str, Any]]]:
        """Guard entries that agree with the current document's `avoid` list.

        The list is the truth: a version published through POST /v1/genes may have added or removed
        guards. Missing ones are recorded with evidence 1, in the document's order; guards the
        document no longer has are marked dropped. Vectors of another embedding model are redone.
        """
        stale = [row for row in rows if row.embedding_model != embeddings.name]
        by_text = {row.text: row for row in rows}
        missing = [text for text in dict.fromkeys(avoid) if text not in by_text]
        fresh = await self._embed(embeddings, [row.text for row in stale] + missing)
        updates = [
            {"id": row.id, "embedding": vector.tolist(), "embedding_model": embeddings.name}
            for row, vector in zip(stale, fresh, strict=False)
        ]
        await evolution.update_guards(updates)
        vectors: dict[str, Vector] = {row.text: vector for row, vector in zip(stale, fresh, strict=False)}
        # Seeded guards keep the document's order: each is "seen" a microsecond before the next.
        seeded = [
            {
                "gene_id": gene_id,
                "text": text,
                "embedding": vector.tolist(),
                "embedding_model": embeddings.name,
                "evidence_count": 1,
                "kept": True,
                "first_seen_at": now - timedelta(microseconds=index + 1),
                "last_seen_at": now - timedelta(microseconds=index + 1),
            }
            for index, (text, vector) in enumerate(zip(missing, fresh[len(stale) :], strict=True))
        ]
        seeded_ids = await evolution.insert_guards(seeded)
        entries = [
            GuardEntry(
                id=row.id,
                text=row.text,
                vector=vectors.get(row.text, np.asarray(row.embedding, dtype=np.float32)),
                evidence=row.evidence_count,
                kept=row.kept,
                first_seen=row.first_seen_at,
                last_seen=row.last_seen_at,
            )
            for row in rows
        ]
        entries += [
            GuardEntry(
                id=guard_id,
                text=values["text"],
                vector=np.asarray(values["embedding"], dtype=np.float32),
                evidence=1,
                kept=True,
                first_seen=values["first_seen_at"],
                last_seen=values["last_seen_at"],
            )
            for guard_id, values in zip(seeded_ids, seeded, strict=True)
        ]
        resynced: list[dict[str, Any]] = []
        revived: list[dict[str, Any]] = []
        for entry in entries:
            if entry.kept and entry.text not in avoid:
                entry.kept = False
                resynced.append(
                    {
                        "guard_id": entry.id,
                        "text": entry.text,
                        "evidence": entry.evidence,
                        "reason": "not in the current version",
                    }
                )
            elif not entry.kept and entry.text in avoid:
                entry.kept = True
                revived.append({"id": entry.id, "kept": True, "dropped_at": None})
        await evolution.update_guards(
            [*revived, *({"id": r["guard_id"], "kept": False, "dropped_at": now} for r in resynced)]
        )
        return entries, resynced

    async def _write_guards(
        self,
        evolution: EvolutionRepository,
        gene_id: str,
        plan: MergePlan,
        updates: Sequence[dict[str, Any]],
        model: str,
        trajectory_id: uuid.UUID,
        now: datetime,
    ) -> None:
        new_ids = await evolution.insert_guards(
            [
                {
                    "gene_id": gene_id,
                    "text": guard.text,
                    "embedding": guard.vector.tolist(),
                    "embedding_model": model,
                    "evidence_count": guard.evidence,
                    "kept": guard.kept,
                    "first_seen_at": guard.first_seen,
                    "last_seen_at": guard.last_seen,
                    "dropped_at": None if guard.kept else now,
                }
                for guard in plan.added
            ]
        )
        for guard, guard_id in zip(plan.added, new_ids, strict=True):
            guard.id = guard_id
        await evolution.update_guards(updates)
        await evolution.add_evidence([g.id for g in plan.touched if g.id is not None], trajectory_id)

    @staticmethod
    def _route_details(job: _Job) -> dict[str, Any]:
        if job.best_similarity is None:
            return {}
        return {"route_similarity": round(job.best_similarity, 4)}

    @staticmethod
    def _guard_summary(plan: MergePlan) -> str:
        counted = sum(1 for m in plan.merged if m.counted)
        return f": {len(plan.added)} guard(s) added, {counted} merged, {len(plan.dropped)} dropped"


evolution_service = EvolutionService()
