"""Mancala: Kalah with six pits a side and four seeds a pit, OpenSpiel's ``mancala``.

Each player owns the six pits on its side of the board and the store (kalah) to its
right. A move takes every seed of one of the mover's non-empty pits and sows them one by
one into the following pits, counterclockwise, the mover's own store included and the
opponent's store skipped. A last seed in the mover's own store gives it another move. A
last seed in an empty pit of the mover's, when the pit opposite holds seeds, captures:
that seed and the opposite pit's go to the mover's store. The game ends when either
side's pits are all empty; each player then scores its store plus the seeds left in its
pits, and the higher score wins (24-24 is a draw). Player 0 (south) moves first; the
first player wins with perfect play (Irving, Donkers and Uiterwijk, 2000).

Board and actions (OpenSpiel's: an action is the index of the pit sown; 14 actions, of
which 1-6 are player 0's and 8-13 player 1's; 0 and 7 are the stores and never legal)::

          13  12  11  10   9   8        player 1 (north) sows right to left
    [0]                            [7]  player 1's store left, player 0's right
           1   2   3   4   5   6        player 0 (south) sows left to right

    sowing order: 1 2 3 4 5 6 [7] 8 9 10 11 12 13 [0] 1 ...; pit i faces pit 14 - i

Moves are named by that number, as OpenSpiel names them (``3`` sows pit 3).

OpenSpiel's ``mancala`` has no parameters, so neither has this game. Like OpenSpiel, a
game whose move number passes 1,000 is over and scored as it stands (no Kalah game comes
near it; the state counts the moves for this alone, and the key leaves the count out).

State: ``[to_move, moves, the 14 counts of OpenSpiel's board]`` (see
:mod:`zerosum.games.mancala.rules`). Observation (14, 48, 2): the 14 pits and stores in
sowing order from the observer's first pit (its 6 pits, its store, the opponent's 6 pits,
the opponent's store), each a row of 48 cells with cell ``j`` 1 when it holds more than
``j`` seeds; plane 1 all ones when the observer is to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from zerosum.games.kit import (
    Game, IllegalActionError, Kernels, Layout, PositionError, State, check_action,
)
from zerosum.games.mancala import knowledge, rules
from zerosum.games.mancala.rules import S_BOARD, S_MOVES, S_TO_MOVE

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)

PITS = 6
"""Pits a side."""
SEEDS = 4
"""Seeds in each pit at the start."""
CAP = 1000
"""OpenSpiel's ``MaxGameLength``: a game whose move number passes it is over."""
_TOTAL = 2 * (PITS + 1)


class Mancala(Game):
    """Kalah(6, 4) as OpenSpiel's ``mancala`` (no variants)."""

    name = "mancala"
    kernels = KERNELS
    variants = ()
    heuristics = knowledge.HEURISTICS
    default_heuristic = "store_difference"
    default_opponent = "alphabeta(time=0.1)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """14 pit actions, at most 6 legal; a game lasts at most CAP + 1 moves (OpenSpiel's
        cap; real games end in well under 100)."""
        board = [0] + [SEEDS] * PITS + [0] + [SEEDS] * PITS
        return Layout(params=[PITS, CAP], initial=[0, 0, *board], num_actions=_TOTAL, max_moves=PITS,
                      max_game_length=CAP + 1, observation_shape=(_TOTAL, 2 * PITS * SEEDS, 2))

    # ---- reading a state ----------------------------------------------------------------
    def board(self, state: State) -> list[int]:
        """OpenSpiel's 14 counts: player 1's store, player 0's pits 1-6, player 0's store,
        player 1's pits 8-13."""
        return [int(x) for x in self._plain(state)[S_BOARD:S_BOARD + _TOTAL]]

    def scores(self, state: State) -> tuple[int, int]:
        """Each player's store plus the seeds in its pits: what decides the game at its end."""
        b = self.board(state)
        return sum(b[1:PITS + 2]), sum(b[PITS + 2:]) + b[0]

    def position_bytes(self, state: State) -> bytes:
        """The player to move and the counts (the key leaves the move counter out)."""
        s = self._plain(state)
        return bytes([int(s[S_TO_MOVE])]) + s[S_BOARD:].tobytes()

    # ---- text -----------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The pit's number, as OpenSpiel names it (``1``-``6`` player 0's, ``8``-``13``
        player 1's)."""
        return str(check_action(action, self.num_actions))

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a pit number (``3``, or ``pit 3``)."""
        t = str(text).strip().lower().removeprefix("pit").strip()
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        raise IllegalActionError(f"cannot read move {text!r}: write the number of a pit to sow, 1-6 for player 0 "
                                 "and 8-13 for player 1 (the numbers the board shows)")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        p = self.current_player(state)
        if action in (0, PITS + 1):
            return f"{action} is player {1 if action == 0 else 0}'s store, not a pit"
        owner = 0 if action <= PITS else 1
        if owner != p:
            return f"pit {action} is player {owner}'s: player {p} sows from pits {'1-6' if p == 0 else '8-13'}"
        return f"pit {action} is empty"

    def render(self, state: State) -> str:
        """The board as OpenSpiel numbers it: player 1's pits 13..8 on top, the stores at
        the sides (player 1's left, player 0's right), player 0's pits 1..6 below, each row
        of counts under or over its pit numbers."""
        s = self._plain(state)
        b = self.board(s)
        north = list(range(_TOTAL - 1, PITS + 1, -1))
        south = list(range(1, PITS + 1))
        cells = "".join

        lines = ["      " + cells(f"{i:>4}" for i in north) + "      player 1's pits",
                 "      " + cells(f"{b[i]:>4}" for i in north),
                 f"{b[0]:>4}  " + " " * (4 * PITS) + f"  {b[PITS + 1]:<4}  stores: player 1's left, player 0's right",
                 "      " + cells(f"{b[i]:>4}" for i in south),
                 "      " + cells(f"{i:>4}" for i in south) + "      player 0's pits"]
        if self.is_terminal(s):
            a, c = self.scores(s)
            said = f"player {0 if a > c else 1} wins {max(a, c)}-{min(a, c)}" if a != c else f"draw {a}-{c}"
        else:
            said = f"player {int(s[S_TO_MOVE])} to move"
        return "\n".join([*lines, said])

    def position(self, board: Sequence[int], to_move: int = 0, moves: int = 0) -> State:
        """A state from OpenSpiel's 14 counts (player 1's store, player 0's pits 1-6,
        player 0's store, player 1's pits 8-13), the player to move and the moves played;
        PositionError when the counts are not 14 non-negative ints summing to 48."""
        counts = [int(x) for x in board] if isinstance(board, (list, tuple, np.ndarray)) else []
        if len(counts) != _TOTAL or min(counts) < 0 or sum(counts) != 2 * PITS * SEEDS:
            raise PositionError(f"a Kalah board is {_TOTAL} non-negative counts summing to {2 * PITS * SEEDS} "
                                f"(OpenSpiel's order: store 0, pits 1-6, store 7, pits 8-13); got {board!r}")
        if to_move not in (0, 1):
            raise PositionError(f"to_move={to_move!r}: 0 or 1")
        if not isinstance(moves, int) or not 0 <= moves <= CAP + 1:
            raise PositionError(f"moves={moves!r}: an int from 0 to {CAP + 1}")
        s = np.zeros(self.state_size, np.int64)
        s[S_TO_MOVE], s[S_MOVES] = to_move, moves
        s[S_BOARD:] = counts
        return s
