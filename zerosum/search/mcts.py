"""Monte Carlo tree search (UCT), compiled, with random or heuristic-guided rollouts.

The tree lives in flat arrays (state, parent, first child, child count, visits, wins);
a leaf is expanded with all its children at its first visit. Rollouts play random moves
to the end (``rollout="random"``), or play the move the heuristic likes best with
probability ``1 - epsilon`` (``rollout="greedy"``); ``rollout_depth`` stops a rollout
early and scores it with the heuristic squashed to a win probability. Rewards are 1 for
a win, 0.5 for a draw, 0 for a loss, credited to the player who chose the move into each
node, so games with repeated turns are handled. The budget is simulations or seconds.
"""

from __future__ import annotations

import math
import time as _time

import numpy as np
from numba import njit, types

from zerosum.games.base import (
    APPLY, HEURISTIC, KEY, LEGAL, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER, STATUS, Game,
    GameOverError, Heuristic, State,
)
from zerosum.search.alphabeta import check_budget
from zerosum.search.functions import heuristic_ref, resolve_heuristic, rule_refs
from zerosum.search.heuristics import zero
from zerosum.search.result import SearchResult, SearchStats

_F = types.FunctionType
_I1, _I2, _D1 = types.int64[::1], types.int64[:, ::1], types.float64[::1]

MCTS = types.void(
    _F(LEGAL), _F(APPLY), _F(STATUS), _F(PLAYER), _F(KEY), _F(ORDER), _F(HEURISTIC), _I1,
    _I2, _I1, _I1, _I1, _I1, _I1, _D1, _I1,  # states, parent, action, first, count, visits, wins, mover
    _I2, _I1, _D1, _I1, _I1,                 # scratch states, moves buffer, score buffer, path, cfg ints
    _D1, _I1,                                # cfg floats, stats
)
# cfg ints: sims, rollout mode (0 random, 1 greedy), rollout depth (-1 = to the end), seed (-1 = none)
# cfg floats: c_uct, epsilon, heuristic scale
# stats: tree size, simulations done, rollout plies, max depth


@njit(types.float64(types.int64), cache=True)
def _reward_p0(status):
    """Player 0's reward for a finished game: 1 win, 0.5 draw, 0 loss."""
    if status == P0_WINS:
        return 1.0
    if status == P1_WINS:
        return 0.0
    return 0.5


@njit(MCTS, cache=True)
def mcts_run(legal, apply, status, player, key, order, heur, params, states, parent, action,
             first, count, visits, wins, mover, scratch, moves, scores, path, icfg, fcfg,
             stats):  # pragma: no cover - compiled
    if icfg[3] >= 0:
        np.random.seed(icfg[3])
    c_uct, eps, scale = fcfg[0], fcfg[1], fcfg[2]
    capacity = states.shape[0]
    for _ in range(icfg[0]):
        node = 0
        depth = 0
        path[0] = 0
        # selection: descend through expanded nodes by UCT, unvisited children first
        while first[node] >= 0:
            best = -1.0
            pick = first[node]
            logn = math.log(visits[node] + 1.0)
            for c in range(first[node], first[node] + count[node]):
                if visits[c] == 0:
                    u = 1e9 + np.random.random()
                else:
                    u = wins[c] / visits[c] + c_uct * math.sqrt(logn / visits[c])
                if u > best:
                    best = u
                    pick = c
            node = pick
            depth += 1
            path[depth] = node
        # expansion at a leaf's second visit (the root's first): all children, if there is room
        st = status(params, states[node])
        if st == ONGOING and (visits[node] > 0 or node == 0):
            n = legal(params, states[node], moves)
            if stats[0] + n <= capacity:
                base = stats[0]
                mover[node] = player(params, states[node])
                for i in range(n):
                    c = base + i
                    apply(params, states[node], moves[i], states[c])
                    parent[c] = node
                    action[c] = moves[i]
                    first[c] = -1
                    count[c] = 0
                    visits[c] = 0
                    wins[c] = 0.0
                first[node] = base
                count[node] = n
                stats[0] = base + n
                node = base + np.random.randint(n)
                depth += 1
                path[depth] = node
        if depth > stats[3]:
            stats[3] = depth
        # rollout from node
        for t in range(states.shape[1]):
            scratch[0, t] = states[node, t]
        cur = 0
        plies = 0
        r0 = 0.5
        while True:
            s = scratch[cur]
            st = status(params, s)
            if st != ONGOING:
                r0 = _reward_p0(st)
                break
            if icfg[2] >= 0 and plies >= icfg[2]:
                r0 = 0.5 + 0.5 * math.tanh(heur(params, s, 0) / scale)
                break
            n = legal(params, s, moves)
            a = moves[np.random.randint(n)]
            if icfg[1] == 1 and np.random.random() >= eps:
                p = player(params, s)
                bestv = -1e300
                for i in range(n):
                    apply(params, s, moves[i], scratch[1 - cur])
                    cs = status(params, scratch[1 - cur])
                    if cs != ONGOING:
                        v = 1e12 * (_reward_p0(cs) if p == 0 else 1.0 - _reward_p0(cs))
                    else:
                        v = heur(params, scratch[1 - cur], p)
                    if v > bestv:
                        bestv = v
                        a = moves[i]
            apply(params, s, a, scratch[1 - cur])
            cur = 1 - cur
            plies += 1
        stats[2] += plies
        # backpropagation: credit each node to the player who chose the move into it
        for k in range(depth, -1, -1):
            nd = path[k]
            visits[nd] += 1
            if k > 0:
                wins[nd] += r0 if mover[path[k - 1]] == 0 else 1.0 - r0
        stats[1] += 1


