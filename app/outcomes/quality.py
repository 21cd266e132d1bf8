"""Quality estimates from outcome reports: decayed evidence, a Beta posterior, and its quantiles.

A Gene's success probability gets a Beta prior centred on its producer's reputation
(mean m, strength n0: Beta(m·n0, (1-m)·n0)); each report adds its weight to successes or
failures, the weight being 0.5^(age / half-life) so old evidence fades. The quality the registry
ranks by is the posterior's lower quantile (10 % by default): a Gene with 2 successes out of 2 ranks
below one with 40 out of 45, because its estimate is still mostly prior.

A producer's reputation is the same computation over every report on its Genes, from the uniform
prior Beta(1, 1); its posterior mean is the prior mean of its Genes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scipy.special import betaincinv

UNIFORM = (1.0, 1.0)


def decay(age_seconds: float, half_life_days: float) -> float:
    return float(0.5 ** (max(0.0, age_seconds) / (half_life_days * 86400.0)))


@dataclass(frozen=True)
class Evidence:
    """Weighted successes and failures as of `as_of`."""

    successes: float
    failures: float
    as_of: datetime

    def at(self, moment: datetime, half_life_days: float) -> Evidence:
        factor = decay((moment - self.as_of).total_seconds(), half_life_days)
        return Evidence(self.successes * factor, self.failures * factor, moment)

    def add(self, success: bool, moment: datetime, half_life_days: float) -> Evidence:
        current = self.at(moment, half_life_days)
        return Evidence(
            current.successes + (1.0 if success else 0.0),
            current.failures + (0.0 if success else 1.0),
            moment,
        )

    @property
    def weight(self) -> float:
        return self.successes + self.failures


@dataclass(frozen=True)
class Posterior:
    alpha: float
    beta: float

    @property
    def mean(self) -> float:
        return self.alpha / (self.alpha + self.beta)

    def quantile(self, level: float) -> float:
        return float(betaincinv(self.alpha, self.beta, level))


def posterior(evidence: Evidence, prior_mean: float, prior_strength: float) -> Posterior:
    prior_mean = min(max(prior_mean, 1e-3), 1 - 1e-3)
    return Posterior(
        alpha=prior_mean * prior_strength + evidence.successes,
        beta=(1 - prior_mean) * prior_strength + evidence.failures,
    )


def reputation(evidence: Evidence) -> Posterior:
    return Posterior(UNIFORM[0] + evidence.successes, UNIFORM[1] + evidence.failures)


def negative_transfer(
    paired: int, with_gene: int, without_gene: int, *, min_reports: int, margin: float
) -> bool:
    """True when, over reports that also gave the baseline, the Gene's success rate trails it by `margin`."""
    if paired < min_reports:
        return False
    return (with_gene - without_gene) / paired <= -margin
