"""The options, results and errors of the network-guided search (:mod:`zerosum.search.guided`):
its configuration, Gumbel's halving plan, the results of a search, and the evaluator that
knows nothing."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from zerosum.games.kit import ZerosumError
from zerosum.search._flags import RULE_GUMBEL, RULE_PUCT
from zerosum.search.result import SearchResult, SearchStats

Evaluator = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""``evaluate(obs, mask) -> (logits, values)``: see the module's text."""
RULES = {"puct": RULE_PUCT, "gumbel": RULE_GUMBEL}
"""The selection rules by name."""
MEMORY_BUDGET = 1 << 30
"""Bytes the trees of one search may grow to on their own (a ``max_nodes`` given is used as is)."""


class GuidedSearchError(ZerosumError, ValueError):
    """A guided-search option out of range, or a call out of order (the message says what is allowed)."""


class EvaluatorError(ZerosumError, ValueError):
    """The evaluator returned something the search cannot use: wrong shapes, NaN, values outside [-1, 1]."""


def uniform_evaluator(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Uniform priors and value 0 for every leaf: the search guided by nothing but the rules."""
    return np.zeros(mask.shape, np.float64), np.zeros(mask.shape[0], np.float64)


def number(name: str, value: object, low: float, *, above: bool = False, integer: bool = False) -> None:
    """GuidedSearchError unless ``value`` is a number (an int if ``integer``) at least (above) ``low``."""
    ok = isinstance(value, (int, np.integer)) if integer else isinstance(value, (int, float, np.integer, np.floating))
    if isinstance(value, bool) or not ok or not (value > low if above else value >= low):  # type: ignore[operator]
        kind = "an integer" if integer else "a number"
        raise GuidedSearchError(f"{name}={value!r}: {kind} {'>' if above else '>='} {low:g} is required")


@dataclass(frozen=True)
class GuidedConfig:
    """How the guided search selects; the defaults are AlphaZero's PUCT for play (no noise,
    the most visited move)."""

    rule: str = "puct"
    """``"puct"`` (AlphaZero) or ``"gumbel"`` (Gumbel AlphaZero's root, improved-policy targets)."""
    c_puct: float = 1.25
    """PUCT's exploration constant."""
    dirichlet_alpha: float = 0.3
    """The Dirichlet noise's concentration (PUCT's root; about 10 / typical number of moves)."""
    dirichlet_fraction: float = 0.0
    """How much Dirichlet noise is mixed into the root's priors (0: none; AlphaZero's self-play: 0.25)."""
    temperature: float = 0.0
    """PUCT: the move played is drawn with probability visits ** (1 / temperature); 0 plays the most visited."""
    gumbel_k: int = 16
    """Gumbel: the number of root moves sampled (Gumbel-top-k) for sequential halving."""
    c_visit: float = 50.0
    """Gumbel: sigma(q) = (c_visit + max visits) * c_scale * q, q rescaled to [0, 1]."""
    c_scale: float = 1.0
    """Gumbel: see ``c_visit``."""
    leaves: int = 1
    """Leaves each tree selects per step (more than 1: virtual loss keeps them apart, and one
    game's search evaluates them in one batch)."""

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise GuidedSearchError(f"rule={self.rule!r} is not a selection rule: use one of {sorted(RULES)}")
        number("c_puct", self.c_puct, 0.0)
        number("dirichlet_alpha", self.dirichlet_alpha, 0.0, above=True)
        number("temperature", self.temperature, 0.0)
        number("gumbel_k", self.gumbel_k, 1, integer=True)
        number("c_visit", self.c_visit, 0.0)
        number("c_scale", self.c_scale, 0.0)
        number("leaves", self.leaves, 1, integer=True)
        number("dirichlet_fraction", self.dirichlet_fraction, 0.0)
        if self.dirichlet_fraction > 1:
            raise GuidedSearchError(f"dirichlet_fraction={self.dirichlet_fraction!r}: a fraction from 0 to 1 "
                                    "is required")


@functools.lru_cache(maxsize=64)
def halving_schedule(k: int, sims: int) -> np.ndarray:
    """Sequential halving's plan for Gumbel's root: row m (m considered moves) lists, for each
    simulation, how many visits the move it goes to has had (the moves still in play are
    visited in turns; the number in play halves each phase, the phases sharing the
    simulations about equally)."""
    table = np.zeros((k + 1, max(sims, 1)), np.int64)
    for m in range(k + 1):
        if m <= 1:
            table[m, :] = np.arange(table.shape[1])
            continue
        phases = math.ceil(math.log2(m))
        seq: list[int] = []
        visits = [0] * m
        live = m
        while len(seq) < table.shape[1]:
            for _ in range(max(1, sims // (phases * live))):
                seq.extend(visits[:live])
                for i in range(live):
                    visits[i] += 1
            live = max(2, live // 2)
        table[m, :] = seq[:table.shape[1]]
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class GuidedResults:
    """What one :meth:`BatchedSearch.run` (or ``finish``) found, one row per lane searched
    (in the order of ``lanes``)."""

    lanes: np.ndarray
    """The lanes searched."""
    action: np.ndarray
    """The move to play in each lane (the rule's choice)."""
    policy: np.ndarray
    """The training target over the game's actions: PUCT's visit distribution, Gumbel's improved policy."""
    value: np.ndarray
    """The root's value, from the side of the player to move there, in [-1, 1]."""
    visits: np.ndarray
    """The root children's visit counts over the game's actions."""
    stats: tuple[SearchStats, ...]
    """Each lane's statistics (``batches``: evaluator calls that held its leaves)."""
    evaluator_calls: int
    """Evaluator calls of this search, over all lanes."""
    evaluations: int
    """Leaves evaluated, over all lanes."""
    algorithm: str
    """The selection rule."""

    @property
    def mean_batch(self) -> float:
        """Leaves per evaluator call, over all lanes."""
        return self.evaluations / self.evaluator_calls if self.evaluator_calls else 0.0

    def result(self, i: int) -> SearchResult:
        """Row ``i`` as a search result (the line: the move chosen)."""
        return SearchResult(value=float(self.value[i]), action=int(self.action[i]), pv=(int(self.action[i]),),
                            stats=self.stats[i], iterations=(self.stats[i],), algorithm=self.algorithm)


__all__ = [
    "MEMORY_BUDGET", "RULES", "Evaluator", "EvaluatorError", "GuidedConfig", "GuidedResults", "GuidedSearchError",
    "halving_schedule", "number", "uniform_evaluator",
]
