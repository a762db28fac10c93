"""Breakthrough (Dan Troyka, 2000), as OpenSpiel's ``breakthrough``.

Each side starts with two full rows of pieces on its side of the board (one row on boards
of fewer than 6 rows). A piece moves one square forward, straight or diagonally, onto an
empty square, or captures an opponent's piece one square diagonally forward (never
straight ahead). A player wins by bringing a piece to the opponent's home row, or by
capturing every opponent's piece; there are no draws (a most advanced piece can always
move). Player 0 (black, ``b``) starts on the top rows and moves first, down the board;
player 1 (white, ``w``) starts on the bottom rows and moves up.

Board and actions (default 8 rows x 8 columns; OpenSpiel's encoding, so a policy or a
game record moves between the two)::

       a  b  c  d  e  f  g  h
    8  b  b  b  b  b  b  b  b     row 0 (OpenSpiel's rows count from the top)
    7  b  b  b  b  b  b  b  b     row 1
    6  .  .  .  .  .  .  .  .
    ...
    2  w  w  w  w  w  w  w  w
    1  w  w  w  w  w  w  w  w     row 7

    action = ((row*columns + column)*6 + direction)*2 + capture      (768 actions on 8x8)
    direction 0, 1, 2: player 0's moves, a row down and a column left, straight, right
              3, 4, 5: player 1's moves, a row up and a column left, straight, right
    capture   1 for a diagonal move onto an opponent's piece, else 0

Names as OpenSpiel writes them: ``a7a6`` (a step), ``a7b6*`` (a capture); ``a2-a3``,
``a2xb3``, ``a2b3`` and the action number are read as well (``a2b3`` is a capture when
b3 holds an opponent's piece).

Variants (as OpenSpiel's ``breakthrough``): ``rows`` (4-16) and ``columns`` (2-16), with
``rows * columns <= 64`` so that a side's pieces fit one 64-bit bitboard (8x8, 6x6, 5x7,
4x16, ...). State: ``[black pieces, white pieces, player to move]`` (see
:mod:`zerosum.games.breakthrough.rules`). Observation (rows, columns, 3) from the
observer's side, its goal row first: own pieces, the opponent's, all ones when the
observer is to move.
"""

from __future__ import annotations

import re
from typing import Any

from zerosum.games.breakthrough import knowledge, rules
from zerosum.games.breakthrough.rules import NUM_DIRECTIONS, S_P0, S_P1, S_TO_MOVE, geometry, starting_pieces
from zerosum.games.kit import (
    ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
    check_variant,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal, forcing=knowledge.forcing)
_LETTERS = "abcdefghijklmnop"
_SIDES = ("black", "white")
_MARKS = "bw"
_MOVE = re.compile(r"^([a-p])(\d{1,2})\s*([-x:]?)\s*([a-p])(\d{1,2})(\*?)$")


