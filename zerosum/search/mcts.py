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

import time as _time

import numpy as np

from zerosum.games.kit import Game, GameOverError, Heuristic, State
from zerosum.search import compiled
from zerosum.search.alphabeta import check_budget
from zerosum.search.functions import heuristic_ref, resolve_heuristic
from zerosum.search.heuristics import zero
from zerosum.search.result import SearchResult, SearchStats


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
        self._heur = heuristic_ref(self.heuristic)
        self._kernels = compiled.for_game(game)
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
            self._kernels.mcts(self._heur, g.params, states, parent, action, first, count, visits, wins,
                               mover, scratch, moves, path, icfg, fcfg, stats)
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
