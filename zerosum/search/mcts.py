"""Monte Carlo tree search (UCT), compiled, with random or heuristic-guided rollouts.

The tree lives in flat arrays (:class:`zerosum.search._arrays.TreeArrays`: state, parent,
first child, child count, visits, wins); a leaf is expanded with all its children at its
second visit (the root at its first). Rollouts play random moves to the end
(``rollout="random"``), or play the move the heuristic likes best with probability
``1 - epsilon`` (``rollout="greedy"``); ``rollout_depth`` stops a rollout early and
scores it with the heuristic squashed to a win probability. Rewards are 1 for a win,
0.5 for a draw, 0 for a loss, credited to the player who chose the move into each node,
so games with repeated turns are handled. The budget is simulations or seconds; the
statistics count tree nodes (``nodes``) and ``simulations``.

``mcts(game, state, sims=...)`` runs one search, as ``alphabeta(game, state, depth=...)``
does; keep an :class:`MCTS` object for many (it compiles and checks its options once).
"""

from __future__ import annotations

import time as _time
from typing import Any, cast

import numpy as np

from zerosum.games.kit import Game, GameOverError, Heuristic, State, moves_buffer
from zerosum.search import compiled
from zerosum.search._arrays import TreeArrays
from zerosum.search._flags import (
    KEEP_SEED, MAX_DEPTH, MC_C_UCT, MC_EPSILON, MC_MAX_LENGTH, MC_MOVES_OVER, MC_ROLLOUT, MC_ROLLOUT_DEPTH, MC_SCALE,
    MC_SEED, MC_SIMS, N_MC_FCFG, N_MC_ICFG, N_MC_STATS, OVERLONG, ROLLOUT_GREEDY, ROLLOUT_RANDOM, SIMULATIONS,
    TO_THE_END, TREE_SIZE,
)
from zerosum.search.alphabeta import check_budget
from zerosum.search.functions import HeuristicArg, resolve_heuristic
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

    def __init__(self, game: Game, heuristic: HeuristicArg = None, *, c: float = 1.4, rollout: str = "random",
                 rollout_depth: int | None = None, epsilon: float = 0.1, scale: float | None = None,
                 max_nodes: int = 200_000) -> None:
        check_options(c=c, rollout=rollout)
        self.game = game
        """The game searched."""
        needs_heuristic = heuristic is not None or rollout == "greedy" or rollout_depth is not None
        self.heuristic = resolve_heuristic(game, heuristic) if needs_heuristic else Heuristic("zero", zero)
        """The heuristic that scores cut-off rollouts and greedy rollout moves (``zero`` when none is needed)."""
        tiered = compiled.searcher(game, compiled.MCTS_TEMPLATE, self.heuristic)
        self._heur, self._kernels, self._params = tiered.heuristic, tiered.module, tiered.params
        self.c, self.rollout, self.epsilon = c, rollout, epsilon
        self.rollout_depth = TO_THE_END if rollout_depth is None else int(rollout_depth)
        """Plies a rollout plays before the heuristic scores it (to the end when not given)."""
        self.scale = float(scale) if scale else 10.0
        """A cut-off rollout's heuristic value v counts as the win chance 0.5 + 0.5 tanh(v / scale)."""
        self.max_nodes = int(max_nodes)
        """The most tree nodes a search may allocate."""

    def search(self, state: State, sims: int | None = None, *, time: float | None = None,
               seed: int | np.random.Generator | None = None) -> SearchResult:
        """Run ``sims`` simulations (or as many as ``time`` seconds allow)."""
        g = self.game
        if g.is_terminal(state):
            raise GameOverError("cannot search a finished game")
        if sims is None and time is None:
            raise ValueError("give a budget: sims= or time= (seconds)")
        check_budget(sims=sims, time=time)
        t = self._tree(state)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        t.icfg[MC_SEED] = int(rng.integers(1 << 31))
        t0 = _time.perf_counter()
        done = 0
        chunk = cast(int, sims) if time is None else 64  # sims is given when time is not
        while True:
            t.icfg[MC_SIMS] = chunk if sims is None else min(chunk, sims - done)
            self._kernels.mcts(self._heur, self._params, t)
            if t.stats[MC_MOVES_OVER]:
                raise g.moves_error("legal", int(t.stats[MC_MOVES_OVER]), "MCTS")
            if t.stats[OVERLONG]:
                raise g.length_error("an MCTS rollout")
            t.icfg[MC_SEED] = KEEP_SEED  # later chunks continue the same random sequence
            done += int(t.icfg[MC_SIMS])
            if sims is not None and done >= sims:
                break
            if time is not None and _time.perf_counter() - t0 >= time:
                break
        st = SearchStats(nodes=int(t.stats[TREE_SIZE]), simulations=int(t.stats[SIMULATIONS]),
                         depth=int(t.stats[MAX_DEPTH]), time=_time.perf_counter() - t0)
        best = t.first[0] + int(np.argmax(t.visits[t.first[0]: t.first[0] + t.count[0]]))
        p = t.wins[best] / max(t.visits[best], 1)
        line = self._line(t) or (int(t.action[best]),)
        return SearchResult(value=2.0 * p - 1.0, action=int(t.action[best]), pv=line,
                            stats=st, iterations=(st,), algorithm="mcts")

    def _tree(self, state: State) -> TreeArrays:
        """A fresh tree holding only ``state``, with room for max_nodes and one expansion."""
        g = self.game
        cap = self.max_nodes + g.max_moves + 1
        t = TreeArrays(
            states=np.zeros((cap, g.initial.shape[0]), np.int64), parent=np.full(cap, -1, np.int64),
            action=np.full(cap, -1, np.int64), first=np.full(cap, -1, np.int64), count=np.zeros(cap, np.int64),
            visits=np.zeros(cap, np.int64), wins=np.zeros(cap, np.float64), mover=np.zeros(cap, np.int64),
            scratch=np.zeros((2, g.initial.shape[0]), np.int64), moves=moves_buffer(g.max_moves, g.num_actions),
            path=np.zeros(cap + 1, np.int64),  # a tree path is never longer than the tree
            icfg=np.zeros(N_MC_ICFG, np.int64), fcfg=np.zeros(N_MC_FCFG, np.float64),
            stats=np.zeros(N_MC_STATS, np.int64))
        t.states[0] = state
        t.stats[TREE_SIZE] = 1
        t.icfg[MC_ROLLOUT] = ROLLOUT_GREEDY if self.rollout == "greedy" else ROLLOUT_RANDOM
        t.icfg[MC_ROLLOUT_DEPTH] = self.rollout_depth
        t.icfg[MC_MAX_LENGTH] = g.max_game_length
        t.fcfg[MC_C_UCT], t.fcfg[MC_EPSILON], t.fcfg[MC_SCALE] = self.c, self.epsilon, self.scale
        return t

    @staticmethod
    def _line(t: TreeArrays) -> tuple[int, ...]:
        """The most visited line from the root (at most 64 moves)."""
        line: list[int] = []
        node = 0
        while t.first[node] >= 0 and len(line) < 64:
            node = max(range(t.first[node], t.first[node] + t.count[node]), key=lambda c: (t.visits[c], t.wins[c]))
            if t.visits[node] == 0:
                break
            line.append(int(t.action[node]))
        return tuple(line)


def mcts(game: Game, state: State, sims: int | None = None, heuristic: HeuristicArg = None, *,
         time: float | None = None, seed: int | np.random.Generator | None = None, **options: Any) -> SearchResult:
    """One UCT search from ``state`` with ``sims`` simulations (or ``time`` seconds).

    ``options`` are :class:`MCTS`'s: ``c``, ``rollout`` ("random" or "greedy"),
    ``rollout_depth``, ``epsilon``, ``scale``, ``max_nodes``; ``heuristic`` (a name, a
    Heuristic or a function) guides greedy rollouts and scores the end of cut rollouts.
    The result's ``value`` is the root mover's expected score mapped to [-1, 1] and its
    ``action`` the most visited move. For many searches keep an :class:`MCTS` object.
    """
    return MCTS(game, heuristic, **options).search(state, sims, time=time, seed=seed)
