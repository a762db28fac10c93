"""Hex (Piet Hein, 1942; John Nash, 1948).

Two players take turns putting a stone of their colour on an empty cell of a rhombus of
hexagons. Player 0 (black, ``x``) moves first and wins by joining the top and bottom
edges with a chain of black stones; player 1 (white, ``o``) joins the left and right
edges. The board can never fill without a winner, so there are no draws; the first player
wins with perfect play (Nash's strategy-stealing argument), which the pie rule answers.

Board and actions (OpenSpiel's ``hex``: action = ``row * columns + column``, row 0 at the
top; a cell is named by its column letter and row number, ``a1`` = 0, ``f6`` = 60 on the
default 11x11 board)::

       a b c d e          each row sits half a cell right of the one above:
     1 . . . . .          (r, c) touches (r-1, c), (r-1, c+1), (r, c-1), (r, c+1),
      2 . . . . .         (r+1, c-1) and (r+1, c)
       3 . . . . .
        4 . . . . .       black (x) joins rows 1 and 5, white (o) columns a and e
         5 . . . . .

Variants, as OpenSpiel's ``hex``: ``board_size`` (2-26, default 11), ``num_rows`` and
``num_cols`` (2-26, default ``board_size``: a board of any shape), and ``swap`` (the pie
rule, square boards only): white's first move may be ``swap`` (action ``rows*columns``),
which takes black's stone, seen from white's side (``(r, c)`` becomes a white stone on
``(c, r)``), and black moves next.

State vector: ``[to_move, status, then each player's stones and its stones joined to each
of its edges, one int64 word a row]`` (see :mod:`zerosum.games.hex.rules`). Observation
(rows, columns, 4): the observer's stones, the opponent's, ones when the observer is to
move, ones when the observer is black (joins top and bottom).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.hex import knowledge, rules
from zerosum.games.hex.rules import S_BOARDS, S_STATUS, S_TO_MOVE, geometry, neighbours, state_size
from zerosum.games.kit import (
    ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
    check_variant,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_MARKS = "xo"
_CELL = re.compile(r"([a-z])(\d+)")


class Hex(Game):
    """Hex on a ``num_rows`` x ``num_cols`` rhombus (``board_size`` for both), optionally
    with the pie rule (``swap``)."""

    name = "hex"
    kernels = KERNELS
    variants = (
        Variant("board_size", int, 11, "rows and columns of the board (unless num_rows / num_cols say)",
                range=(2, 26)),
        Variant("num_rows", int, None, "rows of the board (black joins the first and the last)", range=(2, 26),
                optional=True),
        Variant("num_cols", int, None, "columns of the board (white joins the first and the last)", range=(2, 26),
                optional=True),
        Variant("swap", bool, False, "the pie rule: white's first move may take black's first stone"),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "two_distance"
    # Measured on 11x11 at 0.1 s a move (hex_v0's page has the commands): alpha-beta with the
    # two-distance won 20 of 20 games against MCTS with random rollouts and 19 of 20 against
    # alpha-beta with the shortest-path distance.
    default_opponent = "alphabeta(time=0.1)"
    sgf_game = 11

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``rows * columns`` cell actions (one more, ``swap``, with the pie rule); a game
        lasts at most one move a cell (one more with the pie rule)."""
        rows = variant["num_rows"] if variant["num_rows"] is not None else variant["board_size"]
        cols = variant["num_cols"] if variant["num_cols"] is not None else variant["board_size"]
        swap = variant["swap"]
        check_variant("swap", swap, f"False on a board that is not square (num_rows={rows}, num_cols={cols}): "
                      "the pie rule turns black's stone on (r, c) into white's on (c, r)", not swap or rows == cols)
        cells = rows * cols
        return Layout(params=geometry(rows, cols, swap), initial=[0, ONGOING] + [0] * (state_size(rows) - 2),
                      num_actions=cells + int(swap), max_moves=cells, max_game_length=cells + int(swap),
                      observation_shape=(rows, cols, 4), variant={**variant, "num_rows": rows, "num_cols": cols})

    @property
    def rows(self) -> int:
        """Rows of the board (black joins the first and the last)."""
        return int(self.variant["num_rows"])

    @property
    def columns(self) -> int:
        """Columns of the board (white joins the first and the last)."""
        return int(self.variant["num_cols"])

    @property
    def swap(self) -> bool:
        """Whether the pie rule is in force."""
        return bool(self.variant["swap"])

    @property
    def swap_action(self) -> int | None:
        """The action of the pie rule (``rows * columns``), None without it."""
        return self.rows * self.columns if self.swap else None

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The cell as column letter and row number (``a1`` is action 0, as OpenSpiel
        names it), or ``swap``."""
        a = check_action(action, self.num_actions)
        if a == self.rows * self.columns:
            return "swap"
        r, c = divmod(a, self.columns)
        return f"{_LETTERS[c]}{r + 1}"

    def sgf_move(self, action: int, state: State) -> str:
        """HexGui's SGF move: the cell's name (``f6``, row 1 at the top), ``swap-pieces`` for the swap."""
        name = self.action_to_string(action, state)
        return "swap-pieces" if name == "swap" else name

    def sgf_action(self, value: str, state: State) -> int:
        """The action of a HexGui move (``f6``, ``swap-pieces``)."""
        return self.string_to_action("swap" if value.strip() == "swap-pieces" else value, state)

    def sgf_root(self) -> dict[str, str | list[str]]:
        """``SZ``: the side, or ``columns:rows`` for a board that is not square."""
        return {"SZ": str(self.columns) if self.rows == self.columns else f"{self.columns}:{self.rows}"}

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a cell (``f6``: column f, row 6) or ``swap`` (with the pie rule)."""
        t = str(text).strip().lower()
        if t in ("swap", "pie") and self.swap:
            return self.rows * self.columns
        m = _CELL.fullmatch(t)
        if m and m.group(1) in _LETTERS[: self.columns] and 1 <= int(m.group(2)) <= self.rows:
            return (int(m.group(2)) - 1) * self.columns + _LETTERS.index(m.group(1))
        raise IllegalActionError(f"cannot read move {text!r}: write a cell as its column letter "
                                 f"a-{_LETTERS[self.columns - 1]} and row number 1-{self.rows}, e.g. 'a1'"
                                 + (", or 'swap'" if self.swap else ""))

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        if action == self.rows * self.columns:
            return "swap is legal only as white's first move"
        return f"{self.action_to_string(action)} is occupied"

    def stones(self, state: State, player: int) -> int:
        """The stones of ``player`` as one int, bit ``row*columns + column``."""
        s = self._plain(state)
        base = S_BOARDS + 3 * player * self.rows
        return sum(int(s[base + r]) << (r * self.columns) for r in range(self.rows))

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``x``, ``o`` and ``.``, the top row first."""
        black, white = self.stones(state, 0), self.stones(state, 1)
        return ["".join("x" if (black >> (r * self.columns + c)) & 1 else "o" if (white >> (r * self.columns + c)) & 1
                        else "." for c in range(self.columns)) for r in range(self.rows)]

    def render(self, state: State) -> str:
        """The rhombus, each row half a cell right of the one above, with column letters on
        top and row numbers on the left; x (black) joins top and bottom, o (white) left and
        right."""
        s = self._plain(state)
        lines = ["    " + " ".join(_LETTERS[: self.columns])]
        for r, row in enumerate(self.cells(s)):
            lines.append(" " * r + f"{r + 1:>3} " + " ".join(row))
        st = int(s[S_STATUS])
        said = {ONGOING: f"{_MARKS[int(s[S_TO_MOVE])]} to move", P0_WINS: "x wins", P1_WINS: "o wins"}[st]
        return "\n".join([*lines, f"{said} (x joins top and bottom, o left and right)"])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str | None = None) -> State:
        """A state from ``rows`` rows of ``x`` (black, player 0), ``o`` (white) and ``.``,
        the top row first, as :meth:`cells` gives them (spaces and row numbers ignored).

        Black moves first, so black has as many stones as white or one more, and the side
        to move follows. With the pie rule, white may have one stone more (a swapped game,
        black to move), and equal counts are white's turn in a swapped game: ``to_move``
        ("x" or "o") says which (default: black). PositionError for a board that cannot be
        read, counts that no game gives, a side to move they rule out, or a winning chain
        of the side to move.
        """
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row).lower() if ch in "xo.") for row in rows]
        if len(grid) != self.rows or any(len(g) != self.columns for g in grid):
            raise PositionError(f"a {self.rows}x{self.columns} hex board is {self.rows} rows of {self.columns} cells "
                                f"of x, o or '.', the top row first; got {board!r}")
        if to_move is not None and to_move not in _MARKS:
            raise PositionError(f"to_move={to_move!r}: 'x' or 'o'")
        nx = sum(g.count("x") for g in grid)
        no = sum(g.count("o") for g in grid)
        movers = {0: (0, 1) if self.swap and nx > 0 else (0,), 1: (1,), -1: (0,) if self.swap else ()}.get(nx - no, ())
        if not movers:
            raise PositionError("black (x) moves first, so x has as many stones as o or one more"
                                + (" (or one fewer after a swap)" if self.swap else "") + f"; got x {nx}, o {no}")
        mover = movers[0] if to_move is None else _MARKS.index(to_move)
        if mover not in movers:
            raise PositionError(f"with x {nx} and o {no} stones, {_MARKS[movers[0]]} is to move; "
                                f"got to_move={to_move!r}")
        s = np.zeros(self.state_size, np.int64)
        s[S_TO_MOVE] = mover
        for p, mark in enumerate(_MARKS):
            cells = {r * self.columns + c for r, g in enumerate(grid) for c, ch in enumerate(g) if ch == mark}
            joined = [self._joined(cells, p, edge) for edge in (0, 1)]
            if joined[0] & joined[1]:
                s[S_STATUS] = P0_WINS + p
            for kind, members in enumerate((cells, *joined)):
                for cell in members:
                    r, c = divmod(cell, self.columns)
                    s[S_BOARDS + (3 * p + kind) * self.rows + r] |= 1 << c
        if (s[S_STATUS] == P0_WINS and mover != 1) or (s[S_STATUS] == P1_WINS and mover != 0):
            raise PositionError(f"{'x' if s[S_STATUS] == P0_WINS else 'o'} has a winning chain but did not move last")
        if self._joined_both(s, 0) and self._joined_both(s, 1):
            raise PositionError("both players have a winning chain")
        return s

    def _joined(self, cells: set[int], p: int, edge: int) -> set[int]:
        """The cells of ``cells`` (``p``'s stones) joined to ``p``'s first (0) or second edge."""
        def on(cell: int) -> bool:
            r, c = divmod(cell, self.columns)
            return (r if p == 0 else c) == (0 if edge == 0 else (self.rows if p == 0 else self.columns) - 1)
        todo = [x for x in cells if on(x)]
        seen = set(todo)
        while todo:
            for y in neighbours(self.rows, self.columns, todo.pop()):
                if y in cells and y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen

    def _joined_both(self, s: State, p: int) -> bool:
        base = S_BOARDS + 3 * p * self.rows
        return any(int(s[base + self.rows + r]) & int(s[base + 2 * self.rows + r]) for r in range(self.rows))
