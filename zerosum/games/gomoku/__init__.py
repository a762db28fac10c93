"""Gomoku (five in a row), OpenSpiel's ``gomoku``, and its m,n,k-games (OpenSpiel's ``mnk``).

Two players take turns placing a stone of their colour on an empty cell of a 15x15
board (any ``n`` rows x ``m`` columns with the variants ``m`` and ``n``); player 0
(black, X) moves first. The first to make a line of ``connect`` (5) or
more stones in a row, column or diagonal wins (an overline wins too, as in OpenSpiel:
free-style Gomoku). A full board without a line is a draw.

Board and actions (action = row*size + col, row-major as OpenSpiel's ``gomoku``; row 0
is the top row, drawn first)::

        a  b  c  ...  o
    15  0  1  2  ...  14      names: the column letter and the row number
    14 15 16 17  ...  29      counted from 1 at the bottom, "h8" for the
    ...                       centre (action 112); OpenSpiel's own name
     1 210 211   ...  224     "7,7" (row,col) reads too

Variants (OpenSpiel's parameters): ``size`` (1-19, the side of the square board),
``connect`` (1 to the longer side: stones in a row that win), ``anti`` (False; True: the
player who makes a line loses) and ``wrap`` (False; True: the board is a torus, lines run
over the edges; square boards only). OpenSpiel's ``dims`` (boards of more than two
dimensions) is not offered. ``m`` and ``n`` (1-19, default ``size``) are OpenSpiel's
``mnk`` parameters: the board's columns and rows, so that ``Gomoku(m=M, n=N, connect=K)``
is ``pyspiel.load_game("mnk", {"m": M, "n": N, "k": K})`` move for move (``mnk``'s
default, 15x15 and five, is Gomoku's); names and actions number rows and columns the
same way on any board (action = row*m + col).

State: ``[player 0's words, player 1's words, status, stones]``, each side's stones in
``ceil(n / (63 // m))`` int64 words of whole rows (4 on 15x15; see
:mod:`zerosum.games.gomoku.rules`). Observation (n, m, 3): the observer's stones,
the opponent's, and a plane of ones when the observer is to move (OpenSpiel's planes are
black, white and black-to-move: the same for player 0).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from zerosum.games.gomoku import knowledge, rules
from zerosum.games.gomoku.rules import MAX_SIZE, geometry, initial, words_for
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action, check_variant,
)
from zerosum.games.records import sgf_coords, sgf_point

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal,
                  forcing=knowledge.forcing)
"""The game's compiled rules (imported by name by the compiled searches)."""
_LETTERS = "abcdefghijklmnopqrstuvwxyz"[:MAX_SIZE]
_MARKS = "XO"
_OPENSPIEL = re.compile(r"[xo]?\(?(\d+),(\d+)\)?")  # gomoku's "7,7", mnk's "x(7,7)"


