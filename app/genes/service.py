"""Rules of the genes domain: publishing immutable versions, reading them back. No HTTP, never commits."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM, Principal, Role
from app.auth.repository import KeyRepository
from app.cpu import THREADS, CpuPool
from app.embeddings import EmbeddingService
from app.errors import AppError, Conflict, Forbidden, Gone, NotFound, ValidationFailed
from app.evolution.events import published_event
from app.evolution.repository import EvolutionRepository
from app.genes.prompt import BudgetTooSmall, RenderedPrompt, render
from app.genes.repository import GeneReader, GeneRepository
from app.genes.schemas import (
    GenePage,
    GeneSummary,
    KeyRef,
    OwnerChange,
    PublishRequest,
    VersionPage,
    VersionSummary,
)
from app.genes.views import VersionView
from app.gep.canonical import canonical_json, compute_asset_id
from app.models import EvidenceRole, Gene, GeneStatus, GeneVersion, TrajectoryState
from app.redaction import Redactor
from app.schemas import Cost, decode_cursor, encode_cursor
from app.search.indexing import embedding_text, search_vector, signals_vector
from app.trajectories.content import trajectory_values


class GeneNotFound(NotFound):
    code = "gene-not-found"
    title = "Gene not found"


class GeneRevoked(Gone):
    code = "gene-revoked"
    title = "Gene revoked"


class NotOwner(Forbidden):
    code = "not-owner"
    title = "Not the Gene's owner"


class StaleParent(Conflict):
    code = "stale-parent"
    title = "Parent is not the Gene's current version"


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


@dataclass
class Published:
    version: GeneVersion
    created: bool


@dataclass(frozen=True)
class VersionSource:
    """The provenance columns of a new version: where its strategy came from and who published it.

    The strategy's provenance (kind, producer model, verifier, task, cost) describes the run the
    strategy was learned from; a version that only changes guards keeps its predecessor's
    (`from_version`), and the runs behind its guards are linked with the role `guards`.
    """

    producer_model: str
    kind: str
    published_by: uuid.UUID
    verifier: dict[str, Any] | None = None
    task_id: str | None = None
    task_family: str | None = None
    task_description: str | None = None
    cost_tokens: int | None = None
    cost_attempts: int | None = None
    cost_seconds: float | None = None

    @classmethod
    def from_version(cls, version: GeneVersion, published_by: uuid.UUID) -> VersionSource:
        return cls(
            producer_model=version.producer_model,
            kind=version.provenance_kind,
            published_by=published_by,
            verifier=version.verifier,
            task_id=version.task_id,
            task_family=version.task_family,
            task_description=version.task_description,
            cost_tokens=version.cost_tokens,
            cost_attempts=version.cost_attempts,
            cost_seconds=version.cost_seconds,
        )


class GeneService:
    async def publish(
        self,
        session: AsyncSession,
        request: PublishRequest,
        embeddings: EmbeddingService,
        *,
        actor: Principal = SYSTEM,
        cpu: CpuPool = THREADS,
    ) -> Published:
        """Write a new immutable version (or find the identical one); index it for search.

        `actor` is the calling key: a new lineage becomes its Gene, and only it or an admin publishes
        the next versions. The command line (demo, loaders, benchmarks) publishes as SYSTEM.
        """
        raw = request.gene.hashed_fields()
        asset_id = compute_asset_id(raw)
        claimed = request.gene.asset_id
        if claimed is not None and claimed != asset_id:
            raise ValidationFailed(
                f"asset_id {claimed} does not match the document; expected {asset_id}",
                extra={"expected_asset_id": asset_id},
            )
        # Redaction is CPU work proportional to the body: off the event loop (app/cpu.py).
        # (pydantic-core serializes a megabyte in a few ms: a cheap measure of the work ahead.)
        size = len(request.model_dump_json())
        scrubbed = await cpu.run(size, _scrub, request, raw)
        if scrubbed.document_secrets:
            raise ValidationFailed(
                "the Gene document contains what looks like a secret ("
                + ", ".join(scrubbed.document_secrets)
                + "): a published document is served as sent, so remove it and publish again"
            )
        repo = GeneRepository(session)
        if existing := await repo.version_by_asset(asset_id):
            return Published(existing, created=False)

        gene_id = request.gene.id
        parent = request.gene.parent
        provenance = request.provenance
        created_lineage = await repo.insert_gene_if_absent(
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
        gene = await repo.lock_gene(gene_id)
        assert gene is not None
        if not created_lineage:
            # Another transaction may have published this very document while we waited for the lock.
            if existing := await repo.version_by_asset(asset_id):
                return Published(existing, created=False)
            if gene.status == GeneStatus.revoked:
                raise GeneRevoked(f"gene {gene_id} is revoked and takes no new versions")
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
        task = provenance.task
        cost = provenance.cost or Cost()
        assert actor.key_id is not None
        version = await self.write_version(
            repo,
            gene,
            raw,
            asset_id,
            VersionSource(
                producer_model=provenance.producer_model,
                kind=provenance.kind,
                published_by=actor.key_id,
                verifier=scrubbed.verifier,
                task_id=task.id if task else None,
                task_family=task.family if task else None,
                task_description=scrubbed.task_description,
                cost_tokens=cost.tokens,
                cost_attempts=cost.attempts,
                cost_seconds=cost.seconds,
            ),
            embeddings,
        )
        evidence = await self._evidence(repo, request, gene_id, asset_id, actor, cpu)
        await repo.link_trajectories(version.id, evidence, EvidenceRole.strategy)
        await EvolutionRepository(session).add_event(published_event(previous, version, evidence))
        return Published(version, created=True)

    async def write_version(
        self,
        repo: GeneRepository,
        gene: Gene,
        raw: dict[str, Any],
        asset_id: str,
        source: VersionSource,
        embeddings: EmbeddingService,
        *,
        embedding: tuple[list[float], str] | None = None,
    ) -> GeneVersion:
        """Append `raw` as the next version of `gene` (locked by the caller) and make it current.

        `raw` is a validated document without asset_id; its `parent` must already name the current
        version. `embedding` (vector, model) reuses a vector when the embedded text did not change.
        """
        if gene.current_version > 0:
            await repo.close_current_version(gene.id)
        next_version = gene.current_version + 1
        served = {**raw, "asset_id": asset_id}
        if embedding is None:
            [vector] = await embeddings.embed_texts([embedding_text(raw)])
            embedding = (vector.tolist(), embeddings.name)
        version = await repo.insert_version(
            {
                "gene_id": gene.id,
                "version": next_version,
                "asset_id": asset_id,
                "parent_asset_id": raw.get("parent"),
                "canonical_json": canonical_json(raw),
                "document_json": canonical_json(served),
                "document": served,
                "producer_model": source.producer_model,
                "provenance_kind": source.kind,
                "verifier": source.verifier,
                "task_id": source.task_id,
                "task_family": source.task_family,
                "task_description": source.task_description,
                "cost_tokens": source.cost_tokens,
                "cost_attempts": source.cost_attempts,
                "cost_seconds": source.cost_seconds,
                "published_by": source.published_by,
                "embedding": embedding[0],
                "embedding_model": embedding[1],
                "search_tsv": search_vector(raw),
                "signals_tsv": signals_vector(raw),
            }
        )
        await repo.point_gene_at(
            gene.id,
            {
                "current_version": next_version,
                "current_asset_id": asset_id,
                "category": raw["category"],
                "task_family": source.task_family or gene.task_family,
                "producer_model": raw.get("model_name") or source.producer_model,
            },
        )
        return version

    async def _evidence(
        self,
        repo: GeneRepository,
        request: PublishRequest,
        gene_id: str,
        asset_id: str,
        actor: Principal,
        cpu: CpuPool,
    ) -> list[uuid.UUID]:
        """The run behind the version: one of the publisher's own trajectories, or the inline one."""
        provenance = request.provenance
        if provenance.trajectory_id is not None:
            # Someone else's run is not evidence one may cite, and its existence is not disclosed.
            submitter = None if actor.at_least(Role.admin) else actor.key_id
            if not await repo.trajectory_exists(provenance.trajectory_id, submitted_by=submitter):
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
        return [await repo.add_trajectory(values)]

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
            raise self._revoked(row["gene_id"], row["status_message"])
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
            return self._revoked(gene_id, facts["status_message"])
        if version is not None:
            return NotFound(
                f"gene {gene_id} has no version {version} (current is {facts['current_version']})"
            )
        moment = as_of.isoformat() if as_of else "that time"
        return NotFound(f"gene {gene_id} did not exist at {moment}")

    @staticmethod
    def _revoked(gene_id: str, message: str | None) -> GeneRevoked:
        return GeneRevoked(
            f"gene {gene_id} was revoked" + (f": {message}" if message else ""), extra={"gene_id": gene_id}
        )

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
        if cursor:
            data = decode_cursor(cursor)
            try:
                after = (datetime.fromisoformat(data["u"]), str(data["i"]))
                descending = bool(data["d"])
            except (KeyError, TypeError, ValueError):
                raise ValidationFailed("cursor is not one this service issued") from None
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
            for gene, summary in rows[:limit]
        ]
        next_cursor = None
        if len(rows) > limit:
            last = items[-1]
            next_cursor = encode_cursor(
                {"u": last.updated_at.isoformat(), "i": last.gene_id, "d": descending}
            )
        return GenePage(items=items, next_cursor=next_cursor)

    async def list_versions(
        self, session: AsyncSession, gene_id: str, *, limit: int, cursor: str | None
    ) -> VersionPage:
        repo = GeneRepository(session)
        gene = await repo.get_gene(gene_id)
        if gene is None:
            raise GeneNotFound(f"no gene with id {gene_id!r}")
        if gene.status == GeneStatus.revoked:
            raise self._revoked(gene.id, gene.status_message)
        after = None
        if cursor:
            value = decode_cursor(cursor).get("v")
            if not isinstance(value, int):
                raise ValidationFailed("cursor is not one this service issued")
            after = value
        versions = await repo.list_versions(gene_id, after=after, limit=limit + 1)
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
            for v in versions[:limit]
        ]
        next_cursor = encode_cursor({"v": items[-1].version}) if len(versions) > limit else None
        return VersionPage(gene_id=gene_id, items=items, next_cursor=next_cursor)

    async def transfer(
        self, session: AsyncSession, gene_id: str, new_owner: uuid.UUID, caller: Principal
    ) -> OwnerChange:
        """Hand a Gene to another producer (or admin) key: by its owner or an admin."""
        repo = GeneRepository(session)
        gene = await repo.lock_gene(gene_id)
        if gene is None:
            raise GeneNotFound(f"no gene with id {gene_id!r}")
        if gene.status == GeneStatus.revoked:
            raise self._revoked(gene.id, gene.status_message)
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
