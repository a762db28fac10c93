"""Network-guided tree search: AlphaZero's PUCT and Gumbel AlphaZero's root, compiled, over
many trees at once.

The search runs B trees (*lanes*, one per game being played) in compiled code and leaves
the evaluation of positions to the caller, so that any function can guide it: a torch
network (:class:`zerosum.nets.NetworkEvaluator`), a uniform prior, a heuristic. One step
walks every lane's tree to a leaf (``leaves`` of them per lane, kept apart by virtual
loss), writes the leaves' observation planes (the game's ``observe`` kernel from the side
of the player to move, exactly what the env shows) and legal masks into preallocated
arrays and returns; the evaluator scores them in one call; the next step expands the
leaves and backs the values up. A leaf the rules decide is scored by the rules.

>>> from zerosum.games import make_game
>>> from zerosum.search import BatchedSearch, GuidedConfig, uniform_evaluator
>>> game = make_game("tictactoe")
>>> search = BatchedSearch(game, lanes=2, config=GuidedConfig(rule="puct"), seed=0)
>>> search.set_root(0, game.initial_state()); search.set_root(1, game.initial_state())
>>> res = search.run(uniform_evaluator, sims=64)
>>> res.visits.shape, int(res.visits[0].sum()) >= 64
((2, 9), True)

The evaluator is any callable ``evaluate(obs, mask) -> (logits, values)``: ``obs`` int8
``[n, *game.observation_shape]``, ``mask`` int8 ``[n, game.num_actions]``; ``logits`` float
``[n, game.num_actions]`` (unnormalised log-priors; illegal entries are ignored) and
``values`` float ``[n]`` in [-1, 1] for the player to move at each leaf. Callers that
evaluate elsewhere use the step loop that :meth:`BatchedSearch.run` is made of::

    search.begin(sims)
    while (n := search.select()) > 0:
        search.backup(*evaluate(search.obs[:n], search.mask[:n]))
    result = search.finish()

**Selection rules** (:class:`GuidedConfig`): ``puct`` is AlphaZero's (Silver et al. 2018):
``Q + c_puct * P * sqrt(N) / (1 + n)``, unvisited children valued at their parent's mean
value, Dirichlet noise mixed into the root's priors when ``dirichlet_fraction > 0``, and
the move played drawn from the root's visit counts raised to ``1 / temperature`` (the most
visited at temperature 0); its training target is the visit distribution. ``gumbel`` is
Gumbel AlphaZero's (Danihelka et al., ICLR 2022): Gumbel-top-k sampling of ``gumbel_k``
root moves, sequential halving of the simulations among them, and below the root the move
whose visit share lags most behind the improved policy; its move is the halving's winner
and its target the improved policy ``softmax(logits + sigma(completed Q))``, which improves
on the prior even with a handful of simulations.

**Values** are kept from player 0's side and turned to the mover's at every node, so games
where a player moves twice (Nine Men's Morris removals, a pass) need nothing special.
**Trees are kept**: :meth:`BatchedSearch.advance` makes the subtree under the move played the
lane's tree. The root's evaluation is not counted as a simulation (``sims`` simulations
follow it).
"""

from __future__ import annotations

import functools
import time as _time
from collections.abc import Sequence

import numpy as np

from zerosum.games.kit import Game, GameOverError, IllegalActionError, State, moves_buffer
from zerosum.search import _guided_parts as parts
from zerosum.search import compiled
from zerosum.search._arrays import GuidedArrays
from zerosum.search._flags import (
    G_BATCHES, G_C_PUCT, G_C_SCALE, G_C_VISIT, G_DIR_ALPHA, G_DIR_FRAC, G_EVALUATIONS, G_GUMBEL_K,
    G_LEAVES, G_MAX_DEPTH, G_NOISE, G_RULE, G_SIMULATIONS, G_TEMPERATURE, N_G_FCFG, N_G_ICFG, N_G_STATS,
)
from zerosum.search.guided_config import (
    MEMORY_BUDGET, RULES, Evaluator, EvaluatorError, GuidedConfig, GuidedResults, GuidedSearchError, halving_schedule,
    number, uniform_evaluator,
)
from zerosum.search.result import SearchStats

