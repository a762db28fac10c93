"""Havannah (Christian Freeling, 1979).

Two players take turns putting a stone of their colour on an empty cell of a hexagon of
hexagons, ``base`` cells a side. A player wins by a chain of its stones that makes

* a **ring**: a loop around one or more cells (empty or not, of either colour),
* a **bridge**: joins two of the six corners, or
* a **fork**: joins three of the six edges (a corner belongs to no edge).

A full board without one is a draw. Player 0 (``x``) moves first. With ``swap`` (the pie
rule, OpenSpiel's ``swap``), the second player's first move may be the first stone's
cell: the stone becomes its own.

Board and actions (OpenSpiel's ``havannah``: the hexagon sits in a D x D square, ``D = 2 *
base - 1``; the cell in column ``x`` and row ``y``, ``|x - y| < base``, is action ``x + y*D``,
named by its column letter and row number, ``a1`` = 0; the actions of the square's two
cut-off corners are never legal). Base 3, D = 5, as OpenSpiel draws it::

          a  b  c
      1   0  1  2  d            (x, y) touches (x-1, y-1), (x, y-1), (x+1, y),
     2  5  6  7  8  e                          (x+1, y+1), (x, y+1), (x-1, y)
    3 10 11 12 13 14
     4 16 17 18 19              corners a1, c1, e3, e5, c5, a3; the edges are the
      5 22 23 24                cells between them (b1, d2, e4, d5, b4, a2)

Rings are OpenSpiel's: a ring is found by a walk from the new stone along the player's
stones that turns at most 60 degrees a step (see :mod:`zerosum.games.havannah.rules`).

Variants, as OpenSpiel's ``havannah``: ``board_size`` (the base, 2-13, default 8: 169 cells)
and ``swap`` (default False).

State vector: ``[to_move, status, stones on the board, each player's stones, one int64 word
a row]``. Observation (D, D, 4): the observer's stones, the opponent's, the empty cells of
the board, ones on the board when the observer is to move (the cut-off corners all zeros).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.havannah import knowledge, rules
from zerosum.games.havannah.rules import (
    S_BOARDS, S_COUNT, S_STATUS, S_TO_MOVE, corner_cells, edge_of, geometry, neighbours, on_board, state_size,
)
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_MARKS = "xo"
_CELL = re.compile(r"([a-z])(\d+)")


class Havannah(Game):
    """Havannah on a hexagon of side ``board_size``, optionally with the swap (``swap``)."""

    name = "havannah"
    kernels = KERNELS
    variants = (
        Variant("board_size", int, 8, "the base: cells on each side of the hexagon", range=(2, 13)),
        Variant("swap", bool, False, "the pie rule: the second player's first move may take the first stone"),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "two_distance"
    # Measured (havannah_v0's page has the commands): alpha-beta with the two-distance scored
    # 0.97 over 100 games against OpenSpiel's MCTSBot(1000) on base 8, and won 17 of 20 against
    # the shortest-path distance at depth 2 on base 5.
    default_opponent = "alphabeta(time=0.1)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``D * D`` actions (OpenSpiel's square; only the hexagon's cells are ever legal); a
        game lasts at most one move a cell, one more with the swap."""
        base, swap = variant["board_size"], variant["swap"]
        d = 2 * base - 1
        cells = d * d - base * (base - 1)
        return Layout(params=geometry(base, swap), initial=[0, ONGOING, 0] + [0] * (state_size(base) - 3),
                      num_actions=d * d, max_moves=cells, max_game_length=cells + int(swap),
                      observation_shape=(d, d, 4))

    @property
    def base(self) -> int:
        """Cells on each side of the hexagon."""
        return int(self.variant["board_size"])

    @property
    def diameter(self) -> int:
        """Cells across the hexagon, ``2 * base - 1``: the side of OpenSpiel's square."""
        return 2 * self.base - 1

    @property
    def swap(self) -> bool:
        """Whether the swap (pie rule) is in force."""
        return bool(self.variant["swap"])

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The cell as column letter and row number (``a1`` is action 0), as OpenSpiel names
        it; the swap is the first stone's cell."""
        y, x = divmod(check_action(action, self.num_actions), self.diameter)
        return f"{_LETTERS[x]}{y + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a cell (``e5``: column e, row 5) of the hexagon; with the swap, ``swap``
        is the first stone's cell."""
        t = str(text).strip().lower()
        d = self.diameter
        if t in ("swap", "pie") and self.swap and state is not None and int(self._plain(state)[S_COUNT]) == 1:
            s = self._plain(state)
            return next(y * d + x for y in range(d) for x in range(d) if (int(s[S_BOARDS + y]) >> (d - 1 - x)) & 1)
        m = _CELL.fullmatch(t)
        if m and m.group(1) in _LETTERS[:d] and 1 <= int(m.group(2)) <= d:
            x, y = _LETTERS.index(m.group(1)), int(m.group(2)) - 1
            if on_board(self.base, x, y):
                return y * d + x
            lo, hi = max(0, y - self.base + 1), min(d, y + self.base) - 1
            raise IllegalActionError(f"{t} is off the board: row {y + 1} has columns {_LETTERS[lo]}-{_LETTERS[hi]}")
        raise IllegalActionError(f"cannot read move {text!r}: write a cell as its column letter "
                                 f"a-{_LETTERS[d - 1]} and row number 1-{d}, e.g. 'a1'"
                                 + (", or 'swap' as the second player's first move" if self.swap else ""))

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        y, x = divmod(action, self.diameter)
        if not on_board(self.base, x, y):
            return f"{self.action_to_string(action)} is off the board (a cut-off corner of OpenSpiel's square)"
        if self.swap:
            return f"{self.action_to_string(action)} is occupied (a stone is taken only by the swap, " \
                   "the second player's first move)"
        return f"{self.action_to_string(action)} is occupied"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``x``, ``o`` and ``.``, row 1 first, each row from its first
        column (``base`` cells in row 1, ``2 * base - 1`` in the middle row)."""
        s = self._plain(state)
        d, b = self.diameter, self.base
        rows = []
        for y in range(d):
            black, white = int(s[S_BOARDS + y]), int(s[S_BOARDS + d + y])
            rows.append("".join("x" if (black >> (d - 1 - x)) & 1 else "o" if (white >> (d - 1 - x)) & 1 else "."
                                for x in range(max(0, y - b + 1), min(d, y + b))))
        return rows

    def render(self, state: State) -> str:
        """The hexagon as OpenSpiel draws it: column letters on top and down the right of
        the upper half, row numbers on the left; x moved first."""
        s = self._plain(state)
        b = self.base
        lines = [" " * (b + 3) + "".join(f" {_LETTERS[x]}" for x in range(b))]
        for y, row in enumerate(self.cells(s)):
            tail = f" {_LETTERS[b + y]}" if y < b - 1 else ""
            lines.append(" " * (abs(b - 1 - y) + 1 + (y + 1 < 10)) + f"{y + 1}" + "".join(f" {c}" for c in row) + tail)
        st = int(s[S_STATUS])
        said = {ONGOING: f"{_MARKS[int(s[S_TO_MOVE])]} to move", P0_WINS: "x wins", P1_WINS: "o wins",
                DRAW: "a draw"}[st]
        return "\n".join([*lines, f"{said} (a ring, a bridge of two corners or a fork of three edges wins)"])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str | None = None) -> State:
        """A state from the ``2 * base - 1`` rows of ``x`` (player 0), ``o`` and ``.`` that
        :meth:`cells` gives (row 1 first; spaces, numbers and letters other than x and o
        ignored). ``x`` moves first, so it has as many stones as ``o`` or one more; with the
        swap, one ``o`` and no ``x`` is the swapped opening (x to move). ``to_move`` ("x" or
        "o") must agree. A finished game is not a position: PositionError for a board that
        cannot be read, other counts, a full board, or a chain that makes a bridge or a fork
        (rings are not looked for: OpenSpiel finds a ring from the stone just played, so
        whether a board's loop has ended the game depends on the order of its moves)."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row).lower() if ch in "xo.") for row in rows]
        b, d = self.base, self.diameter
        widths = [min(d, y + b) - max(0, y - b + 1) for y in range(d)]
        if [len(g) for g in grid] != widths:
            raise PositionError(f"a Havannah board of base {b} is {d} rows of x, o or '.', of "
                                f"{', '.join(map(str, widths))} cells; got {board!r}")
        nx = sum(g.count("x") for g in grid)
        no = sum(g.count("o") for g in grid)
        swapped = self.swap and nx == 0 and no == 1
        if nx - no not in (0, 1) and not swapped:
            raise PositionError("x moves first, so x has as many stones as o or one more"
                                + (" (or none and o one, after the swap)" if self.swap else "")
                                + f"; got x {nx}, o {no}")
        mover = 0 if swapped else nx - no
        if to_move is not None and to_move != _MARKS[mover]:
            raise PositionError(f"with x {nx} and o {no} stones, {_MARKS[mover]} is to move; got to_move={to_move!r}")
        s = np.zeros(self.state_size, np.int64)
        s[S_TO_MOVE] = mover
        s[S_COUNT] = nx + no
        for y, g in enumerate(grid):
            for i, ch in enumerate(g):
                if ch != ".":
                    x = max(0, y - b + 1) + i
                    s[S_BOARDS + _MARKS.index(ch) * d + y] |= 1 << (d - 1 - x)
        for p, mark in enumerate(_MARKS):
            if self._bridge_or_fork(s, p):
                raise PositionError(f"{mark} has a bridge or a fork: the game is over")
        if nx + no == d * d - b * (b - 1):
            raise PositionError("the board is full: the game is over")
        return s

    def _bridge_or_fork(self, s: np.ndarray, p: int) -> bool:
        """Whether a chain of ``p``'s stones touches two corners or three edges."""
        d, b = self.diameter, self.base
        stones = {y * d + x for y in range(d) for x in range(d) if (int(s[S_BOARDS + p * d + y]) >> (d - 1 - x)) & 1}
        corners = set(corner_cells(b))
        seen: set[int] = set()
        for start in stones:
            if start in seen:
                continue
            todo, chain = [start], {start}
            while todo:
                for z in neighbours(b, todo.pop()):
                    if z in stones and z not in chain:
                        chain.add(z)
                        todo.append(z)
            seen |= chain
            if len(chain & corners) >= 2 or len({edge_of(b, c) for c in chain} - {-1}) >= 3:
                return True
        return False
