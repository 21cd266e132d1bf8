"""Every SQL statement on genes, gene_versions and their trajectory links."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row
from sqlalchemy import (
    ColumnElement,
    Row,
    ScalarSelect,
    Select,
    Text,
    and_,
    bindparam,
    cast,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    true,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.postgresql.psycopg import dialect as psycopg_dialect
from sqlalchemy.ext.asyncio import AsyncSession

from app.genes.errors import GeneNotFound, GeneRevoked
from app.genes.indexing import TEXT_SEARCH_CONFIG
from app.models import (
    ApiKey,
    EvidenceRole,
    EvolutionEvent,
    Gene,
    GeneStatus,
    GeneTaskKey,
    GeneVersion,
    Trajectory,
    version_trajectories,
)

# A batch's new lineages, set by set (app/genes/bulk.py): what the single publish writes for a first
# version, one statement a table for a chunk of Genes, their values as arrays (unnest keeps the order).
NEW_LINEAGES = """
INSERT INTO genes (id, category, task_family, current_version, current_asset_id, producer_model,
    owner_key_id, updated_at)
SELECT g.id, g.category, g.task_family, 1, g.asset_id, g.producer_model, %(owner)s, now()
FROM unnest(%(ids)s::text[], %(categories)s::text[], %(families)s::text[], %(assets)s::text[],
    %(models)s::text[]) WITH ORDINALITY AS g (id, category, task_family, asset_id, producer_model, n)
ORDER BY g.n
ON CONFLICT (id) DO NOTHING
RETURNING id
"""
VERSION_COLUMNS = (
    "gene_id, asset_id, generation_meta, canonical_json, document_json, document, producer_model,"
    " provenance_kind, verifier, task_id, task_family, task_description, cost_tokens, cost_attempts,"
    " cost_seconds, summary, signal_text, strategy, preconditions, avoid"
)
VERSION_TYPES = (
    "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text",
    "bigint", "integer", "double precision", "text", "text", "text", "text", "text",
)  # fmt: skip
_UNNEST = ", ".join(f"%(c{i})s::{kind}[]" for i, kind in enumerate(VERSION_TYPES))
FIRST_VERSIONS = f"""
INSERT INTO gene_versions (gene_id, version, asset_id, parent_asset_id, generation_meta,
    canonical_json, document_json, document, producer_model, provenance_kind, verifier, task_id,
    task_family, task_description, cost_tokens, cost_attempts, cost_seconds, published_by, reason,
    embedding, embedding_model, search_tsv, signals_tsv, valid_from)
SELECT v.gene_id, 1, v.asset_id, NULL, v.generation_meta::jsonb, v.canonical_json, v.document_json,
    v.document::jsonb, v.producer_model, v.provenance_kind, v.verifier::jsonb, v.task_id,
    v.task_family, v.task_description, v.cost_tokens, v.cost_attempts, v.cost_seconds, %(key)s,
    'published', v.embedding::vector, %(model)s,
    setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, v.summary), 'A')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, v.signal_text), 'A')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, v.strategy), 'B')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, v.preconditions), 'C')
    || setweight(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, v.avoid), 'D'),
    to_tsvector('simple'::regconfig, v.signal_text), now()
FROM unnest({_UNNEST}, %(vectors)s::text[]) WITH ORDINALITY
    AS v ({VERSION_COLUMNS}, embedding, n)
ORDER BY v.n
"""  # noqa: S608 (constants)
FIRST_TASK_KEYS = """
INSERT INTO gene_task_keys (gene_id, source, text_sha256, description, embedding, embedding_model)
SELECT k.gene_id, 'version', k.sha, k.description, k.embedding::vector, %(model)s
FROM unnest(%(ids)s::text[], %(shas)s::text[], %(descriptions)s::text[], %(vectors)s::text[])
    WITH ORDINALITY AS k (gene_id, sha, description, embedding, n)
ORDER BY k.n
ON CONFLICT ON CONSTRAINT uq_gene_task_keys_gene_text DO NOTHING
"""
PUBLISHED_EVENTS = """
INSERT INTO evolution_events (gene_id, kind, trajectory_ids, guards_added, guards_merged,
    guards_dropped, old_asset_id, new_asset_id, old_version, new_version, actor)
