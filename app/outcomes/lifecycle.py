"""The Gene lifecycle: candidate, promoted, deprecated, revoked; by rule and by hand.

Rules (after every counted outcome report, app/outcomes/service.py), counting keys rather than
reports or model names:
- candidate → promoted when the quality lower bound reaches `promote_min_lower_bound` from at least
  `promote_min_successes` weighted successes reported by `promote_min_reporters` distinct keys;
- candidate or promoted → deprecated when `deprecate_min_reports` reports from
  `deprecate_min_reporters` distinct keys put the success upper bound below `deprecate_max_upper_bound`.
By hand: an admin sets any status (with a reason); the Gene's owner may revoke it. Revoked is final.
Every transition is recorded with its actor and reason.
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal, Role
from app.config import Settings
from app.errors import Conflict, Forbidden
from app.genes.errors import GeneNotFound
from app.genes.repository import GeneRepository
from app.models import Gene, GeneQuality, GeneStatus
from app.outcomes.quality import Posterior, tally
from app.outcomes.repository import OutcomeRepository
from app.outcomes.schemas import LifecycleChange

RULES = "lifecycle rules"
MIRROR = "mirror"  # statuses taken from another registry (genebank import, genebank mirror)
# The statuses a Gene may be set to by hand, each with the statuses it may come from; revoked is final.
MANUAL_SOURCES: dict[str, set[str]] = {
    GeneStatus.candidate: {GeneStatus.promoted, GeneStatus.deprecated},
    GeneStatus.promoted: {GeneStatus.candidate, GeneStatus.deprecated},
    GeneStatus.deprecated: {GeneStatus.candidate, GeneStatus.promoted},
    GeneStatus.revoked: {GeneStatus.candidate, GeneStatus.promoted, GeneStatus.deprecated},
}


class LifecycleService:
    async def apply_rules(
        self, repo: OutcomeRepository, gene: Gene, overall: GeneQuality, post: Posterior, settings: Settings
    ) -> LifecycleChange | None:
        """Promote or deprecate by the rules, given the Gene's overall quality row and posterior; a
        revoked Gene never changes by rule."""
        lower = post.quantile(settings.quality_lower_quantile)
        upper = post.quantile(1 - settings.quality_lower_quantile)
        target: str | None = None
        reason = ""
        if (
            gene.status in (GeneStatus.candidate, GeneStatus.promoted)
            and overall.reports >= settings.deprecate_min_reports
            and overall.reporters >= settings.deprecate_min_reporters
            and upper < settings.deprecate_max_upper_bound
        ):
            target = GeneStatus.deprecated
            limit = settings.deprecate_max_upper_bound
            reason = (
                f"{overall.reports} reports from {overall.reporters} keys, "
                f"success upper bound {upper:.2f} < {limit}"
            )
        elif gene.status == GeneStatus.candidate and lower >= settings.promote_min_lower_bound:
            keys = await repo.key_tallies(gene.id, settings.quality_half_life_days)
            successful = tally(keys, settings.quality_max_weight_per_key).successful_reporters
            if (
                overall.successes >= settings.promote_min_successes
                and successful >= settings.promote_min_reporters
            ):
                target = GeneStatus.promoted
                reason = (
                    f"success lower bound {lower:.2f} >= {settings.promote_min_lower_bound} from "
                    f"{overall.successes:.1f} weighted successes reported by {successful} keys"
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
        gene = await GeneRepository(session).lock_gene(gene_id)
        if gene is None:
            raise GeneNotFound(f"no gene with id {gene_id!r}")
        owner = gene.owner_key_id == caller.key_id
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

    async def mirror_status(self, session: AsyncSession, gene_id: str, target: str, reason: str) -> bool:
        """Take the status another registry gives the Gene (genebank import / mirror); False when
        the Gene is not here or already has it. Any transition: the source's rules already ran."""
        if target not in GeneStatus.__members__:
            raise ValueError(f"unknown status {target!r}")
        repo = OutcomeRepository(session)
        gene = await GeneRepository(session).lock_gene(gene_id)
        if gene is None or gene.status == target:
            return False
        await self.transition(repo, gene, target, reason, MIRROR)
        return True


lifecycle_service = LifecycleService()
