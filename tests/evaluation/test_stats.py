"""Statistics against hand-computed cases: Wilson intervals, Bradley-Terry fits, tallies, cost."""

import doctest
import json
import math

import numpy as np
import pytest

import zerosum.evaluation.ratings as ratings_mod
import zerosum.evaluation.stats as stats_mod
from zerosum.evaluation.ratings import ELO, bootstrap_ratings, bradley_terry, fit_tables, openskill_ratings
from zerosum.evaluation.stats import Record, search_cost, summarize, tally, wilson_interval


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    # p = 0.8, z^2 = 3.8415: centre (0.8 + 0.19207) / 1.38415 = 0.71683, half 1.96 * 0.16 / 1.38415
    (8, 10, 0.4902, 0.9433),
    # p = 0: centre = half = (z^2 / 20) / (1 + z^2 / 10) = 0.13873
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    # p = 0.5, n = 4: centre 0.5, half 1.96 * sqrt(0.0625 + 0.060) / 1.96037 = 0.34989
    (2, 4, 0.1500, 0.8500),
    # draws as half points: 5.5 of 10 -> p = 0.55: centre 0.742073 / 1.38415 = 0.53612,
    # half 1.96 * sqrt(0.02475 + 0.0096037) / 1.38415 = 0.26246
    (5.5, 10, 0.2737, 0.7986),
])
def test_wilson_hand_computed(k, n, lo, hi):
    got = wilson_interval(k, n)
    assert got == pytest.approx((lo, hi), abs=1e-4)


def test_wilson_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)


def test_record_counts_and_score():
    r = Record()
    for s in (1, 1, 0.5, 0, 1):
        r.add(s)
    assert (r.wins, r.draws, r.losses, r.games) == (3, 1, 1, 5)
    assert r.score == pytest.approx(0.7) and r.wdl() == "3/1/1"
    assert r.interval == wilson_interval(3.5, 5)


def test_bradley_terry_two_agents_closed_form():
    # 3 wins in 4: r0 - r1 = ln 3 -> 400 log10(3) Elo; mean 0
    r = bradley_terry([(0, 1, 1.0)] * 3 + [(1, 0, 1.0)], 2, prior=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r.sum() == pytest.approx(0.0, abs=1e-9)
    # draws count half: 1 win + 2 draws + 1 loss is even
    r = bradley_terry([(0, 1, 1.0), (0, 1, 0.5), (1, 0, 0.5), (1, 0, 1.0)], 2, prior=0.0)
    assert r == pytest.approx([0.0, 0.0], abs=1e-9)


def test_bradley_terry_small_known_table():
    # Scores made exactly from strengths (1, 0, -1): the maximum-likelihood fit returns them.
    true = np.array([1.0, 0.0, -1.0])
    count = np.array([[0, 10, 20], [10, 0, 30], [20, 30, 0]], float)
    wins = count / (1 + np.exp(-(true[:, None] - true[None, :])))
    assert fit_tables(wins, count, prior=0.0) == pytest.approx(true, abs=1e-8)
    # a cycle (each beats the next 2-1) rates everyone equally
    cyc = [(0, 1, 1.0), (0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (1, 2, 1.0), (2, 1, 1.0),
           (2, 0, 1.0), (2, 0, 1.0), (0, 2, 1.0)]
    assert bradley_terry(cyc, 3, prior=0.0) == pytest.approx([0, 0, 0], abs=1e-8)
    assert pytest.approx(173.7178, abs=1e-4) == ELO


def test_prior_keeps_a_perfect_record_finite():
    r = bradley_terry([(0, 1, 1.0)] * 20, 2)
    assert np.all(np.isfinite(r)) and r[0] > 400


def test_bootstrap_interval_contains_estimate_and_is_reproducible():
    games = [(0, 1, 1.0)] * 6 + [(0, 1, 0.0)] * 2 + [(1, 2, 0.5)] * 4 + [(0, 2, 1.0)] * 3 + [(2, 0, 1.0)]
    a = bootstrap_ratings(games, ["a", "b", "c"], samples=100, seed=3)
    b = bootstrap_ratings(games, ["a", "b", "c"], samples=100, seed=3)
    assert np.array_equal(a.low, b.low) and np.array_equal(a.high, b.high)
    assert np.all(a.low <= a.elo + 1e-9) and np.all(a.elo <= a.high + 1e-9)


def test_openskill_winner_rises():
    sk = openskill_ratings([(0, 1, 1.0)] * 5 + [(1, 2, 0.5)], ["a", "b", "c"])
    assert sk[0].mu > 25 > sk[1].mu
    assert sk[1].sigma < 25 / 3


def test_tally_seats_and_pairs():
    games = [  # agent ids in seats; score0 is seat 0's score
        {"seat0": 0, "seat1": 1, "score0": 1.0, "faulty_seat": None},
        {"seat0": 1, "seat1": 0, "score0": 0.5, "faulty_seat": None},
        {"seat0": 1, "seat1": 0, "score0": 1.0, "faulty_seat": 1},
        {"seat0": 2, "seat1": 0, "score0": 0.0, "faulty_seat": None},
    ]
    agents, pairs = tally(games, ["a", "b", "c"])
    a = agents[0]
    assert a.total.wdl() == "2/1/1" and a.first.wdl() == "1/0/0" and a.second.wdl() == "1/1/1"
    assert a.faults == 1 and agents[1].faults == 0
    ab = pairs[0]
    assert (ab.a, ab.b) == ("a", "b") and ab.total.wdl() == "1/1/1"
    assert ab.a_first.wdl() == "1/0/0" and ab.a_second.wdl() == "0/1/1"


def test_search_cost_summaries():
    moves = [{"agent": 0, "ply": p, "time": 0.01 * (p + 1), "nodes": n, "depth": 2, "ebf": 3.0}
             for p, n in enumerate([10, 20, 30, 40, 1000])]
    moves.append({"agent": 1, "ply": 1, "time": 0.001, "nodes": None, "depth": None, "ebf": None})
    cost = search_cost(moves, ["ab", "random"])
    assert cost[0].nodes["median"] == 30 and cost[0].nodes["mean"] == 220
    assert cost[0].nodes["p95"] == pytest.approx(40 + 0.8 * 960)
    assert cost[0].by_ply[4]["mean"] == 1000 and cost[0].searched == 5
    assert cost[1].moves == 1 and cost[1].searched == 0 and math.isnan(cost[1].nodes["mean"])
    assert summarize([])["n"] == 0


def test_search_cost_of_a_network_guided_search():
    guided = {"simulations": 64, "evaluations": 60, "batches": 8, "eval_time": 0.03, "time": 0.04}
    moves = [{"agent": 0, "ply": 0, "time": 0.05, "nodes": 400, "depth": 9, "ebf": 1.9, "stats": json.dumps(guided)},
             {"agent": 0, "ply": 2, "time": 0.05, "nodes": 380, "depth": 8, "ebf": 1.9,
              "stats": {**guided, "evaluations": 64, "time": 0.06}},
             {"agent": 1, "ply": 1, "time": 0.01, "nodes": 900, "depth": 4, "ebf": 5.0, "stats": None}]
    cost = search_cost(moves, ["az", "ab"])
    assert cost[0].sims["mean"] == 64 and cost[0].batch["mean"] == pytest.approx((7.5 + 8) / 2)
    assert cost[0].eval_share["mean"] == pytest.approx((0.75 + 0.5) / 2)
    assert cost[1].sims["n"] == 0 and math.isnan(cost[1].batch["mean"])


@pytest.mark.parametrize("module", [stats_mod, ratings_mod])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0
