"""Plain minimax (negamax form, no pruning): the reference every other search is tested against.

It visits every node to the given depth and counts them exactly (the root included):
from the empty tic-tac-toe board it visits 549,946 nodes. Terminal positions score
``WIN - ply`` like alpha-beta, so the two agree on values.
"""

from __future__ import annotations

import time as _time

import numpy as np
from numba import njit, types

from zerosum.games.base import APPLY, HEURISTIC, LEGAL, ONGOING, PLAYER, STATUS, Game, GameOverError, State
from zerosum.search.alphabeta import terminal_value
from zerosum.search.functions import heuristic_ref, ref, resolve_heuristic
from zerosum.search.result import SearchResult, SearchStats

_F = types.FunctionType
MINIMAX = types.float64(
    _F(LEGAL), _F(APPLY), _F(STATUS), _F(PLAYER), _F(HEURISTIC), types.int64[::1],
    types.int64[:, ::1], types.int64[:, ::1], types.int64[:, ::1], types.int64[::1], types.int64[::1],
    types.int64, types.int64,
)


@njit(MINIMAX, cache=True)
def _minimax(legal, apply, status, player, heur, params, stack, moves, pv, pvlen, stats, ply, depth):  # pragma: no cover
    s = stack[ply]
    stats[0] += 1
    pvlen[ply] = 0
    me = player(params, s)
    if depth <= 0:
        stats[1] += 1
        return heur(params, s, me)
    n = legal(params, s, moves[ply])
    child = stack[ply + 1]
    best = -1e18
    for i in range(n):
        a = moves[ply, i]
        apply(params, s, a, child)
        st = status(params, child)
        if st != ONGOING:
            stats[0] += 1
            stats[1] += 1
            pvlen[ply + 1] = 0
            v = terminal_value(st, me, ply + 1)
        elif player(params, child) == me:
            v = _minimax(legal, apply, status, player, heur, params, stack, moves, pv, pvlen, stats, ply + 1, depth - 1)
        else:
            v = -_minimax(legal, apply, status, player, heur, params, stack, moves, pv, pvlen, stats, ply + 1, depth - 1)
        if v > best:
            best = v
            pv[ply, ply] = a
            for t in range(pvlen[ply + 1]):
                pv[ply, ply + 1 + t] = pv[ply + 1, ply + 1 + t]
            pvlen[ply] = pvlen[ply + 1] + 1
    return best


def minimax(game: Game, state: State, depth: int, heuristic=None) -> SearchResult:
    """Full-width search to ``depth`` plies; ties go to the first move in legal order."""
    if game.is_terminal(state):
        raise GameOverError("cannot search a finished game")
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise ValueError(f"depth={depth!r}: a positive int is required")
    k = game.kernels
    h = heuristic_ref(resolve_heuristic(game, heuristic))
    d = int(depth) + 2
    stack = np.zeros((d, game.initial.shape[0]), np.int64)
    stack[0] = state
    moves = np.zeros((d, game.max_moves), np.int64)
    pv = np.zeros((d, d), np.int64)
    pvlen = np.zeros(d, np.int64)
    stats = np.zeros(2, np.int64)
    t0 = _time.perf_counter()
    value = _minimax(ref(k.legal, LEGAL), ref(k.apply, APPLY), ref(k.status, STATUS), ref(k.player, PLAYER),
                     h, game.params, stack, moves, pv, pvlen, stats, 0, int(depth))
    st = SearchStats(nodes=int(stats[0]), leaves=int(stats[1]), depth=int(depth), time=_time.perf_counter() - t0)
    line = tuple(int(a) for a in pv[0, : pvlen[0]])
    return SearchResult(value=float(value), action=line[0], pv=line, stats=st, iterations=(st,), algorithm="minimax")
