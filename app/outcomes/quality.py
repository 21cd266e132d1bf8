"""Quality estimates from outcome reports: decayed evidence, a Beta posterior, and its quantiles.

A Gene's success probability gets a Beta prior centred on its producer's reputation
(mean m, strength n0: Beta(m·n0, (1-m)·n0)); each report adds its weight to successes or
failures, the weight being 0.5^(age / half-life) so old evidence fades. The quality the registry
ranks by is the posterior's lower quantile (10 % by default): a Gene with 2 successes out of 2 ranks
below one with 40 out of 45, because its estimate is still mostly prior.

A producer's reputation is the same computation over every report on its Genes, from the uniform
prior Beta(1, 1); its posterior mean is the prior mean of its Genes.

Evidence is counted by reporting key, not by report: each key's decayed evidence on a Gene is scaled
down to at most `max_weight` reports' worth (keeping its success ratio), so one key, or a handful,
cannot carry a Gene's quality however many reports it sends (bench/outcomes.py measures how many
keys an adversary needs). A report's credit is 1 for a success, 0 for a failure, and its score (0.5
without one) for a partial success; a report that says the Gene was the wrong one for the task
(`irrelevant`) is a retrieval miss, not evidence about the Gene, and is not counted.
"""

from __future__ import annotations

from collections.abc import Sequence
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


@dataclass(frozen=True)
class KeyTally:
    """One reporting key's evidence on one Gene (or one Gene and consumer model)."""

    successes: float  # decayed, credit-weighted
    failures: float
    reports: int
    paired: int  # reports that also gave the consumer's result without the Gene
    paired_successes: int
    paired_baseline_successes: int

    @property
    def weight(self) -> float:
        return self.successes + self.failures


@dataclass(frozen=True)
class Tally:
    """The evidence of several keys, each capped at `max_weight` reports' worth."""

    successes: float
    failures: float
    reports: int
    reporters: int
    successful_reporters: int
    paired: float
    paired_successes: float
    paired_baseline_successes: float


def tally(keys: Sequence[KeyTally], max_weight: float) -> Tally:
    successes = failures = paired = paired_successes = paired_baseline = 0.0
    for key in keys:
        scale = min(1.0, max_weight / key.weight) if key.weight > 0 else 1.0
        successes += key.successes * scale
        failures += key.failures * scale
        paired_scale = min(1.0, max_weight / key.paired) if key.paired else 1.0
        paired += key.paired * paired_scale
        paired_successes += key.paired_successes * paired_scale
        paired_baseline += key.paired_baseline_successes * paired_scale
    return Tally(
        successes=successes,
        failures=failures,
        reports=sum(key.reports for key in keys),
        reporters=sum(1 for key in keys if key.reports),
        successful_reporters=sum(1 for key in keys if key.successes > 0),
        paired=paired,
        paired_successes=paired_successes,
        paired_baseline_successes=paired_baseline,
    )


def negative_transfer(
    paired: float, with_gene: float, without_gene: float, *, min_reports: int, margin: float
) -> bool:
    """True when, over reports that also gave the baseline, the Gene's success rate trails it by `margin`."""
    if paired < min_reports:
        return False
    return (with_gene - without_gene) / paired <= -margin
