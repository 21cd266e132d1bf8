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
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.auth.repository import KeyRepository
from app.config import Settings
from app.embeddings import EmbeddingService
from app.embeddings.service import KnownEmbeddings
from app.errors import Conflict, Forbidden, NotFound
from app.evolution.destination import (
    ROUTE_THRESHOLD,
    SAME_TASK,
    TARGET_FLOOR,
    RouteCandidate,
    choose,
    confirms,
    routing_text,
)
from app.evolution.distill import NothingToDistil, founding_document, gene_id_for
from app.evolution.events import guard_changes, worker_actor
from app.evolution.extraction import (
    compact_producer_guard,
    extract_keyed_guards,
    failure_key,
    signals_of,
)
from app.evolution.guard_match import GuardMatcher, clauses, default_matcher
from app.evolution.ledger import GuardLedger, embed_all
from app.evolution.merge import (
    GUARD_MERGE_THRESHOLD,
    Backing,
    ClauseVectors,
    GuardEntry,
    MergePlan,
    Vector,
    plan_merge,
    plan_review,
)
from app.evolution.pair_model import GuardPairModel, guard_pair_spec
from app.evolution.repository import EvolutionRepository
from app.genes.indexing import embedding_text
from app.genes.repository import GeneRepository
from app.genes.versions import VersionReason, VersionSource, VersionWriter, guard_change_reason
from app.gep.canonical import compute_asset_id
from app.gep.document import GeneDocument, guards_of, to_gep, with_guards
from app.models import (
    SYSTEM_KEY_ID,
    EventKind,
    EvidenceRole,
    Gene,
    GeneStatus,
    GeneVersion,
    GuardState,
    Trajectory,
    TrajectoryState,
)
from app.trajectories.repository import TrajectoryRepository

DEFAULT_MAX_ATTEMPTS = 5
# The reason of a passed run held back until another independent run confirms it (found_min_runs);
# the next such run finds it by this prefix.
WAITING_TO_FOUND = "founding waits for a second independent run"
# How far back, and how many, held runs a founding run looks at.
_WAITING_DAYS = 30
_WAITING_LIMIT = 50
# Clause vectors by (model, text): a Gene's guards come back in every merge into it.
_CLAUSE_CACHE: OrderedDict[tuple[str, str], tuple[Vector, Vector]] = OrderedDict()
_CLAUSE_CACHE_SIZE = 20_000
# A guard another key sends for a Gene must resemble a failure of its own run (cosine to a failed step's
# action, error and correction): one that does not is off topic and is not taken. Chosen on the replay
# world of bench/evolution_quality.py: its producers' guards reach 0.39 at least, and the off-topic
# "Do not write docstrings…" stays under 0.1 against every failure there.
GROUNDING_FLOOR = 0.3


async def clause_vectors(embeddings: EmbeddingService, texts: Sequence[str]) -> ClauseVectors:
    """The vectors of each guard's mistake and remedy clauses (guard_match.clauses), cached."""
    found: dict[str, tuple[Vector, Vector]] = {}
    missing: dict[str, tuple[str, str]] = {}
    for text in dict.fromkeys(texts):
        cached = _CLAUSE_CACHE.get((embeddings.name, text))
        if cached is not None:
            _CLAUSE_CACHE.move_to_end((embeddings.name, text))
            found[text] = cached
        else:
            missing[text] = clauses(text)
    parts = list(dict.fromkeys(part for pair in missing.values() for part in pair))
    vectors = dict(zip(parts, await embed_all(embeddings, parts), strict=True))
    for text, (mistake, remedy) in missing.items():
        found[text] = (vectors[mistake], vectors[remedy])
        _CLAUSE_CACHE[(embeddings.name, text)] = found[text]
    while len(_CLAUSE_CACHE) > _CLAUSE_CACHE_SIZE:
        _CLAUSE_CACHE.popitem(last=False)
    return found


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


@dataclass(frozen=True)
class Reviewed:
    gene_id: str
    guard_id: int
    state: str
    kept: bool
    version: int
    asset_id: str
    new_version: bool


