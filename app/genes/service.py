"""Rules of the genes domain: publishing immutable versions, reading them back. No HTTP, never commits."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Container, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import psycopg
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM, Principal, Role
from app.auth.repository import KeyRepository
from app.cpu import THREADS, CpuPool
from app.embeddings import EmbeddingService
from app.embeddings.base import Vectors
from app.embeddings.service import KnownEmbeddings, PrefetchedEmbeddings
from app.errors import AppError, Conflict, NotFound, ValidationFailed
from app.genes import bulk
from app.genes.envelope import VersionView
from app.genes.errors import GeneNotFound, GeneRevoked, NotOwner, StaleParent
from app.genes.indexing import embedding_text
from app.genes.repository import GeneReader, GeneRepository
from app.genes.schemas import (
    GeneCursor,
    GenePage,
    GeneSummary,
    KeyRef,
    OwnerChange,
    PublishRequest,
    VersionCursor,
    VersionPage,
    VersionSummary,
)
from app.genes.versions import VersionReason, VersionSource, VersionWriter
from app.gep.canonical import compute_asset_id
from app.gep.prompt import BudgetTooSmall, RenderedPrompt, render
from app.models import EvidenceRole, GeneStatus, GeneVersion, TrajectoryState
from app.redaction import Redactor
from app.schemas import CursorCodec
from app.trajectories.content import trajectory_values
from app.trajectories.repository import TrajectoryRepository

GENE_CURSOR = CursorCodec(GeneCursor)
VERSION_CURSOR = CursorCodec(VersionCursor)


@dataclass(frozen=True)
class _Scrubbed:
    verifier: dict[str, Any] | None
    task_description: str | None
    document_secrets: list[str]


def _scrub(request: PublishRequest, raw: dict[str, Any]) -> _Scrubbed:
    """The provenance others will read, redacted; and what the (unredactable) document leaks."""
    provenance = request.provenance
    redactor = Redactor()
    verifier = provenance.verifier.model_dump(exclude_none=True) if provenance.verifier else None
    scanner = Redactor()
    scanner.json(raw)
    return _Scrubbed(
        verifier=redactor.json(verifier),
        task_description=redactor.text(provenance.task.description) if provenance.task else None,
        document_secrets=sorted(scanner.kinds),
    )


async def _reverts(repo: GeneRepository, request: PublishRequest, existing: GeneVersion) -> bool:
    """Whether a document that is an earlier, no longer current version of its Gene is sent as the next
    version (its `parent` the current one): a revert, written as a new version (app/genes/versions.py
    logs it in learning_history, so it has its own asset_id). Otherwise the identical document is
    simply the version that exists."""
    parent = request.gene.parent
    if parent is None or existing.gene_id != request.gene.id:
        return False
    gene = await repo.get_gene(existing.gene_id)
    return gene is not None and gene.current_asset_id == parent != existing.asset_id


def _bulk_texts(requests: Sequence[PublishRequest]) -> list[tuple[str, list[str]]]:
    """Each request's asset_id and the texts its publish embeds: the document's embedding text and
    its (redacted) task description, a search key of the Gene (app/genes/task_keys.py)."""
    return [(planned.asset_id, planned.texts) for planned in bulk.plan(requests)]


@dataclass
class Published:
    version: GeneVersion
    created: bool


class GeneService:
    async def publish(
        self,
        session: AsyncSession,
        request: PublishRequest,
        embeddings: EmbeddingService,
        *,
        actor: Principal = SYSTEM,
        cpu: CpuPool = THREADS,
        new_assets: Container[str] = (),
    ) -> Published:
        """Write a new immutable version (or find the identical one); index it for search.

        `actor` is the calling key: a new lineage becomes its Gene, and only it or an admin publishes
        the next versions. The command line (demo, loaders, benchmarks) publishes as SYSTEM.
        `new_assets`: asset_ids the caller found unknown a moment ago (a bulk publish, all at once).
        """
        raw = request.gene.hashed_fields()
        asset_id = compute_asset_id(raw)
        if mismatch := bulk.asset_mismatch(request, asset_id):
            raise mismatch
        repo = GeneRepository(session)
        # A document stored in the meantime is still found once the Gene is locked.
        if (
            asset_id not in new_assets
            and (existing := await repo.version_by_asset(asset_id))
            and not await _reverts(repo, request, existing)
        ):
            return Published(existing, created=False)
        # The encode (~2/3 of a publish) runs in the embedder's lanes while this request redacts,
        # locks and checks; its vector is awaited only when the version is written.
        planned = bulk.Planned(request, raw, asset_id, [embedding_text(raw)])
        encoding = asyncio.create_task(embeddings.embed_texts(planned.texts))
        keying: asyncio.Task[Vectors] | None = None
        try:
            if bulk.founds_lineage(planned):
                fresh = await cpu.run(len(request.model_dump_json()), bulk.prepare, planned, 0)
                if isinstance(fresh, AppError):
                    raise fresh
                if key := fresh.task_key:
                    # The task key's encode, in the other lane while the document's runs.
                    keying = asyncio.create_task(embeddings.embed_texts([key]))
                    fresh.texts = [*planned.texts, key]
                if await self._found(session, fresh, embeddings, encoding, keying, actor, cpu):
                    return Published(
                        GeneVersion(gene_id=fresh.gene_id, version=1, asset_id=asset_id), created=True
                    )
                if key and keying is not None:  # the Gene id exists: the general path, key in hand
                    embeddings = KnownEmbeddings(embeddings, {key: (await keying)[0]})
            return await self._publish_new(session, request, raw, asset_id, embeddings, encoding, actor, cpu)
        finally:
            for task in (encoding, keying):
                if task is None:
                    continue
                if not task.done():
                    task.cancel()
                elif not task.cancelled():
                    task.exception()  # retrieved: a refused publish does not log the encoder's error

    @staticmethod
    async def _found(
        session: AsyncSession,
        fresh: bulk.Fresh,
        embeddings: EmbeddingService,
        encoding: asyncio.Task[Vectors],
        keying: asyncio.Task[Vectors] | None,
        actor: Principal,
        cpu: CpuPool,
    ) -> bool:
        """Write a first version that founds its lineage as a batch writes one (app/genes/bulk.py: the
        same rows, four statements instead of the general path's six ORM ones); False, with nothing
        written, when the Gene id exists already."""
        [vector] = await encoding
        vectors = np.stack([vector, (await keying)[0]]) if keying is not None else vector[None, :]
        params = await cpu.run(0, bulk.chunk_params, [fresh], vectors, actor, embeddings.name)
        return await GeneRepository(session).found_lineages(*params)

    async def publish_batch(
        self,
        session: AsyncSession,
        requests: Sequence[PublishRequest],
        embeddings: EmbeddingService,
        *,
        actor: Principal = SYSTEM,
        cpu: CpuPool = THREADS,
    ) -> list[Published | AppError]:
        """Publish each request as `publish` would, one after the other, in one transaction; each
        one's outcome, or the refusal (AppError) that left nothing of it behind (app/genes/bulk.py).

        Every text the batch embeds is queued in one call to the embedder before anything is
        written; known documents are not embedded at all. New lineages are written set-wise in
        chunks as their vectors arrive, every other item by `publish` in a SAVEPOINT of its own.
        """
        planned = await cpu.run(0, bulk.plan, requests)
        valid = [item for item in planned if item.problem is None]
        known, lineages = await bulk.classify(session, valid)
        new_assets = {item.asset_id for item in valid} - known
        texts = [text for item in valid if item.asset_id in new_assets for text in item.texts]
        prefetched = PrefetchedEmbeddings(embeddings, texts)
        candidates = [
            (index, item)
            for index, item in enumerate(planned)
            if item.problem is None
            and item.asset_id in new_assets
            and item.request.gene.id not in lineages
            and bulk.founds_lineage(item)
        ]
        loop = asyncio.get_running_loop()
        prepared: dict[int, asyncio.Future[bulk.Fresh | AppError]] = {
            index: loop.create_future() for index, _ in candidates
        }

        async def prepare() -> None:
            # In order, a chunk at a time: the first chunk is written while the next are prepared.
            try:
                for start in range(0, len(candidates), bulk.CHUNK):
                    group = candidates[start : start + bulk.CHUNK]
                    done = await cpu.run(0, bulk.prepare_all, group)
                    for (index, _), fresh in zip(group, done, strict=True):
                        prepared[index].set_result(fresh)
            except Exception as error:  # the request fails with it, where the items await it
                for future in prepared.values():
                    if not future.done():
                        future.set_exception(error)

        preparing = asyncio.create_task(prepare())
        outcomes: list[Published | AppError | None] = [item.problem for item in planned]

        async def one(index: int) -> None:
            try:
                async with session.begin_nested():
                    outcomes[index] = await self.publish(
                        session, requests[index], prefetched, actor=actor, cpu=cpu, new_assets=new_assets
                    )
            except AppError as error:
                outcomes[index] = error

        async def chunk(run: list[bulk.Fresh]) -> None:
            try:
                async with session.begin_nested():
                    await bulk.write_chunk(session, run, prefetched, actor, cpu)
            except (bulk.ChunkTaken, psycopg.Error):
                # Judged one by one: whichever item the database refuses fails alone.
                for fresh in run:
                    await one(fresh.index)
                return
            for fresh in run:
                outcomes[fresh.index] = Published(
                    GeneVersion(gene_id=fresh.gene_id, version=1, asset_id=fresh.asset_id), created=True
                )

        try:
            founded: set[str] = set()  # Gene ids an earlier item of the batch may have founded
            run: list[bulk.Fresh] = []
            for index, item in enumerate(planned):
                if item.problem is not None:
                    continue
                gene_id = item.request.gene.id
                if index in prepared:
                    fresh = await prepared[index]
                    if isinstance(fresh, AppError):
                        outcomes[index] = fresh  # refused before any write, as `publish` does
                        continue
                    if gene_id not in founded:
                        founded.add(gene_id)
                        run.append(fresh)
                        if len(run) == bulk.CHUNK:
                            await chunk(run)
                            run = []
                        continue
                founded.add(gene_id)
                if run:  # written first: the rows keep the items' order
                    await chunk(run)
                    run = []
                await one(index)
            if run:
                await chunk(run)
        finally:
            preparing.cancel()
            prefetched.close()
        assert all(outcome is not None for outcome in outcomes)
        return [outcome for outcome in outcomes if outcome is not None]

    async def _publish_new(
        self,
        session: AsyncSession,
        request: PublishRequest,
        raw: dict[str, Any],
        asset_id: str,
        embeddings: EmbeddingService,
        encoding: asyncio.Task[Vectors],
        actor: Principal,
        cpu: CpuPool,
    ) -> Published:
        repo = GeneRepository(session)
        # Redaction is CPU work proportional to the body: off the event loop (app/cpu.py).
        # (pydantic-core serializes a megabyte in a few ms: a cheap measure of the work ahead.)
        size = len(request.model_dump_json())
        scrubbed = await cpu.run(size, _scrub, request, raw)
        if scrubbed.document_secrets:
            raise bulk.secret_refusal(scrubbed.document_secrets)

        gene_id = request.gene.id
        parent = request.gene.parent
        provenance = request.provenance
        created = await repo.create_gene(
            {
                "id": gene_id,
                "category": request.gene.category,
                "task_family": provenance.task.family if provenance.task else None,
                "current_version": 0,
                "current_asset_id": asset_id,
                "producer_model": provenance.producer_model,
                "owner_key_id": actor.key_id,
            }
        )
        created_lineage = created is not None
        gene = created or await repo.lock_gene(gene_id)
        assert gene is not None
        if not created_lineage:
            # Another transaction may have published this very document while we waited for the lock.
            if (existing := await repo.version_by_asset(asset_id)) and not await _reverts(
                repo, request, existing
            ):
                return Published(existing, created=False)
            if gene.status == GeneStatus.revoked:
                raise GeneRevoked(
                    f"gene {gene_id} is revoked and takes no new versions", extra={"gene_id": gene_id}
                )
            if not actor.at_least(Role.admin) and gene.owner_key_id != actor.key_id:
                raise NotOwner(
                    f"gene {gene_id} belongs to another producer; only it or an admin adds versions"
                )
            if parent != gene.current_asset_id:
                raise StaleParent(
                    f"gene {gene_id} is at version {gene.current_version} ({gene.current_asset_id}); "
                    f"a new version must name it as `parent`" + (f", not {parent}" if parent else ""),
                    extra={
                        "current_asset_id": gene.current_asset_id,
                        "current_version": gene.current_version,
                    },
                )
        elif parent is not None and await repo.version_by_asset(parent) is None:
            raise ValidationFailed(f"parent {parent} is not a version known to this registry")

        previous = None if created_lineage else await repo.version_by_asset(gene.current_asset_id)
        assert actor.key_id is not None
        source = VersionSource.from_provenance(
            kind=provenance.kind,
            producer_model=provenance.producer_model,
            published_by=actor.key_id,
            verifier=scrubbed.verifier,
            task=provenance.task,
            task_description=scrubbed.task_description,
            cost=provenance.cost,
        )
        writer = VersionWriter(session, embeddings)
        [vector] = await encoding
        version = await writer.write(
            gene,
            raw,
            asset_id,
            source,
            embedding=(vector.tolist(), embeddings.name),
            reason=VersionReason.published,
            parent=parent,
            generation_meta=request.gene.generation_meta,
        )
        evidence = await self._evidence(session, request, gene_id, version.asset_id, actor, cpu)
        await writer.link(version, evidence, EvidenceRole.strategy)
        await writer.record_published(previous, version, evidence)
        return Published(version, created=True)

    async def _evidence(
        self,
        session: AsyncSession,
        request: PublishRequest,
        gene_id: str,
        asset_id: str,
        actor: Principal,
        cpu: CpuPool,
    ) -> list[uuid.UUID]:
        """The run behind the version: one of the publisher's own trajectories, or the inline one."""
        provenance = request.provenance
        trajectories = TrajectoryRepository(session)
        if provenance.trajectory_id is not None:
            # Someone else's run is not evidence one may cite, and its existence is not disclosed.
            submitter = None if actor.at_least(Role.admin) else actor.key_id
            if not await trajectories.exists(provenance.trajectory_id, submitted_by=submitter):
                raise ValidationFailed(
                    f"trajectory {provenance.trajectory_id} is not one of yours in this registry"
                )
            return [provenance.trajectory_id]
        inline = provenance.trajectory
        if inline is None:
            return []
        assert provenance.task is not None and provenance.verifier is not None
        values = await cpu.run(
            len(inline.model_dump_json()),
            trajectory_values,
            task=provenance.task,
            producer_model=provenance.producer_model,
            producer_agent=inline.producer_agent,
            steps=inline.steps,
            verifier=provenance.verifier,
            cost=provenance.cost,
            guards=inline.guards,
        )
        # Published together with its Gene version, so there is nothing left for the worker to do.
        values.update(
            state=TrajectoryState.merged.value,
            state_reason="published inline with its Gene version",
            result_gene_id=gene_id,
            result_asset_id=asset_id,
            submitted_by=actor.key_id,
        )
        return [await trajectories.add(values)]

    async def read_version(
        self,
        conn: psycopg.AsyncConnection[Any],
        gene_id: str | None = None,
        *,
        version: int | None = None,
        as_of: datetime | None = None,
        asset_id: str | None = None,
    ) -> VersionView:
        """One version: the current one, a numbered one, the one valid at `as_of`, or by asset_id."""
        reader = GeneReader(conn)
        row = await reader.version_row(gene_id, version=version, as_of=as_of, asset_id=asset_id)
        if row is None:
            raise await self._why_missing(reader, gene_id, version=version, as_of=as_of, asset_id=asset_id)
        if row["status"] == GeneStatus.revoked:
            raise GeneRevoked.of(row["gene_id"], row["status_message"])
        return VersionView(row)

    async def _why_missing(
        self,
        reader: GeneReader,
        gene_id: str | None,
        *,
        version: int | None,
        as_of: datetime | None,
        asset_id: str | None,
    ) -> AppError:
        if asset_id is not None or gene_id is None:
            return NotFound(f"no asset {asset_id} in this registry")
        facts = await reader.gene_facts(gene_id)
        if facts is None:
            return GeneNotFound(f"no gene with id {gene_id!r}")
        if facts["status"] == GeneStatus.revoked:
            return GeneRevoked.of(gene_id, facts["status_message"])
        if version is not None:
            return NotFound(
                f"gene {gene_id} has no version {version} (current is {facts['current_version']})"
            )
        moment = as_of.isoformat() if as_of else "that time"
        return NotFound(f"gene {gene_id} did not exist at {moment}")

    async def list_genes(
        self,
        session: AsyncSession,
        *,
        limit: int,
        cursor: str | None,
        descending: bool,
        category: str | None = None,
        producer_model: str | None = None,
        status: str | None = None,
        task_family: str | None = None,
        updated_since: datetime | None = None,
    ) -> GenePage:
        after = None
        if position := GENE_CURSOR.decode(cursor):
            after, descending = (position.updated_at, position.gene_id), position.descending
        rows = await GeneRepository(session).list_genes(
            limit=limit + 1,
            descending=descending,
            after=after,
            category=category,
            producer_model=producer_model,
            status=status,
            task_family=task_family,
            updated_since=updated_since,
        )
        page, next_cursor = GENE_CURSOR.page(
            rows,
            limit,
            lambda row: GeneCursor(updated_at=row[0].updated_at, gene_id=row[0].id, descending=descending),
        )
        items = [
            GeneSummary(
                gene_id=gene.id,
                status=gene.status,
                category=gene.category,
                task_family=gene.task_family,
                producer_model=gene.producer_model,
                version=gene.current_version,
                asset_id=gene.current_asset_id,
                summary=summary,
                created_at=gene.created_at,
                updated_at=gene.updated_at,
            )
            for gene, summary in page
        ]
        return GenePage(items=items, next_cursor=next_cursor)

    async def list_versions(
        self, session: AsyncSession, gene_id: str, *, limit: int, cursor: str | None
    ) -> VersionPage:
        repo = GeneRepository(session)
        await repo.live_gene(gene_id)
        position = VERSION_CURSOR.decode(cursor)
        versions = await repo.list_versions(
            gene_id, after=position.version if position else None, limit=limit + 1
        )
        page, next_cursor = VERSION_CURSOR.page(versions, limit, lambda v: VersionCursor(version=v.version))
        items = [
            VersionSummary(
                version=v.version,
                asset_id=v.asset_id,
                parent_asset_id=v.parent_asset_id,
                producer_model=v.producer_model,
                provenance_kind=v.provenance_kind,
                valid_from=v.valid_from,
                valid_to=v.valid_to,
            )
            for v in page
        ]
        return VersionPage(gene_id=gene_id, items=items, next_cursor=next_cursor)

    async def transfer(
        self, session: AsyncSession, gene_id: str, new_owner: uuid.UUID, caller: Principal
    ) -> OwnerChange:
        """Hand a Gene to another producer (or admin) key: by its owner or an admin."""
        repo = GeneRepository(session)
        gene = await repo.live_gene(gene_id, lock=True)
        if not caller.at_least(Role.admin) and caller.key_id != gene.owner_key_id:
            raise NotOwner(f"only the owner of {gene_id} or an admin transfers it")
        keys = KeyRepository(session)
        target = await keys.get(new_owner)
        if target is None or target.revoked_at is not None or target.id == SYSTEM.key_id:
            raise ValidationFailed(f"key {new_owner} is not an active key of this registry")
        if Role[target.role] < Role.producer:
            raise ValidationFailed(f"key {new_owner} is a {target.role} key: a Gene's owner publishes")
        if target.id == gene.owner_key_id:
            raise Conflict(f"{gene_id} already belongs to key {new_owner}")
        previous_id = gene.owner_key_id
        previous = await keys.get(previous_id)
        await repo.set_owner(gene_id, target.id)
        return OwnerChange(
            gene_id=gene_id,
            owner=KeyRef(key_id=target.id, name=target.name),
            previous_owner=KeyRef(key_id=previous_id, name=previous.name if previous else str(previous_id)),
        )

    def render_prompt(self, view: VersionView, max_tokens: int) -> RenderedPrompt:
        try:
            return render(view.document(), version=view.version, max_tokens=max_tokens)
        except BudgetTooSmall as exc:
            raise ValidationFailed(str(exc), extra={"min_max_tokens": exc.needed}) from None


gene_service = GeneService()
