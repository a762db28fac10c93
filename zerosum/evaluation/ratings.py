"""Ratings: a Bradley-Terry (Elo) maximum-likelihood fit with bootstrap intervals, and openskill.

Bradley-Terry: P(i beats j) = 1 / (1 + exp(r_j - r_i)); a draw counts as half a win for
each side. The fit maximises the log-likelihood by Newton's method (numpy only), with an
optional Gaussian prior ``prior * sum(r_i^2) / 2`` that keeps ratings finite when an agent
wins every game; ratings are shifted to mean 0 and reported in Elo points
(``400 / ln 10`` per natural unit, so 400 Elo means 10:1 odds).

>>> games = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]          # 0 beats 1 three games in four
>>> r = bradley_terry(games, 2, prior=0.0)
>>> round(float(r[0] - r[1]), 2)                        # 400 * log10(3)
190.85
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)
"""Elo points per natural unit of Bradley-Terry strength."""
DEFAULT_PRIOR = 0.05
"""Default Gaussian prior strength (about 780 Elo of standard deviation per rating)."""

GameScore = tuple[int, int, float]
"""(agent i, agent j, i's score: 1 win, 0.5 draw, 0 loss)."""


def _tables(games: Sequence[GameScore], n: int) -> tuple[np.ndarray, np.ndarray]:
    wins = np.zeros((n, n))
    count = np.zeros((n, n))
    for i, j, s in games:
        wins[i, j] += s
        wins[j, i] += 1.0 - s
        count[i, j] += 1
        count[j, i] += 1
    return wins, count


def fit_tables(wins: np.ndarray, count: np.ndarray, prior: float = DEFAULT_PRIOR, iters: int = 100,
               tol: float = 1e-10) -> np.ndarray:
    """Natural-unit strengths (mean 0) from score and game-count matrices."""
    n = wins.shape[0]
    r = np.zeros(n)
    if n == 0:
        return r
    for _ in range(iters):
        diff = r[:, None] - r[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (wins - count * p).sum(axis=1) - prior * r
        w = count * p * (1.0 - p)
        hess = np.diag(w.sum(axis=1)) - w + prior * np.eye(n)   # minus the Hessian: positive semidefinite
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        r = r + step
        r -= r.mean()
        if np.max(np.abs(step)) < tol:
            break
    return r


def bradley_terry(games: Sequence[GameScore], n: int, prior: float = DEFAULT_PRIOR) -> np.ndarray:
    """Elo ratings (mean 0) of ``n`` agents by maximum likelihood from (i, j, score_i) games."""
    wins, count = _tables(games, n)
    return fit_tables(wins, count, prior) * ELO


@dataclass(frozen=True)
class Ratings:
    """Elo ratings with 95% bootstrap intervals (percentiles of refits on resampled games)."""

    names: tuple[str, ...]
    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray
    samples: int


def bootstrap_ratings(games: Sequence[GameScore], names: Sequence[str], samples: int = 200, seed: int = 0,
                      prior: float = DEFAULT_PRIOR) -> Ratings:
    """The fit on all games, and the 2.5/97.5 percentiles over ``samples`` resamples of the games."""
    n = len(names)
    elo = bradley_terry(games, n, prior)
    if not games or samples <= 0:
        return Ratings(tuple(names), elo, elo.copy(), elo.copy(), 0)
    arr = np.asarray(games, dtype=float)
    ii, jj, ss = arr[:, 0].astype(int), arr[:, 1].astype(int), arr[:, 2]
    rng = np.random.default_rng(seed)
    fits = np.empty((samples, n))
    for b in range(samples):
        k = rng.integers(0, len(games), len(games))
        wins = np.zeros((n, n))
        count = np.zeros((n, n))
        np.add.at(wins, (ii[k], jj[k]), ss[k])
        np.add.at(wins, (jj[k], ii[k]), 1.0 - ss[k])
        np.add.at(count, (ii[k], jj[k]), 1.0)
        np.add.at(count, (jj[k], ii[k]), 1.0)
        fits[b] = fit_tables(wins, count, prior, iters=50, tol=1e-8) * ELO
    low, high = np.percentile(fits, [2.5, 97.5], axis=0)
    return Ratings(tuple(names), elo, low, high, samples)


@dataclass(frozen=True)
class SkillRating:
    """An openskill (Plackett-Luce) rating: mean, uncertainty and the conservative ordinal."""

    name: str
    mu: float
    sigma: float
    ordinal: float


def openskill_ratings(games: Sequence[GameScore], names: Sequence[str]) -> list[SkillRating]:
    """openskill's Plackett-Luce ratings, updated game by game in the given order (draws tie)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = [model.rating(name=n) for n in names]
    for i, j, s in games:
        ranks: list[float] = [0, 0] if s == 0.5 else ([0, 1] if s > 0.5 else [1, 0])
        [[players[i]], [players[j]]] = model.rate([[players[i]], [players[j]]], ranks=ranks)
    return [SkillRating(n, float(p.mu), float(p.sigma), float(p.ordinal())) for n, p in zip(names, players)]
