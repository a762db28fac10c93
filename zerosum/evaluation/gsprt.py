r"""Is A stronger than B? The generalized SPRT on game pairs (pentanomial model), as in fishtest.

Games come in pairs: both seats from one opening, A first in one game and second in the
other. A pair scores 0, 1/2, 1, 3/2 or 2 points for A, so the outcome of a pair is one of
five categories ``j = 0..4`` with per-game score :math:`a_j = j/4`; its frequencies are
the *pentanomial* counts :math:`n_j` (fishtest's LL, LD+DL, LW+DD+WL, DW+WD, WW). Pairing
cancels most of the first-move advantage and the variance of the openings, so fewer games
are needed than with single games (the trinomial model).

**Hypotheses.** With logistic Elo, an Elo difference :math:`e` means a per-game expected
score :math:`S(e) = 1 / (1 + 10^{-e/400})`. The test decides between
:math:`H_0: \mu = s_0 = S(\mathrm{ELO0})` and :math:`H_1: \mu = s_1 = S(\mathrm{ELO1})`
where :math:`\mu = \sum_j p_j a_j` is the mean score of the unknown pair distribution
:math:`p`; the rest of :math:`p` (how often pairs are drawn, ...) is a nuisance.

**Generalized likelihood ratio** (Van den Bergh). Each hypothesis is replaced by the
distribution closest to the data under it: the maximum-likelihood :math:`p` with mean
:math:`s`, which for the empirical frequencies :math:`\hat p_j = n_j / N` is

.. math:: p_j(s) = \frac{\hat p_j}{1 + \lambda (a_j - s)},\qquad
          \sum_j \frac{\hat p_j (a_j - s)}{1 + \lambda (a_j - s)} = 0,

one root :math:`\lambda` in :math:`(-1/(1-s), 1/s)` (the left side falls monotonically
there), found here by safeguarded Newton steps. The log-likelihood ratio after :math:`N`
pairs is

.. math:: \mathrm{LLR} = \sum_j n_j \log \frac{p_j(s_1)}{p_j(s_0)}.

As fishtest does, a category never seen counts 0.001 (so that both roots exist).

**Stopping** (Wald's bounds). After each pair: :math:`\mathrm{LLR} \ge \log((1-\beta)/\alpha)`
accepts :math:`H_1`; :math:`\mathrm{LLR} \le \log(\beta/(1-\alpha))` accepts :math:`H_0`;
otherwise play on. :math:`\alpha` is the chance of accepting :math:`H_1` when
:math:`H_0` holds and :math:`\beta` the chance of accepting :math:`H_0` when :math:`H_1`
holds; the test decides with as few pairs as it can (on average).

**Elo estimate.** The mean pair score :math:`\bar s` mapped to Elo by
:math:`-400 \log_{10}(1/s - 1)`, with the 95% profile-likelihood interval of the same
model: the scores :math:`s` with :math:`2N\,\mathrm{KL}(\hat p \,\|\, p(s)) \le 3.84`
(the :math:`\chi^2_1` quantile; Wilks). For many pairs it is the normal interval
:math:`\bar s \pm 1.96\,\sigma/\sqrt N`; unlike that one it does not shrink to a point
when every pair so far scored alike (20 drawn pairs give about ±30 Elo, not ±2). After
a sequential test the estimate is slightly biased; fishtest says so too.

References: A. Wald, *Sequential tests of statistical hypotheses*, Ann. Math. Statist. 16
(1945); M. Van den Bergh, *Comments on normalized Elo* and *A GSPRT for multinomial
distributions* (the fishtest support notes, hardy.uhasselt.be/Fishtest); fishtest's
``stat_util.py`` and ``LLRcalc.py`` (github.com/official-stockfish/fishtest).

>>> test = Sprt(0, 50)
>>> [round(b, 3) for b in test.bounds]
[-2.944, 2.944]
>>> test.decide(test.llr([0, 0, 3, 5, 12])), test.decide(test.llr([0, 1, 4, 6, 16]))
(None, 'H1')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from zerosum.games import ZerosumError

PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
"""Per-game score of each pentanomial category (A's points in the pair / 2)."""

EPSILON = 1e-3
"""The count given to a category never seen (fishtest's ``regularize``)."""


class SprtError(ZerosumError, ValueError):
    """SPRT parameters that make no test: inverted Elo bounds, alpha or beta outside (0, 0.5)."""


def elo_to_score(elo: float | np.ndarray) -> float | np.ndarray:
    """Expected score per game at a logistic Elo difference: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(elo, dtype=float) / 400.0))


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def pair_category(points: float) -> int:
    """The pentanomial category 0..4 of A's points in a pair (0, 0.5, 1, 1.5 or 2)."""
    j = round(2 * points)
    if not 0 <= j <= 4 or abs(2 * points - j) > 1e-9:
        raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points; got {points}")
    return int(j)


def check_error_rates(alpha: float, beta: float) -> None:
    """Raise SprtError unless alpha and beta are probabilities strictly between 0 and 0.5."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < value < 0.5:
            raise SprtError(f"{name}={value!r} is not allowed: a probability strictly between 0 and 0.5 "
                            "(0.05 is usual)")


def llr_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds (log(beta/(1-alpha)), log((1-beta)/alpha)): below accepts H0, above H1."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _pdf(counts: Sequence[float] | np.ndarray) -> np.ndarray:
    c: np.ndarray = np.asarray(counts, dtype=float)
    c = np.where(c > 0, c, EPSILON)
    pdf: np.ndarray = c / c.sum(axis=-1, keepdims=True)
    return pdf


def _lambda(pdf: np.ndarray, s: float | np.ndarray, iterations: int = 100) -> np.ndarray:
    """The root of f(lam) = sum_j p_j d_j / (1 + lam d_j), d = a - s, for every row of ``pdf``.

    ``s`` is one mean score or one per row. f is the derivative of the concave dual
    sum_j p_j log(1 + lam d_j), whose maximum is the Kullback-Leibler divergence from the
    data to the nearest distribution with mean s: an error in lam moves the LLR only to
    second order. Newton steps from the first-order guess, kept inside the bracket of the
    root (bisection otherwise), on the rows not yet converged.
    """
    rows = pdf.reshape(-1, 5)
    s_rows = np.broadcast_to(np.asarray(s, dtype=float), pdf.shape[:-1]).reshape(-1)
    d = PAIR_SCORES - s_rows[:, None]
    lo, hi = -1.0 / (1.0 - s_rows), 1.0 / s_rows
    lam: np.ndarray = np.clip((rows * d).sum(axis=-1) / (rows * d * d).sum(axis=-1), 0.5 * lo, 0.5 * hi)
    todo = np.arange(len(rows))
    for _ in range(iterations):
        p, dd, old = rows[todo], d[todo], lam[todo]
        den = 1.0 + old[:, None] * dd
        f = (p * dd / den).sum(axis=-1)
        fp = -(p * dd * dd / (den * den)).sum(axis=-1)
        low = np.where(f > 0, old, lo[todo])  # f falls with lam: the root is right of lam where f > 0
        high = np.where(f < 0, old, hi[todo])
        step = old - f / fp
        ok = ((step > low) & (step < high)) | (step == old)  # strictly inside: a pole is never tried
        new = np.where(ok, step, 0.5 * (low + high))
        lam[todo], lo[todo], hi[todo] = new, low, high
        todo = todo[np.abs(new - old) > 1e-10 * (1.0 + np.abs(old))]
        if not todo.size:
            break
    return lam.reshape(pdf.shape[:-1])


def _divergence(pdf: np.ndarray, s: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(KL(pdf || p(s)), lam): how far the data lie from the nearest distribution with mean s.

    KL = sum_j pdf_j log(1 + lam d_j) per row; its derivative in s is -lam (the envelope theorem).
    """
    lam = _lambda(pdf, s)
    d = PAIR_SCORES - np.asarray(s, dtype=float)[..., None]
    return (pdf * np.log1p(lam[..., None] * d)).sum(axis=-1), lam


def constrained_mle(counts: Sequence[float] | np.ndarray, s: float) -> np.ndarray:
    """The most likely pair distribution with mean score ``s`` given the (regularized) counts."""
    pdf = _pdf(counts)
    lam = _lambda(pdf, s)
    return pdf / (1.0 + lam[..., None] * (PAIR_SCORES - s))


def llr(counts: Sequence[float] | np.ndarray, elo0: float, elo1: float) -> float | np.ndarray:
    """The pentanomial GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0).

    ``counts`` has the five pentanomial counts in its last axis; leading axes are
    vectorised (one LLR per row). With p_j(s) = pdf_j / (1 + lam d_j) the ratio
    sum_j n_j log(p_j(s1) / p_j(s0)) is N (KL(pdf || p(s0)) - KL(pdf || p(s1))).
    """
    c = np.asarray(counts, dtype=float)
    pdf = _pdf(c)
    result = c.sum(axis=-1) * (_divergence(pdf, float(elo_to_score(elo0)))[0] -
                               _divergence(pdf, float(elo_to_score(elo1)))[0])
    return float(result) if result.ndim == 0 else result


@dataclass(frozen=True)
class EloEstimate:
    """A's Elo against B from pair results, with its 95% interval."""

    elo: float
    """A's Elo over B."""
    low: float
    """The 95% interval's lower end."""
    high: float
    """The 95% interval's upper end."""
    score: float
    """A's mean score a game (1 win, 1/2 draw)."""
    pairs: int
    """The pairs it is computed from."""

    def __str__(self) -> str:
        return f"Elo {_signed(self.elo)} [95% interval {_signed(self.low)}, {_signed(self.high)}]"


def _signed(x: float) -> str:
    return ("+inf" if x > 0 else "-inf") if math.isinf(x) else f"{round(x, 1) + 0.0:+.1f}"


CHI2_95 = 3.841458820694124
"""The 95% quantile of the chi-squared distribution with one degree of freedom."""


def score_interval(counts: Sequence[float] | np.ndarray, edge: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """The 95% profile-likelihood interval of the mean score per game (vectorised over rows).

    The scores s with 2 N KL(data || p(s)) <= 3.84 (Wilks): a convex function of s, zero at
    the data's mean, so each end is found by Newton steps (slope -2 N lam) inside a bracket
    from the mean to ``edge`` (or 1 - ``edge``); an end that reaches its edge is 0 or 1.
    Every row needs at least one pair.
    """
    c = np.asarray(counts, dtype=float).reshape(-1, 5)
    pdf = _pdf(c)
    n = np.repeat(c.sum(axis=-1), 2)
    mean = np.repeat((pdf * PAIR_SCORES).sum(axis=-1), 2)
    pdf2 = np.repeat(pdf, 2, axis=0)  # rows 2i (low end) and 2i+1 (high end) of data row i
    far = np.tile([edge, 1.0 - edge], len(c))
    g_far = 2 * n * _divergence(pdf2, far)[0] - CHI2_95
    inside, outside = mean.copy(), far.copy()
    sd = np.sqrt((pdf2 * (PAIR_SCORES - mean[:, None]) ** 2).sum(axis=-1) / n)
    s = np.clip(mean + np.where(far < mean, -1.96, 1.96) * sd, edge, 1 - edge)  # the normal interval's end
    for _ in range(100):
        kl, lam = _divergence(pdf2, s)
        g = 2 * n * kl - CHI2_95
        out = g > 0
        outside = np.where(out, s, outside)
        inside = np.where(out, inside, s)
        step = s + g / (2 * n * lam)
        new = np.where((step - inside) * (step - outside) < 0, step, 0.5 * (inside + outside))
        if np.all(np.abs(new - s) <= 1e-12):
            break
        s = new
    s = np.where(g_far <= 0, np.round(far), s)  # the data cannot rule out the edge: the interval reaches it
    return s[0::2], s[1::2]


def elo_estimate(counts: Sequence[float] | np.ndarray) -> EloEstimate:
    """The Elo of A against B and its 95% interval (:func:`score_interval`), NaN with no pairs.

    Unlike the normal interval, the profile-likelihood one keeps its width when every pair
    so far scored alike.
    """
    c = np.asarray(counts, dtype=float)
    n = int(c.sum())
    if n == 0:
        nan = math.nan
        return EloEstimate(nan, nan, nan, nan, 0)
    mean = float((_pdf(c) * PAIR_SCORES).sum())
    low, high = score_interval(c)
    return EloEstimate(score_to_elo(mean), score_to_elo(float(low[0])), score_to_elo(float(high[0])), mean, n)


@dataclass(frozen=True)
class Sprt:
    """One sequential test: H0 Elo = ``elo0`` against H1 Elo = ``elo1``, error rates alpha and beta."""

    elo0: float
    """H0: A's Elo over B is ``elo0``."""
    elo1: float
    """H1: A's Elo over B is ``elo1``."""
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds."""

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise SprtError(f"{name}={value!r} is not allowed: a finite number")
        if self.elo1 <= self.elo0:
            raise SprtError(f"ELO1 must be above ELO0 (H1 says A is stronger by ELO1); got ELO0={self.elo0:g}, "
                            f"ELO1={self.elo1:g}: e.g. --sprt 0 50")
        check_error_rates(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): at or below the lower bound H0 is accepted, at or above the upper H1."""
        return llr_bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[float] | np.ndarray) -> float | np.ndarray:
        """The log-likelihood ratio of the pentanomial counts (vectorised over leading axes)."""
        return llr(counts, self.elo0, self.elo1)

    def decide(self, value: float) -> str | None:
        """``"H1"``, ``"H0"``, or None while the LLR lies between the bounds."""
        lower, upper = self.bounds
        return "H1" if value >= upper else "H0" if value <= lower else None


# ---- simulation (for tests and for choosing bounds) ----------------------------------------
def pair_probabilities(elo: float, draw: float = 0.3) -> np.ndarray:
    """Pentanomial probabilities of two independent games at ``elo`` with draw rate ``draw``."""
    s = float(elo_to_score(elo))
    win, loss = s - draw / 2, 1.0 - s - draw / 2
    if min(win, loss) < 0:
        raise ValueError(f"draw={draw} is too high for elo={elo}: the win or loss rate would be negative")
    game = np.array([loss, draw, win])  # A's points 0, 1/2, 1
    return np.convolve(game, game)  # the pair's points 0, 1/2, 1, 3/2, 2


@dataclass(frozen=True)
class Simulation:
    """How many simulated tests accepted H0, H1, or reached ``max_pairs``; mean pairs used."""

    tests: int
    """Tests simulated."""
    h0: int
    """Tests that accepted H0."""
    h1: int
    """Tests that accepted H1."""
    inconclusive: int
    """Tests that reached ``max_pairs`` undecided."""
    mean_pairs: float
    """Mean pairs a test used."""


def simulate(test: Sprt, probabilities: Sequence[float], tests: int = 1000, max_pairs: int = 10_000,
             seed: int = 0, block: int = 100) -> Simulation:
    """Run ``tests`` independent SPRTs on pairs drawn from ``probabilities`` (vectorised, seeded)."""
    p = np.asarray(probabilities, dtype=float)
    if p.shape != (5,) or np.any(p < 0) or not math.isclose(p.sum(), 1.0):
        raise ValueError(f"probabilities are five non-negative numbers summing to 1; got {list(p)}")
    rng = np.random.default_rng(seed)
    lower, upper = test.bounds
    counts = np.zeros((tests, 5))
    active = np.arange(tests)
    decided = np.zeros(tests, dtype=int)  # 0 none, -1 H0, +1 H1
    used = np.full(tests, max_pairs)
    done = 0
    while done < max_pairs and active.size:
        b = min(block, max_pairs - done)
        draws = rng.choice(5, size=(active.size, b), p=p)
        steps = counts[active][:, None, :] + np.cumsum(np.eye(5)[draws], axis=1)  # (active, b, 5)
        values = np.asarray(test.llr(steps))  # an array for these 3-D counts
        crossed = (values >= upper) | (values <= lower)
        first = np.where(crossed.any(axis=1), crossed.argmax(axis=1), -1)
        stop = first >= 0
        rows = active[stop]
        decided[rows] = np.where(values[stop, first[stop]] >= upper, 1, -1)
        used[rows] = done + first[stop] + 1
        counts[active] = steps[:, -1, :]
        active = active[~stop]
        done += b
    return Simulation(tests, int((decided == -1).sum()), int((decided == 1).sum()), int((decided == 0).sum()),
                      float(used.mean()))


__all__ = [
    "CHI2_95",
    "EPSILON",
    "PAIR_SCORES",
    "EloEstimate",
    "Simulation",
    "Sprt",
    "SprtError",
    "check_error_rates",
    "constrained_mle",
    "elo_estimate",
    "elo_to_score",
    "llr",
    "llr_bounds",
    "pair_category",
    "pair_probabilities",
    "score_interval",
    "score_to_elo",
    "simulate",
]
