"""Guard merging: same meaning → more evidence, new meaning → a new guard, at most 12 served.

Pure functions over vectors, so the rules are tested on written cases without a database.

- Two guards mean the same when the cosine of their embeddings is at least GUARD_MERGE_THRESHOLD.
  An incoming guard merges into the most similar guard of the Gene (kept, dropped, proposed or
  rejected: a warning that keeps coming back keeps counting); otherwise it is added.
- One trajectory is one piece of evidence: it raises a guard's count at most once, however many of
  its guards land on it, and its submitting key becomes one of the guard's backers.
- A guard may be served (state `active`) only when the Gene's owner backs it, or at least `quorum`
  distinct keys other than the owner do (or a human approved it, app/evolution/ledger.py). Until
  then it is `proposed`: it gathers evidence and backers but stays out of the document. A guard
  whose text looks like an instruction to fetch or run code (app/evolution/review.py) is never
  activated by backing, whatever its quorum; a rejected guard stays rejected.
- At most MAX_GUARDS active guards are kept, ranked by evidence, then by when they were last seen,
  newest first (then first seen, then text, so the order is total). The `avoid` list is that
  ranking. What falls off the end is dropped: lowest evidence first, least recently seen first
  among equals.

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

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from app.evolution.review import hold_reason
from app.gep.document import MAX_GUARDS
from app.models import GuardState

GUARD_MERGE_THRESHOLD = 0.80

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Backing:
    """Who sends this trajectory's guards, and what it takes for them to be served."""

    key: uuid.UUID
    owner: uuid.UUID
    quorum: int

    def activates(self, guard: GuardEntry) -> bool:
        """Whether `guard`, proposed, may now be served: no human hold, and owner or quorum backing."""
        if guard.state != GuardState.proposed or guard.hold is not None:
            return False
        return self.owner in guard.backers or len(guard.backers - {self.owner}) >= self.quorum


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
    state: str = GuardState.active
    backers: set[uuid.UUID] = field(default_factory=set)
    hold: str | None = None


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
    # Proposed guards this trajectory's backing made servable.
    activated: list[GuardEntry] = field(default_factory=list)

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
    backing: Backing,
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
                    best.backers.add(backing.key)
                    if backing.activates(best):
                        best.state = GuardState.active
                        plan.activated.append(best)
                    elif not best.kept and best.state == GuardState.active:
                        plan.revived.append(best)
            plan.merged.append(Merged(text, best, similarity, counted=first_time and best.id is not None))
            continue
        guard = GuardEntry(
            text=text,
            vector=vector,
            evidence=1,
            kept=False,
            first_seen=now,
            last_seen=now,
            state=GuardState.proposed,
            backers={backing.key},
            hold=hold_reason(text),
        )
        if backing.activates(guard):
            guard.state = GuardState.active
        pool.append(guard)
        counted.add(id(guard))
        plan.added.append(guard)

    fresh = {id(g) for g in [*plan.revived, *plan.activated, *plan.added]}
    _apply_cap(plan, rank([g for g in pool if g.kept or id(g) in fresh]), was_kept, cap)
    plan.revived = [g for g in plan.revived if g.kept]
    return plan


def plan_review(
    entries: Sequence[GuardEntry], reviewed: GuardEntry, state: GuardState, *, cap: int = MAX_GUARDS
) -> MergePlan:
    """A human sets one guard's state: approved, it competes for a place like any active guard;
    rejected, it leaves the document. Mutates the entries it touches."""
    plan = MergePlan()
    was_kept = {id(guard) for guard in entries if guard.kept}
    reviewed.state = state
    if state != GuardState.active:
        reviewed.kept = False
    else:
        plan.activated.append(reviewed)
    _apply_cap(plan, rank([g for g in entries if g.kept or g is reviewed]), was_kept, cap)
    return plan


def _apply_cap(plan: MergePlan, candidates: list[GuardEntry], was_kept: set[int], cap: int) -> None:
    plan.kept = candidates[:cap]
    for guard in plan.kept:
        guard.kept = True
    for guard in candidates[cap:]:
        guard.kept = False
        # A dropped guard that gained evidence but still ranks below the cap was not dropped again.
        if id(guard) in was_kept or guard in plan.added:
            plan.dropped.append(guard)


def rank(guards: Sequence[GuardEntry]) -> list[GuardEntry]:
    """The active guards among `guards`, in `avoid` order."""
    return sorted((g for g in guards if g.state == GuardState.active), key=rank_key)


def _most_similar(pool: Sequence[GuardEntry], vector: Vector) -> tuple[GuardEntry | None, float]:
    if not pool:
        return None, -1.0
    matrix = np.stack([guard.vector for guard in pool])
    similarities = matrix @ vector
    index = int(np.argmax(similarities))
    return pool[index], float(similarities[index])
