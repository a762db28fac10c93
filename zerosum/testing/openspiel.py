"""OpenSpiel as an oracle: a game played side by side with pyspiel's at every step, and pyspiel's perft.

Nothing here imports pyspiel at import time: the functions take pyspiel's objects, so
``zerosum.testing`` loads without it (a test that needs it starts with ``pytest.importorskip("pyspiel")``)::

    pyspiel = pytest.importorskip("pyspiel")
    report = compare_with_openspiel(make_game("connect_four"), pyspiel.load_game("connect_four"), games=100, seed=0)
    assert openspiel_perft(pyspiel.load_game("connect_four").new_initial_state(), 4) == 2401
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from zerosum.games.kit import Game, Outcome, State

StepCheck = Callable[[State, Any], None]
"""``check(state, openspiel_state)``: more comparisons at every step (the board, observations);
it raises AssertionError where the two differ."""
ActionCheck = Callable[[State, Any, int], None]
"""``check_action(state, openspiel_state, action)``: comparisons of the action about to be played
in both (its name), before it is played."""
COMPARED = ("terminal flags", "legal actions", "returns")
"""What :func:`compare_with_openspiel` compares at every position, besides the player to move."""


@dataclass(frozen=True)
class OpenSpielReport:
    """What :func:`compare_with_openspiel` saw; every step was equal."""

    games: int
    """Games played to their end on both sides."""
    steps: int
    """Positions compared, the last position of each game included."""
    actions: Counter[int]
    """How often each action was played (a missing action: 0), e.g. ``report.actions[pass_action] > 0``."""
    outcomes: Counter[Outcome]
    """How many games ended in each outcome."""
    returns: tuple[tuple[float, float], ...]
    """The returns (``utility``'s, when given) at the end of each game, in the order played."""

    @property
    def plies(self) -> int:
        """Actions played in all games: ``steps - games``."""
        return self.steps - self.games


def compare_with_openspiel(game: Game, openspiel_game: Any, games: int,
                           seed: int | np.random.Generator | random.Random = 0, check: StepCheck | None = None, *,
                           check_action: ActionCheck | None = None,
                           utility: Callable[[State], tuple[float, float]] | None = None) -> OpenSpielReport:
    """Play ``games`` seeded random games on ``game`` and on ``openspiel_game`` (a
    ``pyspiel.load_game(...)``) at once, comparing them at every step.

    At every position: the terminal flag, the legal actions (the same numbers in the same
    order), the returns, ``check(state, openspiel_state)`` if given, and, before a move,
    the player to move (``utility(state)``, if given, is compared with OpenSpiel's returns
    instead of ``game.returns(state)``: a utility OpenSpiel reports beyond win, draw and
    loss, such as Dots and Boxes' box margin). The move is drawn from OpenSpiel's legal
    list, ``legal[rng.integers(len(legal))]`` with ``rng = np.random.default_rng(seed)``
    (pass a Generator to go on with one across calls; a ``random.Random`` draws
    ``legal[rng.randrange(len(legal))]``), then
    ``check_action(state, openspiel_state, action)`` runs if given, and both play it.
    The first difference raises AssertionError naming the game number, the step (plies
    from the start), OpenSpiel's history and what differed.
    """
    rng = seed if isinstance(seed, random.Random | np.random.Generator) else np.random.default_rng(seed)
    draw = rng.randrange if isinstance(rng, random.Random) else rng.integers
    steps = 0
    actions: Counter[int] = Counter()
    outcomes: Counter[Outcome] = Counter()
    returns: list[tuple[float, float]] = []
    for number in range(games):
        s, o = game.initial_state(), openspiel_game.new_initial_state()
        step = 0
        while True:
            steps += 1
            legal = o.legal_actions()
            ours = (game.is_terminal(s), list(game.legal_actions(s)), (utility or game.returns)(s))
            theirs = (o.is_terminal(), list(legal), tuple(o.returns()))
            if ours != theirs:
                what, x, y = next(d for d in zip(COMPARED, ours, theirs) if d[1] != d[2])
                _differ(game, number, step, o, f"{what} differ: zerosum {x}, OpenSpiel {y}")
            try:
                if check is not None:
                    check(s, o)
            except AssertionError as e:
                _differ(game, number, step, o, f"check failed: {e}", e)
            if ours[0]:
                outcomes[game.outcome(s)] += 1
                returns.append(ours[2])
                break
            if game.current_player(s) != o.current_player():
                _differ(game, number, step, o, f"players to move differ: zerosum {game.current_player(s)}, "
                                                f"OpenSpiel {o.current_player()}")
            a = legal[draw(len(legal))]
            try:
                if check_action is not None:
                    check_action(s, o, a)
            except AssertionError as e:
                _differ(game, number, step, o, f"check_action of action {a} failed: {e}", e)
            actions[int(a)] += 1
            s = game.apply(s, a)
            o.apply_action(a)
            step += 1
    return OpenSpielReport(games, steps, actions, outcomes, tuple(returns))


def _differ(game: Game, number: int, step: int, openspiel_state: Any, message: str,
            cause: BaseException | None = None) -> NoReturn:
    raise AssertionError(f"{game!r} and OpenSpiel's {openspiel_state.get_game()}, game {number} step {step} (after "
                         f"OpenSpiel's actions {openspiel_state.history()}): {message}\n{openspiel_state}") from cause


def openspiel_perft(state: Any, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` plies from a pyspiel state
    (sequences that end the game sooner are not counted), as :func:`zerosum.testing.perft`
    counts them on a zerosum game: a finished state counts 0, depth 1 counts the legal actions."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    return sum(openspiel_perft(state.child(a), depth - 1) for a in legal)


def openspiel_chess_moves(game: Game, state: State, openspiel_state: Any) -> tuple[dict[str, int], dict[str, int]]:
    """The legal moves of one chess position on both sides, each keyed by its UCI name:
    ``(ours, theirs)``, zerosum's actions (``game.action_to_string``) and OpenSpiel's (its
    ``action_to_move(...).to_lan()``). Chess is the one game whose actions OpenSpiel numbers
    otherwise, so a move passes between the two by name: ``theirs[game.action_to_string(a,
    state)]`` is OpenSpiel's number of zerosum's action ``a``. Equal key sets mean equal
    legal moves. Imports ``pyspiel.chess`` when called."""
    import pyspiel.chess as spiel_chess

    board = openspiel_state.board()
    theirs = {spiel_chess.action_to_move(a, board).to_lan(): a for a in openspiel_state.legal_actions()}
    ours = {game.action_to_string(a, state): int(a) for a in game.legal_actions(state)}
    return ours, theirs
