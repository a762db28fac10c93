"""Expert iteration's labels and the ladder: zerosum's alpha-beta scores positions for a network to learn from.

>>> from zerosum.games import make_game
>>> from zerosum.training.alphazero.labels import Labeller
>>> lab = Labeller(make_game("tictactoe"), depth=9)
>>> label = lab.label(make_game("tictactoe").initial_state())
>>> round(float(label.value), 3), round(float(label.policy.sum()), 3)  # a draw; a distribution
(0.0, 1.0)

One label per position (no torch, no network):

* **value target**: the alpha-beta value at ``depth`` from the side of the player to move,
  squashed to [-1, 1] as ``tanh(value / value_scale)``; a proven win is +1, a proven loss -1,
  a finished draw 0.
* **policy target**: a softmax over the searched values of the legal root moves at
  ``temperature`` (in the heuristic's units; illegal moves get 0). A plain search's
  ``root_values`` would not do: alpha-beta proves only that a non-best move is worse, not by
  how much. So each move's child is searched at ``depth - 1`` (one table shared by all of
  them): the likely best move first (a search of the root at ``depth - 2`` picks it) with the
  full window, the others in a window that is exact down to ``MARGIN`` temperatures below
  the best value so far; a move worse than that gets an upper bound, and a policy weight
  under e^-8 of the best's either way. Proven wins and losses enter the softmax as
  ``+-WIN_SCORE * value_scale``: every winning move shares the mass, a losing one gets none
  unless every move loses. With ``fast_wins=True`` a nearer win outweighs a farther one
  (e^3 for two plies nearer) and takes the mass, and a farther loss a nearer one.

The searches are plain fixed-depth alpha-beta (table, move ordering, killers, PVS; no
iterative deepening and no ordering by evaluation: at a fixed depth these only cost time
here), so "depth 8" means every line is searched 8 plies, as minimax would. With
``quiescence=True`` each line then follows the game's forcing moves, as the engine's
``alphabeta`` agent does: on Connect Four a label then costs about twice the nodes and its
best move plays much better (against alphabeta(depth=2), playing the label's argmax, 100
games each: depth 8 scored 0.77 with it and 0.69 without, depth 10 with it 0.865;
the lab notes).
``bench/labeller.py`` measures the rate (Connect Four at depth 8: ~660,000 positions per
core-hour on the busy 2-core machine, 16,000 nodes a label).

:func:`generate` plays games to find positions worth labelling: a random opening of up to
``opening_plies`` plies, then moves drawn from each position's own label (the policy target,
with an ``epsilon`` chance of a uniformly random move), so play is strong but varied and
every visited position is labelled once (:func:`label_dataset`; the file:
:func:`~zerosum.training.alphazero.data.save_dataset`).

:func:`ladder` plays a learner's own games against a ladder of opponents and labels every
position met (DAgger's rule); :class:`LadderRounds` runs a round of them on the workers and the
learner at once. :class:`LabelCache` keeps a position's label for when it comes again (the
openings above all, the dearest to search).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from zerosum.games import Game, make_game
from zerosum.games.kit import State
from zerosum.search import WIN, WIN_BOUND, AlphaBeta
from zerosum.nets.evaluator import greedy_moves, legal_logits
from zerosum.training.alphazero.config import LadderConfig, TeacherConfig
from zerosum.training.alphazero.data import (
    DATASET_FORMAT, DatasetError, LabelJob, LadderJob, Positions, concat, load_dataset, save_dataset, shares,
)

UNBOUNDED = 1e18
"""Beyond every value a search returns: the open side of a window (the search's own initial bound)."""

WIN_SCORE = 4.0
"""A proven win's score in the policy softmax, in units of the value scale (a loss: minus it)."""
FAST_WIN_PLIES = 12
"""With ``fast_wins``, proven results this many plies away or nearer are told apart by their distance."""
MARGIN = 8.0
"""Moves worse than the best by more than MARGIN temperatures (policy weight < e^-8 of the best's)
are searched in a window that proves only that: their value is then an upper bound."""
@dataclass(frozen=True)
class Label:
    """One labelled position."""

    policy: np.ndarray
    """float32 [num_actions]: the policy target (0 on illegal moves, sums to 1)."""
    value: float
    """The value target in [-1, 1], from the side of the player to move."""
    raw_value: float
    """The alpha-beta value itself (heuristic units; +-WIN - ply for a proven result)."""
    move_values: np.ndarray
    """float64 [num_actions]: each legal move's searched value (NaN for illegal moves)."""
    nodes: int
    """Alpha-beta nodes spent on this label."""


class Labeller:
    """Labels positions of one game with alpha-beta at a fixed depth (keeps one table)."""

    def __init__(self, game: Game, depth: int = 8, *, temperature: float | None = None,
                 value_scale: float | None = None, heuristic: str | None = None, tt_size: int = 1 << 18,
                 quiescence: bool = False, fast_wins: bool = False) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 2:
            raise ValueError(f"depth={depth!r}: a whole number of plies >= 2 is required (the root's moves "
                             "are searched one ply shallower)")
        self.game = game
        """The game whose positions are labelled."""
        self.depth = depth
        """The search depth in plies of a label (the root's moves are each searched at ``depth - 1``)."""
        self.value_scale = float(value_scale if value_scale is not None else game.value_scale)
        """The heuristic value that maps to tanh(1) in the value target (default: the game's
        :attr:`~zerosum.games.kit.game.Game.value_scale`)."""
        self.temperature = float(temperature if temperature is not None else self.value_scale / 4.0)
        """The policy softmax's temperature, in the heuristic's units (default: ``value_scale / 4``)."""
        for name in ("value_scale", "temperature"):
            if not getattr(self, name) > 0 or not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name}={getattr(self, name)!r}: a positive number is required")
        self.heuristic = heuristic
        """The heuristic's name as given (None: the game's default)."""
        self.margin = MARGIN
        """How many temperatures below the best value a move's value is searched exactly (:data:`MARGIN`)."""
        self.pre = 2
        """How much shallower the search is that picks the move searched first: ``depth - pre``."""
        self.quiescence = bool(quiescence)
        """Whether each line goes on past ``depth`` through the game's forcing moves (the engine's
        quiescence search; games without a ``forcing`` kernel have none)."""
        self.fast_wins = bool(fast_wins)
        """Whether a nearer proven win outweighs a farther one in the policy (and a farther loss a
        nearer one): :meth:`score`."""
        self.search = AlphaBeta(game, heuristic, tt_size=tt_size, quiescence=self.quiescence, eval_order=False,
                                  iterative=False)
        """The fixed-depth alpha-beta searcher (no iterative deepening or evaluation ordering;
        quiescence only with ``quiescence``) whose table every label shares."""

    def score(self, v: float) -> float:
        """A move value in the softmax's units: heuristic values clipped to +-WIN_SCORE scales.

        A proven result scores the clip itself, so every winning move shares the mass, and so
        does any move whose heuristic value reaches the clip. With ``fast_wins`` a proven win
        scores 3 temperatures above the clip, plus 1.5 for each ply it is nearer than
        :data:`FAST_WIN_PLIES` (a loss the same below): a win two plies nearer weighs e^3 = 20
        times as much, so the label takes the shortest win and a learner imitating it ends
        the game instead of wandering among moves that win later (or only look winning).
        """
        limit = WIN_SCORE * self.value_scale
        if abs(v) >= WIN_BOUND:
            if not self.fast_wins:
                return math.copysign(limit, v)
            plies = WIN - abs(v)  # 1 for a move that ends the game
            return math.copysign(limit + self.temperature * (3.0 + 1.5 * max(0.0, FAST_WIN_PLIES - plies)), v)
        return max(-limit, min(limit, v))

    def squash(self, v: float) -> float:
        """A search value as a value target in [-1, 1] (proven results: +-1)."""
        if abs(v) >= WIN_BOUND:
            return math.copysign(1.0, v)
        return math.tanh(v / self.value_scale)

    def label(self, state: State) -> Label:
        """The label of ``state`` (a position that is not over)."""
        g = self.game
        legal = g.legal_actions(state)
        if legal.size == 0 or g.is_terminal(state):
            raise ValueError("cannot label a finished game")
        me = g.current_player(state)
        values = np.full(g.num_actions, np.nan)
        nodes = 0
        order = legal.tolist()
        if self.depth >= 4 and len(order) > 1:  # the likely best move first: the others then need only a bound
            first = self.search.search(state, self.depth - self.pre)
            nodes += first.stats.nodes
            order.remove(first.action)
            order.insert(0, first.action)
        best = -math.inf
        margin = self.margin * self.temperature
        for a in order:
            child = g.apply(state, a)
            if g.is_terminal(child):
                r = g.returns(child)[me]
                v = 0.0 if r == 0 else math.copysign(WIN_BOUND + 10_000.0 - 1.0, r)
            else:
                same = g.current_player(child) == me
                window = None
                if math.isfinite(best) and abs(best) < WIN_BOUND:
                    # only values above best - margin matter exactly: below it a bound will do
                    lo = best - margin
                    window = (lo, UNBOUNDED) if same else (-UNBOUNDED, -lo)
                res = self.search.search(child, self.depth - 1, window=window)
                nodes += res.stats.nodes
                v = res.value if same else -res.value
            values[a] = v
            best = max(best, v)
        best = float(np.nanmax(values))
        scores = np.array([self.score(float(values[a])) for a in legal.tolist()])
        z = np.exp((scores - scores.max()) / self.temperature)
        policy = np.zeros(g.num_actions, np.float32)
        policy[legal] = z / z.sum()
        return Label(policy, self.squash(best), best, values, nodes)


