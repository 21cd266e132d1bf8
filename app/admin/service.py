"""What each admin page shows, assembled from the domain services and repositories. Never commits."""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.auth import AdminUser
from app.admin.diff import DocumentDiff, diff_documents
from app.admin.repository import AdminRepository, AnyRow, GeneFilters, GeneSort
from app.admin.svg import (
    Chart,
    DayCount,
    Graph,
    ModelRate,
    OtherVersion,
    TrajectoryMark,
    VersionMark,
    lineage_graph,
    per_consumer_model,
    success_over_time,
)
from app.auth.principal import Principal
from app.auth.schemas import AuditRead
from app.auth.service import key_service
from app.config import Settings
from app.embeddings import EmbeddingService
from app.errors import AppError, NotFound
from app.evolution.repository import EvolutionRepository
from app.evolution.schemas import GuardRead
from app.evolution.service import evolution_service
from app.evolution.timeline import guard_reads
from app.genes.repository import GeneRepository
from app.models import (
    ApiKey,
    EvolutionEvent,
    Gene,
    GeneStatus,
    GeneVersion,
    Trajectory,
    TrajectoryState,
)
from app.outcomes.lifecycle import MANUAL_SOURCES, lifecycle_service
from app.outcomes.quality import Evidence, reputation
from app.outcomes.repository import OutcomeRepository
from app.outcomes.schemas import CostRead, ProducerRead, QualityRead, StatusChangeRead, UsageRead
from app.outcomes.service import outcome_service
from app.schemas import CursorCodec, CursorModel

# Lifecycle actions offered on a Gene page, in this order; revocation is final.
ACTIONS = {
    GeneStatus.promoted.value: "Promote",
    GeneStatus.deprecated.value: "Deprecate",
    GeneStatus.candidate.value: "Return to candidate",
    GeneStatus.revoked.value: "Revoke (final)",
}
REASON_MIN, REASON_MAX = 3, 1000
SET_STATUS_ACTION = "admin.set_status"
REVIEW_GUARD_ACTION = "admin.review_guard"
# A Gene page draws at most this many versions; longer lineages link to the versions beyond.
MAX_VERSIONS = 200

Href = Callable[..., str]


class AdminNotFound(NotFound):
    code = "not-found"
    title = "Not found"


@dataclass(frozen=True)
class Page:
    """Offset pagination for sortable tables."""

    number: int
    size: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.size))

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size


@dataclass
class Dashboard:
    status_counts: dict[str, int]
    families: list[tuple[str, dict[str, int], int]]
    trajectory_counts: dict[str, int]
    versions: int
    outcomes: int
    recent_events: Sequence[EvolutionEvent]
    pending: Sequence[AnyRow]
    now: datetime
    oldest_pending: datetime | None
    last_merge: datetime | None

    @property
    def genes(self) -> int:
        return sum(self.status_counts.values())

    @property
    def pending_age_seconds(self) -> float | None:
        return (self.now - self.oldest_pending).total_seconds() if self.oldest_pending else None

    @property
    def last_merge_age_seconds(self) -> float | None:
        return (self.now - self.last_merge).total_seconds() if self.last_merge else None


@dataclass
class GeneList:
    rows: Sequence[AnyRow]
    page: Page
    families: list[str]
    categories: list[str]
    producers: list[str]


@dataclass
class VersionEntry:
    version: GeneVersion
    trajectories: list[AnyRow]  # the run(s) its strategy came from
    event: EvolutionEvent | None
    guard_runs: list[AnyRow] = field(default_factory=list)  # runs whose guards changed it
    published_by: str = ""

    @property
    def change(self) -> str:
        if self.event is not None:
            return self.event.kind
        return "published" if self.version.version > 1 else "founded"


@dataclass
class GeneStats:
    """The Gene's /stats, or what is still shown of a revoked Gene (no quality estimates are kept for it)."""

    usage: UsageRead
    discovery_cost: CostRead
    status_history: list[StatusChangeRead]
    quality: QualityRead | None = None
    prior_mean: float | None = None
    by_consumer_model: list[QualityRead] = field(default_factory=list)
    by_version: dict[int, tuple[int, float, float]] = field(default_factory=dict)

    @property
    def tokens_per_reuse(self) -> float | None:
        if not self.usage.reports:
            return None
        return self.discovery_cost.tokens / self.usage.reports


