"""A Gene's guards as rows: loading the ones a change may touch, keeping them in step with the
document, and writing back what a merge plan (app/evolution/merge.py) decided.

The current document's `avoid` list is the truth about what is served: a version published through
POST /v1/genes may add or remove guards. Before every change the rows are brought in step with it:
a guard the document carries but no row knows is recorded (active, evidence 1, backed by the key
that published the version); a kept row the document no longer carries is marked dropped.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from app.embeddings import EmbeddingService
from app.evolution.merge import GuardEntry, MergePlan, Vector
from app.evolution.repository import EvolutionRepository
from app.models import Guard, GuardState

Snapshot = tuple[int, datetime, bool, str, str, frozenset[str]]

# How many guards not kept (proposed, dropped) within the merge's candidate floor are loaded per
# incoming guard: the pair model, not cosine order, picks among them (repository.kept_and_nearest).
NEAR_CANDIDATES = 8


async def embed_all(embeddings: EmbeddingService, texts: Sequence[str]) -> list[Vector]:
    # One request for all the texts (cached like queries): they go to the encoder as one batch, and
    # the service micro-batches them with the texts of every other job running in this process.
    return list(await embeddings.embed_many(texts))


def _snapshot(entry: GuardEntry) -> Snapshot:
    return (
        entry.evidence,
        entry.last_seen,
        entry.kept,
        entry.state,
        entry.text,
        frozenset(entry.failure_keys),
    )


class GuardLedger:
    def __init__(self, repo: EvolutionRepository, embeddings: EmbeddingService) -> None:
        self.repo = repo
        self.embeddings = embeddings
        self._before: dict[int, Snapshot] = {}
        self._dropped_at: dict[int, datetime | None] = {}

    async def entries(
        self,
        gene_id: str,
        avoid: list[str],
        *,
        near: Sequence[Vector],
        threshold: float,
        publisher: uuid.UUID,
        now: datetime,
        include: Sequence[int] = (),
        failure_keys: Sequence[str] = (),
    ) -> tuple[list[GuardEntry], list[dict[str, Any]]]:
        """The kept guards, plus the others this change may touch: named by the document, among the
        NEAR_CANDIDATES nearest to an incoming guard within the merge threshold, sharing one of
        `failure_keys`, or named by id in `include`; in step with the document."""
        # The kept and nearest guards come with their backers; the few others read theirs below.
        backers: dict[int, set[uuid.UUID]] = {}
        rows: dict[int, Guard] = {}
        nearest = await self.repo.kept_and_nearest(
            gene_id, near, threshold, NEAR_CANDIDATES, failure_keys=failure_keys
        )
        for row, keys in nearest:
            rows[row.id], backers[row.id] = row, keys
        kept_texts = {row.text for row in rows.values() if row.kept}
        for row in await self.repo.dropped_guards(gene_id, [t for t in avoid if t not in kept_texts]):
            rows[row.id] = row
        for row in await self.repo.guards_by_id(gene_id, [i for i in include if i not in rows]):
            rows[row.id] = row
        backers |= await self.repo.backers([i for i in rows if i not in backers])
        ordered = sorted(rows.values(), key=lambda row: row.id)
        self._dropped_at = {row.id: row.dropped_at for row in ordered}
        entries, resynced, published = await self._resync(gene_id, ordered, avoid, publisher, now)
        for entry in entries:
            assert entry.id is not None
            # What the rows held, and the publisher _resync made a backer of the guards it seeded or
            # revived: the backers as the database now has them.
            entry.backers |= backers.get(entry.id, set())
            if entry.id in published:
                entry.backers.add(publisher)
        self._before = {e.id: _snapshot(e) for e in entries if e.id is not None}
        return entries, resynced

    async def _resync(
        self,
        gene_id: str,
        rows: Sequence[Guard],
        avoid: list[str],
        publisher: uuid.UUID,
        now: datetime,
    ) -> tuple[list[GuardEntry], list[dict[str, Any]], set[int]]:
        """The rows as entries, in step with the document; the kept rows it no longer carries, and
        the guards it seeded or revived (which their publisher now backs)."""
        stale = [row for row in rows if row.embedding_model != self.embeddings.name]
        by_text = {row.text: row for row in rows}
        missing = [text for text in dict.fromkeys(avoid) if text not in by_text]
        fresh = await embed_all(self.embeddings, [row.text for row in stale] + missing)
        await self.repo.update_guards(
            [
                {"id": row.id, "embedding": vector.tolist(), "embedding_model": self.embeddings.name}
                for row, vector in zip(stale, fresh, strict=False)
            ]
        )
        vectors: dict[str, Vector] = {row.text: vector for row, vector in zip(stale, fresh, strict=False)}
        # Seeded guards keep the document's order: each is "seen" a microsecond before the next.
        seeded = [
            {
                "gene_id": gene_id,
                "text": text,
                "embedding": vector.tolist(),
                "embedding_model": self.embeddings.name,
                "evidence_count": 1,
                "kept": True,
                "state": GuardState.active.value,
                "first_seen_at": now - timedelta(microseconds=index + 1),
                "last_seen_at": now - timedelta(microseconds=index + 1),
            }
            for index, (text, vector) in enumerate(zip(missing, fresh[len(stale) :], strict=True))
        ]
        seeded_ids = await self.repo.insert_guards(seeded)
        await self.repo.add_backers([(guard_id, publisher) for guard_id in seeded_ids])
        entries = [
            GuardEntry(
                id=row.id,
                text=row.text,
                vector=vectors.get(row.text, np.asarray(row.embedding, dtype=np.float32)),
                evidence=row.evidence_count,
                kept=row.kept,
                first_seen=row.first_seen_at,
                last_seen=row.last_seen_at,
                state=row.state,
                hold=row.hold_reason,
                extracted=row.extracted,
                failure_keys=set(row.failure_keys),
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
                # A published document that carries the guard: its publisher serves it.
                entry.kept, entry.state = True, GuardState.active
                revived.append({"id": entry.id, "kept": True, "state": entry.state, "dropped_at": None})
        await self.repo.update_guards(
            [*revived, *({"id": r["guard_id"], "kept": False, "dropped_at": now} for r in resynced)]
        )
        await self.repo.add_backers([(r["id"], publisher) for r in revived])
        return entries, resynced, {*seeded_ids, *(r["id"] for r in revived)}

    async def write(
        self,
        gene_id: str,
        plan: MergePlan,
        entries: Sequence[GuardEntry],
        now: datetime,
        *,
        trajectory_id: uuid.UUID | None,
        backer: uuid.UUID,
    ) -> None:
        """Insert the plan's new guards, update the changed ones, record evidence and the backer."""
        new_ids = await self.repo.insert_guards(
            [
                {
                    "gene_id": gene_id,
                    "text": guard.text,
                    "embedding": guard.vector.tolist(),
                    "embedding_model": self.embeddings.name,
                    "evidence_count": guard.evidence,
                    "kept": guard.kept,
                    "state": guard.state,
                    "hold_reason": guard.hold,
                    "extracted": guard.extracted,
                    "failure_keys": sorted(guard.failure_keys),
                    "first_seen_at": guard.first_seen,
                    "last_seen_at": guard.last_seen,
                    # Dropped at once by the cap (kept guards are always active).
                    "dropped_at": now if guard.state == GuardState.active and not guard.kept else None,
                }
                for guard in plan.added
            ]
        )
        for guard, guard_id in zip(plan.added, new_ids, strict=True):
            guard.id = guard_id
        # Folded first: a survivor may take the text of a guard folded into it.
        absorbed = {a.id for _, a in plan.folded}
        shared = await self.repo.fold_guards(
            [(s.id, a.id) for s, a in plan.folded if s.id is not None and a.id is not None]
        )
        # A run that had backed both guards of a fold counts once in the survivor's evidence.
        for survivor in {id(s): s for s, _ in plan.folded}.values():
            if survivor.id in shared:
                survivor.evidence = max(1, survivor.evidence - shared[survivor.id])
        await self.repo.update_guards(
            [{"id": g.id, "evidence_count": g.evidence} for g in plan.added if g.id in shared]
        )
        updates = []
        reworded = []
        for entry in entries:
            if entry.id is None or entry.id not in self._before or entry.id in absorbed:
                continue
            was = self._before[entry.id]
            if was == _snapshot(entry):
                continue
            if was[4] != entry.text:
                # A producer's wording took the place of an extracted one (merge.py).
                reworded.append(
                    {
                        "id": entry.id,
                        "text": entry.text,
                        "embedding": entry.vector.tolist(),
                        "embedding_model": self.embeddings.name,
                        "extracted": entry.extracted,
                    }
                )
            # A guard that stays dropped keeps the time it was dropped.
            dropped_at = None if entry.kept else (now if was[2] else self._dropped_at.get(entry.id))
            updates.append(
                {
                    "id": entry.id,
                    "evidence_count": entry.evidence,
                    "last_seen_at": entry.last_seen,
                    "kept": entry.kept,
                    "state": entry.state,
                    "dropped_at": dropped_at,
                    "failure_keys": sorted(entry.failure_keys),
                }
            )
        await self.repo.update_guards(updates)
        await self.repo.update_guards(reworded)
        touched = [g.id for g in plan.touched if g.id is not None]
        if trajectory_id is not None:
            await self.repo.add_evidence_and_backer(touched, trajectory_id, backer)
        else:
            await self.repo.add_backers([(guard_id, backer) for guard_id in touched])
