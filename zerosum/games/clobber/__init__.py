"""Clobber (Albert, Grossman and Nowakowski, 2001), as OpenSpiel's ``clobber``.

The board starts full, white and black pieces in a chequerboard with a white piece (``o``)
in the bottom-left corner. A move takes one of one's pieces one square north, east,
south or west onto an opponent's piece, which is removed ("clobbered"); a move must
capture. The player who cannot move loses, so there are no draws. A player can move
exactly when the opponent can (the same pair of touching pieces is a move for both), so
the game ends when no white piece touches a black one, and the player who moved last
wins. Player 0 (white, ``o``) moves first, as OpenSpiel.

Board and actions (default 5 rows x 6 columns; OpenSpiel's encoding, so a policy or a
game record moves between the two)::

       a  b  c  d  e  f
    5  o  x  o  x  o  x     row 0 (OpenSpiel's rows count from the top)
    4  x  o  x  o  x  o     row 1
    3  o  x  o  x  o  x
    2  x  o  x  o  x  o
    1  o  x  o  x  o  x     row 4: a white piece in the bottom-left corner

    action = (row*columns + column)*4 + direction            (120 actions on 5x6)
    direction 0 north (towards rank 5), 1 east (towards column f), 2 south, 3 west

    a5 = square 0: a5b5 = 1 (east), a5a4 = 2 (south); c5d5 = 9, c5c4 = 10, c5b5 = 11

Names as OpenSpiel writes them: the square the piece leaves and the square it takes,
``a5b5``; ``a5-b5``, ``a5xb5`` and the action number are read as well.

Variants (as OpenSpiel's ``clobber``): ``rows`` (2-32) and ``columns`` (2-26), with
``rows * columns <= 64`` so that a side's pieces fit one 64-bit bitboard (5x6, 8x8,
4x16, ...). OpenSpiel takes 1-99 rows and 1-26 columns but cannot number the actions of
a board one square wide or high (its mixed-radix encoding needs 2 or more of each).
State: ``[white pieces, black pieces, player to move]`` (see
:mod:`zerosum.games.clobber.rules`). Observation (rows, columns, 3), row 0 the top row:
the observer's pieces, the opponent's, all ones when the observer is to move.
"""

from __future__ import annotations

import re
from typing import Any