def _planes(game: Game, state: State) -> np.ndarray:
    return np.asarray(game.observation(state, game.current_player(state)), dtype=np.int8)


def generate(game: Game, positions: int, *, depth: int = 8, seed: int = 0, opening_plies: int = 4,
             epsilon: float = 0.1, labeller: Labeller | None = None,
             **options: Any) -> Iterator[tuple[np.ndarray, np.ndarray, Label]]:
    """Yield ``positions`` labelled positions as (obs int8, mask int8, label), from games that open with
    0..``opening_plies`` random plies and go on with moves drawn from each label's policy
    (a random legal move with probability ``epsilon``). ``options`` go to :class:`Labeller`."""
    if positions < 0:
        raise ValueError(f"positions={positions!r}: a count >= 0 is required")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon={epsilon!r}: a probability in [0, 1] is required")
    lab = labeller or Labeller(game, depth, **options)
    rng = np.random.default_rng(seed)
    made = 0
    while made < positions:
        s = game.initial_state()
        for _ in range(int(rng.integers(0, opening_plies + 1))):
            if game.is_terminal(s):
                break
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
        while not game.is_terminal(s) and made < positions:
            label = lab.label(s)
            yield _planes(game, s), np.asarray(game.legal_mask(s), np.int8), label
            made += 1
            if rng.random() < epsilon:
                a = int(rng.choice(game.legal_actions(s)))
            else:
                p = label.policy.astype(np.float64)
                a = int(rng.choice(game.num_actions, p=p / p.sum()))
            s = game.apply(s, a)


