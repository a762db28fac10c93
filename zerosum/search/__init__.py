"""Game-agnostic search on the Game protocol: minimax, alpha-beta, MCTS, and the
network-guided batched search (PUCT, Gumbel) that AlphaZero-style agents use.

The searches are numba code written once (:mod:`zerosum.search._template`, and
:mod:`zerosum.search._mcts_template` for MCTS) and
specialised per game by the kit's one mechanism (:mod:`zerosum.games.kit.specialize`,
where the contract and the cache are documented): each game gets its own compiled copy
with its rules inlined. Heuristics are first-class function arguments, so every heuristic
of a game runs in the same copy; see :mod:`zerosum.search.functions` for writing one.
"""

from zerosum.search.alphabeta import AlphaBeta, AlphaBetaConfig, SearchOptionError, alphabeta
from zerosum.search.guided import (
    BatchedSearch, EvaluatorError, GuidedConfig, GuidedResults, GuidedSearchError, uniform_evaluator,
)
from zerosum.search.mcts import MCTS
from zerosum.search.minimax import minimax
from zerosum.search.result import WIN, WIN_BOUND, SearchResult, SearchStats

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
    "minimax",
    "uniform_evaluator",
]