@dataclass
class GenePage:
    gene: Gene
    current: GeneVersion
    document_json: str
    versions: list[VersionEntry]
    more_versions: bool
    inherited: OtherVersion | None
    forks: list[OtherVersion]
    graph: Graph
    guards: list[GuardRead]
    owner: str
    quorum: int
    stats: GeneStats
    days: list[DayCount]
    time_chart: Chart
    model_chart: Chart
    events: Sequence[EvolutionEvent]
    actions: list[tuple[str, str]]

    @property
    def document(self) -> dict[str, Any]:
        return self.current.document


@dataclass
class DiffPage:
    gene: Gene
    versions: list[int]
    old: GeneVersion
    new: GeneVersion
    diff: DocumentDiff


@dataclass
class ActionResult:
    ok: bool
    message: str


@dataclass
class ProducerRow:
    reputation: ProducerRead
    reports: int
    successes: int
    consumer_models: int
    genes_reported: int


@dataclass
class ProducerPage:
    producer: ProducerRow
    genes: Sequence[AnyRow]
    outcomes: dict[str, Row[str, int, int]]
    trajectories: dict[str, int]


@dataclass
class TrajectoryPage:
    trajectory: Trajectory
    versions: Sequence[Row[str, int, str]]
    events: Sequence[EvolutionEvent]
    guards: Sequence[Row[str, str, int, bool]]
    result_version: int | None
    verifier_details: str | None


@dataclass
class TrajectoryList:
    rows: Sequence[AnyRow]
    next_cursor: str | None


@dataclass
class EventFeed:
    events: Sequence[EvolutionEvent]
    next_cursor: str | None


@dataclass
class AuditList:
    entries: Sequence[AuditRead]
    next_cursor: str | None
    keys: Sequence[ApiKey]


class TrajectoryCursor(CursorModel):
    received_at: datetime
    id: uuid.UUID


class EventCursor(CursorModel):
    before: int


TRAJECTORY_CURSOR = CursorCodec(TrajectoryCursor)
EVENT_CURSOR = CursorCodec(EventCursor)


def _families(rows: Sequence[Row[str | None, str, int]]) -> list[tuple[str, dict[str, int], int]]:
    table: dict[str, dict[str, int]] = {}
    for family, status, count in rows:
        table.setdefault(family or "(none)", {})[status] = count
    return [(family, counts, sum(counts.values())) for family, counts in table.items()]


def pretty_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


