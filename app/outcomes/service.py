"""Outcome reports, quality estimates and producer reputation (status changes: app/outcomes/lifecycle.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal
from app.config import Settings
from app.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.genes.repository import GeneRepository
from app.models import Gene, GeneQuality, Outcome
from app.outcomes.lifecycle import lifecycle_service
from app.outcomes.quality import Evidence, Posterior, negative_transfer, posterior, reputation, tally
from app.outcomes.repository import ALL_MODELS, OutcomeRepository
from app.outcomes.schemas import (
    CostRead,
    OutcomeIn,
    OutcomeRead,
    ProducerRead,
    QualityRead,
    StatsRead,
    StatusChangeRead,
    UsageRead,
    VersionQualityRead,
)
from app.redaction import redact


class AssetNotFound(NotFound):
    code = "asset-not-found"
    title = "Asset not found"


class SelfReport(Forbidden):
    code = "self-report"
    title = "A Gene's owner cannot report on it"


class ModelMismatch(Forbidden):
    code = "model-mismatch"
    title = "The key is bound to another consumer model"


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
        reporters=row.reporters,
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
        self, session: AsyncSession, gene_id: str, body: OutcomeIn, reporter: Principal, settings: Settings
    ) -> Reported:
        """Record a report and recompute the Gene's quality from every counted report, by key."""
        repo = OutcomeRepository(session)
        genes = GeneRepository(session)
        # The Gene's row lock serializes the updates of its quality rows and of its status.
        gene = await genes.live_gene(gene_id, lock=True)
        if reporter.key_id == gene.owner_key_id:
            raise SelfReport(f"{gene_id} is yours: its owner's reports never count for it")
        consumer_model = self._consumer_model(body, reporter)
        version = await genes.version_by_asset(body.asset_id)
        if version is None:
            raise AssetNotFound(f"no asset {body.asset_id} in this registry")
        if version.gene_id != gene_id:
            raise ValidationFailed(
                f"asset {body.asset_id} is a version of {version.gene_id}, not of {gene_id}"
            )
        note = await asyncio.to_thread(redact, body.note) if body.note else None
        values = {
            "gene_id": gene_id,
            "version_id": version.id,
            "asset_id": body.asset_id,
            "producer_model": version.producer_model,
            "reporter": str(reporter.key_id),
            "consumer_model": consumer_model,
            "model_bound": reporter.consumer_model is not None,
            "task_id": body.task_id,
            "attempt_id": body.attempt_id,
            "success": body.success,
            "score": body.score,
            "tokens_used": body.tokens_used,
            "baseline_tokens": body.baseline_tokens,
            "baseline_success": body.baseline_success,
            "reason": body.reason,
            "note": note[0] if note else None,
        }
        outcome_id = await repo.insert_outcome(values)
        if outcome_id is None:
            existing = await repo.existing_outcome(
                str(reporter.key_id), body.task_id, body.asset_id, body.attempt_id
            )
            if any(getattr(existing, key) != value for key, value in values.items()):
                raise ReportConflict(
                    f"task {body.task_id} with {body.asset_id} (attempt {body.attempt_id or '-'}) was "
                    "already reported with different figures; use another attempt_id for another attempt",
                    extra={"outcome_id": existing.id},
                )
            return Reported(await self._read(repo, existing, gene, settings), created=False)

        now = await genes.now()
        row = await repo.quality_for_update(gene_id, ALL_MODELS)
        # A copy: recompute() updates that very row.
        previous = self._evidence(row) if row is not None else None
        overall = await self.recompute(repo, gene, ALL_MODELS, now, settings)
        await self._credit_producer(repo, gene.producer_model, previous, overall, now, settings)
        if values["model_bound"]:
            await self.recompute(repo, gene, consumer_model, now, settings)
        prior = await self.prior_mean(repo, gene.producer_model, now, settings)
        post = posterior(self._evidence(overall), prior, settings.quality_prior_strength)
        await lifecycle_service.apply_rules(repo, gene, overall, post, settings)
        outcome = await repo.existing_outcome(
            str(reporter.key_id), body.task_id, body.asset_id, body.attempt_id
        )
        return Reported(await self._read(repo, outcome, gene, settings), created=True)

    @staticmethod
    def _consumer_model(body: OutcomeIn, reporter: Principal) -> str:
        bound = reporter.consumer_model
        if bound is not None:
            if body.consumer_model is not None and body.consumer_model != bound:
                raise ModelMismatch(
                    f"this key is bound to {bound!r}: it reports for that model only, "
                    f"not {body.consumer_model!r}"
                )
            return bound
        if body.consumer_model is None:
            raise ValidationFailed("consumer_model: required, since this key is not bound to a model")
        return body.consumer_model

    @staticmethod
    def _evidence(row: GeneQuality) -> Evidence:
        return Evidence(row.successes, row.failures, row.as_of)

    async def recompute(
        self, repo: OutcomeRepository, gene: Gene, consumer_model: str, now: datetime, settings: Settings
    ) -> GeneQuality:
        """The Gene's quality row (overall, or for one consumer model) from its counted reports."""
        half_life = settings.quality_half_life_days
        keys = await repo.key_tallies(
            gene.id, half_life, consumer_model=None if consumer_model == ALL_MODELS else consumer_model
        )
        counted = tally(keys, settings.quality_max_weight_per_key)
        row = await repo.quality_for_update(gene.id, consumer_model)
        if row is None:
            row = GeneQuality(gene_id=gene.id, consumer_model=consumer_model)
        row.successes, row.failures, row.as_of = counted.successes, counted.failures, now
        row.reports, row.reporters = counted.reports, counted.reporters
        row.paired_reports = counted.paired
        row.paired_successes = counted.paired_successes
        row.paired_baseline_successes = counted.paired_baseline_successes
        if consumer_model == ALL_MODELS:
            prior = await self.prior_mean(repo, gene.producer_model, now, settings)
            row.demoted = False
        else:
            overall = await repo.quality_for_update(gene.id, ALL_MODELS)
            prior = await self.prior_mean(repo, gene.producer_model, now, settings)
            if overall is not None:
                prior = posterior(self._evidence(overall), prior, settings.quality_prior_strength).mean
            row.demoted = negative_transfer(
                counted.paired,
                counted.paired_successes,
                counted.paired_baseline_successes,
                min_reports=settings.negative_transfer_min_reports,
                margin=settings.negative_transfer_margin,
            )
        post = posterior(self._evidence(row), prior, settings.quality_prior_strength)
        row.lower_bound = post.quantile(settings.quality_lower_quantile)
        row.updated_at = now
        await repo.save_quality(row)
        return row

    async def _credit_producer(
        self,
        repo: OutcomeRepository,
        producer_model: str,
        before: Evidence | None,
        after: GeneQuality,
        now: datetime,
        settings: Settings,
    ) -> None:
        """A producer's reputation is the sum of its Genes' counted evidence: add this Gene's change."""
        half_life = settings.quality_half_life_days
        old = before.at(now, half_life) if before is not None else Evidence(0.0, 0.0, now)
        producer = await repo.reputation_for_update(producer_model, now)
        current = Evidence(producer.successes, producer.failures, producer.as_of).at(now, half_life)
        producer.successes = max(0.0, current.successes + after.successes - old.successes)
        producer.failures = max(0.0, current.failures + after.failures - old.failures)
        producer.as_of, producer.reports = now, producer.reports + 1

    async def _read(
        self, repo: OutcomeRepository, outcome: Outcome, gene: Gene, settings: Settings
    ) -> OutcomeRead:
        rows = {row.consumer_model: row for row in await repo.qualities(gene.id)}
        overall = rows.get(ALL_MODELS)
        quality = None
        if overall is not None:
            prior = await self.prior_mean(repo, gene.producer_model, overall.as_of, settings)
            post = posterior(self._evidence(overall), prior, settings.quality_prior_strength)
            quality = _quality_read(None, overall, post, settings)
        return OutcomeRead(
            id=outcome.id,
            gene_id=gene.id,
            consumer_model=outcome.consumer_model,
            counted=outcome.reason != "irrelevant",
            status=gene.status,
            quality=quality,
        )

    async def stats(self, session: AsyncSession, gene_id: str, settings: Settings) -> StatsRead:
        repo = OutcomeRepository(session)
        genes = GeneRepository(session)
        gene = await genes.live_gene(gene_id)
        now = await genes.now()
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
        empty = GeneQuality(reports=0, reporters=0, successes=0.0, failures=0.0, demoted=False)
        overall_read = _quality_read(None, overall_row or empty, overall_post, settings)
        overall_read.weighted_successes, overall_read.weighted_failures = overall.successes, overall.failures
        by_model = []
        for model, row in rows.items():
            evidence = self._evidence(row).at(now, half_life)
            read = _quality_read(model, row, posterior(evidence, overall_post.mean, strength), settings)
            read.weighted_successes, read.weighted_failures = evidence.successes, evidence.failures
            by_model.append(read)
        by_version = []
        tallies = await repo.version_tallies(gene_id, half_life)
        for row in await repo.versions(gene_id):
            counted = tally(tallies.get(row.id, []), settings.quality_max_weight_per_key)
            version_prior = await self.prior_mean(repo, row.producer_model, now, settings)
            post = posterior(Evidence(counted.successes, counted.failures, now), version_prior, strength)
            by_version.append(
                VersionQualityRead(
                    version=row.version,
                    asset_id=row.asset_id,
                    reports=counted.reports,
                    mean=post.mean,
                    lower_bound=post.quantile(level),
                )
            )
        usage, cost, history = await self.usage_cost_and_status(repo, gene_id)
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
    async def usage_cost_and_status(
        repo: OutcomeRepository, gene_id: str
    ) -> tuple[UsageRead, CostRead, list[StatusChangeRead]]:
        """Reuse, discovery cost and status history: kept for every Gene, a revoked one included."""
        usage = await repo.usage(gene_id)
        cost = await repo.discovery_cost(gene_id)
        return (
            UsageRead(
                reports=usage.reports,
                reporters=usage.reporters,
                irrelevant=usage.irrelevant,
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
        now = await GeneRepository(session).now()
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
