"""Y (Claude Shannon, 1950s; Craige Schensted and Charles Titus, 1953).

Two players take turns putting a stone of their colour on an empty cell of a triangle of
hexagons. A player wins by a chain of its stones that touches all three sides (a corner
cell lies on two sides). A full board always holds exactly one such chain, so there are no
draws, and the first player wins with perfect play (strategy stealing); OpenSpiel's ``y``
has no pie rule, and neither has this one. Player 0 (``x``) moves first.

Board and actions (OpenSpiel's ``y``: the triangle sits in the top-left half of an N x N
square; the cell in column ``x`` and row ``y``, ``x + y < N``, is action ``x + y*N``, named
by its column letter and row number, ``a1`` = 0, ``b2`` = N + 1; the actions of the cut-off
corner are never legal)::

      a  b  c  d  e         5 x 5 square, the triangle where x + y < 5:
    1  0  1  2  3  4
     2  5  6  7  8          (x, y) touches (x, y-1), (x+1, y-1), (x+1, y),
      3 10 11 12             (x, y+1), (x-1, y+1) and (x-1, y)
       4 15 16
        5 20                sides: column a (x = 0), row 1 (y = 0), the slant (x + y = 4)

Variant, as OpenSpiel's ``y``: ``board_size`` (2-26, default 19).

State vector: ``[to_move, status, each player's stones, one int64 word a row]`` (see
:mod:`zerosum.games.y.rules`). Observation (N, N, 4): the observer's stones, the
opponent's, the empty cells of the board, ones when the observer is to move (the cut-off
corner all zeros).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.kit import (
    ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
)
from zerosum.games.y import knowledge, rules
from zerosum.games.y.rules import S_BOARDS, S_STATUS, S_TO_MOVE, geometry, neighbours, sides, state_size

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_MARKS = "xo"
_CELL = re.compile(r"([a-z])(\d+)")


class Y(Game):
    """Y on a triangle of side ``board_size``."""

    name = "y"
    kernels = KERNELS
    variants = (Variant("board_size", int, 19, "cells on each side of the triangle", range=(2, 26)),)
    heuristics = knowledge.HEURISTICS
    default_heuristic = "two_distance"
    # Measured (y_v0's page has the commands): alpha-beta with the two-distance won 100 of 100
    # games against OpenSpiel's MCTSBot(1000) on the default board, and 19 of 20 against the
    # shortest-path distance at depth 2 on size 9.
    default_opponent = "alphabeta(time=0.1)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``N * N`` actions (OpenSpiel's square; only the triangle's ``N (N + 1) / 2`` are
        ever legal); a game lasts at most one move a cell."""
        size = variant["board_size"]
        cells = size * (size + 1) // 2
        return Layout(params=geometry(size), initial=[0, ONGOING] + [0] * (state_size(size) - 2),
                      num_actions=size * size, max_moves=cells, max_game_length=cells,
                      observation_shape=(size, size, 4))

    @property
    def size(self) -> int:
        """Cells on each side of the triangle."""
        return int(self.variant["board_size"])

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The cell as column letter and row number (``a1`` is action 0), as OpenSpiel
        names it."""
        y, x = divmod(check_action(action, self.num_actions), self.size)
        return f"{_LETTERS[x]}{y + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a cell (``c2``: column c, row 2) of the triangle."""
        m = _CELL.fullmatch(str(text).strip().lower())
        if m and m.group(1) in _LETTERS[: self.size] and 1 <= int(m.group(2)) <= self.size:
            x, y = _LETTERS.index(m.group(1)), int(m.group(2)) - 1
            if x + y < self.size:
                return y * self.size + x
            raise IllegalActionError(f"{text.strip()} is off the board: row {y + 1} has columns "
                                     f"a-{_LETTERS[self.size - 1 - y]}")
        raise IllegalActionError(f"cannot read move {text!r}: write a cell as its column letter "
                                 f"a-{_LETTERS[self.size - 1]} and row number 1-{self.size}, e.g. 'a1' "
                                 "(row r has the first N + 1 - r columns)")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        y, x = divmod(action, self.size)
        if x + y >= self.size:
            return f"{self.action_to_string(action)} is off the board (the cut-off corner of OpenSpiel's square)"
        return f"{self.action_to_string(action)} is occupied"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``x``, ``o`` and ``.``, row 1 (N cells) first, the last row
        one cell."""
        s = self._plain(state)
        n = self.size
        return ["".join("x" if (int(s[S_BOARDS + y]) >> x) & 1 else "o" if (int(s[S_BOARDS + n + y]) >> x) & 1
                        else "." for x in range(n - y)) for y in range(n)]

    def render(self, state: State) -> str:
        """The triangle as OpenSpiel draws it, each row half a cell right of the one above,
        column letters on top and row numbers on the left; x moved first."""
        s = self._plain(state)
        lines = ["  " + " ".join(_LETTERS[: self.size])]
        for y, row in enumerate(self.cells(s)):
            lines.append(" " * y + f"{y + 1:>2} " + " ".join(row))
        st = int(s[S_STATUS])
        said = {ONGOING: f"{_MARKS[int(s[S_TO_MOVE])]} to move", P0_WINS: "x wins", P1_WINS: "o wins"}[st]
        return "\n".join([*lines, f"{said} (a chain touching all three sides wins)"])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...]) -> State:
        """A state from the ``N`` rows of ``x`` (player 0), ``o`` and ``.`` that :meth:`cells`
        gives (row 1 of N cells first; spaces and row numbers ignored). ``x`` moves first, so
        it has as many stones as ``o`` (x to move) or one more (o to move). PositionError for
        a board that cannot be read, other counts, a winning chain of the side to move, or
        two winning chains."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row).lower() if ch in "xo.") for row in rows]
        n = self.size
        if len(grid) != n or any(len(g) != n - y for y, g in enumerate(grid)):
            raise PositionError(f"a Y board of size {n} is {n} rows of x, o or '.', of {n}, {n - 1}, ... 1 cells; "
                                f"got {board!r}")
        nx = sum(g.count("x") for g in grid)
        no = sum(g.count("o") for g in grid)
        if nx - no not in (0, 1):
            raise PositionError(f"x moves first, so x has as many stones as o or one more; got x {nx}, o {no}")
        s = np.zeros(self.state_size, np.int64)
        s[S_TO_MOVE] = nx - no
        for p, mark in enumerate(_MARKS):
            stones = {y * n + x for y, g in enumerate(grid) for x, ch in enumerate(g) if ch == mark}
            for cell in stones:
                s[S_BOARDS + p * n + cell // n] |= 1 << (cell % n)
            if self._wins(stones):
                if s[S_STATUS] != ONGOING:
                    raise PositionError("both players have a chain touching all three sides")
                if p == s[S_TO_MOVE]:
                    raise PositionError(f"{mark} has a winning chain but did not move last")
                s[S_STATUS] = P0_WINS + p
        return s

    def _wins(self, stones: set[int]) -> bool:
        """Whether a chain of ``stones`` touches all three sides."""
        seen: set[int] = set()
        for start in stones:
            if start in seen:
                continue
            todo, touched = [start], 0
            seen.add(start)
            while todo:
                cell = todo.pop()
                touched |= sides(self.size, cell)
                for z in neighbours(self.size, cell):
                    if z in stones and z not in seen:
                        seen.add(z)
                        todo.append(z)
            if touched == 7:
                return True
        return False
