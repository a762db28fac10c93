"""Game-agnostic search on the Game protocol: minimax, alpha-beta, MCTS, and the
network-guided batched search (PUCT, Gumbel) that AlphaZero-style agents use.

The searches are numba code written once (:mod:`zerosum.search._template`, and
:mod:`zerosum.search._mcts_template` for MCTS) and
specialised per game by the kit's one mechanism (:mod:`zerosum.games.kit.specialize`,
where the contract and the cache are documented): each game gets its own compiled copy
with its rules inlined. Heuristics are first-class function arguments, so every heuristic
of a game runs in the same copy; see :mod:`zerosum.search.functions` for writing one.
"""

from typing import Any

from zerosum.search.alphabeta import AlphaBeta, AlphaBetaConfig, SearchOptionError, alphabeta
from zerosum.search.mcts import MCTS, mcts
from zerosum.search.minimax import minimax
from zerosum.search.result import WIN, WIN_BOUND, SearchResult, SearchStats

_GUIDED = ("BatchedSearch", "EvaluatorError", "GuidedConfig", "GuidedResults", "GuidedSearchError",
           "uniform_evaluator")


def __getattr__(name: str) -> Any:
    """The network-guided search's names (:mod:`zerosum.search.guided`), loaded on first use:
    its game-independent parts compile on a first import, which an alpha-beta user need not wait for."""
    if name in _GUIDED:
        from zerosum.search import guided

        return getattr(guided, name)
    raise AttributeError(f"module 'zerosum.search' has no attribute {name!r}")


__all__ = [
    "MCTS",
    "WIN",
    "WIN_BOUND",
    "AlphaBeta",
    "AlphaBetaConfig",
    "BatchedSearch",
    "EvaluatorError",
    "GuidedConfig",
    "GuidedResults",
    "GuidedSearchError",
    "SearchOptionError",
    "SearchResult",
    "SearchStats",
    "alphabeta",
    "mcts",
    "minimax",
    "uniform_evaluator",
]
