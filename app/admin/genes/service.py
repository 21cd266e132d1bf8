"""The Gene pages: the sortable list, one Gene (lineage, outcomes, versions, guards), the diff of two
versions, and the two actions taken there (a status change, a guard review), each audited."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.activity.repository import ActivityRepository
from app.admin.auth import AdminUser
from app.admin.common import (
    REASON_MAX,
    REASON_MIN,
    ActionResult,
    AdminNotFound,
    AnyRow,
    Href,
    Page,
    audit_action,
    pretty_json,
)
from app.admin.diff import DocumentDiff, diff_documents
from app.admin.genes.repository import AdminGeneRepository, GeneFilters, GeneSort
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
from app.admin.trajectories.repository import AdminTrajectoryRepository
from app.config import Settings
from app.embeddings import EmbeddingService
from app.errors import AppError
from app.evolution.repository import EvolutionRepository
from app.evolution.schemas import GuardRead
from app.evolution.service import evolution_service
from app.evolution.timeline import guard_reads
from app.genes.repository import GeneRepository
from app.models import EvolutionEvent, Gene, GeneStatus, GeneVersion
from app.outcomes.lifecycle import MANUAL_SOURCES, lifecycle_service
from app.outcomes.repository import OutcomeRepository
from app.outcomes.schemas import CostRead, QualityRead, StatusChangeRead, UsageRead
from app.outcomes.service import outcome_service

# Lifecycle actions offered on a Gene page, in this order; revocation is final.
ACTIONS = {
    GeneStatus.promoted.value: "Promote",
    GeneStatus.deprecated.value: "Deprecate",
    GeneStatus.candidate.value: "Return to candidate",
    GeneStatus.revoked.value: "Revoke (final)",
}
SET_STATUS_ACTION = "admin.set_status"
REVIEW_GUARD_ACTION = "admin.review_guard"
# A Gene page draws at most this many versions; longer lineages link to the versions beyond.
MAX_VERSIONS = 200


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

    @property
    def status_change(self) -> StatusChangeRead | None:
        """The change that set the current status: its reason speaks of that moment, not of now."""
        return next((c for c in reversed(self.stats.status_history) if c.to_status == self.gene.status), None)


@dataclass
class DiffPage:
    gene: Gene
    versions: list[int]
    old: GeneVersion
    new: GeneVersion
    diff: DocumentDiff


async def gene_or_404(repo: AdminGeneRepository, gene_id: str) -> Gene:
    gene = await repo.gene(gene_id)
    if gene is None:
        raise AdminNotFound(f"no Gene with id {gene_id!r}")
    return gene


class GenePages:
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
        repo = AdminGeneRepository(session)
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

    async def gene_page(
        self, session: AsyncSession, gene_id: str, settings: Settings, href: Href
    ) -> GenePage:
        repo = AdminGeneRepository(session)
        gene = await gene_or_404(repo, gene_id)
        lineage = await EvolutionRepository(session).lineage(gene_id, after=None, limit=MAX_VERSIONS + 1)
        more_versions = len(lineage) > MAX_VERSIONS
        lineage = lineage[:MAX_VERSIONS]
        linked = {tid for _, ids, guard_ids, _, _ in lineage for tid in [*(ids or []), *(guard_ids or [])]}
        runs = {row.id: row for row in await AdminTrajectoryRepository(session).summaries(sorted(linked))}
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
            events=await ActivityRepository(session).events(
                gene_id=gene_id, kind=None, before=None, limit=20
            ),
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
        repo = AdminGeneRepository(session)
        gene = await gene_or_404(repo, gene_id)
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
        return await _audited(
            session, admin, SET_STATUS_ACTION, gene_id, result, status, detail, client=client, path=path
        )

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
        return await _audited(
            session, admin, REVIEW_GUARD_ACTION, gene_id, result, status, detail, client=client, path=path
        )


async def _audited(
    session: AsyncSession,
    admin: AdminUser,
    action: str,
    gene_id: str,
    result: ActionResult,
    status: int,
    detail: dict[str, Any],
    *,
    client: str | None,
    path: str,
) -> ActionResult:
    """An action's result, recorded in the audit log whether it succeeded or was refused."""
    if not result.ok:
        detail["problem"] = result.message
    await audit_action(
        session, admin.principal, action, gene_id, client=client, path=path, status=status, detail=detail
    )
    return result


gene_pages = GenePages()
