"""Tic-tac-toe.

Board and actions (action = 3*row + col, row-major, row 1 at the top)::

       a   b   c
    1  0 | 1 | 2
      ---+---+---
    2  3 | 4 | 5
      ---+---+---
    3  6 | 7 | 8

Player 0 (X) moves first. Readable names are column letter + row number: action 4 is
``b2``. State vector: ``[x_bits, o_bits]`` (bit i = cell i); the mover is derived from
the number of marks. Observation (3, 3, 3): own marks, opponent's marks, and a plane of
ones when the observer is to move. No rule variants.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.games.kit import Game, IllegalActionError, Kernels, Layout, PositionError, State, check_action
from zerosum.games.kit.symmetry import square_symmetries
from zerosum.games.tictactoe import knowledge, rules
from zerosum.games.tictactoe.rules import LINES as LINES  # public: the eight winning lines as cell masks

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_COLS = "abc"


class TicTacToe(Game):
    """Tic-tac-toe on a 3x3 board; no rule variants."""

    name = "tictactoe"
    kernels = KERNELS
    heuristics = knowledge.HEURISTICS
    default_heuristic = "lines"
    value_scale = 4.0  # a line heuristic: a few lines' worth

    def board_symmetries(self) -> tuple[np.ndarray, np.ndarray]:
        """The 8 symmetries of the square; an action is its cell."""
        cells = square_symmetries(3)
        return cells, cells.copy()

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Fixed sizes: 9 actions, games of at most 9 moves."""
        return Layout(params=[0], initial=[0, 0], num_actions=9, max_moves=9, max_game_length=9,
                      observation_shape=(3, 3, 3))

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``b2`` style: column letter, row number."""
        a = check_action(action, 9)
        return f"{_COLS[a % 3]}{a // 3 + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``b2`` (or a bare index ``4``)."""
        t = str(text).strip().lower()
        if t.isdigit() and int(t) < 9:
            return int(t)
        if len(t) == 2 and t[0] in _COLS and t[1] in "123":
            return 3 * (int(t[1]) - 1) + _COLS.index(t[0])
        raise IllegalActionError(f"cannot read move {text!r}: write a cell such as 'b2' (columns a-c, rows 1-3)")

    def position(self, board: str | list[str]) -> State:
        """A state from three rows of ``X`` (player 0), ``O`` (player 1) and ``.``.

        X moves first, so X has as many marks as O or one more; PositionError otherwise.
        """
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else list(board)
        text = "".join(ch for row in rows for ch in str(row) if not ch.isspace())
        if len(text) != 9 or set(text.upper()) - set("XO."):
            raise PositionError(f"a tic-tac-toe board is 9 cells of X, O or '.'; got {text!r}")
        x = sum(1 << c for c, ch in enumerate(text.upper()) if ch == "X")
        o = sum(1 << c for c, ch in enumerate(text.upper()) if ch == "O")
        nx, no = bin(x).count("1"), bin(o).count("1")
        if nx - no not in (0, 1):
            raise PositionError(f"X moves first, so X has as many marks as O or one more; got X {nx}, O {no}")
        return np.array([x, o], dtype=np.int64)

    def render(self, state: State) -> str:
        """The board with coordinates; X is player 0, O player 1."""
        s = self._plain(state)
        marks = ["X" if (s[0] >> c) & 1 else "O" if (s[1] >> c) & 1 else "." for c in range(9)]
        rows = ["   a b c"] + [f"{r + 1}  " + " ".join(marks[3 * r:3 * r + 3]) for r in range(3)]
        return "\n".join(rows)