class BatchedSearch:
    """B network-guided search trees, one per lane, advanced together (see the module's text).

    ``max_nodes`` bounds each lane's tree (default: grown as a search needs, within
    :data:`MEMORY_BUDGET` for all lanes); a leaf that finds the tree full is evaluated and
    backed up without children. ``seed`` seeds each lane's own generator (a lane draws the
    same noise whatever the other lanes do; :meth:`set_root` can reseed one).
    """

    def __init__(self, game: Game, lanes: int = 1, config: GuidedConfig | None = None, *,
                 max_nodes: int | None = None, seed: int | None = None) -> None:
        number("lanes", lanes, 1, integer=True)
        if max_nodes is not None:
            number("max_nodes", max_nodes, game.max_moves + 1, integer=True)
        self.game, self.lanes = game, int(lanes)
        self.config = config if config is not None else GuidedConfig()
        """How the search selects (PUCT or Gumbel, noise, temperature), the same for every lane."""
        tiered = compiled.searcher(game, compiled.GUIDED_TEMPLATE, game.heuristic("zero"))  # it evaluates no heuristic
        self._k, self._params = tiered.module, tiered.params
        self._fixed_nodes = max_nodes is not None
        self._sigma = moves_buffer(game.max_moves, game.num_actions, dtype=np.float64)
        self._has_root = np.zeros(self.lanes, bool)
        self._rows = -1  # leaves waiting for backup (-1: no search under way)
        self._active = np.zeros(0, np.int64)
        nodes = int(max_nodes) if max_nodes is not None else min(4 * (game.max_moves + 1) + 256,
                                                                 self._node_budget())
        self._g = self._arrays(nodes)
        seeds = np.random.SeedSequence(seed).generate_state(self.lanes, np.uint64)
        self._g.rng[:self.lanes] = seeds
        self._g.icfg[G_RULE], self._g.icfg[G_LEAVES] = RULES[self.config.rule], self.config.leaves
        self._g.icfg[G_GUMBEL_K] = self.config.gumbel_k
        self._g.icfg[G_NOISE] = int(self.config.rule == "puct" and self.config.dirichlet_fraction > 0)
        c = self.config
        for slot, v in ((G_C_PUCT, c.c_puct), (G_DIR_ALPHA, c.dirichlet_alpha), (G_DIR_FRAC, c.dirichlet_fraction),
                        (G_C_VISIT, c.c_visit), (G_C_SCALE, c.c_scale), (G_TEMPERATURE, c.temperature)):
            self._g.fcfg[slot] = v
        self._t0 = self._eval_time = 0.0
        self._t_select = 0.0
        self._calls = 0

    # ---- the arrays ---------------------------------------------------------------------------
    def _node_bytes(self) -> int:
        return 8 * (self.game.state_size + 13)

    def _node_budget(self) -> int:
        return max(MEMORY_BUDGET // (self._node_bytes() * (self.lanes + 1)), self.game.max_moves + 1)

    def _arrays(self, nodes: int) -> GuidedArrays:
        g, rows, lanes = self.game, self.lanes * self.config.leaves, self.lanes + 1
        i2 = functools.partial(np.zeros, (lanes, nodes), np.int64)
        f2 = functools.partial(np.zeros, (lanes, nodes), np.float64)
        return GuidedArrays(
            states=np.zeros((lanes, nodes, g.state_size), np.int64), parent=i2(), action=i2(),
            first=np.full((lanes, nodes), -1, np.int64), count=i2(), visits=i2(), vloss=i2(), w0=f2(), logit=f2(),
            prior=f2(), raw0=f2(), mover=np.full((lanes, nodes), -1, np.int64), term=i2(),
            size=np.zeros(lanes, np.int64), remaining=np.zeros(lanes, np.int64),
            start=moves_buffer(g.max_moves, g.num_actions, lanes),  # room past max_moves (kit.movebuf)
            gumbel=moves_buffer(g.max_moves, g.num_actions, lanes, np.float64),
            rng=np.zeros(lanes, np.uint64), schedule=np.zeros((1, 1), np.int64),
            obs=np.zeros((rows, int(np.prod(g.observation_shape))), np.int8),
            mask=np.zeros((rows, g.num_actions), np.int8), pend_lane=np.zeros(rows, np.int64),
            pend_node=np.zeros(rows, np.int64), moves=moves_buffer(g.max_moves, g.num_actions),
            work=np.zeros(nodes, np.int64), icfg=np.zeros(N_G_ICFG, np.int64), fcfg=np.zeros(N_G_FCFG, np.float64),
            stats=np.zeros((lanes, N_G_STATS), np.int64))

    def _grow(self, nodes: int) -> None:
        """Room for ``nodes`` nodes a lane, keeping the trees."""
        old = self._g
        new = self._arrays(nodes)
        n = old.first.shape[1]
        for name in ("states", "parent", "action", "first", "count", "visits", "vloss", "w0", "logit", "prior",
                     "raw0", "mover", "term"):
            getattr(new, name)[:, :n] = getattr(old, name)
        for name in ("size", "remaining", "start", "gumbel", "rng", "icfg", "fcfg", "stats"):
            getattr(new, name)[...] = getattr(old, name)
        parts.set_schedule(new, old.schedule)
        new.__dict__["schedule"] = old.schedule
        self._g = new

    @property
    def obs(self) -> np.ndarray:
        """The waiting leaves' observation planes, ``[rows, *observation_shape]`` int8 (rows: lanes x leaves)."""
        planes: np.ndarray = self._g.obs.reshape(-1, *self.game.observation_shape)
        return planes

    @property
    def mask(self) -> np.ndarray:
        """The waiting leaves' legal masks, ``[rows, num_actions]`` int8."""
        return self._g.mask  # type: ignore[no-any-return]

    @property
    def max_nodes(self) -> int:
        """Each lane's room for nodes now."""
        return int(self._g.first.shape[1])

    def tree_size(self, lane: int) -> int:
        """Nodes in ``lane``'s tree."""
        return int(self._g.size[self._lane(lane)])

    # ---- roots ----------------------------------------------------------------------------------
    def _lane(self, lane: int) -> int:
        if isinstance(lane, bool) or not isinstance(lane, (int, np.integer)) or not 0 <= lane < self.lanes:
            raise GuidedSearchError(f"lane={lane!r}: a lane from 0 to {self.lanes - 1} is required")
        return int(lane)

    def _idle(self, what: str) -> None:
        if self._rows >= 0:
            raise GuidedSearchError(f"{what} during a search: call finish() first (or run())")

    def set_root(self, lane: int, state: State, seed: int | None = None) -> None:
        """Start ``lane``'s tree afresh at ``state`` (its generator reseeded if ``seed`` is given)."""
        lane = self._lane(lane)
        self._idle("set_root")
        s = np.ascontiguousarray(state, dtype=np.int64)
        if s.shape != (self.game.state_size,):
            raise GuidedSearchError(f"a {self.game.name} state is an int64 vector of {self.game.state_size}; "
                                    f"got shape {s.shape}")
        self._k.set_root_entry(self._params, self._g, lane, s)
        if seed is not None:
            self._g.rng[lane] = np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]
        self._has_root[lane] = True

    def root(self, lane: int) -> State:
        """The position at ``lane``'s root (a copy)."""
        lane = self._lane(lane)
        if not self._has_root[lane]:
            raise GuidedSearchError(f"lane {lane} has no root: call set_root(lane, state) first")
        state: State = self._g.states[lane, 0].copy()
        return state

    def advance(self, lane: int, action: int) -> None:
        """Play ``action`` at ``lane``'s root; the subtree under it is kept as the new tree."""
        state = self.root(lane)
        self._idle("advance")
        if self.game.is_terminal(state):
            raise GameOverError(f"lane {lane}: the game is over; set_root starts another")
        legal = self.game.legal_actions(state)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or int(action) not in legal:
            raise IllegalActionError(f"lane {lane}: {action!r} is not legal here; legal: "
                                     f"{self.game.describe_actions(legal, state)}")
        self._k.advance(self._params, self._g, int(lane), int(action))

    # ---- the step loop --------------------------------------------------------------------------
    def begin(self, sims: int, lanes: Sequence[int] | np.ndarray | None = None) -> None:
        """Start a search of ``sims`` simulations in ``lanes`` (default: all)."""
        self._idle("begin")
        number("sims", sims, 0, integer=True)
        active = np.arange(self.lanes, dtype=np.int64) if lanes is None else np.array(
            [self._lane(int(x)) for x in lanes], np.int64)
        for lane in active:
            if not self._has_root[lane]:
                raise GuidedSearchError(f"lane {lane} has no root: call set_root(lane, state) first")
            if self._g.term[lane, 0] != 0:
                raise GameOverError(f"lane {lane}: cannot search a finished game")
        if len(np.unique(active)) != len(active):
            raise GuidedSearchError(f"lanes={list(active)}: each lane at most once")
        self._room(int(sims), active)
        if self.config.rule == "gumbel":
            table = halving_schedule(min(self.config.gumbel_k, self.game.max_moves), int(sims)).copy()
            parts.set_schedule(self._g, table)
            self._g.__dict__["schedule"] = table
        for lane in active:
            parts.begin(self._g, int(lane), int(sims))
        self._active, self._rows = active, 0
        self._t0, self._eval_time, self._calls, self._evals = _time.perf_counter(), 0.0, 0, 0

    def _room(self, sims: int, active: np.ndarray) -> None:
        """Grow the trees, within the budget, so that a search of ``sims`` simulations fits
        beside the largest subtree a previous search can leave (grown once per budget, not
        per search)."""
        if self._fixed_nodes:
            return
        search = (sims + 1) * self.game.max_moves
        need = int(self._g.size[active].max(initial=0)) + search + 1
        if need > self.max_nodes:  # at least double (a smaller search after a larger one never shrinks it)
            target = min(max(need, 2 * search + 1, 2 * self.max_nodes), self._node_budget())
            if target > self.max_nodes:
                self._grow(target)

    def select(self) -> int:
        """Walk the trees to their next leaves; returns how many wait in ``obs[:n]`` and
        ``mask[:n]`` (0: the search is done)."""
        if self._rows < 0:
            raise GuidedSearchError("select before begin(sims)")
        if self._rows > 0:
            raise GuidedSearchError(f"{self._rows} leaves wait for backup(logits, values)")
        n = int(self._k.select_leaves(self._params, self._g, self._active, self._sigma))
        if n < 0:  # a legal kernel listed -n moves, more than max_moves
            self._rows = -1
            raise self.game.moves_error("legal", -n, "the guided search")
        self._rows = n
        self._t_select = _time.perf_counter()
        return n

    def backup(self, logits: np.ndarray, values: np.ndarray) -> None:
        """Expand the waiting leaves with the evaluator's ``logits`` and back up its ``values``."""
        t = _time.perf_counter()
        n = self._rows
        if n <= 0:
            raise GuidedSearchError("backup without leaves: call select() first")
        a = self.game.num_actions
        lg, vs = np.asarray(logits), np.asarray(values)
        if lg.shape != (n, a):
            raise EvaluatorError(f"the evaluator's logits for {self._batch(n)} have shape {lg.shape}; "
                                 f"expected ({n}, {a})")
        if vs.shape not in ((n,), (n, 1)):
            raise EvaluatorError(f"the evaluator's values for {self._batch(n)} have shape {vs.shape}; expected ({n},)")
        lg = np.ascontiguousarray(lg, dtype=np.float64)
        vs = np.ascontiguousarray(vs.reshape(n), dtype=np.float64)
        bad = int(self._k.backup(self._params, self._g, n, lg, vs))
        if bad >= 0:  # nothing was backed up: the search can go on with a corrected answer
            what = (f"value {float(vs[bad])!r} (a number in [-1, 1] is required)" if not abs(vs[bad]) <= 1.0 else
                    "a NaN or infinite logit for a legal move")
            raise EvaluatorError(f"the evaluator returned {what} for row {bad} (lane {self._g.pend_lane[bad]}) of "
                                 f"{self._batch(n)}")
        self._eval_time += t - self._t_select
        self._calls += 1
        self._evals += n
        self._rows = 0

    def _batch(self, n: int) -> str:
        """The pending leaf batch, as an error names it."""
        lanes = sorted(set(self._g.pend_lane[:n].tolist()))
        return f"the batch of {n} leaves (lanes {lanes[:16]}{' ...' if len(lanes) > 16 else ''})"

    def finish(self) -> GuidedResults:
        """The search's results (the step loop must have reached ``select() == 0``)."""
        if self._rows != 0:
            raise GuidedSearchError("finish before the search is done: select() must return 0 first"
                                    if self._rows > 0 else "finish before begin(sims)")
        elapsed = _time.perf_counter() - self._t0
        g, k, active = self.game, len(self._active), self._active
        action = np.zeros(k, np.int64)
        policy, value = np.zeros((k, g.num_actions), np.float64), np.zeros(k, np.float64)
        visits = np.zeros((k, g.num_actions), np.int64)
        stats = []
        for i, lane in enumerate(active):
            action[i] = parts.finish(self._g, int(lane), policy[i], visits[i], self._sigma)
            n0 = self._g.visits[lane, 0]
            sgn = 1.0 if self._g.mover[lane, 0] == 0 else -1.0
            value[i] = sgn * self._g.w0[lane, 0] / n0 if n0 else 0.0
            st = self._g.stats[lane]
            stats.append(SearchStats(
                nodes=int(self._g.size[lane]), simulations=int(st[G_SIMULATIONS]), depth=int(st[G_MAX_DEPTH]),
                time=elapsed, evaluations=int(st[G_EVALUATIONS]), batches=int(st[G_BATCHES]),
                eval_time=self._eval_time, value=float(value[i])))
        self._rows = -1
        return GuidedResults(lanes=active.copy(), action=action, policy=policy, value=value, visits=visits,
                             stats=tuple(stats), evaluator_calls=self._calls, evaluations=self._evals,
                             algorithm=self.config.rule)

    def run(self, evaluate: Evaluator, sims: int, lanes: Sequence[int] | np.ndarray | None = None) -> GuidedResults:
        """A whole search of ``sims`` simulations in ``lanes`` (default all), evaluating with ``evaluate``."""
        self.begin(sims, lanes)
        try:
            while (n := self.select()) > 0:
                self.backup(*evaluate(self.obs[:n], self.mask[:n]))
        except BaseException:
            self._abandon()
            raise
        return self.finish()

    def _abandon(self) -> None:
        """After an error mid-search: drop the pending leaves' virtual losses and end the search."""
        if self._rows > 0:
            for r in range(self._rows):
                lane, x = self._g.pend_lane[r], self._g.pend_node[r]
                while x >= 0:
                    self._g.vloss[lane, x] -= 1
                    x = self._g.parent[lane, x]
        self._rows = -1


__all__ = [
    "RULES",
    "BatchedSearch",
    "Evaluator",
    "EvaluatorError",
    "GuidedConfig",
    "GuidedResults",
    "GuidedSearchError",
    "halving_schedule",
    "uniform_evaluator",
]