@dataclass
class _GuardState:
    current: GeneVersion
    document: dict[str, Any]
    avoid: list[str]
    now: datetime
    ledger: GuardLedger
    entries: list[GuardEntry]
    resynced: list[dict[str, Any]]


class GuardNotFound(NotFound):
    code = "guard-not-found"
    title = "Guard not found"


@dataclass
class _Job:
    """What a trajectory brings, computed before any lock is taken."""

    trajectory: Trajectory
    guards: list[str]
    vectors: list[Vector]
    # The guards were extracted by the registry (the producer sent none).
    extracted: bool
    # Per producer guard: its best cosine to one of the run's failed steps (None: no failed step).
    # The run's task and the errors it met, embedded like a Gene: for routing and the resemblance check.
    route_vector: Vector
    # The run's task description alone (None without one): compared with the Genes' task keys.
    task_vector: Vector | None = None
    grounding: list[float | None] = field(default_factory=list)
    # Per guard: the failure keys of the failed steps it came from (extraction.py, rule 7).
    failure_keys: list[set[str]] = field(default_factory=list)
    # Vectors computed ahead for the writes (the run's task as a search key), by text.
    known: dict[str, Vector] = field(default_factory=dict)
    route: RouteCandidate | None = None
    best_similarity: float | None = None
    best_gene_id: str | None = None
    best_task_similarity: float | None = None
    # The named Gene's current version and the clock, read (under its lock) with the resemblance.
    current: tuple[GeneVersion, datetime] | None = None
    # The evolution event of the merge, written by the statement that finishes the trajectory.
    event: dict[str, Any] | None = None


