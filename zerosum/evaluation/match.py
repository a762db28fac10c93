"""One game between two agents, every move recorded with the agent's search statistics.

>>> from zerosum.games import make_game
>>> from zerosum.agents import make_agent
>>> game = make_game("tictactoe")
>>> m = play_match(game, [make_agent("alphabeta(depth=9)", 1), make_agent("alphabeta(depth=9)", 2)])
>>> m.result, m.termination, m.moves[0].stats["depth"] > 0
('1/2-1/2', 'end', True)

Seat 0 plays player 0 (who moves first in every game here); the players of a game are
always asked for with ``game.current_player`` (a player may move twice in a row). An agent
that raises, or returns something that is not a legal action, loses the game at once; the
error and its traceback are kept in the result.
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from zerosum.agents.base import Agent, as_generator
from zerosum.games.kit import Action, Game
from zerosum.search.result import SearchResult

END, ERROR, ILLEGAL, MAX_LENGTH = "end", "error", "illegal", "max_length"
"""How a game finished: by the rules, an agent raised, an agent played an illegal action,
or the game ran past ``game.max_game_length`` (scored as a draw; a rules bug if it happens)."""

STAT_COLUMNS = ("nodes", "leaves", "cutoffs", "tt_probes", "tt_hits", "depth", "ebf", "value")
"""The statistics kept in their own columns of the store (the rest stays in a JSON blob)."""


@dataclass(frozen=True)
class MoveRecord:
    """One decision: ``ply`` counts from the initial position (opening plies included)."""

    ply: int
    """The ply, counted from the initial position (opening plies included)."""
    player: int
    """The player who moved (0 or 1)."""
    action: Action
    """The action played."""
    move: str
    """The action in the game's readable notation."""
    time: float
    """Seconds the agent took."""
    stats: dict[str, Any] | None = None
    """The agent's search statistics for this move, or None."""


