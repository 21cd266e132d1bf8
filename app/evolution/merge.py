"""Guard merging: same meaning → more evidence, new meaning → a new guard, at most 12 served.

Pure functions over vectors, so the rules are tested on written cases without a database.

- Two guards mean the same when the same text, or when the guard-pair model
  (app/evolution/guard_match.py: the embeddings' cosine with the error class, the action warned
  against and the remedy, lexical overlap, antonyms, negation and numbers) says so; without a
  model, when the cosine of their embeddings is at least GUARD_MERGE_THRESHOLD. An incoming guard
  merges into the guard of the Gene it most likely means (kept, dropped, proposed or rejected: a
  warning that keeps coming back keeps counting); otherwise it is added.
- A failure key (app/evolution/extraction.py, rule 7) shared with a guard of the Gene also makes an
  incoming guard the same, when the pair model (its logistic part: the remedy-only rule does not
  apply) gives it at least FAILURE_KEY_FLOOR: two runs that
  met the same error and fixed it the same way teach one lesson, however their producers worded it
  (the model alone scores many such paraphrases below its threshold: "Avoid N+1 queries: …" and
  "One query per item inside a loop is slow; …"). The floor keeps an unrelated text that happens
  to travel with the same failure (advice about another topic) from merging into it. A guard keeps
  the keys it was created with (or those of the first keyed guard merged into it).
- Guards of two failures stay two: an incoming guard with failure keys merges by meaning (model or
  cosine) only into a guard that has none or shares one. The same words about two failures may be
  two lessons, and a merge across them lets one failure's extracted rule take a producer's wording
  of the other's (served twice, its own lesson lost).
- Guards of the Gene found to be one are folded: when an incoming guard means the same as several
  (by the rules above), the survivor (a producer's wording over an extraction, then the served one,
  then the one ranked first) takes the others' evidence, backers and failure keys, and their rows
  go. Not folded: a rejected guard or one held for a human, two guards whose failure keys differ, and,
  unless a key joins them, a rule whose run named no cause (it says too little to prove two one).
- The registry never invents text, and a producer's wording beats an extracted one: when a
  producer's guard merges into a guard that was extracted from a run's steps, the guard takes the
  producer's text (and vector), unless that text waits for a human (app/evolution/review.py); an
  extracted guard that merges into a producer's keeps the latter.
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

from app.evolution.guard_match import GuardMatcher, no_cause
from app.evolution.review import hold_reason
from app.gep.document import MAX_GUARDS
from app.models import GuardState

GUARD_MERGE_THRESHOLD = 0.80
# The least probability of the pair model's logistic part at which a guard sharing a failure key with
# an incoming one is taken as the same: over every unrelated pair of the train split of
# bench/data/guard_pairs.jsonl (their highest: 0.21), so advice about another topic that travels with
# the same failure stays apart; 95 % of train paraphrases reach it.
FAILURE_KEY_FLOOR = 0.25

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
    # The failure keys of the failed steps it came from (extraction.py, rule 7).
    failure_keys: set[str] = field(default_factory=set)


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
    # (survivor, absorbed): two guards of the Gene found to be one; the absorbed one's evidence,
    # backers and failure keys go to the survivor and its row is deleted.
    folded: list[tuple[GuardEntry, GuardEntry]] = field(default_factory=list)

    @property
    def avoid(self) -> list[str]:
        return [guard.text for guard in self.kept]

    @property
    def touched(self) -> list[GuardEntry]:
        """Guards this trajectory is evidence for (each once): a guard it merged into that a later
        guard of the run folded into another counts as the one it became (its row is deleted)."""
        became = {id(absorbed): survivor for survivor, absorbed in self.folded}
        seen: dict[int, GuardEntry] = {}
        for guard in [*self.added, *(m.into for m in self.merged if m.counted)]:
            while id(guard) in became:
                guard = became[id(guard)]
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
    failure_keys: Mapping[str, set[str]] | None = None,
) -> MergePlan:
    """Merge one trajectory's guards into a Gene's; mutates the entries of `existing` it touches.

    With a `matcher`, the pair model decides (with `clause_vectors` for the texts involved);
    without, the cosine `threshold`. `extracted`: the incoming guards were extracted by the registry.
    `failure_keys`: per incoming text, the failure keys of the steps it came from (a shared key
    merges with the model's probability at FAILURE_KEY_FLOOR).
    """
    plan = MergePlan()
    pool: list[GuardEntry] = list(existing)
    was_kept = {id(guard) for guard in existing if guard.kept}
    counted: set[int] = set()
    for text, vector in incoming:
        keys = set((failure_keys or {}).get(text, ()))
        best, similarity, probability = _best_match(pool, text, vector, keys, matcher, clause_vectors or {})
        folded_into = _folded_into(plan, text)
        if folded_into is not None:
            # The same text as a guard this plan folded: the guard it became.
            best, similarity, probability = folded_into, 1.0, 1.0
        same = best is not None and (
            folded_into is not None
            or best.text == text
            or (probability >= matcher.threshold if matcher is not None else similarity >= threshold)
        )
        if not same and keys:
            keyed = _same_failure(pool, text, vector, keys, matcher, clause_vectors or {})
            if keyed is not None:
                (best, similarity, probability), same = keyed, True
        if same:
            assert best is not None
            others = _also_same(pool, best, text, vector, keys, matcher, clause_vectors or {}, threshold)
            group = [best]
            for other in others:
                # A rule whose run named no cause says too little to prove two guards one, unless
                # the failure key does; guards of two different failures stay two.
                weak = no_cause(text) or no_cause(other.text)
                if (other.failure_keys & keys or not weak) and all(_fold_compatible(other, g) for g in group):
                    group.append(other)
            others = group[1:]
            if others and _foldable(best):
                # The incoming guard means the same as several of the Gene's: they were one warning
                # all along (a paraphrase the model missed, or an extraction a producer's wording
                # replaced). They become one guard, the one a reader should keep.
                survivor = min([best, *others], key=_survivor_key)
                for absorbed in [best, *others]:
                    if absorbed is not survivor:
                        _fold(plan, pool, counted, survivor, absorbed)
                best = survivor
            if not best.failure_keys:
                # A guard's keys say which failure it is about; one it has is not widened by a
                # merge of the model (a wrong merge would carry a second failure's key into it, and
                # every run of that failure would follow).
                best.failure_keys |= keys
            reworded = False
            if (
                best.extracted
                and not extracted
                and best.text != text
                and not _text_taken(pool, text)
                and hold_reason(text) is None
            ):
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
            failure_keys=keys,
        )
        if backing.activates(guard):
            guard.state = GuardState.active
        pool.append(guard)
        counted.add(id(guard))
        plan.added.append(guard)

    fresh = {id(g) for g in [*plan.revived, *plan.activated, *plan.added, *(f for f, _ in plan.folded)]}
    _apply_cap(plan, rank([g for g in pool if g.kept or id(g) in fresh]), was_kept, cap)
    plan.revived = [g for g in plan.revived if g.kept]
    return plan


def _folded_into(plan: MergePlan, text: str) -> GuardEntry | None:
    """The guard a guard with `text` that this plan folded became (following later folds)."""
    into = next((s for s, a in plan.folded if a.text == text), None)
    while into is not None and (later := next((s for s, a in plan.folded if a is into), None)) is not None:
        into = later
    return into


def _key_compatible(keys: set[str], guard: GuardEntry) -> bool:
    """Whether an incoming guard with failure `keys` may mean the same as `guard`: not when both are
    known to come from failures and they share none. Two failures are two lessons, however alike
    their words (an extracted rule of one failure taking a producer's paraphrase of another's would
    serve the other's advice twice and lose its own)."""
    return not (keys and guard.failure_keys) or bool(keys & guard.failure_keys)


def _fold_compatible(a: GuardEntry, b: GuardEntry) -> bool:
    """Two stored guards of two known failures are not folded either (`_key_compatible`)."""
    return _key_compatible(a.failure_keys, b)


def _foldable(guard: GuardEntry) -> bool:
    """A stored guard no human has ruled on (rejected, or held for review) may be folded."""
    return guard.id is not None and guard.state != GuardState.rejected and guard.hold is None


def _survivor_key(guard: GuardEntry) -> tuple[bool, bool, int, float, float, str]:
    """Which of guards found to be one keeps its row: a producer's wording over an extraction, then
    the served one, then the one ranked first (evidence, last seen)."""
    return (guard.extracted, not guard.kept, *rank_key(guard))


def _fold(
    plan: MergePlan, pool: list[GuardEntry], counted: set[int], survivor: GuardEntry, absorbed: GuardEntry
) -> None:
    survivor.evidence += absorbed.evidence
    if id(absorbed) in counted:
        if id(survivor) in counted:
            survivor.evidence -= 1  # this trajectory counted once for both
        counted.add(id(survivor))
    survivor.backers |= absorbed.backers
    survivor.failure_keys |= absorbed.failure_keys
    survivor.first_seen = min(survivor.first_seen, absorbed.first_seen)
    survivor.last_seen = max(survivor.last_seen, absorbed.last_seen)
    if absorbed.state == GuardState.active:
        # A warning already served stays served under the survivor's wording.
        survivor.state = GuardState.active
    absorbed.kept = False
    pool.remove(absorbed)
    for listed in (plan.revived, plan.activated):
        if absorbed in listed:
            listed.remove(absorbed)
    plan.folded.append((survivor, absorbed))


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
    keys: set[str],
    matcher: GuardMatcher | None,
    clause_vectors: ClauseVectors,
) -> tuple[GuardEntry | None, float, float]:
    """The guard of `pool` `text` most likely repeats, its cosine and the model's probability
    (1.0 for the same text; 0.0 without a model). Only the same text, or a guard not known to come
    from another failure than `keys` say (`_key_compatible`), can be it."""
    for guard in pool:
        if guard.text == text:
            return guard, 1.0, 1.0
    pool = [guard for guard in pool if _key_compatible(keys, guard)]
    if not pool:
        return None, -1.0, 0.0
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


def _also_same(
    pool: Sequence[GuardEntry],
    best: GuardEntry,
    text: str,
    vector: Vector,
    keys: set[str],
    matcher: GuardMatcher | None,
    clause_vectors: ClauseVectors,
    threshold: float,
) -> list[GuardEntry]:
    """The foldable guards of `pool` other than `best` that `text` means the same as, by the rules
    plan_merge merges by (the same text, the model or the cosine threshold, a shared failure key)."""
    found = []
    mine = clause_vectors.get(text)
    for guard in pool:
        if guard is best or not _foldable(guard):
            continue
        if guard.text == text:
            found.append(guard)
            continue
        if not _key_compatible(keys, guard):
            continue
        cosine = float(guard.vector @ vector)
        if matcher is None:
            if cosine >= threshold or (guard.failure_keys & keys and cosine >= FAILURE_KEY_FLOOR):
                found.append(guard)
            continue
        shared = bool(guard.failure_keys & keys)
        if cosine < matcher.candidate_floor and not shared:
            continue
        cosines = _clause_cosines(mine, clause_vectors.get(guard.text)) or (cosine,) * 3
        if matcher.probability(text, guard.text, cosine, cosines) >= matcher.threshold or (
            shared and matcher.logistic(text, guard.text, cosine, cosines) >= FAILURE_KEY_FLOOR
        ):
            found.append(guard)
    return found


def _same_failure(
    pool: Sequence[GuardEntry],
    text: str,
    vector: Vector,
    keys: set[str],
    matcher: GuardMatcher | None,
    clause_vectors: ClauseVectors,
) -> tuple[GuardEntry, float, float] | None:
    """The guard of `pool` sharing a failure key with `text` that the model finds most alike, if it
    reaches FAILURE_KEY_FLOOR (without a model: the most similar, if its cosine does), with its
    cosine and probability."""
    found: tuple[GuardEntry, float, float] | None = None
    best_score = 0.0
    mine = clause_vectors.get(text)
    for guard in pool:
        if not guard.failure_keys & keys:
            continue
        cosine = float(guard.vector @ vector)
        if matcher is None:
            score = cosine
        else:
            cosines = _clause_cosines(mine, clause_vectors.get(guard.text)) or (cosine,) * 3
            score = matcher.logistic(text, guard.text, cosine, cosines)
        if score >= FAILURE_KEY_FLOOR and (found is None or score > best_score):
            found, best_score = (guard, cosine, score if matcher is not None else 0.0), score
    return found


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
