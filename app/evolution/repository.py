"""Every SQL statement on guards, their evidence and evolution events, and the routing query."""

from __future__ import annotations

import uuid
import zlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import (
    ARRAY,
    BigInteger,
    ColumnElement,
    CompoundSelect,
    Row,
    case,
    delete,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    text,
    true,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import UUID, aggregate_order_by, distinct_on
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

from app.evolution.destination import RouteCandidate
from app.models import (
    PROVENANCE_COLUMNS,
    ApiKey,
    EvidenceRole,
    EvolutionEvent,
    Gene,
    GeneStatus,
    GeneTaskKey,
    GeneVersion,
    Guard,
    guard_backers,
    guard_evidence,
    version_trajectories,
)

# Founding is serialized (per task family) so that two similar runs arriving together cannot both
# found a Gene: the second one, once it holds the lock, sees the first one's Gene and merges into it.
_FOUNDING_LOCK_SPACE = 0x65766F6C


LineageRow = Row[GeneVersion, list[uuid.UUID] | None, list[uuid.UUID] | None, str, EvolutionEvent | None]

# A version's guards as JSON paths: guard entries of anti_patterns, and `avoid` (versions before 0018).
_GUARD_ENTRIES = (
    """'$.anti_patterns[*] ? (@.mode == "avoid" && @.reason_class.type() == "string").reason_class'"""
    "::jsonpath"
)
_LEGACY_GUARDS = """'$.avoid[*] ? (@.type() == "string")'::jsonpath"""


class EvolutionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def lock_founding(self, task_family: str | None) -> None:
        key = zlib.crc32((task_family or "").encode())
        await self.session.execute(
            select(
                func.pg_advisory_xact_lock(_FOUNDING_LOCK_SPACE, key - (1 << 31) if key >= 1 << 31 else key)
            )
        )

    async def route(
        self,
        vector: np.ndarray,
        task_family: str | None,
        task_vector: np.ndarray | None = None,
        limit: int = 10,
    ) -> list[RouteCandidate]:
        """Current versions nearest to `vector` (cosine), among live Genes of the task family, each
        with its task similarity: the best cosine of `task_vector` (the run's task description) to
        the Gene's task keys (gene_task_keys), None without a task vector or keys. One statement:
        the nearest versions over the HNSW index, then the keys of those Genes only."""
        # Iterative scans keep the HNSW index useful when the family and status filters drop rows.
        await self.session.execute(text("SET LOCAL hnsw.iterative_scan = relaxed_order"))
        distance = GeneVersion.embedding.cosine_distance(vector.tolist())
        nearest = (
            select(GeneVersion.gene_id, (1 - distance).label("similarity"))
            .join(Gene, Gene.id == GeneVersion.gene_id)
            .where(
                GeneVersion.valid_to.is_(None),
                GeneVersion.embedding.is_not(None),
                Gene.status.in_([GeneStatus.candidate.value, GeneStatus.promoted.value]),
            )
            .order_by(distance)
            .limit(limit)
        )
        if task_family is not None:
            nearest = nearest.where((Gene.task_family == task_family) | Gene.task_family.is_(None))
        near = nearest.subquery("near")
        task_similarity: Any = literal_column("NULL")
        if task_vector is not None:
            task_similarity = (
                select(func.max(1 - GeneTaskKey.embedding.cosine_distance(task_vector.tolist())))
                .where(GeneTaskKey.gene_id == near.c.gene_id)
                .scalar_subquery()
            )
        rows = (
            await self.session.execute(
                select(near.c.gene_id, near.c.similarity, task_similarity.label("task_similarity"))
            )
        ).all()
        # relaxed_order may return near-ties slightly out of order.
        candidates = [
            RouteCandidate(
                row.gene_id,
                float(row.similarity),
                None if row.task_similarity is None else float(row.task_similarity),
            )
            for row in rows
        ]
        return sorted(candidates, key=lambda c: -c.similarity)

    async def current_version(
        self, gene: Gene, *, similar_to: np.ndarray | None = None
    ) -> tuple[GeneVersion, datetime, float | None]:
        """The columns a merge needs (the document as text: JSONB would lose its number formatting),
        the database's wall clock (GeneRepository.clock) and, with `similar_to`, the cosine similarity
        of that vector to the version (None without an embedding), all read by one statement."""
        similarity: Any = (
            literal_column("NULL")
            if similar_to is None
            else 1 - GeneVersion.embedding.cosine_distance(similar_to.tolist())
        )
        row = (
            await self.session.execute(
                select(GeneVersion, func.clock_timestamp(), similarity)
                .options(
                    load_only(
                        GeneVersion.id,
                        GeneVersion.gene_id,
                        GeneVersion.version,
                        GeneVersion.asset_id,
                        GeneVersion.document_json,
                        GeneVersion.embedding,
                        GeneVersion.embedding_model,
                        # The strategy's provenance, which a version that only changes guards keeps.
                        *PROVENANCE_COLUMNS,
                        GeneVersion.published_by,
                        GeneVersion.generation_meta,  # how the document was made, kept likewise
                    )
                )
                .where(GeneVersion.gene_id == gene.id, GeneVersion.version == gene.current_version)
            )
        ).first()
        assert row is not None
        return row[0], row[1], None if row[2] is None else float(row[2])

    async def backers(self, guard_ids: Sequence[int]) -> dict[int, set[uuid.UUID]]:
        found: dict[int, set[uuid.UUID]] = {guard_id: set() for guard_id in guard_ids}
        if guard_ids:
            rows = await self.session.execute(
                select(guard_backers.c.guard_id, guard_backers.c.key_id).where(
                    guard_backers.c.guard_id.in_(list(guard_ids))
                )
            )
            for guard_id, key_id in rows:
                found[guard_id].add(key_id)
        return found

    async def record_review(
        self, guard_id: int, reviewer: uuid.UUID, moment: datetime, note: str | None
    ) -> None:
        await self.session.execute(
            update(Guard)
            .where(Guard.id == guard_id)
            .values(reviewed_by=reviewer, reviewed_at=moment, review_note=note)
        )

    async def add_backers(self, pairs: Sequence[tuple[int, uuid.UUID]]) -> None:
        if pairs:
            await self.session.execute(
                pg_insert(guard_backers)
                .values([{"guard_id": guard_id, "key_id": key_id} for guard_id, key_id in pairs])
                .on_conflict_do_nothing()
            )

    async def guards_by_id(self, gene_id: str, guard_ids: Sequence[int]) -> Sequence[Guard]:
        if not guard_ids:
            return []
        stmt = select(Guard).where(Guard.gene_id == gene_id, Guard.id.in_(list(guard_ids)))
        return (await self.session.scalars(stmt.execution_options(populate_existing=True))).all()

    async def kept_guards(self, gene_id: str) -> Sequence[Guard]:
        stmt = select(Guard).where(Guard.gene_id == gene_id, Guard.kept).order_by(Guard.id)
        return (await self.session.scalars(stmt.execution_options(populate_existing=True))).all()

    async def dropped_guards(self, gene_id: str, texts: Sequence[str]) -> Sequence[Guard]:
        if not texts:
            return []
        stmt = select(Guard).where(Guard.gene_id == gene_id, ~Guard.kept, Guard.text.in_(list(texts)))
        return (await self.session.scalars(stmt.execution_options(populate_existing=True))).all()

    async def kept_and_nearest(
        self,
        gene_id: str,
        vectors: Sequence[np.ndarray],
        threshold: float,
        per_vector: int = 1,
        *,
        failure_keys: Sequence[str] = (),
    ) -> list[tuple[Guard, set[uuid.UUID]]]:
        """The kept guards and, for each vector, the `per_vector` guards not kept (proposed, dropped or
        rejected) most similar to it that reach `threshold`, and the guards sharing one of
        `failure_keys`, by id, each with its backing keys, in one query.

        Guards not kept accumulate over a Gene's life, so they are searched in the database instead of
        being loaded into every merge. Several per vector, not only the nearest: the merge decides by
        the guard-pair model, not by cosine order, and the guard it would take for the same warning
        (a proposed paraphrase waiting for its quorum) is often not the nearest by cosine.
        """
        wanted: ColumnElement[bool] = Guard.kept.expression
        if vectors:
            nearest = self._nearest_dropped_ids(gene_id, vectors, threshold, per_vector)
            wanted = or_(Guard.kept, Guard.id.in_(nearest))
        if failure_keys:
            wanted = or_(wanted, Guard.failure_keys.overlap(list(failure_keys)))
        backers = (
            select(func.array_agg(guard_backers.c.key_id))
            .where(guard_backers.c.guard_id == Guard.id)
            .scalar_subquery()
        )
        stmt = select(Guard, backers).where(Guard.gene_id == gene_id, wanted).order_by(Guard.id)
        rows = await self.session.execute(stmt.execution_options(populate_existing=True))
        return [(guard, set(keys or ())) for guard, keys in rows]

    @staticmethod
    def _nearest_dropped_ids(
        gene_id: str, vectors: Sequence[np.ndarray], threshold: float, per_vector: int
    ) -> CompoundSelect[Any]:
        nearest = []
        for vector in vectors:
            distance = Guard.embedding.cosine_distance(vector.tolist())
            nearest.append(
                select(Guard.id)
                .where(Guard.gene_id == gene_id, ~Guard.kept, distance <= 1 - threshold)
                .order_by(distance)
                .limit(per_vector)
                .subquery()
            )
        return union_all(*(select(subquery.c.id) for subquery in nearest))

    async def insert_guards(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        if not rows:
            return []
        result = await self.session.execute(
            insert(Guard).returning(Guard.id, sort_by_parameter_order=True), rows
        )
        return list(result.scalars())

    async def update_guards(self, rows: Sequence[dict[str, Any]]) -> None:
        """Bulk update by primary key: each dict holds `id` and the columns to set."""
        if rows:
            await self.session.execute(update(Guard), list(rows))

    async def fold_guards(self, pairs: Sequence[tuple[int, int]]) -> dict[int, int]:
        """For each (survivor, absorbed): the absorbed guard's evidence rows and backers become the
        survivor's (first backing kept), then its row is deleted.

        Returns, by survivor, how many runs had backed both (through a chain of folds too): those
        runs were counted in both guards' evidence_count and must count once."""
        shared: dict[int, int] = {}
        for survivor, absorbed in pairs:
            runs = await self.session.scalar(
                select(func.count()).where(guard_evidence.c.guard_id == absorbed)
            )
            moved = await self.session.execute(
                pg_insert(guard_evidence)
                .from_select(
                    ["guard_id", "trajectory_id"],
                    select(literal(survivor), guard_evidence.c.trajectory_id).where(
                        guard_evidence.c.guard_id == absorbed
                    ),
                )
                .on_conflict_do_nothing()
                .returning(guard_evidence.c.trajectory_id)
            )
            both = int(runs or 0) - len(moved.all())
            shared[survivor] = shared.get(survivor, 0) + shared.pop(absorbed, 0) + both
            backers = pg_insert(guard_backers).from_select(
                ["guard_id", "key_id", "first_at"],
                select(literal(survivor), guard_backers.c.key_id, guard_backers.c.first_at).where(
                    guard_backers.c.guard_id == absorbed
                ),
            )
            await self.session.execute(
                backers.on_conflict_do_update(
                    index_elements=[guard_backers.c.guard_id, guard_backers.c.key_id],
                    set_={"first_at": func.least(guard_backers.c.first_at, backers.excluded.first_at)},
                )
            )
            await self.session.execute(delete(Guard).where(Guard.id == absorbed))
        return {guard_id: count for guard_id, count in shared.items() if count}

    async def add_evidence(self, guard_ids: Sequence[int], trajectory_id: uuid.UUID) -> None:
        if guard_ids:
            await self.session.execute(
                insert(guard_evidence),
                [{"guard_id": guard_id, "trajectory_id": trajectory_id} for guard_id in guard_ids],
            )

    async def add_evidence_and_backer(
        self, guard_ids: Sequence[int], trajectory_id: uuid.UUID, backer: uuid.UUID
    ) -> None:
        """The run is evidence for each guard and its key backs each (add_evidence and add_backers
        in one statement)."""
        if not guard_ids:
            return
        touched = select(func.unnest(literal(list(guard_ids), ARRAY(BigInteger))).label("guard_id")).cte(
            "touched"
        )
        evidence = (
            insert(guard_evidence)
            .from_select(
                ["guard_id", "trajectory_id"],
                select(touched.c.guard_id, literal(trajectory_id, UUID(as_uuid=True))),
            )
            .cte("evidence")
        )
        stmt = (
            pg_insert(guard_backers)
            .from_select(
                ["guard_id", "key_id"], select(touched.c.guard_id, literal(backer, UUID(as_uuid=True)))
            )
            .on_conflict_do_nothing()
            .add_cte(evidence)
        )
        await self.session.execute(stmt)

    async def events(self, gene_id: str, *, after: int | None, limit: int) -> Sequence[EvolutionEvent]:
        stmt = select(EvolutionEvent).where(EvolutionEvent.gene_id == gene_id)
        if after is not None:
            stmt = stmt.where(EvolutionEvent.id > after)
        return (await self.session.scalars(stmt.order_by(EvolutionEvent.id).limit(limit))).all()

    async def lineage(self, gene_id: str, *, after: int | None, limit: int) -> Sequence[LineageRow]:
        """Versions in order, each with the runs behind its strategy and its guards, the name of the
        key that published it, and the event that wrote it."""
        linked = version_trajectories.c.trajectory_id

        def runs(role: EvidenceRole) -> Any:
            return (
                select(func.array_agg(aggregate_order_by(linked, linked)))
                .where(
                    version_trajectories.c.version_id == GeneVersion.id,
                    version_trajectories.c.role == role.value,
                )
                .scalar_subquery()
            )

        publisher = select(ApiKey.name).where(ApiKey.id == GeneVersion.published_by).scalar_subquery()
        stmt = (
            select(
                GeneVersion,
                runs(EvidenceRole.strategy),
                runs(EvidenceRole.guards),
                publisher,
                EvolutionEvent,
            )
            .outerjoin(
                EvolutionEvent,
                (EvolutionEvent.gene_id == GeneVersion.gene_id)
                & (EvolutionEvent.new_version == GeneVersion.version)
                & (EvolutionEvent.old_version.is_distinct_from(GeneVersion.version)),
            )
            .where(GeneVersion.gene_id == gene_id)
        )
        if after is not None:
            stmt = stmt.where(GeneVersion.version > after)
        return (await self.session.execute(stmt.order_by(GeneVersion.version).limit(limit))).all()

    async def guard_listing(
        self, gene_id: str
    ) -> Sequence[Row[Guard, int, list[tuple[uuid.UUID, str]] | None, str | None]]:
        """Kept guards first (in `avoid` order), then proposed, dropped and rejected ones; each with
        its number of runs, its backing keys (id, name) and its reviewer's name."""
        trajectories = (
            select(func.count())
            .select_from(guard_evidence)
            .where(guard_evidence.c.guard_id == Guard.id)
            .scalar_subquery()
        )
        backers = (
            select(
                func.array_agg(
                    aggregate_order_by(
                        func.json_build_array(ApiKey.id, ApiKey.name), guard_backers.c.first_at
                    )
                )
            )
            .select_from(guard_backers)
            .join(ApiKey, ApiKey.id == guard_backers.c.key_id)
            .where(guard_backers.c.guard_id == Guard.id)
            .scalar_subquery()
        )
        reviewer = select(ApiKey.name).where(ApiKey.id == Guard.reviewed_by).scalar_subquery()
        state_order = case(
            (Guard.kept, 0), (Guard.state == "proposed", 1), (Guard.state == "active", 2), else_=3
        )
        stmt = (
            select(Guard, trajectories, backers, reviewer)
            .where(Guard.gene_id == gene_id)
            .order_by(state_order, Guard.evidence_count.desc(), Guard.last_seen_at.desc(), Guard.id)
        )
        return (await self.session.execute(stmt)).all()

    async def served_guards(self, gene: Gene) -> Row[Any, uuid.UUID, str | None, datetime]:
        """The current version's document, its publisher (id, name) and since when it is current."""
        publisher = select(ApiKey.name).where(ApiKey.id == GeneVersion.published_by).scalar_subquery()
        stmt = select(
            GeneVersion.document, GeneVersion.published_by, publisher, GeneVersion.valid_from
        ).where(GeneVersion.gene_id == gene.id, GeneVersion.version == gene.current_version)
        return (await self.session.execute(stmt)).one()

    async def guard_origins(self, gene_id: str) -> dict[str, tuple[int, str | None, datetime]]:
        """For each guard text a version of the Gene ever served: the first such version, the kind of
        the event that wrote it (None for none) and when it was written."""
        # A version's guards: its guard entries of anti_patterns, or (written before 0018) `avoid`.
        texts = func.jsonb_path_query_array(GeneVersion.document, literal_column(_GUARD_ENTRIES)).op("||")(
            func.jsonb_path_query_array(GeneVersion.document, literal_column(_LEGACY_GUARDS))
        )
        guard = func.jsonb_array_elements_text(texts).table_valued("value")
        lateral = guard.lateral("guard")
        kind = (
            select(EvolutionEvent.kind)
            .where(
                EvolutionEvent.gene_id == GeneVersion.gene_id,
                EvolutionEvent.new_version == GeneVersion.version,
                EvolutionEvent.old_version.is_distinct_from(GeneVersion.version),
            )
            .order_by(EvolutionEvent.id)
            .limit(1)
            .scalar_subquery()
        )
        stmt = (
            select(lateral.c.value, GeneVersion.version, kind, GeneVersion.created_at)
            .select_from(GeneVersion)
            .join(lateral, true())
            .where(GeneVersion.gene_id == gene_id)
            .ext(distinct_on(lateral.c.value))
            .order_by(lateral.c.value, GeneVersion.version)
        )
        rows = (await self.session.execute(stmt)).all()
        return {value: (version, kind, created) for value, version, kind, created in rows}