def _grounded_keys(
    steps: Sequence[dict[str, Any]], guard_vectors: Sequence[Vector], failure_vectors: Sequence[Vector]
) -> list[set[str]]:
    """Per producer guard, the failure keys (extraction.py, rule 7) of the failed steps it is about:
    each failed step's key goes to the guard of the run closest to that step, if it is grounded on it
    (GROUNDING_FLOOR). Two guards of one run never share a key: they say different things."""
    keys: list[set[str]] = [set() for _ in guard_vectors]
    failed = [step for step in steps if not step.get("ok")]
    for step, vector in zip(failed, failure_vectors, strict=True):
        key = failure_key(step)
        if key is None or not guard_vectors:
            continue
        cosines = [float(g @ vector) for g in guard_vectors]
        best = max(range(len(cosines)), key=cosines.__getitem__)
        if cosines[best] >= GROUNDING_FLOOR:
            keys[best].add(key)
    return keys


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
        target_floor: float = TARGET_FLOOR,
        same_task: float = SAME_TASK,
        guard_quorum: int = 2,
        matcher: GuardMatcher | Literal["default"] | None = "default",
        found_min_runs: int = 1,
    ) -> None:
        self.actor = actor or worker_actor()
        self.guard_threshold = guard_threshold
        # The guard-pair model decides merges; None keeps the cosine-only rule (guard_threshold).
        self.matcher = default_matcher() if matcher == "default" else matcher
        # Independent passed runs needed before a new Gene is founded (GENEBANK_FOUND_MIN_RUNS).
        self.found_min_runs = found_min_runs
        self.route_threshold = route_threshold
        self.target_floor = target_floor
        self.same_task = same_task
        self.guard_quorum = guard_quorum

    @classmethod
    def from_settings(cls, settings: Settings, *, actor: str | None = None) -> EvolutionService:
        matcher = default_matcher()
        if settings.guard_model_dir is not None:
            # The cross-encoder decides instead (its session opens on the first merge, or in warm()).
            spec = guard_pair_spec(settings.guard_model_dir)
            matcher = matcher.with_pair_model(GuardPairModel(spec, settings.embedding_models_dir))
        return cls(
            actor=actor,
            matcher=matcher,
            target_floor=settings.target_min_similarity,
            guard_quorum=settings.guard_quorum,
            found_min_runs=settings.found_min_runs,
        )

    def warm(self) -> None:
        """Open the guard-pair model's session now (exporting it first if needed), not on the first
        merge; blocking: call it off the event loop."""
        if self.matcher is not None and self.matcher.pair_model is not None:
            self.matcher.pair_model.load()

    async def process(
        self, session: AsyncSession, trajectory: Trajectory, embeddings: EmbeddingService
    ) -> JobResult:
        job: _Job | None = None
        event: dict[str, Any] | None = None
        try:
            job = await self._prepare(trajectory, embeddings)
            result = await self._process(session, job, KnownEmbeddings(embeddings, job.known))
            event = job.event
        except Rejected as rejected:
            result = JobResult(trajectory.id, TrajectoryState.rejected, rejected.reason, rejected.gene_id)
        await TrajectoryRepository(session).finish(
            trajectory.id,
            state=result.state,
            reason=result.reason,
            gene_id=result.gene_id,
            asset_id=result.asset_id,
            route_gene_id=job.best_gene_id if job else None,
            route_similarity=job.best_similarity if job else None,
            event=event,
        )
        return result

    def _texts(self, trajectory: Trajectory) -> tuple[list[str], bool, str, list[str], str, list[set[str]]]:
        """What a trajectory has embedded: its guards (and whether the registry extracted them), its
        routing text, its failed steps (to ground a producer's guards) and its task."""
        extracted = not trajectory.guards
        keys: list[set[str]] = []
        if trajectory.guards:
            guards = list(dict.fromkeys(compact_producer_guard(str(g)) for g in trajectory.guards))
        else:
            keyed = extract_keyed_guards(trajectory.steps, trajectory.verifier)
            guards, keys = list(keyed), list(keyed.values())
        if not trajectory.verifier_passed and not guards:
            raise Rejected("a failed run contributes only failure guards, and none could be taken from it")
        route_text = routing_text(trajectory.task_description, self._signals(trajectory))
        failures = [
            "\n".join(str(step.get(k) or "") for k in ("action", "error", "correction"))
            for step in trajectory.steps
            if not step.get("ok")
        ]
        # The run's task becomes a search key of the Gene it is merged into (app/genes/task_keys.py):
        # embedded here with the rest, in one batch, not later under the Gene's lock.
        task = (trajectory.task_description or "").strip()
        return guards, extracted, route_text, failures if not extracted else [], task, keys

    def texts_to_embed(self, trajectory: Trajectory) -> list[str]:
        """The texts a job for this trajectory embeds before it takes any lock: the worker embeds those
        of a claimed batch in one request (KnownEmbeddings), so the jobs find them in hand."""
        try:
            guards, _, route_text, failures, task, _ = self._texts(trajectory)
        except Rejected:
            return []
        return [*guards, route_text, *failures, *([task] if task else [])]

    async def _prepare(self, trajectory: Trajectory, embeddings: EmbeddingService) -> _Job:
        """The guards a trajectory brings and their vectors, and its routing vector: before any lock."""
        guards, extracted, route_text, failures, task, keys = self._texts(trajectory)
        vectors = await embed_all(embeddings, [*guards, route_text, *failures, *([task] if task else [])])
        guard_vectors = vectors[: len(guards)]
        failure_vectors = vectors[len(guards) + 1 : len(guards) + 1 + len(failures)]
        grounding: list[float | None] = [
            max((float(v @ f) for f in failure_vectors), default=None) for v in guard_vectors
        ]
        if not extracted:
            keys = _grounded_keys(trajectory.steps, guard_vectors, failure_vectors)
        known = {task: vectors[-1]} if task else {}
        return _Job(
            trajectory,
            guards,
            guard_vectors,
            extracted,
            vectors[len(guards)],
            vectors[-1] if task else None,
            grounding,
            failure_keys=keys,
            known=known,
        )

    async def _process(self, session: AsyncSession, job: _Job, embeddings: EmbeddingService) -> JobResult:
        trajectory = job.trajectory
        genes = GeneRepository(session)
        evolution = EvolutionRepository(session)
        draft: dict[str, Any] = trajectory.gene_draft or {}
        passed = trajectory.verifier_passed

        gene_id: str | None = None
        how = ""
        found_as: str | None = None
        target = trajectory.target_gene_id
        draft_id = draft.get("id")
        # A Gene the run names is locked at the first look (one statement, not a look and a lock).
        locked: Gene | None = None
        if target is not None:
            if (locked := await genes.lock_gene(target)) is not None:
                gene_id, how = target, "target"
            elif passed and draft_id == target:
                found_as = target
            else:
                raise Rejected(f"target Gene {target} does not exist")
        elif draft_id is not None and (locked := await genes.lock_gene(draft_id)) is not None:
            gene_id, how = draft_id, "named by its draft"
        if locked is not None:
            await self._check_resemblance(evolution, job, locked)
        else:
            if found_as is None:
                gene_id = await self._route(evolution, job)
                how = "semantic match"
                if gene_id is None and not passed:
                    raise Rejected(self._unrouted(job))
                if gene_id is None:
                    # Serialize founders, then look again: a similar run may have founded a Gene meanwhile.
                    await evolution.lock_founding(trajectory.task_family)
                    gene_id = await self._route(evolution, job)
        if gene_id is None:
            partners: list[Trajectory] = []
            if self.found_min_runs > 1:
                await evolution.lock_founding(trajectory.task_family)
                partners = await self._waiting_partners(session, job, embeddings)
                owners = await self._owners(session, [trajectory, *partners])
                if len(owners) < self.found_min_runs:
                    raise Rejected(
                        f"{WAITING_TO_FOUND}: no Gene matches it yet and this registry founds a Gene "
                        f"once passed runs of {self.found_min_runs} independent keys (distinct "
                        "owners) agree (GENEBANK_FOUND_MIN_RUNS); the next similar run of another owner "
                        "will found it, with this one as evidence"
                    )
            return await self._new_gene(session, job, embeddings, found_as or draft_id, partners)
        return await self._merge(session, job, embeddings, gene_id, how, locked)

    @staticmethod
    async def _owners(session: AsyncSession, runs: Sequence[Trajectory]) -> set[str]:
        """The distinct owners of the keys that sent `runs` (a key without a recorded owner is its
        own): runs are independent only across owners, so two keys of one owner, colluding or not,
        count once, and neither does one key sending another task."""
        ids = {t.submitted_by for t in runs}
        owner_of = await KeyRepository(session).owners(ids)
        return {owner_of.get(i) or f"key:{i}" for i in ids}

    async def _waiting_partners(
        self, session: AsyncSession, job: _Job, embeddings: EmbeddingService
    ) -> list[Trajectory]:
        """Held passed runs of the same task family that are runs of this one's task (destination.
        confirms: task descriptions alike, routing cosine at least the target floor). Runs are
        independent when their keys' owners differ (`_owners`)."""
        trajectory = job.trajectory
        held = await TrajectoryRepository(session).waiting_to_found(
            trajectory.task_family,
            WAITING_TO_FOUND,
            exclude=trajectory.id,
            days=_WAITING_DAYS,
            limit=_WAITING_LIMIT,
        )
        if not held:
            return []
        tasks = [(t.task_description or "").strip() for t in held]
        vectors = await embed_all(
            embeddings,
            [
                *(routing_text(t.task_description, self._signals(t)) for t in held),
                *(task for task in tasks if task),
            ],
        )
        task_vectors = iter(vectors[len(held) :])
        partners = []
        for vector, task, t in zip(vectors[: len(held)], tasks, held, strict=True):
            task_vector = next(task_vectors) if task else None
            task_similarity = (
                float(task_vector @ job.task_vector)
                if task_vector is not None and job.task_vector is not None
                else None
            )
            if confirms(
                float(vector @ job.route_vector),
                task_similarity,
                route_threshold=self.route_threshold,
                same_task=self.same_task,
                target_floor=self.target_floor,
            ):
                partners.append(t)
        return partners

    async def _check_resemblance(self, evolution: EvolutionRepository, job: _Job, gene: Gene) -> None:
        """A run that names its Gene must be about what the Gene is about (task and errors). The
        Gene is locked: its current version, read here, is the one the merge starts from."""
        gene_id = gene.id
        current, now, similarity = await evolution.current_version(gene, similar_to=job.route_vector)
        job.current = (current, now)
        if similarity is None:
            return
        job.best_similarity, job.best_gene_id = similarity, gene_id
        if similarity < self.target_floor:
            raise Rejected(
                f"this run does not resemble Gene {gene_id} (similarity {similarity:.2f} of its task and "
                f"errors to the Gene, floor {self.target_floor:.2f}): it is about something else. Send it "
                "without gene_id to let the registry route it, or name the Gene it belongs to",
                gene_id,
            )

    def _unrouted(self, job: _Job) -> str:
        closest = ""
        if job.best_gene_id is not None:
            closest = f"the closest is {job.best_gene_id} (similarity {job.best_similarity or 0:.2f}, "
            closest += f"threshold {self.route_threshold:.2f}); "
        return (
            f"no Gene matches this failed run: {closest}a failed run only adds guards to an existing Gene. "
            "If it belongs to a Gene, send it again with that Gene's id as gene_id"
        )

    @staticmethod
    def _signals(trajectory: Trajectory) -> list[str]:
        draft_signals = [
            s for s in (trajectory.gene_draft or {}).get("signals_match") or [] if not str(s).startswith("/")
        ]
        return list(dict.fromkeys([*draft_signals, *signals_of(trajectory.steps, trajectory.verifier)]))

    async def _route(self, evolution: EvolutionRepository, job: _Job) -> str | None:
        candidates = await evolution.route(job.route_vector, job.trajectory.task_family, job.task_vector)
        if not candidates:
            return None
        chosen = choose(
            candidates,
            route_threshold=self.route_threshold,
            same_task=self.same_task,
            target_floor=self.target_floor,
        )
        # What the trajectory reports as where the worker looked: the Gene it went to, else the closest.
        looked = chosen or candidates[0]
        job.best_similarity, job.best_gene_id = looked.similarity, looked.gene_id
        job.best_task_similarity = looked.task_similarity
        if chosen is None:
            return None
        job.route = chosen
        return chosen.gene_id

    async def _guard_state(
        self,
        session: AsyncSession,
        gene: Gene,
        embeddings: EmbeddingService,
        *,
        near: Sequence[Vector] = (),
        include: Sequence[int] = (),
        failure_keys: Sequence[str] = (),
        read: tuple[GeneVersion, datetime] | None = None,
    ) -> _GuardState:
        """The current version, its document and guards, and the guard rows a change may touch
        (in step with that document), under the Gene's lock. `read`: the current version and the
        clock, already read under this lock."""
        if read is not None and read[0].gene_id == gene.id and read[0].version == gene.current_version:
            current, now = read
        else:
            current, now, _ = await EvolutionRepository(session).current_version(gene)
        document: dict[str, Any] = json.loads(current.document_json)
        document.pop("asset_id", None)
        avoid = guards_of(document)
        ledger = GuardLedger(EvolutionRepository(session), embeddings)
        entries, resynced = await ledger.entries(
            gene.id,
            avoid,
            near=near,
            threshold=self._near_threshold,
            publisher=current.published_by,
            now=now,
            include=include,
            failure_keys=failure_keys,
        )
        return _GuardState(current, document, avoid, now, ledger, entries, resynced)

    async def _merge_rule(
        self, embeddings: EmbeddingService, job: _Job, entries: Sequence[GuardEntry]
    ) -> dict[str, Any]:
        """plan_merge's decision arguments: the pair model with the clause vectors of the incoming
        guards and of the Gene's guards close enough to be candidates, or the cosine threshold."""
        keys = dict(zip(job.guards, job.failure_keys, strict=True))
        if self.matcher is None:
            return {"threshold": self.guard_threshold, "extracted": job.extracted, "failure_keys": keys}
        # Only pairs at or above the candidate floor, or sharing a failure key, are scored: only their
        # clauses are embedded.
        floor = self.matcher.candidate_floor
        pool = [(entry.text, entry.vector, entry.failure_keys) for entry in entries] + list(
            zip(job.guards, job.vectors, job.failure_keys, strict=True)
        )
        pairs: list[tuple[str, str]] = []
        for index, (text, vector, mine) in enumerate(
            zip(job.guards, job.vectors, job.failure_keys, strict=True)
        ):
            for other, other_vector, theirs in pool[: len(entries) + index]:
                if other != text and (float(other_vector @ vector) >= floor or mine & theirs):
                    pairs.append((text, other))
        needed = {text for pair in pairs for text in pair}
        if self.matcher.pair_model is not None and pairs:
            # The cross-encoder is CPU work: the candidate pairs are scored off the event loop, and
            # plan_merge reads them from its cache.
            await asyncio.to_thread(self.matcher.pair_model.prepare, self.matcher.scored_pairs(pairs))
        return {
            "matcher": self.matcher,
            "clause_vectors": await clause_vectors(embeddings, sorted(needed)),
            "extracted": job.extracted,
            "failure_keys": keys,
        }

    @property
    def _near_threshold(self) -> float:
        """How close a dropped guard must be to an incoming one to be loaded as a candidate."""
        return self.matcher.candidate_floor if self.matcher is not None else self.guard_threshold

    @staticmethod
    def _drop_ungrounded(job: _Job, *, owner: uuid.UUID) -> int:
        """Drop the producer guards of a key other than the Gene's owner that resemble no failed step
        of their own run (off topic); how many were dropped."""
        if job.extracted or job.trajectory.submitted_by == owner:
            return 0
        keep = [i for i, g in enumerate(job.grounding) if g is not None and g >= GROUNDING_FLOOR]
        dropped = len(job.guards) - len(keep)
        job.guards = [job.guards[i] for i in keep]
        job.vectors = [job.vectors[i] for i in keep]
        job.grounding = [job.grounding[i] for i in keep]
        job.failure_keys = [job.failure_keys[i] for i in keep]
        return dropped

    def _backing(self, job: _Job, owner: uuid.UUID) -> Backing:
        return Backing(key=job.trajectory.submitted_by, owner=owner, quorum=self.guard_quorum)

    async def _new_gene(
        self,
        session: AsyncSession,
        job: _Job,
        embeddings: EmbeddingService,
        named_id: str | None,
        partners: Sequence[Trajectory] = (),
    ) -> JobResult:
        trajectory = job.trajectory
        genes = GeneRepository(session)
        evolution = EvolutionRepository(session)
        gene_id = named_id or gene_id_for(
            trajectory.task_family, trajectory.task_description, trajectory.content_hash
        )
        now = await genes.clock()
        # The founder owns the new Gene: its guards are served as the owner's. Founded on runs of
        # several owners (GENEBANK_FOUND_MIN_RUNS > 1), the Gene is theirs in common and no key's:
        # the registry's own key owns it, as it owns the Genes mirrored from another registry, so
        # every run's guards, the founding run's and any later run's of whichever key, are proposed
        # and served once the guard quorum backs them, and grounded on their run's failures like any
        # other key's. The run that happened to confirm (an adversary's, say) gains no owner's word
        # for its later runs; an admin may hand the Gene to a key (POST /v1/genes/{id}/owner).
        owner = SYSTEM_KEY_ID if partners else trajectory.submitted_by
        backing = self._backing(job, owner)
        plan = plan_merge(
            [],
            list(zip(job.guards, job.vectors, strict=True)),
            now,
            backing,
            **await self._merge_rule(embeddings, job, []),
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
        except NothingToDistil as exc:
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
                # The key that sent the founding run owns the Gene, as if it had published it; a
                # Gene founded on several owners' runs is the registry's (above).
                "owner_key_id": owner,
            }
        )
        if not created:
            # Founded by a concurrent job between our look-up and our insert: merge into it instead.
            return await self._merge(session, job, embeddings, gene_id, "named by its draft")
        gene = await genes.lock_gene(gene_id)
        assert gene is not None
        writer = VersionWriter(session, embeddings)
        meta = document.generation_meta or {}
        version = await writer.write(
            gene,
            raw,
            asset_id,
            VersionSource.from_trajectory(trajectory),
            reason=VersionReason.founded,
            parent=None,
            generation_meta=meta,
        )
        partner_ids = [t.id for t in partners]
        await writer.link(version, [trajectory.id, *partner_ids], EvidenceRole.strategy)
        for partner in partner_ids:
            # The held run that this one confirmed is evidence for the Gene it founds.
            await TrajectoryRepository(session).finish(
                partner,
                state=TrajectoryState.merged,
                reason=f"confirmed by run {trajectory.id}: founded candidate Gene {gene_id} with it",
                gene_id=gene_id,
                asset_id=asset_id,
            )
        ledger = GuardLedger(evolution, embeddings)
        await ledger.write(gene_id, plan, [], now, trajectory_id=trajectory.id, backer=backing.key)
        job.event = {
            "gene_id": gene_id,
            "kind": EventKind.founded.value,
            "trajectory_ids": [trajectory.id, *partner_ids],
            **guard_changes(plan),
            "old_asset_id": None,
            "new_asset_id": asset_id,
            "old_version": None,
            "new_version": version.version,
            "actor": self.actor,
            "details": {"source": meta.get("source"), **self._route_details(job)},
        }
        reason = f"founded candidate Gene {gene_id}" + self._guard_summary(plan)
        return JobResult(trajectory.id, TrajectoryState.merged, reason, gene_id, asset_id, version.version)

    async def _merge(
        self,
        session: AsyncSession,
        job: _Job,
        embeddings: EmbeddingService,
        gene_id: str,
        how: str,
        locked: Gene | None = None,
    ) -> JobResult:
        """Merge the run into the Gene (`locked`: already row-locked by this transaction)."""
        trajectory = job.trajectory
        genes = GeneRepository(session)
        writer = VersionWriter(session, embeddings)
        gene = locked if locked is not None and locked.id == gene_id else await genes.lock_gene(gene_id)
        if gene is None:
            raise Rejected(f"Gene {gene_id} no longer exists")
        if gene.status == GeneStatus.revoked:
            raise Rejected(f"Gene {gene_id} is revoked and takes no new evidence", gene_id)
        state = await self._guard_state(
            session,
            gene,
            embeddings,
            near=job.vectors,
            failure_keys=sorted(set().union(*job.failure_keys)),
            read=job.current,
        )
        current, document, old_avoid, now = state.current, state.document, state.avoid, state.now
        ledger, entries, resynced = state.ledger, state.entries, state.resynced
        backing = self._backing(job, gene.owner_key_id)
        ungrounded = self._drop_ungrounded(job, owner=gene.owner_key_id)
        plan = plan_merge(
            entries,
            list(zip(job.guards, job.vectors, strict=True)),
            now,
            backing,
            **await self._merge_rule(embeddings, job, entries),
        )
        version: GeneVersion | None = None
        if plan.avoid != old_avoid:
            reworded = any(m.reworded and m.into.kept for m in plan.merged) or any(
                absorbed.text in old_avoid for _, absorbed in plan.folded
            )
            version = await self._next_version(
                writer, gene, current, document, plan.avoid, backing.key, reworded=reworded
            )
            await writer.link(version, [trajectory.id], EvidenceRole.guards, [trajectory.task_description])
        await ledger.write(gene_id, plan, entries, now, trajectory_id=trajectory.id, backer=backing.key)
        asset_id = version.asset_id if version else current.asset_id
        new_version = version.version if version else current.version
        job.event = {
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
                "owner_backed": backing.key == gene.owner_key_id,
                "guards_activated": [{"guard_id": g.id, "text": g.text} for g in plan.activated],
                **self._route_details(job),
            },
        }
        outcome = f"new version {new_version}" if version else "document unchanged"
        reason = f"merged into {gene_id} ({how}){self._guard_summary(plan)}; {outcome}"
        if ungrounded:
            reason += (
                f"; {ungrounded} guard(s) not taken: they resemble none of this run's failed steps "
                "(a guard for another key's Gene must come from a failure of the run that sends it)"
            )
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
        writer: VersionWriter,
        gene: Gene,
        current: GeneVersion,
        document: dict[str, Any],
        avoid: list[str],
        published_by: uuid.UUID,
        *,
        reworded: bool = False,
    ) -> GeneVersion:
        """The current document with the new guards; strategy and everything else as they were.

        The strategy's provenance (and how the document was made) stays the current version's:
        guards do not change where the strategy came from.
        """
        raw = with_guards(to_gep(document), avoid)
        # Guards are not embedded (app/genes/indexing.py), so the current vector still describes it.
        embedding = None
        if (
            current.embedding is not None
            and current.embedding_model
            and embedding_text(raw) == embedding_text(document)
        ):
            embedding = ([float(x) for x in current.embedding], current.embedding_model)
        validated = GeneDocument.model_validate(raw).hashed_fields()
        asset_id = compute_asset_id(validated)
        return await writer.write(
            gene,
            validated,
            asset_id,
            VersionSource.from_version(current, published_by),
            reason=guard_change_reason(guards_of(document), avoid, reworded=reworded),
            parent=current.asset_id,
            generation_meta=current.generation_meta,
            embedding=embedding,
        )

    async def review_guard(
        self,
        session: AsyncSession,
        gene_id: str,
        guard_id: int,
        decision: Literal["approve", "reject"],
        note: str | None,
        caller: Principal,
        embeddings: EmbeddingService,
    ) -> Reviewed:
        """The owner or an admin approves a guard (it may be served) or rejects it (it never is);
        a new version follows when the served guards change."""
        genes = GeneRepository(session)
        evolution = EvolutionRepository(session)
        writer = VersionWriter(session, embeddings)
        gene = await genes.live_gene(gene_id, lock=True)
        if not caller.at_least(Role.admin) and caller.key_id != gene.owner_key_id:
            raise Forbidden(f"only the owner of {gene_id} or an admin reviews its guards")
        assert caller.key_id is not None
        state = await self._guard_state(session, gene, embeddings, include=[guard_id])
        current, document, old_avoid, now = state.current, state.document, state.avoid, state.now
        ledger, entries, resynced = state.ledger, state.entries, state.resynced
        reviewed = next((entry for entry in entries if entry.id == guard_id), None)
        if reviewed is None:
            raise GuardNotFound(f"gene {gene_id} has no guard {guard_id}")
        target = GuardState.active if decision == "approve" else GuardState.rejected
        if reviewed.state == target:
            raise Conflict(f"guard {guard_id} is already {target.value}")
        was_kept = reviewed.kept
        plan = plan_review(entries, reviewed, target)
        version: GeneVersion | None = None
        if plan.avoid != old_avoid:
            version = await self._next_version(writer, gene, current, document, plan.avoid, caller.key_id)
        await ledger.write(gene_id, plan, entries, now, trajectory_id=None, backer=caller.key_id)
        await evolution.record_review(guard_id, caller.key_id, now, note)
        changes = guard_changes(plan, resynced)
        if decision == "approve" and reviewed.kept:
            changes["guards_added"].append({"guard_id": guard_id, "text": reviewed.text})
        if decision == "reject" and was_kept:
            changes["guards_dropped"].append(
                {
                    "guard_id": guard_id,
                    "text": reviewed.text,
                    "evidence": reviewed.evidence,
                    "reason": "rejected",
                }
            )
        await writer.record(
            {
                "gene_id": gene_id,
                "kind": EventKind.reviewed.value,
                "trajectory_ids": [],
                **changes,
                "old_asset_id": current.asset_id,
                "new_asset_id": version.asset_id if version else current.asset_id,
                "old_version": current.version,
                "new_version": version.version if version else current.version,
                "actor": caller.name,
                "details": {"guard_id": guard_id, "decision": decision, "note": note},
            }
        )
        return Reviewed(
            gene_id=gene_id,
            guard_id=guard_id,
            state=reviewed.state,
            kept=reviewed.kept,
            version=version.version if version else current.version,
            asset_id=version.asset_id if version else current.asset_id,
            new_version=version is not None,
        )

    @staticmethod
    def _route_details(job: _Job) -> dict[str, Any]:
        if job.best_similarity is None:
            return {}
        details = {"route_similarity": round(job.best_similarity, 4)}
        if job.best_task_similarity is not None:
            details["task_similarity"] = round(job.best_task_similarity, 4)
        return details

    @staticmethod
    def _guard_summary(plan: MergePlan) -> str:
        counted = sum(1 for m in plan.merged if m.counted)
        proposed = sum(1 for g in plan.added if g.state == GuardState.proposed)
        held = f" ({proposed} proposed, not served until backed)" if proposed else ""
        activated = f", {len(plan.activated)} now backed" if plan.activated else ""
        return (
            f": {len(plan.added)} guard(s) added{held}, {counted} merged{activated}, "
            f"{len(plan.dropped)} dropped"
        )


evolution_service = EvolutionService()
