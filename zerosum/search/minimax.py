"""Plain minimax (negamax form, no pruning): the reference every other search is tested against.

It visits every node to the given depth and counts them exactly (the root included):
from the empty tic-tac-toe board it visits 549,946 nodes. Terminal positions score
``WIN - ply`` like alpha-beta, so the two agree on values.
"""

from __future__ import annotations

import time as _time

import numpy as np

from zerosum.games.kit import Game, GameOverError, State
from zerosum.search import compiled
from zerosum.search._arrays import NegamaxArrays
from zerosum.search._flags import LEAVES, MOVES_KERNEL, MOVES_OVER, NODES
from zerosum.search.functions import HeuristicArg, resolve_heuristic
from zerosum.search.result import SearchResult, SearchStats


def minimax(game: Game, state: State, depth: int, heuristic: HeuristicArg = None) -> SearchResult:
    """Full-width search to ``depth`` plies; ties go to the first move in legal order."""
    if game.is_terminal(state):
        raise GameOverError("cannot search a finished game")
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise ValueError(f"depth={depth!r}: a positive int is required")
    tiered = compiled.searcher(game, compiled.TEMPLATE, resolve_heuristic(game, heuristic))
    h = tiered.heuristic
    w = NegamaxArrays.sized(game.initial.shape[0], game.max_moves, game.num_actions, int(depth), h)
    w.stack[0] = state
    t0 = _time.perf_counter()
    value = tiered.module.minimax(h, tiered.params, w, 0, int(depth))
    if w.stats[MOVES_OVER]:
        raise game.moves_error(int(w.stats[MOVES_KERNEL]), int(w.stats[MOVES_OVER]), "minimax")
    st = SearchStats(nodes=int(w.stats[NODES]), leaves=int(w.stats[LEAVES]), depth=int(depth),
                     time=_time.perf_counter() - t0)
    line = tuple(int(a) for a in w.pv[0, : w.pvlen[0]])
    return SearchResult(value=float(value), action=line[0], pv=line, stats=st, iterations=(st,), algorithm="minimax")
