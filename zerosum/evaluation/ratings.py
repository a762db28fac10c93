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


def tables(games: Sequence[GameScore], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The score matrix (``wins[i, j]``: i's points against j) and the game-count matrix of ``games``."""
    wins = np.zeros((n, n))
    count = np.zeros((n, n))
    for i, j, s in games:
        wins[i, j] += s
        wins[j, i] += 1.0 - s
        count[i, j] += 1
        count[j, i] += 1
    return wins, count


def _resampled(arr: np.ndarray, rng: np.random.Generator | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The score and count matrices of one bootstrap resample of the games in ``arr`` (rows i, j, s);
    with no ``rng``, of the games as they are."""
    k = rng.integers(0, len(arr), len(arr)) if rng is not None else np.arange(len(arr))
    ii, jj, ss = arr[k, 0].astype(int), arr[k, 1].astype(int), arr[k, 2]
    wins = np.zeros((n, n))
    count = np.zeros((n, n))
    np.add.at(wins, (ii, jj), ss)
    np.add.at(wins, (jj, ii), 1.0 - ss)
    np.add.at(count, (ii, jj), 1.0)
    np.add.at(count, (jj, ii), 1.0)
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
    wins, count = tables(games, n)
    return fit_tables(wins, count, prior) * ELO


def fit_fixed(wins: np.ndarray, count: np.ndarray, fixed: dict[int, float], virtual_draws: float = 0.0,
              iters: int = 100, tol: float = 1e-10) -> np.ndarray:
    """Natural-unit strengths by maximum likelihood with the agents of ``fixed`` held at their values.

    The ladders' fit: with ``fixed={0: 0.0}`` agent 0 (``random``) is the zero of the scale and no
    shift is applied; with every rung fixed, only a newcomer's strength is fitted (placement).
    ``virtual_draws`` adds that many drawn games to every pair that played (BayesElo's prior):
    it keeps a strength finite when one side won every game, and pulls a pair's difference
    towards 0 by about ``virtual_draws / games`` of it.
    """
    n = wins.shape[0]
    r = np.zeros(n)
    for i, v in fixed.items():
        r[i] = v
    free = np.array([i for i in range(n) if i not in fixed], dtype=int)
    if free.size == 0:
        return r
    played = count > 0
    wins = wins + 0.5 * virtual_draws * played
    count = count + virtual_draws * played
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
        grad = (wins - count * p).sum(axis=1)[free]
        w = count * p * (1.0 - p)
        hess = (np.diag(w.sum(axis=1)) - w)[np.ix_(free, free)]
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        step = np.clip(step, -2.0, 2.0)  # Newton from far away overshoots on a flat logistic
        r[free] += step
        if np.max(np.abs(step)) < tol:
            break
    return r


def _stratified(arr: np.ndarray, units: Sequence[tuple[int, int]], rng: np.random.Generator,
                n: int) -> tuple[np.ndarray, np.ndarray]:
    """One resample that keeps the design: in each stratum (a pair of agents), its units (a pair of
    games from one opening) drawn with replacement, as many as it has."""
    by_stratum: dict[int, dict[int, list[int]]] = {}
    for g, (stratum, unit) in enumerate(units):
        by_stratum.setdefault(stratum, {}).setdefault(unit, []).append(g)
    picked: list[int] = []
    for groups in by_stratum.values():
        members = list(groups.values())
        for k in rng.integers(0, len(members), len(members)):
            picked += members[k]
    return _resampled(arr[np.asarray(picked)], None, n)


def bootstrap_fixed(games: Sequence[GameScore], n: int, fixed: dict[int, float], samples: int = 200, seed: int = 0,
                    virtual_draws: float = 0.0,
                    units: Sequence[tuple[int, int]] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Elo of :func:`fit_fixed` on all ``games``, and its 2.5/97.5 percentiles over ``samples``
    resamples of the games (fixed agents stay where they are).

    With ``units`` (one ``(stratum, unit)`` a game), a resample keeps the design that played the
    games: each stratum keeps its number of units, and the games of a unit (the two seat orders of
    one opening) are drawn together, as they are not independent of each other.
    """
    wins, count = tables(games, n)
    elo = fit_fixed(wins, count, fixed, virtual_draws) * ELO
    if not games or samples <= 0:
        return elo, elo.copy(), elo.copy()
    if units is not None and len(units) != len(games):
        raise ValueError(f"units gives {len(units)} entries for {len(games)} games; give one (stratum, unit) a game")
    arr = np.asarray(games, dtype=float)
    rng = np.random.default_rng(seed)
    fits = np.empty((samples, n))
    for b in range(samples):
        w, c = _resampled(arr, rng, n) if units is None else _stratified(arr, units, rng, n)
        fits[b] = fit_fixed(w, c, fixed, virtual_draws, iters=50, tol=1e-8) * ELO
    low, high = np.percentile(fits, [2.5, 97.5], axis=0)
    return elo, low, high


def expected_score(elo_a: float, elo_b: float) -> float:
    """The score A expects against B under the logistic Elo model: 1 / (1 + 10^((B - A) / 400))."""
    return float(1.0 / (1.0 + 10.0 ** ((elo_b - elo_a) / 400.0)))


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
    rng = np.random.default_rng(seed)
    fits = np.empty((samples, n))
    for b in range(samples):
        wins, count = _resampled(arr, rng, n)
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