class Gomoku(Game):
    """Gomoku on a ``size`` x ``size`` board (``n`` rows x ``m`` columns), ``connect`` in a row to win."""

    name = "gomoku"
    """The registered name: ``make_game(name)``."""
    kernels = KERNELS
    """The compiled rules."""
    variants = (
        Variant("size", int, 15, "side of the square board", range=(1, MAX_SIZE)),
        Variant("connect", int, 5, "stones in a row that win (at most the longer side)", range=(1, MAX_SIZE)),
        Variant("anti", bool, False, "the player who makes a line loses"),
        Variant("wrap", bool, False, "the board is a torus: lines run over the edges (square boards only)"),
        Variant("m", int, None, "columns of the board (OpenSpiel's mnk; default size)", range=(1, MAX_SIZE),
                optional=True),
        Variant("n", int, None, "rows of the board (OpenSpiel's mnk; default size)", range=(1, MAX_SIZE),
                optional=True),
    )
    """The rule variants, as keyword arguments (the page's variants table)."""
    heuristics = knowledge.HEURISTICS
    """The evaluations alpha-beta can use, by name."""
    default_heuristic = "threats"
    """The heuristic a search uses when none is named."""
    default_opponent = "alphabeta(time=0.1)"  # threats, quiescence on fours; level with lmr=off, ahead of mcts
    """The agent spec that plays this game best at about 0.1 s a move."""
    sgf_game = 4
    """Gomoku's number in SGF's list: games are kept as SGF."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``rows * columns`` actions; a game lasts at most one move a cell."""
        rows, cols = self._shape(variant)
        connect = variant["connect"]
        self._check_connect_fits(variant, rows, cols)
        check_variant("wrap", variant["wrap"], f"False on a board that is not square (m={cols}, n={rows})",
                      not variant["wrap"] or rows == cols)
        cells = rows * cols
        return Layout(params=geometry(rows, cols, connect, variant["anti"], variant["wrap"]),
                      initial=initial(rows, cols), num_actions=cells, max_moves=cells, max_game_length=cells,
                      observation_shape=(rows, cols, 3))

    @staticmethod
    def _shape(variant: Mapping[str, Any]) -> tuple[int, int]:
        """(rows, columns): ``n`` and ``m``, each ``size`` when not given."""
        size = variant["size"]
        return (size if variant["n"] is None else variant["n"]), (size if variant["m"] is None else variant["m"])

    @staticmethod
    def _check_connect_fits(variant: Mapping[str, Any], rows: int, cols: int) -> None:
        """A line of ``connect`` must fit on the board. The error names what the user changed:
        ``connect`` when it was given (not the default 5) or the board is the default one,
        else the board's side (``size``, or ``m`` / ``n`` for a rectangle) that is too short."""
        connect, longest = variant["connect"], max(rows, cols)
        if connect <= longest:
            return
        default_board = variant["size"] == 15 and variant["m"] is None and variant["n"] is None
        if connect != 5 or default_board:
            shape = f"size={variant['size']}" if rows == cols and variant["m"] is None and variant["n"] is None \
                else f"m={cols}, n={rows}"
            side = "side" if rows == cols else "longer side"
            check_variant("connect", connect, f"an int from 1 to {longest} (the {side} of the board) with {shape}",
                          False)
        name = "n" if variant["n"] is not None and (variant["m"] is None or rows >= cols) else \
            "m" if variant["m"] is not None else "size"
        check_variant(name, variant[name], f"an int from {connect} to {MAX_SIZE} with connect={connect} (a line of "
                      f"{connect} must fit on the board; pass a smaller connect for a smaller board)", False)

    @property
    def size(self) -> int:
        """The side of the board (``size``; a rectangle's sides are :attr:`rows` and :attr:`columns`)."""
        return self.variant["size"]  # type: ignore[no-any-return]

    @property
    def rows(self) -> int:
        """Rows of the board (``n``, else ``size``)."""
        return self._shape(self.variant)[0]

    @property
    def columns(self) -> int:
        """Columns of the board (``m``, else ``size``)."""
        return self._shape(self.variant)[1]

    @property
    def connect(self) -> int:
        """Stones in a row that win."""
        return self.variant["connect"]  # type: ignore[no-any-return]

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The column letter and the row number counted from 1 at the bottom: ``h8``."""
        r, c = divmod(check_action(action, self.num_actions), self.columns)
        return f"{_LETTERS[c]}{self.rows - r}"

    def sgf_move(self, action: int, state: State) -> str:
        """SGF's point (``hh``: column, then row from the top)."""
        r, c = divmod(check_action(action, self.num_actions), self.columns)
        return sgf_point(c, r)

    def sgf_action(self, value: str, state: State) -> int:
        """The action of an SGF point."""
        col, row = sgf_coords(value, self.columns, self.rows)
        return row * self.columns + col

    def sgf_root(self) -> dict[str, str | list[str]]:
        """``SZ``: the side, or ``columns:rows`` for a board that is not square."""
        return {"SZ": str(self.columns) if self.rows == self.columns else f"{self.columns}:{self.rows}"}

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``h8`` (column letter, row number from 1 at the bottom) or OpenSpiel's
        ``row,col`` (``7,7``, row 0 at the top; ``mnk``'s ``x(7,7)`` too)."""
        t = str(text).strip().lower().replace(" ", "")
        rows, cols = self.rows, self.columns
        m = _OPENSPIEL.fullmatch(t)
        if m:
            if int(m.group(1)) < rows and int(m.group(2)) < cols:
                return int(m.group(1)) * cols + int(m.group(2))
        elif len(t) >= 2 and t[0] in _LETTERS[:cols] and t[1:].isdigit() and 1 <= int(t[1:]) <= rows:
            return (rows - int(t[1:])) * cols + _LETTERS.index(t[0])
        each = f"0-{rows - 1} each" if rows == cols else f"rows 0-{rows - 1} and columns 0-{cols - 1}"
        raise IllegalActionError(f"cannot read move {text!r}: write a column letter a-{_LETTERS[cols - 1]} and a row "
                                 f"1-{rows} (e.g. {self.action_to_string((rows // 2) * cols + cols // 2)}), or "
                                 f"OpenSpiel's 'row,col' with {each}")

    def illegal_reason(self, action: int, state: State) -> str:
        """The cell is taken."""
        s = self._plain(state)
        r, c = divmod(action, self.columns)
        for p in (0, 1):
            if rules.stone.py_func(self.params, s, p, r, c):
                return f"{self.action_to_string(action)} is taken by {_MARKS[p]}"
        return ""

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``X`` (player 0), ``O`` and ``.``, row 0 (the top) first."""
        s = self._plain(state)
        rows = []
        for r in range(self.rows):
            b0 = int(rules.row_bits.py_func(self.params, s, 0, r))
            b1 = int(rules.row_bits.py_func(self.params, s, 1, r))
            rows.append("".join("X" if (b0 >> c) & 1 else "O" if (b1 >> c) & 1 else "." for c in range(self.columns)))
        return rows

    def render(self, state: State) -> str:
        """The board with column letters above and row numbers (1 at the bottom) at the
        left, and who is to move (or the result); X is player 0 (black), O player 1."""
        s = self._plain(state)
        width = len(str(self.rows))
        st = self.outcome(s)
        said = {ONGOING: f"{_MARKS[self.current_player(s)]} to move", DRAW: "draw",
                P0_WINS: "X wins", P1_WINS: "O wins"}[st]
        lines = [" " * (width + 1) + " ".join(_LETTERS[: self.columns])]
        lines += [f"{self.rows - r:>{width}} " + " ".join(row) for r, row in enumerate(self.cells(s))]
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...]) -> State:
        """A state from ``rows`` rows of ``X`` (player 0), ``O`` (player 1) and ``.``, top row
        first, as :meth:`cells` gives them. The player to move follows from the counts.
        PositionError for counts X first cannot give, lines of both players, or a line of
        the player who did not move last."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row) if not ch.isspace()).upper() for row in rows]
        n, cols = self.rows, self.columns
        if len(grid) != n or any(len(g) != cols or set(g) - set("XO.") for g in grid):
            raise PositionError(f"a {n}x{cols} gomoku board is {n} rows of {cols} cells of X, O or '.', top row "
                                f"first; got {board!r}")
        words, rpw = words_for(n, cols)
        state = np.zeros(2 * words + 2, np.int64)
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != ".":
                    state[_MARKS.index(ch) * words + r // rpw] |= 1 << ((r % rpw) * cols + c)
        counts = [sum(row.count(m) for row in grid) for m in _MARKS]
        if counts[0] - counts[1] not in (0, 1):
            raise PositionError(f"X moves first, so X has as many stones as O or one more; got X {counts[0]}, "
                                f"O {counts[1]}")
        stones = counts[0] + counts[1]
        state[2 * words + 1] = stones
        lines = [any(rules.makes_line.py_func(self.params, state, p, r, c)
                     for r in range(n) for c in range(cols) if grid[r][c] == _MARKS[p]) for p in (0, 1)]
        last = (stones - 1) & 1
        if lines[1 - last] or (lines[last] and stones == 0):
            raise PositionError(f"{_MARKS[1 - last]} has a line of {self.connect}, but {_MARKS[last]} moved last "
                                "(the game ended at that line)")
        if lines[last]:
            state[2 * words] = P0_WINS + (1 - last if self.variant["anti"] else last)
        elif stones == n * cols:
            state[2 * words] = DRAW
        return state


__all__ = ["KERNELS", "Gomoku"]
