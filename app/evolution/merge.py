"""Guard merging: same meaning → more evidence, new meaning → a new guard, at most 12 served.

Pure functions over vectors, so the rules are tested on written cases without a database.

- Two guards mean the same when the same text, or when the guard-pair model
  (app/evolution/guard_match.py: the embeddings' cosine with the error class, the action warned
  against and the remedy, lexical overlap, antonyms, negation and numbers) says so; without a
  model, when the cosine of their embeddings is at least GUARD_MERGE_THRESHOLD. An incoming guard
  merges into the guard of the Gene it most likely means (kept, dropped, proposed or rejected: a
  warning that keeps coming back keeps counting); otherwise it is added.
- The registry never invents text, and a producer's wording beats an extracted one: when a
  producer's guard merges into a guard that was extracted from a run's steps, the guard takes the
  producer's text (and vector); an extracted guard that merges into a producer's keeps the latter.
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

The pair model and its threshold are fitted by bench/guard_dedup.py on the train split of
bench/data/guard_pairs.jsonl (792 labelled pairs; figures in docs/benchmarks.md). GUARD_MERGE_THRESHOLD
is the cosine-only rule, kept for a service built without the model: bench/guard_threshold.py chose
it on the first 155 pairs for precision (a false merge silently loses a distinct instruction, a
missed one only costs a slot that the cap and later merges repair).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from app.evolution.guard_match import GuardMatcher
from app.evolution.review import hold_reason
from app.gep.document import MAX_GUARDS
from app.models import GuardState

GUARD_MERGE_THRESHOLD = 0.80

Vector = npt.NDArray[np.float32]
# Per guard text: the vectors of the action it warns against and of its remedy (guard_match.clauses).
ClauseVectors = Mapping[str, tuple[Vector, Vector]]


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
    # Taken from a run's steps by the registry (app/evolution/extraction.py), not written by a producer.
    extracted: bool = False


@dataclass(frozen=True)
class Merged:
    incoming: str
    into: GuardEntry
    similarity: float
    counted: bool  # False when this trajectory had already counted as evidence for it
    # The model's probability that both say the same (None: exact text, or the cosine-only rule).
    probability: float | None = None
    # The guard took the incoming (producer's) wording in place of its extracted one.
    reworded: bool = False


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
    matcher: GuardMatcher | None = None,
    clause_vectors: ClauseVectors | None = None,
    extracted: bool = False,
) -> MergePlan:
    """Merge one trajectory's guards into a Gene's; mutates the entries of `existing` it touches.

    With a `matcher`, the pair model decides (with `clause_vectors` for the texts involved);
    without, the cosine `threshold`. `extracted`: the incoming guards were extracted by the registry.
    """
    plan = MergePlan()
    pool: list[GuardEntry] = list(existing)
    was_kept = {id(guard) for guard in existing if guard.kept}
    counted: set[int] = set()
    for text, vector in incoming:
        best, similarity, probability = _best_match(pool, text, vector, matcher, clause_vectors or {})
        if best is not None and (
            best.text == text
            or (probability >= matcher.threshold if matcher is not None else similarity >= threshold)
        ):
            reworded = False
            if best.extracted and not extracted and best.text != text and not _text_taken(pool, text):
                # A producer's wording replaces the registry's extraction of the same warning.
                best.text, best.vector, best.extracted, reworded = text, vector, False, True
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
            plan.merged.append(
                Merged(
                    text,
                    best,
                    similarity,
                    counted=first_time and best.id is not None,
                    probability=None if best.text == text and not reworded else probability,
                    reworded=reworded,
                )
            )
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
            extracted=extracted,
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


def _text_taken(pool: Sequence[GuardEntry], text: str) -> bool:
    return any(guard.text == text for guard in pool)


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


def _best_match(
    pool: Sequence[GuardEntry],
    text: str,
    vector: Vector,
    matcher: GuardMatcher | None,
    clause_vectors: ClauseVectors,
) -> tuple[GuardEntry | None, float, float]:
    """The guard of `pool` `text` most likely repeats, its cosine and the model's probability
    (1.0 for the same text; 0.0 without a model)."""
    if not pool:
        return None, -1.0, 0.0
    for guard in pool:
        if guard.text == text:
            return guard, 1.0, 1.0
    similarities = np.stack([guard.vector for guard in pool]) @ vector
    if matcher is None:
        index = int(np.argmax(similarities))
        return pool[index], float(similarities[index]), 0.0
    mine = clause_vectors.get(text)
    theirs = [clause_vectors.get(guard.text) for guard in pool]
    index, probability = matcher.best(
        text,
        [guard.text for guard in pool],
        [float(s) for s in similarities],
        clause_cosines=[_clause_cosines(mine, other) for other in theirs],
    )
    if index < 0:
        index = int(np.argmax(similarities))
        return pool[index], float(similarities[index]), 0.0
    return pool[index], float(similarities[index]), probability


def _clause_cosines(
    a: tuple[Vector, Vector] | None, b: tuple[Vector, Vector] | None
) -> tuple[float, float, float] | None:
    if a is None or b is None:
        return None
    (mistake_a, remedy_a), (mistake_b, remedy_b) = a, b
    return (
        float(mistake_a @ mistake_b),
        float(remedy_a @ remedy_b),
        max(float(mistake_a @ remedy_b), float(remedy_a @ mistake_b)),
    )
