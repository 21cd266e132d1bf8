"""Guard merging: same meaning → more evidence, new meaning → a new guard, at most 12 kept.

Pure functions over vectors, so the rules are tested on written cases without a database.

- Two guards mean the same when the cosine of their embeddings is at least GUARD_MERGE_THRESHOLD.
  An incoming guard merges into the most similar guard of the Gene (kept or dropped: a dropped
  warning that keeps coming back keeps counting and can return); otherwise it is added.
- One trajectory is one piece of evidence: it raises a guard's count at most once, however many of
  its guards land on it.
- At most MAX_GUARDS are kept, ranked by evidence, then by when they were last seen, newest
  first (then first seen, then text, so the order is total). The `avoid` list is that ranking.
  What falls off the end is dropped: lowest evidence first, least recently seen first among equals.

GUARD_MERGE_THRESHOLD was tuned with bench/guard_threshold.py on the 155 hand-labelled pairs of
bench/data/guard_pairs.jsonl (all-MiniLM-L6-v2). The model separates paraphrases from near-misses
poorly (ROC AUC 0.83), so the threshold is chosen for precision: a false merge silently loses a
distinct instruction, while a missed one only costs a slot that the cap and later merges repair. At
0.80: precision 0.86, recall 0.26; 3 of 63 near-misses merge (the three hardest, two of them the same
advice under the opposite condition, which merge at any threshold up to 0.83); no unrelated pair
does. 0.78 is the lowest threshold with only those three; 0.80 keeps 0.025 of margin to the next
near-miss (0.775) against backend drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from app.gep.document import MAX_GUARDS

GUARD_MERGE_THRESHOLD = 0.80

Vector = npt.NDArray[np.float32]


@dataclass(eq=False)
class GuardEntry:
    """A guard of the Gene as the merge sees it; `id` is None for one added by this merge."""

    text: str
    vector: Vector
    evidence: int
    kept: bool
    first_seen: datetime
    last_seen: datetime
    id: int | None = None


@dataclass(frozen=True)
class Merged:
    incoming: str
    into: GuardEntry
    similarity: float
    counted: bool  # False when this trajectory had already counted as evidence for it


@dataclass
class MergePlan:
    added: list[GuardEntry] = field(default_factory=list)
    merged: list[Merged] = field(default_factory=list)
    revived: list[GuardEntry] = field(default_factory=list)
    dropped: list[GuardEntry] = field(default_factory=list)
    kept: list[GuardEntry] = field(default_factory=list)

    @property
    def avoid(self) -> list[str]:
        return [guard.text for guard in self.kept]

    @property
    def touched(self) -> list[GuardEntry]:
        """Guards this trajectory is evidence for (each once)."""
        seen: dict[int, GuardEntry] = {}
        for guard in [*self.added, *(m.into for m in self.merged if m.counted)]:
            seen.setdefault(id(guard), guard)
        return list(seen.values())


def rank_key(guard: GuardEntry) -> tuple[int, float, float, str]:
    return (-guard.evidence, -guard.last_seen.timestamp(), -guard.first_seen.timestamp(), guard.text)


def plan_merge(
    existing: Sequence[GuardEntry],
    incoming: Sequence[tuple[str, Vector]],
    now: datetime,
    *,
    threshold: float = GUARD_MERGE_THRESHOLD,
    cap: int = MAX_GUARDS,
) -> MergePlan:
    """Merge one trajectory's guards into a Gene's; mutates the entries of `existing` it touches."""
    plan = MergePlan()
    pool: list[GuardEntry] = list(existing)
    was_kept = {id(guard) for guard in existing if guard.kept}
    counted: set[int] = set()
    for text, vector in incoming:
        best, similarity = _most_similar(pool, vector)
        if best is not None and (similarity >= threshold or best.text == text):
            first_time = id(best) not in counted
            if first_time:
                counted.add(id(best))
                if best.id is not None:
                    best.evidence += 1
                    best.last_seen = now
                    if not best.kept:
                        plan.revived.append(best)
            plan.merged.append(Merged(text, best, similarity, counted=first_time and best.id is not None))
            continue
        guard = GuardEntry(text=text, vector=vector, evidence=1, kept=True, first_seen=now, last_seen=now)
        pool.append(guard)
        counted.add(id(guard))
        plan.added.append(guard)

    candidates = [g for g in pool if g.kept or g in plan.revived]
    candidates.sort(key=rank_key)
    plan.kept = candidates[:cap]
    for guard in plan.kept:
        guard.kept = True
    for guard in candidates[cap:]:
        guard.kept = False
        # A dropped guard that gained evidence but still ranks below the cap was not dropped again.
        if id(guard) in was_kept or guard in plan.added:
            plan.dropped.append(guard)
    plan.revived = [g for g in plan.revived if g.kept]
    return plan


def _most_similar(pool: Sequence[GuardEntry], vector: Vector) -> tuple[GuardEntry | None, float]:
    if not pool:
        return None, -1.0
    matrix = np.stack([guard.vector for guard in pool])
    similarities = matrix @ vector
    index = int(np.argmax(similarities))
    return pool[index], float(similarities[index])