def check_options(c: float = 1.4, rollout: str = "random", **_: object) -> None:
    """Raise ValueError for an unknown rollout policy or a non-positive exploration constant."""
    if rollout not in ("random", "greedy"):
        raise ValueError(f"rollout={rollout!r}: use 'random' or 'greedy'")
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not c > 0:
        raise ValueError(f"c={c!r}: a positive exploration constant is required")


class MCTS:
    """A UCT searcher for one game (a fresh tree for every search)."""

    def __init__(self, game: Game, heuristic=None, *, c: float = 1.4, rollout: str = "random",
                 rollout_depth: int | None = None, epsilon: float = 0.1, scale: float | None = None,
                 max_nodes: int = 200_000) -> None:
        check_options(c=c, rollout=rollout)
        self.game = game
        needs_heuristic = heuristic is not None or rollout == "greedy" or rollout_depth is not None
        self.heuristic = resolve_heuristic(game, heuristic) if needs_heuristic else Heuristic("zero", zero)
        self._refs = (*rule_refs(game), heuristic_ref(self.heuristic))
        self.c, self.rollout, self.epsilon = c, rollout, epsilon
        self.rollout_depth = -1 if rollout_depth is None else int(rollout_depth)
        self.scale = float(scale) if scale else 10.0
        self.max_nodes = int(max_nodes)

    def search(self, state: State, sims: int | None = None, *, time: float | None = None,
               seed: int | np.random.Generator | None = None) -> SearchResult:
        """Run ``sims`` simulations (or as many as ``time`` seconds allow)."""
        g = self.game
        if g.is_terminal(state):
            raise GameOverError("cannot search a finished game")
        if sims is None and time is None:
            raise ValueError("give a budget: sims= or time= (seconds)")
        check_budget(sims=sims, time=time)
        cap = self.max_nodes + g.max_moves + 1
        states = np.zeros((cap, g.initial.shape[0]), np.int64)
        states[0] = state
        parent = np.full(cap, -1, np.int64)
        action = np.full(cap, -1, np.int64)
        first = np.full(cap, -1, np.int64)
        count = np.zeros(cap, np.int64)
        visits = np.zeros(cap, np.int64)
        wins = np.zeros(cap, np.float64)
        mover = np.zeros(cap, np.int64)
        scratch = np.zeros((2, g.initial.shape[0]), np.int64)
        moves = np.zeros(g.max_moves, np.int64)
        scores = np.zeros(g.max_moves, np.float64)
        path = np.zeros(cap + 1, np.int64)  # a tree path is never longer than the tree
        stats = np.array([1, 0, 0, 0], np.int64)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        fcfg = np.array([self.c, self.epsilon, self.scale])
        mode = 1 if self.rollout == "greedy" else 0
        t0 = _time.perf_counter()
        done = 0
        chunk = sims if time is None else 64
        first_call = True
        while True:
            todo = chunk if sims is None else min(chunk, sims - done)
            icfg = np.array([todo, mode, self.rollout_depth, int(rng.integers(1 << 31)) if first_call else -1], np.int64)
            first_call = False
            mcts_run(*self._refs, g.params, states, parent, action, first, count, visits, wins,
                     mover, scratch, moves, scores, path, icfg, fcfg, stats)
            done += todo
            if sims is not None and done >= sims:
                break
            if time is not None and _time.perf_counter() - t0 >= time:
                break
        elapsed = _time.perf_counter() - t0
        line = []
        node = 0
        while first[node] >= 0 and len(line) < 64:
            kids = range(first[node], first[node] + count[node])
            node = max(kids, key=lambda c: (visits[c], wins[c]))
            if visits[node] == 0:
                break
            line.append(int(action[node]))
        best = first[0] + int(np.argmax(visits[first[0]: first[0] + count[0]]))
        p = wins[best] / max(visits[best], 1)
        st = SearchStats(nodes=int(stats[0]), leaves=int(stats[1]), depth=int(stats[3]), time=elapsed)
        return SearchResult(value=2.0 * p - 1.0, action=int(action[best]), pv=tuple(line) or (int(action[best]),),
                            stats=st, iterations=(st,), algorithm="mcts")