from zerosum.games.clobber import knowledge, rules
from zerosum.games.clobber.rules import NUM_DIRECTIONS, S_BLACK, S_TO_MOVE, S_WHITE, geometry, starting_pieces
from zerosum.games.kit import (
    ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
    check_variant,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SIDES = ("white", "black")
_MARKS = "ox"
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (row, column) steps of north, east, south, west
_MOVE = re.compile(r"^([a-z])(\d{1,2})\s*[-x:]?\s*([a-z])(\d{1,2})$")


class Clobber(Game):
    """Clobber on a ``rows`` x ``columns`` board."""

    name = "clobber"
    kernels = KERNELS
    variants = (
        Variant("rows", int, 5, "rows of the board", range=(2, 32)),
        Variant("columns", int, 6, "columns of the board", range=(2, 26)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "mobility"
    # Against OpenSpiel's MCTSBot(1000) (bench/clobber.py; 2026-11-29, load 12-16 on 2 cores): MCTS at 0.1 s a
    # move with c=0.7 scored 0.86 over 100 games (0.80 over 40), with the default c=1.4 0.67 over 100; alpha-beta
    # at 0.1 s 0.45 with mobility, 0.55 with movable (20 games each) and 0.475 with no evaluation (40). At depth 5,
    # alpha-beta with mobility and with movable scored 0.32 and 0.35 (60 games each) against itself with a
    # constant evaluation: counting movable pieces misleads the search more than it helps it
    default_opponent = "mcts(time=0.1, c=0.7)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """4 actions a square; OpenSpiel's bound on the game's length (every move removes a
        piece, and one is left at least)."""
        rows, cols = variant["rows"], variant["columns"]
        check_variant("columns", cols, f"at most {64 // rows} columns with rows={rows}: rows * columns <= 64, so "
                      "a side's pieces fit one 64-bit bitboard (5x6, 8x8, 4x16, ...)", rows * cols <= 64)
        white, black = starting_pieces(rows, cols)
        edges = rows * (cols - 1) + (rows - 1) * cols  # every touching pair is a move, for each side
        return Layout(params=geometry(rows, cols), initial=[white, black, 0],
                      num_actions=rows * cols * NUM_DIRECTIONS, max_moves=edges,
                      max_game_length=rows * cols - 1, observation_shape=(rows, cols, 3))

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
        """``a5`` for square 0 on 5 rows: the column letter and the rank counted from 1 at the bottom."""
        return f"{_LETTERS[sq % self.columns]}{self.rows - sq // self.columns}"

    def _target(self, action: int) -> tuple[int, int, int]:
        """(from square, direction, to square; -1 off the board) of an action."""
        sq, d = divmod(action, NUM_DIRECTIONS)
        dr, dc = _STEPS[d]
        row, col = sq // self.columns + dr, sq % self.columns + dc
        return sq, d, row * self.columns + col if 0 <= row < self.rows and 0 <= col < self.columns else -1

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """OpenSpiel's name: the square left and the square taken, ``a5b5``."""
        sq, d, to = self._target(check_action(action, self.num_actions))
        if to < 0:
            return f"{self._square(sq)}?{'nesw'[d]}"  # off the board: never legal
        return f"{self._square(sq)}{self._square(to)}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``a5b5``, ``a5-b5``, ``a5xb5`` or an action number."""
        t = str(text).strip().lower()
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        m = _MOVE.match(t)
        if m:
            c1, r1, c2, r2 = (ord(m[1]) - 97, self.rows - int(m[2]), ord(m[3]) - 97, self.rows - int(m[4]))
            if all(0 <= c < self.columns for c in (c1, c2)) and all(0 <= r < self.rows for r in (r1, r2)) \
                    and (r2 - r1, c2 - c1) in _STEPS:
                return (r1 * self.columns + c1) * NUM_DIRECTIONS + _STEPS.index((r2 - r1, c2 - c1))
        raise IllegalActionError(
            f"cannot read move {text!r}: write the square a piece leaves and the square it takes, 'a1b1' or 'a1-b1' "
            f"(columns a-{_LETTERS[self.columns - 1]}, rows 1-{self.rows}; one square north, east, south or west)")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        s = self._plain(state)
        p = int(s[S_TO_MOVE])
        sq, _, to = self._target(action)
        if not (int(s[p]) >> sq) & 1:
            return f"no {_SIDES[p]} piece on {self._square(sq)}"
        if to < 0:
            return "that move leaves the board"
        if (int(s[p]) >> to) & 1:
            return f"{self._square(to)} holds a {_SIDES[p]} piece: a piece takes only an opponent's piece"
        return f"{self._square(to)} is empty: every move must take an opponent's piece"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``o`` (white), ``x`` (black) and ``.``, the top row (rank
        ``rows``) first, as OpenSpiel draws it."""
        s = self._plain(state)
        w, b = int(s[S_WHITE]) & ((1 << 64) - 1), int(s[S_BLACK]) & ((1 << 64) - 1)
        return ["".join("o" if (w >> sq) & 1 else "x" if (b >> sq) & 1 else "."
                        for sq in range(r * self.columns, (r + 1) * self.columns)) for r in range(self.rows)]

    def render(self, state: State) -> str:
        """The board with ranks on the left and column letters below, and who is to move
        (or who won); ``o`` is player 0 (white), ``x`` player 1 (black)."""
        s = self._plain(state)
        width = len(str(self.rows))
        lines = [f"{self.rows - r:>{width}}  " + " ".join(row) for r, row in enumerate(self.cells(s))]
        lines.append(" " * (width + 2) + " ".join(_LETTERS[: self.columns]))
        st = self.outcome(s)
        mover = int(s[S_TO_MOVE])
        said = f"{_SIDES[mover]} ({_MARKS[mover]}) to move" if st == ONGOING else \
            f"{_SIDES[0 if st == P0_WINS else 1]} wins"
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "white") -> State:
        """A state from ``rows`` rows of ``o`` (white, player 0), ``x`` (black) and ``.``, the
        top row first as :meth:`cells` gives them (rank labels and spaces are ignored), and
        the side to move (``"white"`` or ``"black"``). PositionError for a board of the wrong
        size or with other marks."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = [re.sub(r"[\s\d]", "", str(row)).lower() for row in rows]
        if len(grid) != self.rows or any(len(g) != self.columns or set(g) - set("ox.") for g in grid):
            raise PositionError(f"a {self.rows}x{self.columns} clobber board is {self.rows} rows of "
                                f"{self.columns} cells of o, x or '.', top row first; got {board!r}")
        if to_move not in _SIDES:
            raise PositionError(f"to_move={to_move!r}: 'white' or 'black'")
        bits = [0, 0]
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != ".":
                    bits[_MARKS.index(ch)] |= 1 << (r * self.columns + c)
        return self._plain([bits[0], bits[1], _SIDES.index(to_move)])
