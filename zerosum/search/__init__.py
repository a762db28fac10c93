"""Game-agnostic search on the Game protocol: minimax, alpha-beta, MCTS.

The searches are compiled once (numba) for every game: they take the game's kernels
as first-class functions. See :mod:`zerosum.search.functions` for writing heuristics.
"""

from zerosum.search.alphabeta import AlphaBeta, AlphaBetaConfig, alphabeta
from zerosum.search.mcts import MCTS
from zerosum.search.minimax import minimax
from zerosum.search.result import WIN, WIN_BOUND, SearchResult, SearchStats

__all__ = ["WIN", "WIN_BOUND", "AlphaBeta", "AlphaBetaConfig", "MCTS", "SearchResult", "SearchStats", "alphabeta", "minimax"]