class Breakthrough(Game):
    """Breakthrough on a ``rows`` x ``columns`` board."""

    name = "breakthrough"
    kernels = KERNELS
    variants = (
        Variant("rows", int, 8, "rows of the board (two rows of pieces each from 6 rows, one below)", range=(4, 16)),
        Variant("columns", int, 8, "columns of the board", range=(2, 16)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "safety"
    # At 0.1 s a move (20 games each, 2 random plies, both seats, load ~10 on 2 cores): 13-7 against
    # the advance heuristic, 19-1 against itself without the quiescence search.
    default_opponent = "alphabeta(time=0.1, heuristic=safety)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """12 actions a square; OpenSpiel's bound on the game's length."""
        rows, cols = variant["rows"], variant["columns"]
        check_variant("columns", cols, f"at most {64 // rows} columns with rows={rows}: rows * columns <= 64, so "
                      "the board fits one 64-bit bitboard (8x8, 6x6, 5x7, 4x16, ...)", rows * cols <= 64)
        black, white = starting_pieces(rows, cols)
        pieces = bin(black).count("1")
        # OpenSpiel's MaxGameLength: every move takes a piece a row forward (2*rows - 3 rows a
        # column for both rows of pieces, both players), and one more move reaches the goal.
        longest = 2 * (2 * rows - 3) * cols + 1
        return Layout(params=geometry(rows, cols), initial=[black, white, 0],
                      num_actions=rows * cols * NUM_DIRECTIONS * 2, max_moves=3 * pieces,
                      max_game_length=longest, observation_shape=(rows, cols, 3))

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return int(self.variant["rows"])

    @property
    def columns(self) -> int:
        """Columns of the board."""
        return int(self.variant["columns"])

    # ---- text -------------------------------------------------------------------------
    def _square(self, sq: int) -> str:
        """``a8`` for square 0: the column letter and the rank counted from 1 at the bottom."""
        return f"{_LETTERS[sq % self.columns]}{self.rows - sq // self.columns}"

    def _decode(self, action: int) -> tuple[int, int, int, int]:
        """(from square, direction, capture, to square; -1 off the board) of an action."""
        cols = self.columns
        sq, rest = divmod(action, 2 * NUM_DIRECTIONS)
        d, cap = divmod(rest, 2)
        row, col = sq // cols + (1 if d < 3 else -1), sq % cols + d % 3 - 1
        to = row * cols + col if 0 <= row < self.rows and 0 <= col < cols else -1
        return sq, d, cap, to

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """OpenSpiel's name: ``a7a6`` for a step, ``a7b6*`` for a capture (the same for any
        state: the action says the direction and whether it captures)."""
        sq, d, cap, to = self._decode(check_action(action, self.num_actions))
        if to < 0:
            return f"{self._square(sq)}?{d}{'*' if cap else ''}"  # off the board: never legal
        return f"{self._square(sq)}{self._square(to)}{'*' if cap else ''}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``a7a6``, ``a7-a6``, ``a7xb6``, ``a7b6*`` or an action number. Without a
        capture mark (``x`` or ``*``) a diagonal move captures when ``state`` has an
        opponent's piece on the target square (``:`` marks a capture too)."""
        t = str(text).strip().lower()
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        m = _MOVE.match(t)
        if m:
            c1, r1, c2, r2 = (ord(m[1]) - 97, self.rows - int(m[2]), ord(m[4]) - 97, self.rows - int(m[5]))
            dr, dc = r2 - r1, c2 - c1
            if all(0 <= c < self.columns for c in (c1, c2)) and all(0 <= r < self.rows for r in (r1, r2)) \
                    and abs(dr) == 1 and abs(dc) <= 1:
                d = (0 if dr == 1 else 3) + dc + 1
                cap = 1 if m[3] in ("x", ":") or m[6] else 0
                if not cap and dc != 0 and state is not None:
                    s = self._plain(state)
                    cap = (int(s[1 - d // 3]) >> (r2 * self.columns + c2)) & 1
                return ((r1 * self.columns + c1) * NUM_DIRECTIONS + d) * 2 + cap
        raise IllegalActionError(
            f"cannot read move {text!r}: write 'a2a3' or 'a2-a3' for a step, 'a2xb3' or 'a2b3*' for a capture "
            f"(columns a-{_LETTERS[self.columns - 1]}, rows 1-{self.rows}; one row forward, at most one column "
            "aside)")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        s = self._plain(state)
        p = int(s[S_TO_MOVE])
        sq, d, cap, to = self._decode(action)
        if d // 3 != p:
            return f"{self.action_to_string(action)} is a move for {_SIDES[1 - p]}, and {_SIDES[p]} is to move"
        if not (int(s[p]) >> sq) & 1:
            return f"no {_SIDES[p]} piece on {self._square(sq)}"
        if to < 0:
            return "that move leaves the board"
        there = "w" if (int(s[S_P1]) >> to) & 1 else "b" if (int(s[S_P0]) >> to) & 1 else "."
        if cap:
            return "a straight move cannot capture" if d % 3 == 1 else f"no {_SIDES[1 - p]} piece on {self._square(to)}"
        if there == _MARKS[p]:
            return f"{self._square(to)} holds a {_SIDES[p]} piece"
        if d % 3 == 1:
            return f"{self._square(to)} is occupied (a piece captures only diagonally)"
        return f"{self._square(to)} holds a {_SIDES[1 - p]} piece: capture it with {self.action_to_string(action + 1)}"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``b``, ``w`` and ``.``, the top row (rank ``rows``) first."""
        s = self._plain(state)
        b, w = int(s[S_P0]) & ((1 << 64) - 1), int(s[S_P1]) & ((1 << 64) - 1)
        return ["".join("b" if (b >> sq) & 1 else "w" if (w >> sq) & 1 else "."
                        for sq in range(r * self.columns, (r + 1) * self.columns)) for r in range(self.rows)]

    def render(self, state: State) -> str:
        """The board with ranks on the left and column letters below, and who is to move
        (or who won); ``b`` is player 0 (black), ``w`` player 1 (white)."""
        s = self._plain(state)
        width = len(str(self.rows))
        lines = [f"{self.rows - r:>{width}}  " + " ".join(row) for r, row in enumerate(self.cells(s))]
        lines.append(" " * (width + 2) + " ".join(_LETTERS[: self.columns]))
        st = self.outcome(s)
        said = f"{_SIDES[int(s[S_TO_MOVE])]} to move" if st == ONGOING else f"{_SIDES[0 if st == P0_WINS else 1]} wins"
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "black") -> State:
        """A state from ``rows`` rows of ``b`` (player 0), ``w`` (player 1) and ``.``, the top
        row first as :meth:`render` draws them (rank labels and spaces are ignored), and the
        side to move (``"black"`` or ``"white"``). PositionError for a board of the wrong
        size or with other marks, more pieces than a side starts with, or a board where both
        sides have won."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = [re.sub(r"[\s\d]", "", str(row)).lower() for row in rows]
        if len(grid) != self.rows or any(len(g) != self.columns or set(g) - set("bw.") for g in grid):
            raise PositionError(f"a {self.rows}x{self.columns} breakthrough board is {self.rows} rows of "
                                f"{self.columns} cells of b, w or '.', top row first; got {board!r}")
        if to_move not in _SIDES:
            raise PositionError(f"to_move={to_move!r}: 'black' or 'white'")
        bits = [0, 0]
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != ".":
                    bits[_MARKS.index(ch)] |= 1 << (r * self.columns + c)
        most = bin(starting_pieces(self.rows, self.columns)[0]).count("1")
        for p in (0, 1):
            if bin(bits[p]).count("1") > most:
                raise PositionError(f"{_SIDES[p]} has {bin(bits[p]).count('1')} pieces; a side starts with {most}")
        top, bottom = (1 << self.columns) - 1, ((1 << self.columns) - 1) << ((self.rows - 1) * self.columns)
        if (bits[0] & bottom or not bits[1]) and (bits[1] & top or not bits[0]):
            raise PositionError("both sides have won (a piece on its goal row, or the other side without pieces)")
        return self._plain([bits[0], bits[1], _SIDES.index(to_move)])
