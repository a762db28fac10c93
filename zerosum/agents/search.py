"""Agents that search: minimax, alpha-beta and MCTS."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from zerosum.agents.base import Agent, Rng
from zerosum.games.kit import Action, Game, Heuristic, State
from zerosum.search.alphabeta import AlphaBeta, AlphaBetaConfig, check_budget
from zerosum.search.mcts import MCTS, check_options
from zerosum.search.functions import resolve_heuristic
from zerosum.search.minimax import minimax

HeuristicArg = str | Heuristic | Callable[..., float] | None
"""What a search agent's ``heuristic`` takes: a built-in's name, a Heuristic, a Python
callable ``fn(params, state, player) -> float``, or None for the game's default."""


class _Searcher(Protocol):
    game: Game


_S = TypeVar("_S", bound=_Searcher)


class _PerGame(Agent, Generic[_S]):
    """Keeps one searcher per game object (a TT belongs to one game and heuristic)."""

    def __init__(self, rng: Rng = None) -> None:
        super().__init__(rng)
        self._searchers: dict[int, _S] = {}

    def _searcher(self, game: Game) -> _S:
        s = self._searchers.get(id(game))
        if s is None or s.game is not game:
            s = self._searchers[id(game)] = self._make(game)
        return s

    def prepare(self, game: Game) -> None:
        """Build the searcher now, so a bad heuristic or option fails before any game."""
        self._searcher(game)

    def spawn(self, rng: Rng) -> Agent:
        """A copy with empty searchers: no transposition table is copied or shared."""
        searchers, self._searchers = self._searchers, {}
        try:
            return super().spawn(rng)
        finally:
            self._searchers = searchers

    def _make(self, game: Game) -> _S:  # pragma: no cover - abstract
        raise NotImplementedError


class MinimaxAgent(Agent):
    """Full-width minimax to a fixed depth (the study's reference engine)."""

    def __init__(self, depth: int = 2, heuristic: HeuristicArg = None, rng: Rng = None) -> None:
        super().__init__(rng)
        check_budget(depth=depth)
        self.depth, self.heuristic = depth, heuristic
        self.name = f"minimax(depth={depth})"
        """``minimax(depth=N)``."""

    def prepare(self, game: Game) -> None:
        """Resolve the heuristic now, so a bad name fails before any game."""
        resolve_heuristic(game, self.heuristic)

    def act(self, game: Game, state: State) -> Action:
        """The move of a plain minimax search to the agent's depth (``last_stats`` holds the result)."""
        result = self.last_stats = minimax(game, state, self.depth, self.heuristic)
        return result.action


class AlphaBetaAgent(_PerGame[AlphaBeta]):
    """Alpha-beta with the enhancements of AlphaBetaConfig; ties broken at random from its rng.

    By default every enhancement that helps is on (PVS, aspiration windows; late-move
    reductions under a time or node budget; quiescence where the game supplies forcing
    moves); each is switchable (``pvs=off``, ``aspiration=off``, ``lmr=off``,
    ``quiescence=off``). An option that cannot act (``quiescence=on`` for a game without
    forcing moves, ``lmr=on`` with ``depth`` below 3) is an error naming what is allowed."""

    def __init__(self, depth: int | None = None, heuristic: HeuristicArg = None, *, time: float | None = None,
                 nodes: int | None = None, tie_break: bool = True, rng: Rng = None, **options: Any) -> None:
        super().__init__(rng)
        check_budget(depth=depth, time=time, nodes=nodes)
        if depth is None and time is None and nodes is None:
            depth = 4
        self.depth, self.time, self.nodes, self.heuristic = depth, time, nodes, heuristic
        self.tie_break = tie_break
        """Choose at random (with the agent's generator) among root moves of equal value; off: the first found."""
        self.config = AlphaBetaConfig(**options)
        """The search's enhancements (the alpha-beta options of the spec)."""
        self.config.check(None, depth, time, nodes)
        budget = ", ".join(f"{k}={v}" for k, v in (("depth", depth), ("time", time), ("nodes", nodes)) if v is not None)
        h = f", heuristic={getattr(heuristic, 'name', heuristic)}" if heuristic else ""
        self.name = f"alphabeta({budget}{h})"
        """``alphabeta(...)`` with the budget and heuristic given."""

    def _make(self, game: Game) -> AlphaBeta:
        return AlphaBeta(game, self.heuristic, self.config)

    def act(self, game: Game, state: State) -> Action:
        """The move of an alpha-beta search from ``state`` within the agent's budget (``last_stats`` holds its
        statistics)."""
        seed = self.rng if self.tie_break else None
        result = self.last_stats = self._searcher(game).search(state, self.depth, time=self.time, nodes=self.nodes,
                                                               seed=seed)
        return result.action


class MCTSAgent(_PerGame[MCTS]):
    """UCT with random or heuristic-guided rollouts, budget by simulations or seconds."""

    def __init__(self, sims: int | None = None, *, time: float | None = None, heuristic: HeuristicArg = None,
                 rng: Rng = None, **options: Any) -> None:
        super().__init__(rng)
        check_budget(sims=sims, time=time)
        check_options(**options)
        if sims is None and time is None:
            sims = 1000
        self.sims, self.time, self.heuristic, self.options = sims, time, heuristic, options
        budget = f"sims={sims}" if sims is not None else f"time={time}"
        self.name = f"mcts({budget})"
        """``mcts(...)`` with the budget given."""

    def _make(self, game: Game) -> MCTS:
        return MCTS(game, self.heuristic, **self.options)

    def act(self, game: Game, state: State) -> Action:
        """The most visited root move of an MCTS search from ``state`` within the agent's budget."""
        seed = int(self.rng.integers(1 << 31))
        result = self.last_stats = self._searcher(game).search(state, self.sims, time=self.time, seed=seed)
        return result.action


def nim_mover_wins(piles: np.ndarray, misere: bool) -> bool:
    """True when the player to move wins Nim with these piles under perfect play."""
    if misere and all(p <= 1 for p in piles):
        return int(np.sum(piles)) % 2 == 0
    x = 0
    for p in piles:
        x ^= int(p)
    return x != 0


class PerfectNimAgent(Agent):
    """The nim-sum strategy: always move to a position the opponent loses, in either convention."""

    name = "perfect_nim"
    """Shown as ``perfect_nim``."""

    def prepare(self, game: Game) -> None:
        """Refuse any game but Nim."""
        if game.name != "nim":
            raise ValueError(f"perfect_nim plays Nim only, not {game.name}")

    def act(self, game: Game, state: State) -> Action:
        """A move the opponent loses after (nim-sum theory, normal or misère), at random among them; any legal move
        when none wins."""
        self.prepare(game)
        misere = bool(game.variant["misere"])
        me = game.current_player(state)
        legal = [int(a) for a in game.legal_actions(state)]
        winning = [a for a in legal if self._wins(game, game.apply_unchecked(state, a), me, misere)]
        pool = winning or legal
        return pool[self.rng.integers(len(pool))]

    @staticmethod
    def _wins(game: Game, child: State, me: int, misere: bool) -> bool:
        if game.is_terminal(child):
            return game.returns(child)[me] > 0
        return not nim_mover_wins(child[1:], misere)
