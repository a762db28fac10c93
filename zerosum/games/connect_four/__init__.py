"""Connect Four.

Two players take turns dropping a disc into a column that is not full; the disc falls to
the lowest empty cell. Four in a row (horizontal, vertical or diagonal) wins; a full board
without one is a draw. Player 0 (X) moves first. Solved: the first player wins by starting
in the centre column (Allis; Allen, 1988).

Board and actions (default 6 rows x 7 columns; action = column, as OpenSpiel's
``connect_four`` and PettingZoo's ``connect_four_v3``)::

    a b c d e f g        readable names: the column letter ("d"), or its
    . . . . . . .        number as printed under the board ("4"); both
    . . . . . . .        mean action 3
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . X . . .        row 1 (the bottom)
    1 2 3 4 5 6 7
    0 1 2 3 4 5 6        action

Variants (as OpenSpiel's ``connect_four``): ``rows`` and ``columns`` (1..9 each, with
``columns * (rows + 1) <= 63`` so the board fits one 64-bit bitboard: 6x7, 7x7, 8x7, 9x6,
6x9, ...) and ``x_in_row`` (1..9; the length of a winning line). State vector:
``[discs of player 0, discs of player 1, status]`` (column-major bitboards, see
:mod:`zerosum.games.connect_four.rules`). Observation (rows, columns, 3), row 0 the top as
PettingZoo's: the observer's discs, the opponent's, and a plane of ones when the observer
is to move.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.games.connect_four import knowledge, rules
from zerosum.games.connect_four.rules import S_P0, S_P1, cell, geometry
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action, check_variant,
)
from zerosum.games.kit.symmetry import mirror_symmetries

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal, forcing=knowledge.forcing)
_LETTERS = "abcdefghi"
_MARKS = "XO"


class ConnectFour(Game):
    """Connect Four on a ``rows`` x ``columns`` board, ``x_in_row`` in a row to win."""

    name = "connect_four"
    kernels = KERNELS
    variants = (
        Variant("rows", int, 6, "rows of the board", range=(1, 9)),
        Variant("columns", int, 7, "columns of the board (one action each)", range=(1, 9)),
        Variant("x_in_row", int, 4, "discs in a row that win", range=(1, 9)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "threats"
    value_scale = 30.0  # measured: the median |value| of depth-8 labels of self-generated positions is ~15

    def board_symmetries(self) -> tuple[np.ndarray, np.ndarray]:
        """The identity and the left-right mirror (gravity rules out the others); a column goes to its mirror."""
        cols = np.arange(self.variant["columns"])
        return mirror_symmetries(self.variant["rows"], len(cols)), np.stack([cols, cols[::-1]])

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``columns`` actions; a game lasts at most rows * columns moves."""
        rows, cols = variant["rows"], variant["columns"]
        check_variant("columns", cols, f"at most {63 // (rows + 1)} columns with rows={rows}: columns * (rows + 1) "
                      "<= 63, so the board fits one 64-bit bitboard (6x7, 7x7, 8x7, 9x6, 6x9, ...)",
                      cols * (rows + 1) <= 63)
        return Layout(params=geometry(rows, cols, variant["x_in_row"]), initial=[0, 0, ONGOING], num_actions=cols,
                      max_moves=cols, max_game_length=rows * cols, observation_shape=(rows, cols, 3))

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return self.variant["rows"]  # type: ignore[no-any-return]

    @property
    def columns(self) -> int:
        """Columns of the board (= actions)."""
        return self.variant["columns"]  # type: ignore[no-any-return]

    @property
    def x_in_row(self) -> int:
        """Discs in a row that win."""
        return self.variant["x_in_row"]  # type: ignore[no-any-return]

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The column letter: action 3 is ``d``."""
        return _LETTERS[check_action(action, self.columns)]

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a column letter (``d``) or its number as printed under the board, counted
        from 1 (``4``); both give action 3."""
        t = str(text).strip().lower()
        letters = _LETTERS[: self.columns]
        if len(t) == 1 and t in letters:
            return letters.index(t)
        if t.isdigit() and 1 <= int(t) <= self.columns:
            return int(t) - 1
        raise IllegalActionError(f"cannot read move {text!r}: write a column letter {letters[0]}-{letters[-1]} or "
                                 f"its number 1-{self.columns}")

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``X``, ``O`` and ``.``, top row first."""
        s = self._plain(state)
        return ["".join("X" if (int(s[S_P0]) >> cell(self.rows, c, r)) & 1 else
                        "O" if (int(s[S_P1]) >> cell(self.rows, c, r)) & 1 else "." for c in range(self.columns))
                for r in reversed(range(self.rows))]

    def render(self, state: State) -> str:
        """The board with column letters above and numbers below, and who is to move (or
        the result); X is player 0, O player 1."""
        s = self._plain(state)
        board = [" ".join(row) for row in self.cells(s)]
        st = self.outcome(s)
        said = {ONGOING: f"{_MARKS[self.current_player(s)]} to move", DRAW: "draw",
                P0_WINS: "X wins", P1_WINS: "O wins"}[st]
        return "\n".join([" ".join(_LETTERS[: self.columns]), *board,
                          " ".join(str(c + 1) for c in range(self.columns)), said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...]) -> State:
        """A state from ``rows`` rows of ``X`` (player 0), ``O`` (player 1) and ``.``, top
        row first (the bottom row last), as :meth:`render` draws them.

        The player to move follows from the counts. PositionError for a floating disc, for
        counts X first cannot give (X has as many discs as O or one more), for lines of both
        players, and for a win that could not have been the last move.
        """
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row) if not ch.isspace()).upper() for row in rows]
        if len(grid) != self.rows or any(len(g) != self.columns or set(g) - set("XO.") for g in grid):
            raise PositionError(f"a {self.rows}x{self.columns} connect_four board is {self.rows} rows of "
                                f"{self.columns} cells of X, O or '.', top row first; got {board!r}")
        discs = [0, 0]
        for c in range(self.columns):
            column = [grid[self.rows - 1 - r][c] for r in range(self.rows)]  # bottom up
            height = sum(ch != "." for ch in column)
            if "." in column[:height]:
                raise PositionError(f"column {_LETTERS[c]} has a floating disc (a disc above an empty cell): "
                                    f"{''.join(column)} from the bottom")
            for r, ch in enumerate(column[:height]):
                discs[_MARKS.index(ch)] |= 1 << cell(self.rows, c, r)
        nx, no = bin(discs[0]).count("1"), bin(discs[1]).count("1")
        if nx - no not in (0, 1):
            raise PositionError(f"X moves first, so X has as many discs as O or one more; got X {nx}, O {no}")
        return np.array([discs[0], discs[1], self._status_of(discs, last=0 if nx > no else 1)], dtype=np.int64)

    def _status_of(self, discs: list[int], last: int) -> int:
        """The status of a board whose last disc was ``last``'s; PositionError if no last
        move of that player could have made it."""
        h, x = self.rows + 1, self.x_in_row
        won = [rules.has_line.py_func(d, h, x) for d in discs]
        if won[1 - last]:
            raise PositionError(f"{_MARKS[1 - last]} has {x} in a row, but {_MARKS[last]} moved last "
                                "(the game ended at that line)")
        if won[last]:
            tops = [cell(self.rows, c, r) for c in range(self.columns) for r in range(self.rows)
                    if (discs[last] >> cell(self.rows, c, r)) & 1
                    and not ((discs[0] | discs[1]) >> cell(self.rows, c, r + 1)) & 1]
            if all(rules.has_line.py_func(discs[last] & ~(1 << t), h, x) for t in tops):
                raise PositionError(f"{_MARKS[last]} has {x} in a row that no last move could have made "
                                    "(the game would have ended earlier)")
            return P0_WINS + last
        return DRAW if discs[0] | discs[1] == int(self.params[rules.P_BOARD]) else ONGOING
