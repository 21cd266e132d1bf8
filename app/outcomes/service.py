"""Outcome reports, quality estimates, producer reputation and the Gene lifecycle."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.config import Settings
from app.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.genes.service import GeneRevoked
from app.models import Gene, GeneQuality, GeneStatus
from app.outcomes.quality import Evidence, Posterior, negative_transfer, posterior, reputation
from app.outcomes.repository import ALL_MODELS, OutcomeRepository
from app.outcomes.schemas import (
    CostRead,
    LifecycleChange,
    OutcomeIn,
    OutcomeRead,
    ProducerRead,
    QualityRead,
    StatsRead,
    StatusChangeRead,
    UsageRead,
    VersionQualityRead,
)

RULES = "lifecycle rules"
# The statuses a Gene may be set to by hand, each with the statuses it may come from; revoked is final.
MANUAL_SOURCES: dict[str, set[str]] = {
    GeneStatus.candidate: {GeneStatus.promoted, GeneStatus.deprecated},
    GeneStatus.promoted: {GeneStatus.candidate, GeneStatus.deprecated},
    GeneStatus.deprecated: {GeneStatus.candidate, GeneStatus.promoted},
    GeneStatus.revoked: {GeneStatus.candidate, GeneStatus.promoted, GeneStatus.deprecated},
}


class AssetNotFound(NotFound):
    code = "asset-not-found"
    title = "Asset not found"


class ReportConflict(Conflict):
    code = "report-conflict"
    title = "A different report was already made for this task, asset and attempt"


@dataclass
class Reported:
    outcome: OutcomeRead
    created: bool


def _quality_read(
    consumer_model: str | None, row: GeneQuality, post: Posterior, settings: Settings
) -> QualityRead:
    level = settings.quality_lower_quantile
    return QualityRead(
        consumer_model=consumer_model,
        reports=row.reports,
        weighted_successes=row.successes,
        weighted_failures=row.failures,
        mean=post.mean,
        lower_bound=post.quantile(level),
        upper_bound=post.quantile(1 - level),
        demoted=row.demoted,
    )


class OutcomeService:
    async def prior_mean(
        self, repo: OutcomeRepository, producer_model: str, now: datetime, settings: Settings
    ) -> float:
        row = await repo.reputation(producer_model)
        if row is None:
            return 0.5
        evidence = Evidence(row.successes, row.failures, row.as_of).at(now, settings.quality_half_life_days)
        return reputation(evidence).mean

    async def report(
        self, session: AsyncSession, gene_id: str, body: OutcomeIn, reporter: str, settings: Settings
    ) -> Reported:
        repo = OutcomeRepository(session)
        # The Gene's row lock serializes the updates of its quality rows and of its status.
        gene = await repo.lock_gene(gene_id)
        if gene is None:
            raise NotFound(f"no gene with id {gene_id!r}")
        if gene.status == GeneStatus.revoked:
            raise GeneRevoked(f"gene {gene_id} was revoked: reports against it are not taken")
        version = await repo.version_by_asset(body.asset_id)
        if version is None:
            raise AssetNotFound(f"no asset {body.asset_id} in this registry")
        if version.gene_id != gene_id:
            raise ValidationFailed(
                f"asset {body.asset_id} is a version of {version.gene_id}, not of {gene_id}"
            )

        values = {
            "gene_id": gene_id,
            "version_id": version.id,
            "asset_id": body.asset_id,
            "producer_model": version.producer_model,
            "reporter": reporter,
            "consumer_model": body.consumer_model,
            "task_id": body.task_id,
            "attempt_id": body.attempt_id,
            "success": body.success,
            "score": body.score,
            "tokens_used": body.tokens_used,
            "baseline_tokens": body.baseline_tokens,
            "baseline_success": body.baseline_success,
        }
        outcome_id = await repo.insert_outcome(values)
        if outcome_id is None:
            existing = await repo.existing_outcome(reporter, body.task_id, body.asset_id, body.attempt_id)
            if any(getattr(existing, key) != value for key, value in values.items()):
                raise ReportConflict(
                    f"task {body.task_id} with {body.asset_id} (attempt {body.attempt_id or '-'}) was "
                    "already reported with different figures; use another attempt_id for another attempt",
                    extra={"outcome_id": existing.id},
                )
            return Reported(await self._read(repo, existing.id, gene, settings), created=False)

        now = await repo.now()
        half_life = settings.quality_half_life_days
        producer = await repo.reputation_for_update(version.producer_model, now)
        producer_evidence = Evidence(producer.successes, producer.failures, producer.as_of).add(
            body.success, now, half_life
        )
        producer.successes, producer.failures = producer_evidence.successes, producer_evidence.failures
        producer.as_of, producer.reports = now, producer.reports + 1
        prior = reputation(producer_evidence).mean

        overall = await self._update_quality(repo, gene_id, ALL_MODELS, body, now, prior, settings)
        overall_mean = posterior(self._evidence(overall), prior, settings.quality_prior_strength).mean
        per_model = await self._update_quality(
            repo, gene_id, body.consumer_model, body, now, overall_mean, settings
        )
        per_model.demoted = negative_transfer(
            per_model.paired_reports,
            per_model.paired_successes,
            per_model.paired_baseline_successes,
            min_reports=settings.negative_transfer_min_reports,
            margin=settings.negative_transfer_margin,
        )
        await repo.save_quality(per_model)
        await self.apply_rules(repo, gene, overall, prior, settings)
        return Reported(await self._read(repo, int(outcome_id), gene, settings), created=True)

    @staticmethod
    def _evidence(row: GeneQuality) -> Evidence:
        return Evidence(row.successes, row.failures, row.as_of)

    async def _update_quality(
        self,
        repo: OutcomeRepository,
        gene_id: str,
        consumer_model: str,
        body: OutcomeIn,
        now: datetime,
        prior_mean: float,
        settings: Settings,
    ) -> GeneQuality:
        row = await repo.quality_for_update(gene_id, consumer_model)
        if row is None:
            row = GeneQuality(
                gene_id=gene_id,
                consumer_model=consumer_model,
                successes=0.0,
                failures=0.0,
                reports=0,
                as_of=now,
            )
            row.paired_reports = row.paired_successes = row.paired_baseline_successes = 0
            row.demoted = False
        evidence = self._evidence(row).add(body.success, now, settings.quality_half_life_days)
        row.successes, row.failures, row.as_of = evidence.successes, evidence.failures, now
        row.reports += 1
        if body.baseline_success is not None:
            row.paired_reports += 1
            row.paired_successes += int(body.success)
            row.paired_baseline_successes += int(body.baseline_success)
        post = posterior(evidence, prior_mean, settings.quality_prior_strength)
        row.lower_bound = post.quantile(settings.quality_lower_quantile)
        row.updated_at = now
        await repo.save_quality(row)
        return row

    async def apply_rules(
        self, repo: OutcomeRepository, gene: Gene, overall: GeneQuality, prior: float, settings: Settings
    ) -> LifecycleChange | None:
        """Promote or deprecate by the rules; a revoked Gene never changes by rule."""
        post = posterior(self._evidence(overall), prior, settings.quality_prior_strength)
        lower = post.quantile(settings.quality_lower_quantile)
        upper = post.quantile(1 - settings.quality_lower_quantile)
        target: str | None = None
        reason = ""
        if (
            gene.status in (GeneStatus.candidate, GeneStatus.promoted)
            and overall.reports >= settings.deprecate_min_reports
            and upper < settings.deprecate_max_upper_bound
        ):
            target = GeneStatus.deprecated
            limit = settings.deprecate_max_upper_bound
            reason = f"{overall.reports} reports, success upper bound {upper:.2f} < {limit}"
        elif gene.status == GeneStatus.candidate and lower >= settings.promote_min_lower_bound:
            models = await repo.successful_models(gene.id)
            if (
                overall.successes >= settings.promote_min_successes
                and models >= settings.promote_min_consumer_models
            ):
                target = GeneStatus.promoted
                reason = (
                    f"success lower bound {lower:.2f} >= {settings.promote_min_lower_bound} from "
                    f"{overall.successes:.1f} weighted successes across {models} consumer models"
                )
        if target is None:
            return None
        return await self.transition(repo, gene, target, reason, RULES)

    async def transition(
        self, repo: OutcomeRepository, gene: Gene, target: str, reason: str, actor: str
    ) -> LifecycleChange:
        previous = gene.status
        await repo.set_status(gene.id, target, reason)
        await repo.record_status_change(gene.id, previous, target, reason, actor)
        gene.status, gene.status_message = target, reason
        return LifecycleChange(
            gene_id=gene.id, from_status=previous, status=target, reason=reason, actor=actor
        )

    async def set_status(
        self,
        session: AsyncSession,
        gene_id: str,
        target: Literal["candidate", "promoted", "deprecated", "revoked"],
        reason: str,
        caller: Principal,
    ) -> LifecycleChange:
        """A lifecycle action by hand: any by an admin; revocation also by the Gene's owner."""
        repo = OutcomeRepository(session)
        gene = await repo.lock_gene(gene_id)
        if gene is None:
            raise NotFound(f"no gene with id {gene_id!r}")
        owner = gene.owner_key_id is not None and gene.owner_key_id == caller.key_id
        if not caller.at_least(Role.admin) and not (target == GeneStatus.revoked and owner):
            raise Forbidden(
                "only an admin sets a Gene's status; its owner may revoke it"
                if target != GeneStatus.revoked
                else f"only an admin or the owner of {gene_id} may revoke it"
            )
        if gene.status == target:
            raise Conflict(f"gene {gene_id} is already {target}")
        if gene.status not in MANUAL_SOURCES[target]:
            raise Conflict(f"gene {gene_id} is {gene.status}: it cannot be set to {target}")
        return await self.transition(repo, gene, target, reason, caller.name)

    async def _read(
        self, repo: OutcomeRepository, outcome_id: int, gene: Gene, settings: Settings
    ) -> OutcomeRead:
        rows = {row.consumer_model: row for row in await repo.qualities(gene.id)}
        overall = rows.get(ALL_MODELS)
        quality = None
        if overall is not None:
            prior = await self.prior_mean(repo, gene.producer_model, overall.as_of, settings)
            post = posterior(self._evidence(overall), prior, settings.quality_prior_strength)
            quality = _quality_read(None, overall, post, settings)
        return OutcomeRead(id=outcome_id, gene_id=gene.id, status=gene.status, quality=quality)

    async def stats(self, session: AsyncSession, gene_id: str, settings: Settings) -> StatsRead:
        repo = OutcomeRepository(session)
        gene = await session.get(Gene, gene_id)
        if gene is None:
            raise NotFound(f"no gene with id {gene_id!r}")
        if gene.status == GeneStatus.revoked:
            raise GeneRevoked(
                f"gene {gene_id} was revoked" + (f": {gene.status_message}" if gene.status_message else "")
            )
        now = await repo.now()
        half_life = settings.quality_half_life_days
        strength = settings.quality_prior_strength
        level = settings.quality_lower_quantile
        prior = await self.prior_mean(repo, gene.producer_model, now, settings)
        rows = {row.consumer_model: row for row in await repo.qualities(gene_id)}
        overall_row = rows.pop(ALL_MODELS, None)
        overall = Evidence(0.0, 0.0, now)
        if overall_row is not None:
            overall = self._evidence(overall_row).at(now, half_life)
        overall_post = posterior(overall, prior, strength)
        empty = GeneQuality(reports=0, successes=0.0, failures=0.0, demoted=False)
        overall_read = _quality_read(None, overall_row or empty, overall_post, settings)
        overall_read.weighted_successes, overall_read.weighted_failures = overall.successes, overall.failures
        by_model = []
        for model, row in rows.items():
            evidence = self._evidence(row).at(now, half_life)
            read = _quality_read(model, row, posterior(evidence, overall_post.mean, strength), settings)
            read.weighted_successes, read.weighted_failures = evidence.successes, evidence.failures
            by_model.append(read)
        by_version = []
        for row in await repo.per_version(gene_id, half_life):
            version_prior = await self.prior_mean(repo, row.producer_model, now, settings)
            post = posterior(
                Evidence(float(row.successes), float(row.failures), now), version_prior, strength
            )
            by_version.append(
                VersionQualityRead(
                    version=row.version,
                    asset_id=row.asset_id,
                    reports=row.reports,
                    mean=post.mean,
                    lower_bound=post.quantile(level),
                )
            )
        usage, cost, history = await self.history(repo, gene_id)
        return StatsRead(
            gene_id=gene_id,
            status=gene.status,
            status_message=gene.status_message,
            prior_mean=prior,
            quality=overall_read,
            by_consumer_model=by_model,
            by_version=by_version,
            usage=usage,
            discovery_cost=cost,
            status_history=history,
        )

    @staticmethod
    async def history(
        repo: OutcomeRepository, gene_id: str
    ) -> tuple[UsageRead, CostRead, list[StatusChangeRead]]:
        """Reuse, discovery cost and status history: kept for every Gene, a revoked one included."""
        usage = await repo.usage(gene_id)
        cost = await repo.discovery_cost(gene_id)
        return (
            UsageRead(
                reports=usage.reports,
                consumer_models=usage.consumer_models,
                tasks=usage.tasks,
                reports_with_baseline=usage.reports_with_baseline,
                tokens_saved=int(usage.tokens_saved),
            ),
            CostRead(
                tokens=int(cost.tokens),
                attempts=int(cost.attempts),
                seconds=float(cost.seconds),
                runs=cost.runs,
            ),
            [
                StatusChangeRead(
                    from_status=c.from_status,
                    to_status=c.to_status,
                    reason=c.reason,
                    actor=c.actor,
                    at=c.created_at,
                )
                for c in await repo.status_changes(gene_id)
            ],
        )

    async def producers(self, session: AsyncSession, settings: Settings) -> list[ProducerRead]:
        repo = OutcomeRepository(session)
        now = await repo.now()
        level = settings.quality_lower_quantile
        result = []
        for row, genes in await repo.reputations():
            evidence = Evidence(row.successes, row.failures, row.as_of).at(
                now, settings.quality_half_life_days
            )
            post = reputation(evidence)
            result.append(
                ProducerRead(
                    producer_model=row.producer_model,
                    genes=genes,
                    reports=row.reports,
                    mean=post.mean,
                    lower_bound=post.quantile(level),
                )
            )
        uniform = reputation(Evidence(0.0, 0.0, now))
        for model, genes in await repo.producers_without_reports():
            result.append(
                ProducerRead(
                    producer_model=model,
                    genes=genes,
                    reports=0,
                    mean=uniform.mean,
                    lower_bound=uniform.quantile(level),
                )
            )
        result.sort(key=lambda p: (-p.lower_bound, p.producer_model))
        return result


outcome_service = OutcomeService()