SELECT e.gene_id, %(kind)s, '{}', e.guards::jsonb, '[]', '[]', NULL, e.asset_id, NULL, 1, %(actor)s
FROM unnest(%(ids)s::text[], %(assets)s::text[], %(guards)s::text[]) WITH ORDINALITY
    AS e (gene_id, asset_id, guards, n)
ORDER BY e.n
"""


class GeneRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def now(self) -> datetime:
        """The transaction's time (PostgreSQL's now()): one instant for everything a request writes."""
        moment = await self.session.scalar(select(func.now()))
        assert isinstance(moment, datetime)
        return moment

    async def clock(self) -> datetime:
        """The database's wall clock: under a Gene's lock it orders that Gene's merges, on any machine."""
        moment = await self.session.scalar(select(func.clock_timestamp()))
        assert isinstance(moment, datetime)
        return moment

    async def live_gene(self, gene_id: str, *, lock: bool = False) -> Gene:
        """The Gene (row-locked with `lock`), or GeneNotFound (404) / GeneRevoked (410)."""
        gene = await (self.lock_gene(gene_id) if lock else self.get_gene(gene_id))
        if gene is None:
            raise GeneNotFound(f"no gene with id {gene_id!r}")
        if gene.status == GeneStatus.revoked:
            raise GeneRevoked.of(gene_id, gene.status_message)
        return gene

    async def add_event(self, values: dict[str, Any]) -> int:
        event_id: int = (
            await self.session.execute(insert(EvolutionEvent).values(**values).returning(EvolutionEvent.id))
        ).scalar_one()
        return event_id

    async def version_by_asset(self, asset_id: str) -> GeneVersion | None:
        return await self.session.scalar(select(GeneVersion).where(GeneVersion.asset_id == asset_id))

    async def known_assets(self, asset_ids: Sequence[str]) -> set[str]:
        """Which of these asset_ids are versions already (a bulk publish embeds only the others)."""
        if not asset_ids:
            return set()
        found = await self.session.scalars(
            select(GeneVersion.asset_id).where(GeneVersion.asset_id.in_(list(asset_ids)))
        )
        return set(found)

    async def known_genes(self, gene_ids: Sequence[str]) -> set[str]:
        """Which of these Gene ids are lineages already (a bulk publish founds the others set-wise)."""
        if not gene_ids:
            return set()
        found = await self.session.scalars(select(Gene.id).where(Gene.id.in_(list(set(gene_ids)))))
        return set(found)

    async def found_lineages(
        self,
        genes: dict[str, Any],
        versions: dict[str, Any],
        task_keys: dict[str, Any] | None,
        events: dict[str, Any],
    ) -> bool:
        """Write first versions of new lineages set-wise (app/genes/bulk.py); False, with nothing
        more written, when one of the Gene ids exists (the caller rolls its SAVEPOINT back)."""
        connection = await self.session.connection()
        raw = (await connection.get_raw_connection()).driver_connection
        assert isinstance(raw, psycopg.AsyncConnection)
        # Binary: arrays of text go as they are, not quoted and escaped element by element.
        async with raw.cursor(binary=True) as cursor:
            await cursor.execute(NEW_LINEAGES, genes)
            if len(await cursor.fetchall()) != len(genes["ids"]):
                return False
            await cursor.execute(FIRST_VERSIONS, versions)
            if task_keys is not None:
                await cursor.execute(FIRST_TASK_KEYS, task_keys)
            await cursor.execute(PUBLISHED_EVENTS, events)
        return True

    async def get_gene(self, gene_id: str) -> Gene | None:
        return await self.session.get(Gene, gene_id)

    async def lock_gene(self, gene_id: str) -> Gene | None:
        """Row-lock the Gene: every new version of one Gene is written by one transaction at a time."""
        return await self.session.scalar(
            select(Gene).where(Gene.id == gene_id).with_for_update().execution_options(populate_existing=True)
        )

    async def create_gene(self, values: dict[str, Any]) -> Gene | None:
        """Create the lineage row and return it (this transaction holds its lock from then on); None
        when it exists already. One round trip where insert_gene_if_absent and lock_gene take two."""
        stmt = (
            pg_insert(Gene).values(**values).on_conflict_do_nothing(index_elements=[Gene.id]).returning(Gene)
        )
        result = await self.session.scalars(stmt, execution_options={"populate_existing": True})
        gene: Gene | None = result.one_or_none()
        return gene

    async def insert_gene_if_absent(self, values: dict[str, Any]) -> bool:
        """Create the lineage row; False when a concurrent publish created it first."""
        stmt = pg_insert(Gene).values(**values).on_conflict_do_nothing(index_elements=[Gene.id])
        result = await self.session.execute(stmt.returning(Gene.id))
        return result.scalar_one_or_none() is not None

    async def close_current_version(self, gene_id: str) -> None:
        await self.session.execute(
            update(GeneVersion)
            .where(GeneVersion.gene_id == gene_id, GeneVersion.valid_to.is_(None))
            .values(valid_to=func.now())
        )

    async def insert_version(self, values: dict[str, Any]) -> GeneVersion:
        # One round trip: the row comes back with what the server computed (times, text vectors).
        version: GeneVersion = (
            await self.session.scalars(
                insert(GeneVersion).values(**values, valid_from=func.now()).returning(GeneVersion)
            )
        ).one()
        return version

    async def set_owner(self, gene_id: str, key_id: uuid.UUID) -> None:
        await self.session.execute(
            update(Gene).where(Gene.id == gene_id).values(owner_key_id=key_id, updated_at=func.now())
        )

    async def point_gene_at(self, gene_id: str, values: dict[str, Any]) -> None:
        await self.session.execute(
            update(Gene).where(Gene.id == gene_id).values(**values, updated_at=func.now())
        )

    async def link_trajectories(
        self, version_id: int, trajectory_ids: Sequence[uuid.UUID], role: EvidenceRole
    ) -> None:
        if trajectory_ids:
            await self.session.execute(
                insert(version_trajectories),
                [
                    {"version_id": version_id, "trajectory_id": tid, "role": role.value}
                    for tid in trajectory_ids
                ],
            )

    async def gene_with_version(
        self, gene_id: str, *, version: int | None = None, as_of: datetime | None = None
    ) -> Row[Gene, GeneVersion] | None:
        """The Gene and one of its versions: the current one, a numbered one, or the one valid at `as_of`."""
        stmt = (
            select(Gene, GeneVersion)
            .join(GeneVersion, GeneVersion.gene_id == Gene.id)
            .where(Gene.id == gene_id)
        )
        if version is not None:
            stmt = stmt.where(GeneVersion.version == version)
        elif as_of is not None:
            stmt = stmt.where(
                GeneVersion.valid_from <= as_of,
                or_(GeneVersion.valid_to.is_(None), GeneVersion.valid_to > as_of),
            )
        else:
            stmt = stmt.where(GeneVersion.version == Gene.current_version)
        return (await self.session.execute(stmt)).first()

    async def list_genes(
        self,
        *,
        limit: int,
        descending: bool,
        after: tuple[datetime, str] | None,
        category: str | None,
        producer_model: str | None,
        status: str | None,
        task_family: str | None,
        updated_since: datetime | None,
    ) -> Sequence[Row[Gene, str | None]]:
        summary = GeneVersion.document["summary"].astext
        stmt = select(Gene, summary).join(
            GeneVersion, and_(GeneVersion.gene_id == Gene.id, GeneVersion.version == Gene.current_version)
        )
        for column, value in (
            (Gene.category, category),
            (Gene.producer_model, producer_model),
            (Gene.status, status),
            (Gene.task_family, task_family),
        ):
            if value is not None:
                stmt = stmt.where(column == value)
        if updated_since is not None:
            stmt = stmt.where(Gene.updated_at >= updated_since)
        key = tuple_(Gene.updated_at, Gene.id)
        if after is not None:
            cursor_key = tuple_(literal(after[0]), literal(after[1]))
            stmt = stmt.where(key < cursor_key if descending else key > cursor_key)
        columns = (Gene.updated_at, Gene.id)
        order = [column.desc() if descending else column.asc() for column in columns]
        return (await self.session.execute(stmt.order_by(*order).limit(limit))).all()

    @staticmethod
    def _needs_embedding(model: str | None) -> ColumnElement[bool]:
        if model is None:
            return true()
        return or_(GeneVersion.embedding.is_(None), GeneVersion.embedding_model.is_distinct_from(model))

    async def count_versions_to_embed(self, model: str | None) -> int:
        stmt = select(func.count()).select_from(GeneVersion).where(self._needs_embedding(model))
        return int(await self.session.scalar(stmt) or 0)

    async def versions_to_embed(
        self, model: str | None, *, after_id: int, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        """Versions whose vector is missing or from another model (all of them when `model` is None)."""
        stmt = (
            select(GeneVersion.id, GeneVersion.document)
            .where(GeneVersion.id > after_id, self._needs_embedding(model))
            .order_by(GeneVersion.id)
            .limit(limit)
        )
        return [(row.id, row.document) for row in await self.session.execute(stmt)]

    async def set_embeddings(self, vectors: list[tuple[int, list[float]]], model: str) -> None:
        await self.session.execute(
            update(GeneVersion),
            [
                {"id": version_id, "embedding": vector, "embedding_model": model}
                for version_id, vector in vectors
            ],
        )

    async def list_versions(self, gene_id: str, *, after: int | None, limit: int) -> Sequence[GeneVersion]:
        stmt = select(GeneVersion).where(GeneVersion.gene_id == gene_id)
        if after is not None:
            stmt = stmt.where(GeneVersion.version > after)
        return (await self.session.scalars(stmt.order_by(GeneVersion.version).limit(limit))).all()

    # --- task keys (experience expansion, app/genes/task_keys.py) -------------------------------------

    async def task_key_hashes(self, gene_id: str, hashes: list[str]) -> set[str]:
        rows = await self.session.execute(
            select(GeneTaskKey.text_sha256).where(
                GeneTaskKey.gene_id == gene_id, GeneTaskKey.text_sha256.in_(hashes)
            )
        )
        return set(rows.scalars())

    async def insert_task_keys(self, rows: list[dict[str, Any]]) -> int:
        """Insert the keys the Gene does not have yet; how many were new."""
        result = await self.session.execute(
            pg_insert(GeneTaskKey)
            .values(rows)
            .on_conflict_do_nothing(constraint="uq_gene_task_keys_gene_text")
            .returning(GeneTaskKey.id)
        )
        return len(result.all())

    async def trajectory_tasks(self, trajectory_ids: Sequence[uuid.UUID]) -> list[str]:
        rows = await self.session.execute(
            select(Trajectory.task_description).where(Trajectory.id.in_(list(trajectory_ids)))
        )
        return list(rows.scalars())

    async def stale_task_keys(self, model: str, limit: int) -> list[tuple[int, str]]:
        rows = await self.session.execute(
            select(GeneTaskKey.id, GeneTaskKey.description)
            .where(GeneTaskKey.embedding_model != model)
            .order_by(GeneTaskKey.id)
            .limit(limit)
        )
        return [(int(key_id), str(description)) for key_id, description in rows.all()]

    async def set_task_key_embeddings(self, vectors: list[tuple[int, list[float]]], model: str) -> None:
        for key_id, vector in vectors:
            await self.session.execute(
                update(GeneTaskKey)
                .where(GeneTaskKey.id == key_id)
                .values(embedding=vector, embedding_model=model)
            )

    async def version_tasks(self) -> dict[str, list[str]]:
        rows = await self.session.execute(
            select(GeneVersion.gene_id, GeneVersion.task_description).where(
                GeneVersion.task_description.is_not(None)
            )
        )
        by_gene: dict[str, list[str]] = {}
        for gene_id, description in rows.all():
            by_gene.setdefault(str(gene_id), []).append(str(description))
        return by_gene


def _linked(role: EvidenceRole) -> ScalarSelect[Any]:
    linked = version_trajectories.c.trajectory_id
    return (
        select(func.array_agg(aggregate_order_by(linked, linked)))
        # A literal: these statements are compiled once to plain SQL for the psycopg read path.
        .where(
            version_trajectories.c.version_id == GeneVersion.id,
            version_trajectories.c.role == literal_column(f"'{role.value}'"),
        )
        .scalar_subquery()
    )


def _key_name(key_id: Any) -> ScalarSelect[Any]:
    return select(ApiKey.name).where(ApiKey.id == key_id).scalar_subquery()


def _version_select() -> Select[Any]:
    columns = [
        Gene.id.label("gene_id"),
        Gene.status,
        Gene.status_message,
        Gene.category,
        Gene.task_family.label("gene_task_family"),
        Gene.current_version,
        Gene.created_at.label("gene_created_at"),
        Gene.updated_at.label("gene_updated_at"),
        Gene.owner_key_id,
        _key_name(Gene.owner_key_id).label("owner_name"),
        GeneVersion.version,
        GeneVersion.asset_id,
        GeneVersion.parent_asset_id,
        GeneVersion.valid_from,
        GeneVersion.valid_to,
        GeneVersion.producer_model,
        GeneVersion.provenance_kind,
        GeneVersion.task_id,
        GeneVersion.task_family,
        GeneVersion.task_description,
        GeneVersion.cost_tokens,
        GeneVersion.cost_attempts,
        GeneVersion.cost_seconds,
        GeneVersion.published_by,
        _key_name(GeneVersion.published_by).label("published_by_name"),
        GeneVersion.reason,
        GeneVersion.generation_meta,
        # Text, not parsed JSON: the reader splices these into its answer without a parse/dump cycle.
        cast(GeneVersion.verifier, Text).label("verifier_json"),
        GeneVersion.document_json,
        _linked(EvidenceRole.strategy).label("trajectory_ids"),
        _linked(EvidenceRole.guards).label("guard_trajectory_ids"),
    ]
    return select(*columns).join(GeneVersion, GeneVersion.gene_id == Gene.id)


# Built once: constructing these SELECTs costs more CPU than executing them.
_BY_ASSET = _version_select().where(GeneVersion.asset_id == bindparam("asset_id"))
_BY_GENE = _version_select().where(Gene.id == bindparam("gene_id"))
_CURRENT = _BY_GENE.where(GeneVersion.version == Gene.current_version)
_NUMBERED = _BY_GENE.where(GeneVersion.version == bindparam("version"))
_AS_OF = _BY_GENE.where(
    GeneVersion.valid_from <= bindparam("as_of"),
    or_(GeneVersion.valid_to.is_(None), GeneVersion.valid_to > bindparam("as_of")),
)
_FACTS = select(Gene.id, Gene.status, Gene.status_message, Gene.current_version).where(
    Gene.id == bindparam("gene_id")
)


def _psycopg_sql(stmt: Select[Any]) -> str:
    return str(stmt.compile(dialect=psycopg_dialect()))  # type: ignore[no-untyped-call]


_SQL = {
    name: _psycopg_sql(stmt)
    for name, stmt in {
        "asset": _BY_ASSET,
        "current": _CURRENT,
        "numbered": _NUMBERED,
        "as_of": _AS_OF,
        "facts": _FACTS,
    }.items()
}


class GeneReader:
    """The hot read path: one statement per fetch, on an autocommit psycopg connection."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def _one(self, name: str, params: dict[str, Any]) -> dict[str, Any] | None:
        async with self.conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_SQL[name], params)
            return await cursor.fetchone()

    async def version_row(
        self,
        gene_id: str | None = None,
        *,
        version: int | None = None,
        as_of: datetime | None = None,
        asset_id: str | None = None,
    ) -> dict[str, Any] | None:
        if asset_id is not None:
            return await self._one("asset", {"asset_id": asset_id})
        if version is not None:
            return await self._one("numbered", {"gene_id": gene_id, "version": version})
        if as_of is not None:
            return await self._one("as_of", {"gene_id": gene_id, "as_of": as_of})
        return await self._one("current", {"gene_id": gene_id})

    async def gene_facts(self, gene_id: str) -> dict[str, Any] | None:
        return await self._one("facts", {"gene_id": gene_id})