class LadderRow(NamedTuple):
    """One position of a ladder game (:func:`ladder`)."""

    obs: np.ndarray
    """int8: the env's planes from the side to move."""
    mask: np.ndarray
    """int8: the legal moves."""
    label: Label
    """The teacher's label."""
    game: int
    """Which of the games (0-based)."""
    move: int
    """The move played from here."""
    learner: bool
    """Whether the learner was to move."""


def ladder(game: Game, logits: Any, opponents: list[str], games: int, *, labeller: Labeller, seed: int = 0,
           opening_plies: tuple[int, int] = (2, 4),
           sample: float = 0.25) -> tuple[list[LadderRow], tuple[int, int, int]]:
    """Positions a learner meets against the ladder, labelled (expert iteration on the learner's
    own games, DAgger's rule: the learner plays, the teacher labels what it sees).

    ``games`` games of the learner against ``opponents`` in turn (agent specs), seats
    alternating, each after a random opening of ``opening_plies`` (low, high) plies. The
    learner plays the legal move with the highest of ``logits(obs, mask)`` (float array of
    ``num_actions``); with probability ``sample`` it draws one from their softmax instead, so
    that the positions vary. ``logits=None`` plays the teacher itself (each label's best
    move). Every position of every game, both sides', is labelled. Returns the rows and the
    learner's (wins, draws, losses).
    """
    from zerosum.agents import make_agent

    if games < 0:
        raise ValueError(f"games={games!r}: a count >= 0 is required")
    if not opponents:
        raise ValueError("opponents: at least one agent spec is required")
    if not 0.0 <= sample <= 1.0:
        raise ValueError(f"sample={sample!r}: a probability in [0, 1] is required")
    rng = np.random.default_rng(seed)
    agents = [make_agent(spec) for spec in opponents]
    for agent in agents:
        agent.prepare(game)
        agent.seed(rng.spawn(1)[0])  # an opponent that draws moves draws them from this seed
    rows: list[LadderRow] = []
    wdl = [0, 0, 0]
    for i in range(games):
        opponent = agents[i % len(agents)]
        me = (i // len(agents)) % 2
        s = game.initial_state()
        for _ in range(int(rng.integers(opening_plies[0], opening_plies[1] + 1))):
            if game.is_terminal(s):
                break
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
        while not game.is_terminal(s):
            obs, mask = _planes(game, s), np.asarray(game.legal_mask(s), np.int8)
            label = labeller.label(s)
            mover = game.current_player(s) == me
            if not mover:
                a = int(opponent.act(game, s))
            elif logits is None:
                a = int(np.argmax(label.policy))
            else:
                z = np.asarray(logits(obs, mask))
                if rng.random() < sample:
                    z = legal_logits(z, mask)
                    e = np.exp(z - z.max())
                    a = int(rng.choice(game.num_actions, p=e / e.sum()))
                else:
                    a = int(greedy_moves(z[None], mask[None])[0])
            rows.append(LadderRow(obs, mask, label, i, a, mover))
            s = game.apply(s, a)
        r = float(game.returns(s)[me])
        wdl[0 if r > 0 else 2 if r < 0 else 1] += 1
    return rows, (wdl[0], wdl[1], wdl[2])


def label_dataset(game: Game, positions: int, *, depth: int = 8, seed: int = 0, **options: Any) -> Positions:
    """``positions`` labelled positions (see :func:`generate`), with a labels file's metadata."""
    gen_keys = ("opening_plies", "epsilon")
    gen = {k: options.pop(k) for k in gen_keys if k in options}
    lab = Labeller(game, depth, **options)
    obs, masks, pols, vals = [], [], [], []
    for o, m, label in generate(game, positions, seed=seed, labeller=lab, **gen):
        obs.append(o)
        masks.append(m)
        pols.append(label.policy)
        vals.append(label.value)
    meta = {"format": DATASET_FORMAT, "game": game.name, "variant": dict(game.variant), "depth": depth,
            "temperature": lab.temperature, "value_scale": lab.value_scale, "heuristic": lab.heuristic,
            "seed": seed, "positions": len(vals), "quiescence": lab.quiescence,
            "fast_wins": lab.fast_wins, **gen}
    return Positions.stack(game, obs, masks, pols, vals, meta=meta)


def dataset_for(game_name: str, positions: int, **options: Any) -> Positions:
    """:func:`label_dataset` for a game given by name."""
    return label_dataset(make_game(game_name), positions, **options)




# ---- the label cache ------------------------------------------------------------------------
LADDER_CACHE_MB = 256
"""The memory a ladder round's labeller may keep labels in, per process (:func:`ladder_cache_size`)."""


def ladder_cache_size(num_actions: int, megabytes: float = LADDER_CACHE_MB) -> int:
    """How many labels of a game with ``num_actions`` actions fit in ``megabytes``: a kept label
    holds a float32 policy and float64 move values (12 bytes an action) and about 500 bytes of
    Python objects and key (measured with tracemalloc: 592 bytes for Connect Four's, 3,964 for
    Pentago's). About 460,000 Connect Four labels or 68,000 Pentago labels in 256 MB."""
    return int(megabytes * 2**20 // (12 * num_actions + 500))


class LabelCache:
    """A labeller whose labels are kept by position (the ``size`` most recently used), so that a
    position met again, from game to game and round to round, is not searched again.

    >>> from zerosum.games import make_game
    >>> game = make_game("tictactoe")
    >>> cache = LabelCache(Labeller(game, depth=9), size=100)
    >>> first, again = cache.label(game.initial_state()), cache.label(game.initial_state())
    >>> bool((first.policy == again.policy).all()), again.nodes, cache.hits
    (True, 0, 1)
    """

    def __init__(self, labeller: Any, size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size={size!r}: a whole number of labels >= 1 is required")
        self.labeller = labeller
        """The labeller that searches a position not in the cache."""
        self.size = size
        """How many labels are kept; the least recently used is dropped first."""
        self.hits = 0
        """How many labels were given from the cache."""
        self.misses = 0
        """How many labels were searched."""
        self._kept: OrderedDict[bytes, Label] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def label(self, state: State) -> Label:
        """The label of ``state``: the one kept for the same position (with ``nodes`` 0, as no search
        was made), else the labeller's, then kept."""
        key = np.ascontiguousarray(state, dtype=np.int64).tobytes()
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return replace(kept, nodes=0)
        label: Label = self.labeller.label(state)
        self._kept[key] = label
        self.misses += 1
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return label


# ---- ladder rounds --------------------------------------------------------------------------
def ladder_labeller(game: Game, depth: int, options: dict[str, Any]) -> LabelCache:
    """The labeller of a process's ladder rounds: a :class:`Labeller` behind a :class:`LabelCache`
    that keeps its labels from round to round (positions come back, the openings most)."""
    return LabelCache(Labeller(game, depth, **options), ladder_cache_size(game.num_actions))


def ladder_games(game: Game, net: Any, labeller: Any, games: int, opponents: list[str], seed: int) -> Positions:
    """``games`` games of ``net`` alone (its greedy legal move; see :func:`ladder`) against
    ``opponents``, every position labelled by ``labeller``; ``outcomes`` is the network's W/D/L."""
    from zerosum.nets import NetworkEvaluator

    start, hits = time.perf_counter(), getattr(labeller, "hits", 0)
    evaluator = NetworkEvaluator(net, threads=None)  # evaluation mode for each call, the net's mode kept

    def logits(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        row: np.ndarray = evaluator(obs[None], mask[None])[0][0]
        return row

    rows, wdl = ladder(game, logits, list(opponents), games, labeller=labeller, seed=seed)
    return Positions.stack(game, [r.obs for r in rows], [r.mask for r in rows], [r.label.policy for r in rows],
                           [r.label.value for r in rows], games=games, moves=len(rows),
                           seconds=time.perf_counter() - start, outcomes=wdl,
                           kept=getattr(labeller, "hits", 0) - hits)


class LadderRounds:
    """Ladder rounds (``ladder_rounds``): the workers and the learner each play a share of the round's
    games with the latest weights, and alpha-beta labels every position met."""

    def __init__(self, workers: Any, ladder: LadderConfig, teacher: TeacherConfig, opponents: list[str],
                 game: Game, net: Any, seed: int) -> None:
        self.workers, self.ladder, self.teacher, self.game, self.net, self.seed = (workers, ladder, teacher, game,
                                                                                     net, seed)
        self.opponents = list(opponents)
        """The ladder played, in turn: ``ladder_opponents``, else ``eval_opponents``."""
        self.labeller: LabelCache | None = None
        """The learner's own labeller (its table and cache kept between rounds), made at its first round."""

    def round(self, weights: bytes, index: int) -> Positions:
        """Round ``index`` (it seeds the openings and the moves sampled) with ``weights``, the learner's."""
        n, teacher = len(self.workers), self.teacher
        share = shares(self.ladder.games, n + 1)  # the learner plays the last share
        seed = self.seed * 7919 + 100_003 * (index + 1)
        for i in range(n):
            self.workers.submit(i, LadderJob(weights, share[i], self.opponents, teacher.depth, seed + i,
                                             teacher.options()))
        if self.labeller is None:
            self.labeller = ladder_labeller(self.game, teacher.depth, teacher.options())
        own = ladder_games(self.game, self.net, self.labeller, share[n], self.opponents, seed + n)
        return concat([self.workers.result(i) for i in range(n)] + [own])


def run_labels(workers: Any, teacher: TeacherConfig, seed: int, game: Game, path: Path | None,
               log: Any) -> Positions:
    """The run's alpha-beta labels before self-play (``labels``): from ``path`` when an earlier start
    made them, else labelled by the workers and the learner (a share each) and saved there."""
    options = teacher.options()
    if path is not None and path.is_file():
        try:
            d = load_dataset(path, game)
            same = d.meta.get("depth") == teacher.depth and all(bool(d.meta.get(k)) == v for k, v in options.items())
            if len(d) >= teacher.positions and same:
                return d.head(teacher.positions)
        except DatasetError:
            pass
    n = len(workers)
    t0 = time.perf_counter()
    share = shares(teacher.positions, n + 1)  # the learner labels the last share: it has nothing else to do yet
    for i in range(n):
        workers.submit(i, LabelJob(share[i], teacher.depth, seed * 7919 + i, options))
    own = label_dataset(game, share[n], depth=teacher.depth, seed=seed * 7919 + n, **options)
    data = concat([workers.result(i) for i in range(n)] + [own])
    log(f"labelled {len(data):,} positions at depth {teacher.depth} in {time.perf_counter() - t0:.1f} s "
        f"({n} worker(s) and the learner)", flush=True)
    data = data.labelled({"format": DATASET_FORMAT, "game": game.name, "variant": dict(game.variant),
                          "depth": teacher.depth, "value_scale": own.meta["value_scale"], "positions": len(data),
                          "seed": seed, **options})
    if path is not None:
        save_dataset(path, data)
    return data


__all__ = ["FAST_WIN_PLIES", "LADDER_CACHE_MB", "MARGIN", "WIN_SCORE", "Label", "LabelCache",
           "Labeller", "LadderRounds", "LadderRow", "dataset_for", "generate", "label_dataset", "ladder",
           "ladder_cache_size", "ladder_games", "ladder_labeller", "run_labels"]
