"""Dots and Boxes (Édouard Lucas, 1889), OpenSpiel's ``dots_and_boxes``.

A rectangle of ``num_rows`` x ``num_cols`` boxes has ``(num_rows+1) x (num_cols+1)`` dots.
Two players take turns drawing a line between two dots next to each other, across or
down. A player who draws the fourth side of a box (or of two boxes) takes it and must
move again; any other move passes the turn, so players do not simply alternate. When every
line is drawn the player with more boxes wins; equal counts are a draw. Player 0 (``X``)
moves first.

Dots and actions on the default 2x2 boxes (OpenSpiel's encoding: the horizontal lines
row-major, then the vertical lines row-major; dots are named by column letter and row
number, row 1 at the top)::

        a     b     c
    1   +--0--+--1--+          horizontal line (r, c) = r*C + c: dots (r, c) to (r, c+1)
        6     7     8          vertical line (r, c) = (R+1)*C + r*(C+1) + c:
    2   +--2--+--3--+                                 dots (r, c) to (r+1, c)
        9    10    11
    3   +--4--+--5--+          on R x C boxes: (R+1)*C + R*(C+1) actions

Names: the two dots a line joins, ``a1-b1`` (action 0) or ``c2-c3`` (action 11), in
either order; OpenSpiel's names (``P1(h,0,0)``, ``v,1,2``) read too.

Variants (OpenSpiel's parameters): ``num_rows`` and ``num_cols`` (1-20, default 2: boxes
down and across) and ``utility_margin`` (False; True: OpenSpiel's returns are the box
difference, player 0's boxes minus player 1's, rather than +1/-1/0: here that is
:meth:`DotsAndBoxes.utility`, while ``returns``, the envs' rewards and the searches stay
win, draw or loss, as every zerosum game's, the margin's sign).

State: ``[to_move, lines drawn, player 0's boxes, player 1's boxes, then one int64 word a
row of horizontal lines, of vertical lines, of player 0's boxes and of player 1's boxes]``
(see :mod:`zerosum.games.dots_and_boxes.rules`). Observation (num_rows+1, num_cols+1, 5),
one cell a dot: the line from it to the right, the line from it down, the box to its
lower right taken by the observer, taken by the opponent, and ones when the observer is
to move.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.dots_and_boxes import knowledge, rules
from zerosum.games.dots_and_boxes.rules import MAX_SIDE, S_DRAWN, S_SCORE0, S_SCORE1, S_TO_MOVE, S_WORDS
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal, forcing=knowledge.forcing)
"""The game's compiled rules (imported by name by the compiled searches)."""
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_MARKS = "XO"
_DOT = re.compile(r"([a-z])(\d+)")
_OPENSPIEL = re.compile(r"(?:p[12])?\(?([hv]),(\d+),(\d+)\)?")