@dataclass
class MatchResult:
    """A finished game: the opening, the agents' moves, the result and any fault."""

    agents: tuple[str, str]
    """The agents' names in seat order."""
    opening: list[Action]
    """The opening plies played before the agents."""
    moves: list[MoveRecord]
    """The agents' decisions, in order."""
    returns: tuple[float, float]
    """The final returns of seat 0 and seat 1 (+1 win, -1 loss, 0 draw)."""
    termination: str = END
    """How the game ended: ``end`` (by the rules), ``illegal``, ``error`` or ``max_length``."""
    faulty_seat: int | None = None
    """The seat whose agent faulted, or None."""
    error: str | None = None
    """The fault's message, or None."""
    traceback: str | None = None
    """The fault's traceback, or None."""
    duration: float = 0.0
    """Wall time of the game in seconds."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else a caller records with the game."""

    @property
    def actions(self) -> list[Action]:
        """Every action from the initial position: the opening, then the agents' moves."""
        return list(self.opening) + [m.action for m in self.moves]

    @property
    def length(self) -> int:
        """Plies played in all, the opening included."""
        return len(self.opening) + len(self.moves)

    @property
    def winner(self) -> int | None:
        """The winning seat (0 or 1), or None for a draw."""
        if self.returns[0] > 0:
            return 0
        if self.returns[1] > 0:
            return 1
        return None

    @property
    def score0(self) -> float:
        """Seat 0's score: 1 win, 0.5 draw, 0 loss."""
        return (self.returns[0] + 1.0) / 2.0

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` (seat 0 first)."""
        return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[self.winner]


def random_opening(game: Game, plies: int, rng: np.random.Generator | int | None) -> list[Action]:
    """``plies`` uniformly random moves from the start that never end the game.

    A move that would finish the game is avoided while another exists; the opening stops
    early if every move finishes it, so the agents always get a position to play.
    """
    if plies < 0:
        raise ValueError(f"opening plies must be >= 0; got {plies}")
    gen = as_generator(rng)
    state = game.initial_state()
    opening: list[Action] = []
    for _ in range(plies):
        legal = [int(a) for a in game.legal_actions(state)]
        gen.shuffle(legal)
        for a in legal:
            child = game.apply_unchecked(state, a)
            if not game.is_terminal(child):
                opening.append(a)
                state = child
                break
        else:
            break
    return opening


def _plain(x: Any) -> Any:
    """Numbers and containers as plain Python (numpy scalars become int/float)."""
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        f = float(x)
        return f if math.isfinite(f) else None
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_plain(v) for v in x]
    if isinstance(x, Mapping):
        return {str(k): _plain(v) for k, v in x.items()}
    return x


def move_name(game: Game, action: Action, state: Any = None) -> str:
    """The readable name of ``action`` played in ``state`` (some games name moves by position)."""
    named = getattr(game, "action_name", None)
    return named(action, state) if named is not None else game.action_to_string(action)


def line_names(game: Game, actions: Sequence[Action], state: Any = None) -> list[str]:
    """Readable names of a line of play from ``state`` (the moves after it named in their positions)."""
    names = []
    for a in actions:
        a = int(a)
        try:
            names.append(move_name(game, a, state))
            if state is not None:
                state = None if game.is_terminal(state) else game.apply_unchecked(state, a)
        except Exception:  # noqa: BLE001 - a bad entry must not lose the record
            names.append(str(a))
            state = None
    return names


def stats_dict(game: Game, last_stats: Any, state: Any = None) -> dict[str, Any] | None:
    """An agent's ``last_stats`` as plain data, the principal variation as readable moves.

    Accepts a SearchResult (anything with ``as_dict()``), a mapping, or None; ``state`` is
    the position searched, so that the PV's moves are named in their positions.
    """
    if last_stats is None:
        return None
    if isinstance(last_stats, SearchResult):  # the common case, without the generic walk
        st = last_stats.stats
        value = float(last_stats.value)
        out = {"value": value if math.isfinite(value) else None, "action": int(last_stats.action),
               "pv": line_names(game, last_stats.pv, state), "algorithm": last_stats.algorithm,
               "nodes": int(st.nodes), "leaves": int(st.leaves), "cutoffs": int(st.cutoffs),
               "tt_probes": int(st.tt_probes), "tt_hits": int(st.tt_hits), "depth": int(st.depth),
               "time": float(st.time), "ebf": float(st.ebf)}
        if st.batches:  # a network-guided search: simulations, evaluator calls and the evaluator's time
            out.update(simulations=int(st.simulations), evaluations=int(st.evaluations), batches=int(st.batches),
                       eval_time=float(st.eval_time))
        return out
    if hasattr(last_stats, "as_dict"):
        d = dict(last_stats.as_dict())
    elif isinstance(last_stats, Mapping):
        d = dict(last_stats)
    else:
        return {"info": repr(last_stats)}
    pv = d.get("pv")
    if pv is not None:
        d["pv"] = line_names(game, pv, state)
    plain: dict[str, Any] = _plain(d)
    return plain


def _legal_action(game: Game, action: Any, legal: np.ndarray) -> int | None:
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    a = int(action)
    return a if bool((legal == a).any()) else None


def play_match(game: Game, agents: Sequence[Agent], opening: Sequence[Action] = (), *,
               record_stats: bool = True) -> MatchResult:
    """Play one game: ``agents[0]`` is seat 0 (player 0), ``agents[1]`` seat 1.

    The agents are ``reset()`` first; seed them beforehand for a reproducible game. Every
    move is recorded with its wall time and, when the agent has one, its ``last_stats``.
    """
    if len(agents) != 2:
        raise ValueError(f"a match needs exactly two agents; got {len(agents)}")
    names = (agents[0].name, agents[1].name)
    state = game.initial_state()
    for opening_action in opening:
        state = game.apply(state, int(opening_action))
    if game.is_terminal(state):
        raise ValueError(f"the opening {list(opening)} already ends the game")
    for agent in agents:
        agent.reset()
    moves: list[MoveRecord] = []
    ply = len(opening)
    start = time.perf_counter()
    while not game.is_terminal(state):
        if ply >= game.max_game_length:
            return MatchResult(names, list(opening), moves, (0.0, 0.0), MAX_LENGTH,
                               error=f"no result after {ply} plies (max_game_length={game.max_game_length})",
                               duration=time.perf_counter() - start)
        player = game.current_player(state)
        agent = agents[player]
        agent.last_stats = None
        t0 = time.perf_counter()
        try:
            action = agent.act(game, state)
        except Exception as exc:  # noqa: BLE001 - a faulty agent loses, the tournament goes on
            return forfeit(names, opening, player, f"{names[player]} raised {type(exc).__name__}: {exc}",
                           traceback.format_exc(), moves=moves, start=start)
        elapsed = time.perf_counter() - t0
        legal = game.legal_actions(state)
        a = _legal_action(game, action, legal)
        if a is None:
            shown = ", ".join(move_name(game, int(x), state) for x in legal[:24])
            more = f" ... ({len(legal)} in all)" if len(legal) > 24 else ""
            return forfeit(names, opening, player,
                           f"{names[player]} returned the illegal action {action!r} at ply {ply}; legal: {shown}{more}",
                           None, how=ILLEGAL, moves=moves, start=start)
        stats = stats_dict(game, agent.last_stats, state) if record_stats else None
        moves.append(MoveRecord(ply, player, a, move_name(game, a, state), elapsed, stats))
        state = game.apply_unchecked(state, a)
        ply += 1
    ret = game.returns(state)
    return MatchResult(names, list(opening), moves, (float(ret[0]), float(ret[1])),
                       duration=time.perf_counter() - start)


def forfeit(names: tuple[str, str], opening: Sequence[Action], seat: int, error: str, tb: str | None, *,
            how: str = ERROR, moves: list[MoveRecord] | None = None, start: float | None = None) -> MatchResult:
    """The game lost by ``seat`` because of a fault (``how``: ERROR or ILLEGAL), with the reason."""
    returns = (-1.0, 1.0) if seat == 0 else (1.0, -1.0)
    duration = time.perf_counter() - start if start is not None else 0.0
    return MatchResult(names, list(opening), list(moves or []), returns, how, seat, error, tb, duration)
