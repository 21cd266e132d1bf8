"""The statistics behind quality, checked against scipy and against hand-computed values."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from scipy import stats

from app.outcomes.quality import Evidence, decay, negative_transfer, posterior, reputation

NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize(("successes", "failures"), [(0, 0), (1, 0), (2, 2), (40, 5), (3, 17), (0.5, 0.25)])
@pytest.mark.parametrize("prior_mean", [0.2, 0.5, 0.85])
def test_posterior_quantiles_match_scipy(successes: float, failures: float, prior_mean: float) -> None:
    post = posterior(Evidence(successes, failures, NOW), prior_mean, prior_strength=4)
    a, b = prior_mean * 4 + successes, (1 - prior_mean) * 4 + failures
    assert math.isclose(post.mean, stats.beta.mean(a, b), rel_tol=1e-12)
    for level in (0.05, 0.1, 0.5, 0.9):
        assert math.isclose(post.quantile(level), stats.beta.ppf(level, a, b), rel_tol=1e-9, abs_tol=1e-12)


def test_lower_bound_prefers_more_evidence_at_the_same_rate() -> None:
    few = posterior(Evidence(2, 0, NOW), 0.5, 4).quantile(0.1)
    many = posterior(Evidence(40, 5, NOW), 0.5, 4).quantile(0.1)
    assert few == pytest.approx(stats.beta.ppf(0.1, 4, 2))
    assert many > few  # 40/45 beats 2/2 on the lower bound, though not on the raw rate


def test_decay_halves_evidence_every_half_life() -> None:
    assert decay(0, 90) == 1.0
    assert decay(90 * 86400, 90) == pytest.approx(0.5)
    assert decay(180 * 86400, 90) == pytest.approx(0.25)
    old = Evidence(8.0, 2.0, NOW)
    later = old.at(NOW + timedelta(days=90), half_life_days=90)
    assert (later.successes, later.failures) == pytest.approx((4.0, 1.0))
    added = old.add(True, NOW + timedelta(days=90), half_life_days=90)
    assert (added.successes, added.failures, added.as_of) == (
        pytest.approx(5.0),
        pytest.approx(1.0),
        NOW + timedelta(days=90),
    )
    # Decay shrinks the evidence, not the rate: the posterior widens back towards the prior.
    assert posterior(later, 0.5, 4).quantile(0.1) < posterior(old, 0.5, 4).quantile(0.1)


def test_reputation_uses_a_uniform_prior() -> None:
    rep = reputation(Evidence(7, 3, NOW))
    assert rep.mean == pytest.approx(8 / 12)
    assert rep.quantile(0.1) == pytest.approx(stats.beta.ppf(0.1, 8, 4))


@pytest.mark.parametrize(
    ("paired", "with_gene", "without", "expected"),
    [
        (4, 0, 4, False),
        (5, 0, 5, True),
        (5, 4, 5, True),
        (5, 5, 5, False),
        (10, 6, 7, False),
        (10, 5, 7, True),
    ],
)
def test_negative_transfer_edges(paired: int, with_gene: int, without: int, expected: bool) -> None:
    assert negative_transfer(paired, with_gene, without, min_reports=5, margin=0.2) is expected