class AdminService:
    async def dashboard(self, session: AsyncSession) -> Dashboard:
        repo = AdminRepository(session)
        versions, outcomes = await repo.totals()
        oldest_pending, last_merge = await repo.worker_marks()
        return Dashboard(
            status_counts=await repo.status_counts(),
            families=_families(await repo.family_counts()),
            trajectory_counts=await repo.trajectory_counts(),
            versions=versions,
            outcomes=outcomes,
            recent_events=await repo.events(gene_id=None, kind=None, before=None, limit=10),
            pending=await repo.trajectories(
                state=TrajectoryState.pending.value,
                producer_model=None,
                gene_id=None,
                oldest_first=True,
                before=None,
                limit=10,
            ),
            now=await repo.now(),
            oldest_pending=oldest_pending,
            last_merge=last_merge,
        )

    async def genes(
        self,
        session: AsyncSession,
        filters: GeneFilters,
        *,
        sort: GeneSort,
        descending: bool,
        page: int,
        size: int,
    ) -> GeneList:
        repo = AdminRepository(session)
        offset = (page - 1) * size
        total, rows = await repo.genes(filters, sort=sort, descending=descending, offset=offset, limit=size)
        families, categories, producers = await repo.gene_choices()
        return GeneList(
            rows=rows,
            page=Page(page, size, total),
            families=sorted(families or []),
            categories=sorted(categories or []),
            producers=sorted(producers or []),
        )

    async def _gene(self, repo: AdminRepository, gene_id: str) -> Gene:
        gene = await repo.gene(gene_id)
        if gene is None:
            raise AdminNotFound(f"no Gene with id {gene_id!r}")
        return gene

    async def gene_page(
        self, session: AsyncSession, gene_id: str, settings: Settings, href: Href
    ) -> GenePage:
        repo = AdminRepository(session)
        gene = await self._gene(repo, gene_id)
        lineage = await EvolutionRepository(session).lineage(gene_id, after=None, limit=MAX_VERSIONS + 1)
        more_versions = len(lineage) > MAX_VERSIONS
        lineage = lineage[:MAX_VERSIONS]
        linked = {tid for _, ids, guard_ids, _, _ in lineage for tid in [*(ids or []), *(guard_ids or [])]}
        runs = {row.id: row for row in await repo.trajectory_summaries(sorted(linked))}
        entries = [
            VersionEntry(
                version,
                [runs[tid] for tid in ids or [] if tid in runs],
                event,
                guard_runs=[runs[tid] for tid in guard_ids or [] if tid in runs],
                published_by=publisher,
            )
            for version, ids, guard_ids, publisher, event in lineage
        ]
        current = next((e.version for e in entries if e.version.version == gene.current_version), None)
        if current is None:  # a lineage longer than MAX_VERSIONS: its head is past the window
            row = await GeneRepository(session).gene_with_version(gene_id)
            assert row is not None
            current = row[1]
        document_json = await repo.document_json(gene_id, gene.current_version) or "{}"

        own = {e.version.asset_id for e in entries}
        inherited = None
        first_parent = entries[0].version.parent_asset_id if entries else None
        if first_parent is not None and first_parent not in own:
            for other_gene, number, asset in await repo.versions_by_asset([first_parent]):
                inherited = OtherVersion(
                    other_gene, number, asset, None, href("gene_page", gene_id=other_gene) + f"#v{number}"
                )
        forks = [
            OtherVersion(g, n, a, p, href("gene_page", gene_id=g) + f"#v{n}")
            for g, n, a, p in await repo.forks(gene_id, sorted(own))
        ]
        marks = [
            VersionMark(
                version=e.version.version,
                asset_id=e.version.asset_id,
                parent_asset_id=e.version.parent_asset_id,
                change=e.change,
                created=e.version.created_at,
                current=e.version.version == gene.current_version,
                href=f"#v{e.version.version}",
                trajectories=[
                    TrajectoryMark(
                        str(t.id), t.task_id, t.verifier_passed, href("trajectory_page", trajectory_id=t.id)
                    )
                    for t in [*e.trajectories, *e.guard_runs]
                ],
            )
            for e in entries
        ]
        stats = await self._stats(session, gene, settings)
        by_model = {q.consumer_model: q for q in stats.by_consumer_model}
        rates = [
            ModelRate(
                model,
                reports,
                successes,
                by_model[model].lower_bound if model in by_model else None,
                by_model[model].demoted if model in by_model else False,
            )
            for model, reports, successes in await repo.outcomes_by_model(gene_id)
        ]
        days = [
            DayCount(day.date(), reports, successes)
            for day, reports, successes in await repo.outcomes_by_day(gene_id)
        ]
        actions = [
            (target, label)
            for target, label in ACTIONS.items()
            if target != gene.status and gene.status in MANUAL_SOURCES[target]
        ]
        return GenePage(
            gene=gene,
            current=current,
            document_json=pretty_json(json.loads(document_json)),
            versions=entries,
            more_versions=more_versions,
            inherited=inherited,
            forks=forks,
            graph=lineage_graph(marks, inherited, forks),
            guards=await guard_reads(session, gene),
            owner=await repo.key_name(gene.owner_key_id),
            quorum=settings.guard_quorum,
            stats=stats,
            days=days,
            time_chart=success_over_time(days),
            model_chart=per_consumer_model(rates),
            events=await repo.events(gene_id=gene_id, kind=None, before=None, limit=20),
            actions=actions,
        )

    async def _stats(self, session: AsyncSession, gene: Gene, settings: Settings) -> GeneStats:
        if gene.status != GeneStatus.revoked:
            stats = await outcome_service.stats(session, gene.id, settings)
            return GeneStats(
                usage=stats.usage,
                discovery_cost=stats.discovery_cost,
                status_history=stats.status_history,
                quality=stats.quality,
                prior_mean=stats.prior_mean,
                by_consumer_model=stats.by_consumer_model,
                by_version={v.version: (v.reports, v.mean, v.lower_bound) for v in stats.by_version},
            )
        # The stats service answers 410 for a revoked Gene; the admin still sees its history and cost.
        usage, cost, history = await outcome_service.usage_cost_and_status(
            OutcomeRepository(session), gene.id
        )
        return GeneStats(usage=usage, discovery_cost=cost, status_history=history)

    async def diff(self, session: AsyncSession, gene_id: str, old: int | None, new: int | None) -> DiffPage:
        repo = AdminRepository(session)
        gene = await self._gene(repo, gene_id)
        versions = {v.version: v for v in await repo.versions(gene_id)}
        new = new if new is not None else gene.current_version
        old = old if old is not None else max(1, new - 1)
        for number in (old, new):
            if number not in versions:
                raise AdminNotFound(f"Gene {gene_id} has no version {number}")
        return DiffPage(
            gene=gene,
            versions=sorted(versions),
            old=versions[old],
            new=versions[new],
            diff=diff_documents(versions[old].document, versions[new].document),
        )

    async def set_status(
        self,
        session: AsyncSession,
        gene_id: str,
        target: str,
        reason: str,
        admin: AdminUser,
        *,
        client: str | None,
        path: str,
    ) -> ActionResult:
        """A lifecycle action by hand, recorded in the audit log whether it succeeds or is refused."""
        reason = reason.strip()
        detail: dict[str, Any] = {"status": target, "reason": reason[:REASON_MAX]}
        if target not in ACTIONS:
            result, status = ActionResult(False, f"{target!r} is not a Gene status"), 422
        elif not REASON_MIN <= len(reason) <= REASON_MAX:
            result = ActionResult(False, f"give a reason of {REASON_MIN} to {REASON_MAX} characters")
            status = 422
        else:
            try:
                change = await lifecycle_service.set_status(
                    session,
                    gene_id,
                    target,  # type: ignore[arg-type]  # checked against ACTIONS above
                    reason,
                    admin.principal,
                )
            except AppError as error:
                result, status = ActionResult(False, error.detail), error.status
            else:
                detail["from_status"] = change.from_status
                result = ActionResult(True, f"{gene_id} is now {change.status} ({change.from_status} before)")
                status = 200
        if not result.ok:
            detail["problem"] = result.message
        await self.audit(
            session,
            admin.principal,
            SET_STATUS_ACTION,
            gene_id,
            client=client,
            path=path,
            status=status,
            detail=detail,
        )
        return result

    async def review_guard(
        self,
        session: AsyncSession,
        gene_id: str,
        guard_id: int,
        decision: str,
        note: str,
        admin: AdminUser,
        embeddings: EmbeddingService,
        *,
        client: str | None,
        path: str,
    ) -> ActionResult:
        """Approve or reject a guard, recorded in the audit log whether it succeeds or is refused."""
        note = note.strip()
        detail: dict[str, Any] = {"guard_id": guard_id, "decision": decision, "note": note[:REASON_MAX]}
        if decision not in ("approve", "reject"):
            result, status = ActionResult(False, f"{decision!r} is not a review decision"), 422
        elif len(note) > REASON_MAX:
            result, status = ActionResult(False, f"keep the note under {REASON_MAX} characters"), 422
        else:
            try:
                reviewed = await evolution_service.review_guard(
                    session,
                    gene_id,
                    guard_id,
                    "approve" if decision == "approve" else "reject",
                    note or None,
                    admin.principal,
                    embeddings,
                )
            except AppError as error:
                result, status = ActionResult(False, error.detail), error.status
            else:
                served = "now served" if reviewed.kept else "not served"
                change = f"; new version {reviewed.version}" if reviewed.new_version else ""
                result = ActionResult(True, f"guard {guard_id} is {reviewed.state} ({served}){change}")
                status = 200
        if not result.ok:
            detail["problem"] = result.message
        await self.audit(
            session,
            admin.principal,
            REVIEW_GUARD_ACTION,
            gene_id,
            client=client,
            path=path,
            status=status,
            detail=detail,
        )
        return result

    async def audit(
        self,
        session: AsyncSession,
        principal: Principal,
        action: str,
        target: str | None,
        *,
        client: str | None,
        path: str,
        status: int,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """An admin-page action in the API's audit log (the access middleware leaves /admin to us)."""
        await key_service.audit(
            session,
            principal,
            action,
            target,
            client=client,
            method="POST",
            path=path,
            status=status,
            detail=detail,
        )

    async def producers(self, session: AsyncSession, settings: Settings) -> list[ProducerRow]:
        counts = await AdminRepository(session).outcomes_by_producer()
        rows = []
        for producer in await outcome_service.producers(session, settings):
            row = counts.get(producer.producer_model)
            rows.append(
                ProducerRow(
                    producer,
                    reports=row[1] if row else 0,
                    successes=row[2] if row else 0,
                    consumer_models=row[3] if row else 0,
                    genes_reported=row[4] if row else 0,
                )
            )
        return rows

    async def producer(self, session: AsyncSession, model: str, settings: Settings) -> ProducerPage:
        found = next(
            (p for p in await self.producers(session, settings) if p.reputation.producer_model == model), None
        )
        repo = AdminRepository(session)
        trajectories = await repo.trajectories_by_producer(model)
        if found is None and not trajectories:
            raise AdminNotFound(f"no producer model {model!r} has Genes, reports or trajectories here")
        if found is None:
            # Only runs so far (rejected, pending, or behind other producers' Genes): the uniform prior.
            prior = reputation(Evidence(0.0, 0.0, await repo.now()))
            level = settings.quality_lower_quantile
            found = ProducerRow(
                ProducerRead(
                    producer_model=model,
                    genes=0,
                    reports=0,
                    mean=prior.mean,
                    lower_bound=prior.quantile(level),
                ),
                reports=0,
                successes=0,
                consumer_models=0,
                genes_reported=0,
            )
        _, genes = await repo.genes(
            GeneFilters(producer_model=model), sort="quality", descending=True, offset=0, limit=500
        )
        return ProducerPage(
            producer=found,
            genes=genes,
            outcomes=await repo.outcomes_by_gene([row[0].id for row in genes]),
            trajectories=trajectories,
        )

    async def trajectory(self, session: AsyncSession, trajectory_id: uuid.UUID) -> TrajectoryPage:
        repo = AdminRepository(session)
        trajectory = await repo.trajectory(trajectory_id)
        if trajectory is None:
            raise AdminNotFound(f"no trajectory with id {trajectory_id}")
        result_version = None
        if trajectory.result_asset_id is not None:
            found = await repo.version_number(trajectory.result_asset_id)
            result_version = found[1] if found else None
        details = trajectory.verifier.get("details")
        return TrajectoryPage(
            trajectory=trajectory,
            versions=await repo.versions_backed_by(trajectory_id),
            events=await repo.events_with_trajectory(trajectory_id),
            guards=await repo.guards_evidenced_by(trajectory_id),
            result_version=result_version,
            verifier_details=None
            if details is None
            else details
            if isinstance(details, str)
            else pretty_json(details),
        )

    async def trajectories(
        self,
        session: AsyncSession,
        *,
        state: str | None,
        producer_model: str | None,
        gene_id: str | None,
        cursor: str | None,
        size: int,
    ) -> TrajectoryList:
        position = TRAJECTORY_CURSOR.decode(cursor)
        rows = await AdminRepository(session).trajectories(
            state=state,
            producer_model=producer_model,
            gene_id=gene_id,
            oldest_first=False,
            before=(position.received_at, position.id) if position else None,
            limit=size + 1,
        )
        page, next_cursor = TRAJECTORY_CURSOR.page(
            rows, size, lambda row: TrajectoryCursor(received_at=row.received_at, id=row.id)
        )
        return TrajectoryList(page, next_cursor)

    async def events(
        self, session: AsyncSession, *, gene_id: str | None, kind: str | None, cursor: str | None, size: int
    ) -> EventFeed:
        position = EVENT_CURSOR.decode(cursor)
        events = await AdminRepository(session).events(
            gene_id=gene_id, kind=kind, before=position.before if position else None, limit=size + 1
        )
        page, next_cursor = EVENT_CURSOR.page(events, size, lambda event: EventCursor(before=event.id))
        return EventFeed(page, next_cursor)

    async def audit_log(
        self,
        session: AsyncSession,
        *,
        key_id: uuid.UUID | None,
        action: str | None,
        target: str | None,
        failed: bool | None,
        cursor: str | None,
        size: int,
    ) -> AuditList:
        page = await key_service.audit_page(
            session,
            limit=size,
            cursor=cursor,
            key_id=key_id,
            action=action,
            target=target,
            since=None,
            until=None,
            failed=failed,
        )
        keys = await key_service.list_keys(session, include_revoked=True)
        return AuditList(page.items, page.next_cursor, keys)


admin_service = AdminService()
