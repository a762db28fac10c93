"""The pentanomial GSPRT: its likelihood ratio, its error rates on simulated pairs, the Elo interval."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

from zerosum.evaluation import gsprt
from zerosum.evaluation.gsprt import (
    PAIR_SCORES,
    Sprt,
    SprtError,
    constrained_mle,
    elo_estimate,
    elo_to_score,
    llr,
    llr_bounds,
    pair_category,
    pair_probabilities,
    score_interval,
    simulate,
)


def test_docstring_examples():
    assert doctest.testmod(gsprt).failed == 0


def test_wald_bounds():
    lower, upper = llr_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    assert llr_bounds(0.05, 0.10) == pytest.approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))
    assert Sprt(0, 5, alpha=0.01, beta=0.2).bounds == pytest.approx(llr_bounds(0.01, 0.2))


@pytest.mark.parametrize(("args", "message"), [
    ((50, 0), "ELO1 must be above ELO0"), ((10, 10), "ELO1 must be above ELO0"),
    ((0, 5, 0.5, 0.05), "alpha=0.5 is not allowed: a probability strictly between 0 and 0.5"),
    ((0, 5, 0.05, 0.0), "beta=0.0 is not allowed"), ((0, 5, -0.1, 0.05), "alpha=-0.1"),
    ((0, math.inf), "elo1=inf is not allowed"), ((0, "5"), "elo1='5'"), ((0, 5, True, 0.05), "alpha=True"),
])
def test_bad_parameters(args, message):
    with pytest.raises(SprtError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Sprt(*args)


def test_constrained_mle_is_the_most_likely_distribution_with_that_mean():
    counts = np.array([3, 10, 20, 12, 5])
    rng = np.random.default_rng(0)
    for s in (0.3, 0.5, 0.57, 0.8):
        p = constrained_mle(counts, s)
        assert p.sum() == pytest.approx(1) and (p * PAIR_SCORES).sum() == pytest.approx(s) and (p > 0).all()
        best = (counts * np.log(p)).sum()
        for _ in range(200):  # any small move that keeps the sum and the mean lowers the likelihood
            v = rng.normal(size=5)
            basis = np.vstack([np.ones(5), PAIR_SCORES])
            v -= basis.T @ np.linalg.lstsq(basis.T, v, rcond=None)[0]
            q = p + 1e-3 * v / np.abs(v).max()
            assert (counts * np.log(q)).sum() < best


def test_llr_is_the_log_ratio_of_the_two_constrained_fits():
    counts = np.array([3, 10, 20, 12, 5])
    s0, s1 = elo_to_score(-10), elo_to_score(30)
    direct = (counts * np.log(constrained_mle(counts, s1) / constrained_mle(counts, s0))).sum()
    assert llr(counts, -10, 30) == pytest.approx(direct, rel=1e-9)
    assert llr(counts, 30, -10) == pytest.approx(-direct, rel=1e-9)
    rows = np.array([[0, 0, 20, 0, 0], [1, 2, 3, 2, 1], counts])
    assert llr(rows, -10, 30) == pytest.approx([llr(r, -10, 30) for r in rows])


def test_llr_agrees_with_the_normal_approximation_on_many_pairs():
    """For small Elo differences, LLR ~ N (s1 - s0)(2 mean - s0 - s1) / (2 var) (fishtest's approximation)."""
    counts = np.random.default_rng(1).multinomial(40_000, pair_probabilities(4, draw=0.4))
    pdf = counts / counts.sum()
    mean = (pdf * PAIR_SCORES).sum()
    var = (pdf * (PAIR_SCORES - mean) ** 2).sum()
    s0, s1 = elo_to_score(0), elo_to_score(5)
    assert llr(counts, 0, 5) == pytest.approx(counts.sum() * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), rel=0.02)


@pytest.mark.parametrize(("test", "draw"), [(Sprt(0, 50), 0.3), (Sprt(-10, 30, alpha=0.05, beta=0.10), 0.6)])
def test_wrong_decisions_stay_within_alpha_and_beta(test, draw):
    """1000 seeded simulated tests at Elo = ELO0 and 1000 at ELO1: the rates of wrong decisions."""
    n = 1000
    at_h0 = simulate(test, pair_probabilities(test.elo0, draw), tests=n, seed=11)
    at_h1 = simulate(test, pair_probabilities(test.elo1, draw), tests=n, seed=12)
    for sim, rate in ((at_h0, test.alpha), (at_h1, test.beta)):
        wrong = (sim.h1 if sim is at_h0 else sim.h0) / n
        assert sim.inconclusive == 0 and sim.h0 + sim.h1 == n
        assert wrong <= rate + 3 * math.sqrt(rate * (1 - rate) / n), (test, sim)  # within sampling error
        assert wrong >= rate / 4, (test, sim)  # and not bought with needless games
    # fewer pairs on average than a fixed-length test with the same error rates needs
    z = {0.05: 1.6449, 0.10: 1.2816}
    p = pair_probabilities((test.elo0 + test.elo1) / 2, draw)
    sd = math.sqrt((p * (PAIR_SCORES - (p * PAIR_SCORES).sum()) ** 2).sum())
    fixed = ((z[test.alpha] + z[test.beta]) * sd / (elo_to_score(test.elo1) - elo_to_score(test.elo0))) ** 2
    assert at_h0.mean_pairs < 0.8 * fixed and at_h1.mean_pairs < 0.8 * fixed, (fixed, at_h0, at_h1)


def test_simulation_is_seeded_and_checks_its_input():
    test = Sprt(0, 100)
    assert simulate(test, pair_probabilities(50), tests=50, seed=3) == simulate(test, pair_probabilities(50),
                                                                               tests=50, seed=3)
    capped = simulate(Sprt(0, 5), pair_probabilities(2), tests=20, max_pairs=10, seed=0)
    assert capped.inconclusive == 20 and capped.mean_pairs == 10
    with pytest.raises(ValueError, match="five non-negative numbers"):
        simulate(test, [0.5, 0.5], tests=2)
    with pytest.raises(ValueError, match="too high"):
        pair_probabilities(400, draw=0.9)


def test_score_interval_covers_the_true_score_95_percent_of_the_time():
    rng = np.random.default_rng(5)
    for elo, pairs in ((30, 100), (0, 20), (250, 40)):
        counts = rng.multinomial(pairs, pair_probabilities(elo, 0.3), size=2000)
        low, high = score_interval(counts)
        coverage = ((low <= elo_to_score(elo)) & (elo_to_score(elo) <= high)).mean()
        assert 0.925 <= coverage <= 0.975, (elo, pairs, coverage)


def test_elo_estimate():
    e = elo_estimate([0, 0, 20, 0, 0])  # twenty drawn pairs: 0, but not known to +-2 Elo
    assert e.elo == pytest.approx(0, abs=1e-9) and e.high == pytest.approx(-e.low) and 20 < e.high < 60
    assert e.pairs == 20 and e.score == pytest.approx(0.5)
    won = elo_estimate([0, 0, 0, 0, 20])
    assert math.isinf(won.high) and 300 < won.low < 600 and str(won).endswith(", +inf]")
    assert str(elo_estimate([3, 10, 20, 12, 5])) == "Elo +20.9 [95% interval -29.6, +71.9]"
    assert math.isnan(elo_estimate([0, 0, 0, 0, 0]).elo)
    assert [pair_category(x) for x in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="a pair scores 0, 0.5, 1, 1.5 or 2 points; got 2.5"):
        pair_category(2.5)
