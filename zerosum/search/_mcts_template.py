"""The compiled MCTS (UCT), written once and specialised per game: expansion and rollouts,
the parts that call the rules (selection and backpropagation: :mod:`zerosum.search._parts`).

A template like :mod:`zerosum.search._template` (the contract is in
:mod:`zerosum.games.kit.specialize`): :mod:`zerosum.search.compiled` copies it per game.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numba import njit, types

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import HEURISTIC, ONGOING, Params, State
from zerosum.search._arrays import TREE_ARRAYS, TreeArrays
from zerosum.search._flags import (
    KEEP_SEED, MAX_DEPTH, MC_EPSILON, MC_MAX_LENGTH, MC_MOVES_OVER, MC_ROLLOUT, MC_ROLLOUT_DEPTH, MC_SCALE, MC_SEED,
    MC_SIMS, OVERLONG, ROLLOUT_GREEDY, ROLLOUT_PLIES, SIMULATIONS, TREE_SIZE,
)
from zerosum.search._parts import backpropagate, reward_p0, select

legal, apply, status, player = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player

_H = types.FunctionType(HEURISTIC)
_P = types.Array(types.int64, 1, "C", readonly=True)  # the game's params (read-only)
Heur = Callable[[Params, State, int], float]  # a heuristic as the search calls it (a first-class function)


@njit(inline="always")
def expand(params: Params, t: TreeArrays, node: int, depth: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """At a leaf's second visit (the root's first) add all its children, if there is room,
    and step into one at random; (node, depth)."""
    s = t.states[node]
    if status(params, s) != ONGOING or (t.visits[node] == 0 and node != 0):
        return node, depth
    n = legal(params, s, t.moves)
    if n > t.moves.shape[0]:  # more than max_moves (the buffer has room: kit.movebuf): the caller raises
        t.stats[MC_MOVES_OVER] = n
        return node, depth
    base = t.stats[TREE_SIZE]
    if base + n > t.states.shape[0]:
        return node, depth
    t.mover[node] = player(params, s)
    for i in range(n):
        c = base + i
        apply(params, s, t.moves[i], t.states[c])
        t.parent[c], t.action[c], t.first[c], t.count[c], t.visits[c], t.wins[c] = node, t.moves[i], -1, 0, 0, 0.0
    t.first[node], t.count[node] = base, n
    t.stats[TREE_SIZE] = base + n
    node = base + np.random.randint(n)
    t.path[depth + 1] = node
    return node, depth + 1


@njit(inline="always")
def greedy_move(heur: Heur, params: Params, t: TreeArrays, s: State, p: int, n: int,  # pragma: no cover - compiled
                a: int, out: State) -> int:
    """The move the heuristic likes best for ``p`` (a win above all; else ``a``), ``out`` as scratch."""
    bestv = -1e300
    for i in range(n):
        apply(params, s, t.moves[i], out)
        cs = status(params, out)
        if cs != ONGOING:
            v = 1e12 * (reward_p0(cs) if p == 0 else 1.0 - reward_p0(cs))
        else:
            v = heur(params, out, p)
        if v > bestv:
            bestv, a = v, t.moves[i]
    return a


@njit(inline="always")
def rollout(heur: Heur, params: Params, t: TreeArrays, node: int) -> float:  # pragma: no cover - compiled
    """Play from ``node`` to the end (or MC_ROLLOUT_DEPTH plies, then ask the heuristic);
    player 0's reward."""
    t.scratch[0, :] = t.states[node]
    cur, plies, limit = 0, 0, t.icfg[MC_ROLLOUT_DEPTH]
    while True:
        s = t.scratch[cur]
        st = status(params, s)
        if st != ONGOING:
            r0 = reward_p0(st)
            break
        if limit >= 0 and plies >= limit:
            r0 = 0.5 + 0.5 * math.tanh(heur(params, s, 0) / t.fcfg[MC_SCALE])
            break
        if plies >= t.icfg[MC_MAX_LENGTH]:  # the rules never end this game: stop, the caller raises
            t.stats[OVERLONG] += 1
            r0 = 0.5
            break
        n = legal(params, s, t.moves)
        if n > t.moves.shape[0]:  # more than max_moves: stop, the caller raises
            t.stats[MC_MOVES_OVER] = n
            r0 = 0.5
            break
        a = t.moves[np.random.randint(n)]
        if t.icfg[MC_ROLLOUT] == ROLLOUT_GREEDY and np.random.random() >= t.fcfg[MC_EPSILON]:
            a = greedy_move(heur, params, t, s, player(params, s), n, a, t.scratch[1 - cur])
        apply(params, s, a, t.scratch[1 - cur])
        cur = 1 - cur
        plies += 1
    t.stats[ROLLOUT_PLIES] += plies
    return r0


MCTS = types.void(_H, _P, TREE_ARRAYS)  # heur, params, tree


@njit(MCTS, cache=True)
def mcts(heur: Heur, params: Params, t: TreeArrays) -> None:  # pragma: no cover - compiled
    """Run ``t.icfg[MC_SIMS]`` UCT simulations on the tree held in ``t``; see zerosum.search.mcts."""
    if t.icfg[MC_SEED] != KEEP_SEED:
        np.random.seed(t.icfg[MC_SEED])
    for _ in range(t.icfg[MC_SIMS]):
        node, depth = select(t)
        node, depth = expand(params, t, node, depth)
        t.stats[MAX_DEPTH] = max(t.stats[MAX_DEPTH], depth)
        backpropagate(t, depth, rollout(heur, params, t, node))
        t.stats[SIMULATIONS] += 1
        if t.stats[MC_MOVES_OVER]:
            return