class DotsAndBoxes(Game):
    """Dots and Boxes on ``num_rows`` x ``num_cols`` boxes."""

    name = "dots_and_boxes"
    """The registered name: ``make_game(name)``."""
    kernels = KERNELS
    """The compiled rules."""
    variants = (
        Variant("num_rows", int, 2, "rows of boxes", range=(1, MAX_SIDE)),
        Variant("num_cols", int, 2, "columns of boxes", range=(1, MAX_SIDE)),
        Variant("utility_margin", bool, False, "OpenSpiel's returns (utility()) are the box difference"),
    )
    """The rule variants, as keyword arguments (the page's variants table)."""
    heuristics = knowledge.HEURISTICS
    """The evaluations alpha-beta can use, by name."""
    default_heuristic = "chains"
    """The heuristic a search uses when none is named."""
    default_opponent = "alphabeta(time=0.1)"
    """The agent spec that plays this game best at about 0.1 s a move."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """One action a line; a game lasts one move a line."""
        rows, cols = variant["num_rows"], variant["num_cols"]
        params = rules.geometry(rows, cols, variant["utility_margin"])
        lines = params[rules.P_LINES]
        return Layout(params=params, initial=rules.initial(rows), num_actions=lines, max_moves=lines,
                      max_game_length=lines, observation_shape=(rows + 1, cols + 1, 5))

    @property
    def rows(self) -> int:
        """Rows of boxes."""
        return int(self.variant["num_rows"])

    @property
    def columns(self) -> int:
        """Columns of boxes."""
        return int(self.variant["num_cols"])

    @property
    def utility_margin(self) -> bool:
        """Whether OpenSpiel's returns (:meth:`utility`) are the box difference."""
        return bool(self.variant["utility_margin"])

    def utility(self, state: State) -> tuple[float, float]:
        """OpenSpiel's returns: with ``utility_margin``, player 0's boxes minus player 1's and
        its negation at the end (0, 0 before); without it, :meth:`returns`. zerosum's own
        returns, rewards and searches stay +1/-1/0 (win, draw, loss) either way: the margin's
        sign is the outcome."""
        if not self.utility_margin:
            return self.returns(state)
        s = self._plain(state)
        if self._status(self.params, s) == ONGOING:
            return 0.0, 0.0
        margin = float(s[S_SCORE0] - s[S_SCORE1])
        return margin, -margin

    def score(self, state: State) -> tuple[int, int]:
        """The boxes each player has taken."""
        s = self._plain(state)
        return int(s[S_SCORE0]), int(s[S_SCORE1])

    # ---- lines ------------------------------------------------------------------------
    def line(self, action: int) -> tuple[str, int, int]:
        """OpenSpiel's ``(orientation, row, column)`` of an action: ``("h", r, c)`` joins dot
        (r, c) to (r, c+1), ``("v", r, c)`` dot (r, c) to (r+1, c)."""
        a = check_action(action, self.num_actions)
        hlines = (self.rows + 1) * self.columns
        if a < hlines:
            return ("h", *divmod(a, self.columns))
        return ("v", *divmod(a - hlines, self.columns + 1))

    def _action(self, orientation: str, r: int, c: int) -> int | None:
        """The action of a line, None if there is no such line."""
        if orientation == "h" and 0 <= r <= self.rows and 0 <= c < self.columns:
            return r * self.columns + c
        if orientation == "v" and 0 <= r < self.rows and 0 <= c <= self.columns:
            return (self.rows + 1) * self.columns + r * (self.columns + 1) + c
        return None

    def drawn(self, state: State, action: int) -> bool:
        """Whether the line of ``action`` is drawn in ``state``."""
        orientation, r, c = self.line(action)
        s = self._plain(state)
        slot = S_WORDS + r if orientation == "h" else S_WORDS + self.rows + 1 + r
        return bool((int(s[slot]) >> c) & 1)

    def owner(self, state: State, r: int, c: int) -> int | None:
        """The player who took box (r, c), None while it is open."""
        s = self._plain(state)
        for p in (0, 1):
            if (int(s[S_WORDS + 2 * self.rows + 1 + p * self.rows + r]) >> c) & 1:
                return p
        return None

    # ---- text -------------------------------------------------------------------------
    @staticmethod
    def _dot(r: int, c: int) -> str:
        return f"{_LETTERS[c]}{r + 1}"

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The two dots the line joins, ``a1-b1`` (column letter, row number from 1 at the top)."""
        orientation, r, c = self.line(action)
        return f"{self._dot(r, c)}-{self._dot(r, c + 1) if orientation == 'h' else self._dot(r + 1, c)}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse two neighbouring dots (``a1-b1``, ``b1a1``, either order) or OpenSpiel's
        name (``P1(h,0,0)``, ``h,0,0``: orientation, row, column from 0)."""
        t = str(text).strip().lower().replace(" ", "")
        m = _OPENSPIEL.fullmatch(t)
        if m:
            a = self._action(m.group(1), int(m.group(2)), int(m.group(3)))
            if a is not None:
                return a
        dots = _DOT.findall(t.replace("-", ""))
        if len(dots) == 2 and "".join(x + y for x, y in dots) == t.replace("-", ""):
            (c0, r0), (c1, r1) = ((_LETTERS.index(x), int(y) - 1) for x, y in dots)
            (r0, c0), (r1, c1) = sorted([(r0, c0), (r1, c1)])
            a = self._action("h", r0, c0) if r0 == r1 and c1 == c0 + 1 else \
                self._action("v", r0, c0) if c0 == c1 and r1 == r0 + 1 else None
            if a is not None:
                return a
        raise IllegalActionError(f"cannot read move {text!r}: write the two neighbouring dots a line joins, e.g. "
                                 f"'a1-b1' (columns a-{_LETTERS[self.columns]}, rows 1-{self.rows + 1}), or "
                                 "OpenSpiel's 'h,0,0'")

    def illegal_reason(self, action: int, state: State) -> str:
        """The line is drawn already."""
        return f"{self.action_to_string(action)} is drawn already" if self.drawn(state, action) else ""

    def cells(self, state: State) -> list[str]:
        """The board as text rows, the top first: ``+`` dots, ``---`` and ``|`` lines, and the
        mark (``X`` player 0, ``O`` player 1) of who took each box."""
        s = self._plain(state)
        out = []
        for r in range(self.rows + 1):
            h = int(s[S_WORDS + r])
            out.append("+" + "+".join("---" if (h >> c) & 1 else "   " for c in range(self.columns)) + "+")
            if r < self.rows:
                v = int(s[S_WORDS + self.rows + 1 + r])
                row = ""
                for c in range(self.columns + 1):
                    row += "|" if (v >> c) & 1 else " "
                    if c < self.columns:
                        who = self.owner(s, r, c)
                        row += f" {_MARKS[who]} " if who is not None else "   "
                out.append(row)
        return out

    def render(self, state: State) -> str:
        """The dots with column letters above and row numbers at the left, the lines drawn,
        each box's taker, the score and who is to move (or the result)."""
        s = self._plain(state)
        width = len(str(self.rows + 1))
        lines = [" " * (width + 1) + "   ".join(_LETTERS[: self.columns + 1])]
        for i, row in enumerate(self.cells(s)):
            label = str(i // 2 + 1) if i % 2 == 0 else ""
            lines.append(f"{label:>{width}} {row}".rstrip())
        st = int(self._status(self.params, s))
        said = {ONGOING: f"{_MARKS[int(s[S_TO_MOVE])]} to move", DRAW: "draw", P0_WINS: "X wins",
                P1_WINS: "O wins"}[st]
        return "\n".join([*lines, f"{said} (boxes: X {int(s[S_SCORE0])}, O {int(s[S_SCORE1])})"])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "X") -> State:
        """A state from the rows :meth:`cells` gives (``+`` dots, ``---`` and ``|`` lines,
        ``X`` or ``O`` in a taken box) and the player to move (``X`` or ``O``).
        PositionError for rows that cannot be read, or a box with four sides and no taker
        (or a taker and a side missing); a box is named by its corners, ``a1-b2``."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        width = 4 * self.columns + 1
        grid = [str(r).rstrip().ljust(width) for r in rows]
        if to_move not in _MARKS:
            raise PositionError(f"to_move={to_move!r}: 'X' or 'O'")
        dot_rows = [g for i, g in enumerate(grid) if i % 2 == 0]
        box_rows = [g for i, g in enumerate(grid) if i % 2 == 1]
        ok = len(grid) == 2 * self.rows + 1 and all(len(g) == width for g in grid) \
            and all(g[0::4] == "+" * (self.columns + 1) for g in dot_rows) \
            and all(g[4 * c + 1: 4 * c + 4] in ("---", "   ") for g in dot_rows for c in range(self.columns)) \
            and all(g[0::4].replace("|", " ") == " " * (self.columns + 1) for g in box_rows) \
            and all(g[4 * c + 1: 4 * c + 4] in ("   ", " X ", " O ") for g in box_rows for c in range(self.columns))
        if not ok:
            raise PositionError(f"a {self.rows}x{self.columns} dots and boxes board is {2 * self.rows + 1} rows of "
                                f"{width} characters as cells() draws them ('+' dots, '---' and '|' lines, X or O in "
                                f"a taken box), the top first; got {board!r}")
        s = np.zeros(self.state_size, np.int64)
        s[S_TO_MOVE] = _MARKS.index(to_move)
        for r, g in enumerate(dot_rows):
            for c in range(self.columns):
                if g[4 * c + 1] == "-":
                    s[S_WORDS + r] |= 1 << c
        for r, g in enumerate(box_rows):
            for c in range(self.columns + 1):
                if g[4 * c] == "|":
                    s[S_WORDS + self.rows + 1 + r] |= 1 << c
        for r, g in enumerate(box_rows):
            for c in range(self.columns):
                mark = g[4 * c + 2]
                closed = rules.sides.py_func(self.params, s, r, c) == 4
                if closed != (mark in _MARKS):
                    raise PositionError(f"box {self._dot(r, c)}-{self._dot(r + 1, c + 1)} "
                                        + ("has four sides and no taker" if closed else
                                           f"has taker {mark} but not all four sides"))
                if closed:
                    p = _MARKS.index(mark)
                    s[S_WORDS + 2 * self.rows + 1 + p * self.rows + r] |= 1 << c
                    s[S_SCORE0 + p] += 1
        s[S_DRAWN] = sum(bin(int(w)).count("1") for w in s[S_WORDS: S_WORDS + 2 * self.rows + 1])
        return s


__all__ = ["KERNELS", "DotsAndBoxes"]
