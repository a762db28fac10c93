"""Pentago.

A 6x6 board made of four 3x3 quadrants. A move places a stone of the mover's colour on
an empty cell and then turns one quadrant 90 degrees, clockwise or anticlockwise. Five
in a row (row, column or diagonal: 32 lines in all) wins.

Board, cells and quadrants (cell = 6*row + col, row 1 at the top)::

         a  b  c    d  e  f
      1  0  1  2 |  3  4  5
      2  6  7  8 |  9 10 11        q0 top-left     q1 top-right
      3 12 13 14 | 15 16 17
        ---------+---------
      4 18 19 20 | 21 22 23        q3 bottom-left  q2 bottom-right
      5 24 25 26 | 27 28 29
      6 30 31 32 | 33 34 35

Actions (OpenSpiel's encoding, so the two can be compared move for move)::

    action = cell*8 + quadrant*2 + direction      (288 actions)
    quadrant: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
    direction: 0 anticlockwise, 1 clockwise

Readable names: ``c4 q2 cw`` = a stone on c4 (cell 20), then quadrant 2 clockwise
(action 165); ``ccw`` (or ``acw``) for anticlockwise. ``string_to_action`` also reads a
bare index (``"165"``), the compact ``c4q2cw`` and OpenSpiel's own names (``c4x``, the
eighth letter from ``s``: s..z = the 8 quadrant/direction pairs in action order).

Rule variants (``params = [win_before_rotation]``):

* ``win_before_rotation=True`` (default; the published rules and the solved game): a
  placement that makes five wins at once and no quadrant is turned. The 8 actions of
  that cell are then the same move; all 8 stay legal (OpenSpiel's action space), and a
  search sees 8 identical children. After a rotation, five for both sides is a draw and
  five for one side wins for that side, even when it is the opponent of the mover.
* ``win_before_rotation=False``: OpenSpiel's rule: always turn, then look for fives
  (same outcomes after the turn as above).

A full board with no five is a draw, so a game lasts at most 36 moves.

State vector (int64, length 4): ``[stones of player 0, stones of player 1, status,
player to move]``; the stone sets are bitboards with bit ``cell``; status is the
``Outcome`` code of the position, stored by ``apply`` so that the search reads it in one
load. Observation (6, 6, 3): the observer's stones, the opponent's, and a plane of ones
when the observer is to move.

Speed notes: a quadrant turn is one table lookup per bitboard (the quadrant's 9 bits
gathered into an index, the rotated bits read back in place); five in a row is four
shift-and chains, one per direction, over the whole board at once; the open-line
heuristic counts the stones of all 32 lines at once with bit-sliced adders over the
four directions packed into one 64-bit word, and popcounts.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, Outcome, PositionError, State, Variant,
    check_action,
)
from zerosum.games.kit.symmetry import square_symmetries
from zerosum.games.pentago import knowledge, rules
from zerosum.games.pentago.rules import has_five
from zerosum.games.pentago.tables import CELLS, FULL, NUM_ACTIONS, S_STATUS, S_TO_MOVE, SIZE, STATE_SIZE

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal, forcing=knowledge.forcing,
                  distinct=rules.distinct)

_COLS = "abcdef"
_DIRECTIONS = {"cw": 1, "clockwise": 1, "ccw": 0, "acw": 0, "anticlockwise": 0,
               "counterclockwise": 0, "anti-clockwise": 0, "counter-clockwise": 0}
_LONG = re.compile(r"^([a-f])([1-6])[\s,;/-]*q?([0-3])[\s,;/-]*([a-z-]+)$")
_OPENSPIEL = re.compile(r"^([a-f])([1-6])([s-z])$")
_CELL = re.compile(r"^([a-f])([1-6])$")
_FORMS = ("'c4 q2 cw' (cell a1-f6, quadrant q0 top-left, q1 top-right, q2 bottom-right, "
          "q3 bottom-left, then cw or ccw), 'c4q2ccw', OpenSpiel's 'c4x', an index 0-287, "
          "or a bare cell 'c4' for a placement that wins before any rotation")


def cell_name(cell: int) -> str:
    """``a1`` .. ``f6`` (column letter, row number from the top)."""
    return f"{_COLS[cell % SIZE]}{cell // SIZE + 1}"


def _cell_of(column: str, row: str) -> int:
    return _COLS.index(column) + SIZE * (int(row) - 1)


class Pentago(Game):
    """Pentago on the 6x6 board of four turning quadrants (see the module docstring)."""

    name = "pentago"
    kernels = KERNELS
    variants = (
        Variant("win_before_rotation", bool, True,
                "a placement that makes five wins at once, before the turn (the published rules); "
                "False: always turn, then look for fives (OpenSpiel's rule)"),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "threats"  # beat open_lines at 0.05 s a move: see knowledge.py
    # quiescence=on measured weaker at 0.05 s a move (bench/vs_release.py against 0.1.0, 200 games: 0.59 with it,
    # 0.66 without): the threats heuristic already sees a win on the move and a double threat; the forcing moves
    # are many whenever a four is on the board
    quiescence = False
    value_scale = 60.0  # measured: the median |value| of depth-3 labels (threats) is ~40

    def board_symmetries(self) -> tuple[np.ndarray, np.ndarray]:
        """The 8 symmetries of the square. A turn of the board carries a quadrant to another and keeps
        the sense of its turn; a reflection (4-7) reverses it: clockwise becomes anticlockwise."""
        cells = square_symmetries(SIZE)
        quadrant_at = {(0, 0): 0, (0, 1): 1, (1, 1): 2, (1, 0): 3}
        centres = (7, 10, 28, 25)  # the centre cell of quadrants 0..3
        a = np.arange(NUM_ACTIONS)
        cell, quadrant, sense = a // 8, a // 2 % 4, a % 2
        actions = []
        for k, image in enumerate(cells):
            moved = np.array([quadrant_at[int(image[c]) // SIZE // 3, int(image[c]) % SIZE // 3] for c in centres])
            actions.append(image[cell] * 8 + moved[quadrant] * 2 + (1 - sense if k >= 4 else sense))
        return cells, np.stack(actions)

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Fixed sizes: 288 actions, games of at most 36 moves; params ``[win_before_rotation]``."""
        return Layout(params=[int(variant["win_before_rotation"])], initial=np.zeros(STATE_SIZE, np.int64),
                      num_actions=NUM_ACTIONS, max_moves=NUM_ACTIONS, max_game_length=CELLS,
                      observation_shape=(SIZE, SIZE, 3))

    # ---- states ----------------------------------------------------------------------------
    def position(self, rows: list[str] | str, to_move: int | None = None) -> State:
        """A position from six rows of ``X`` (player 0), ``O`` (player 1) and ``.``.

        The player to move defaults to the one the stone count implies (player 0 when
        the counts are equal); the status is computed as if the last move was a turn.
        Raises PositionError for a board that is not 36 cells or a bad ``to_move``.
        """
        if isinstance(rows, str):
            rows = [r for r in rows.split("\n") if r.strip()]
        text = "".join(ch for row in rows for ch in str(row) if ch in "XO.xo")
        if len(text) != CELLS:
            raise PositionError(f"a pentago board is 36 cells of X, O or '.'; got {len(text)} cells")
        b = [0, 0]
        for c, ch in enumerate(text.upper()):
            if ch != ".":
                b["XO".index(ch)] |= 1 << c
        n0, n1 = b[0].bit_count(), b[1].bit_count()
        if to_move is None:
            to_move = 0 if n0 == n1 else 1
        if to_move not in (0, 1):
            raise PositionError(f"to_move must be 0 or 1; got {to_move!r}")
        w0, w1 = bool(has_five(b[0])), bool(has_five(b[1]))
        if w0 and w1:
            status = DRAW
        elif w0 or w1:
            status = P0_WINS if w0 else P0_WINS + 1
        elif b[0] | b[1] == FULL:
            status = DRAW
        else:
            status = ONGOING
        return np.array([b[0], b[1], status, to_move], dtype=np.int64)

    # ---- text ------------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``c4 q2 cw`` style: cell, quadrant, cw (clockwise) or ccw (anticlockwise)."""
        a = check_action(action, NUM_ACTIONS)
        return f"{cell_name(a >> 3)} q{(a >> 1) & 3} {'cw' if a & 1 else 'ccw'}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``c4 q2 cw`` and the other forms named in the module docstring.

        A bare cell (``c4``) is accepted only with a ``state`` in which placing there
        wins before any rotation; it names the first of that cell's 8 equal actions.
        """
        t = " ".join(str(text).strip().lower().split())
        if t.isdigit():
            a = int(t)
            if a < NUM_ACTIONS:
                return a
            raise IllegalActionError(f"action {a} is out of range: actions are ints in [0, {NUM_ACTIONS})")
        m = _LONG.match(t)
        if m and m.group(4) in _DIRECTIONS:
            return 8 * _cell_of(m.group(1), m.group(2)) + 2 * int(m.group(3)) + _DIRECTIONS[m.group(4)]
        m = _OPENSPIEL.match(t)
        if m:
            return 8 * _cell_of(m.group(1), m.group(2)) + ord(m.group(3)) - ord("s")
        m = _CELL.match(t)
        if m and state is not None:
            s = self._plain(state)
            cell = _cell_of(m.group(1), m.group(2))
            p = int(s[S_TO_MOVE])
            occupied = (int(s[0]) | int(s[1])) >> cell & 1
            if (self.variant["win_before_rotation"] and not occupied and s[S_STATUS] == ONGOING
                    and has_five(int(s[p]) | (1 << cell))):
                return 8 * cell
            raise IllegalActionError(
                f"{text!r} names a cell without a rotation, which is only a move when placing there "
                f"wins at once (win_before_rotation=True); write e.g. '{t} q0 cw'")
        raise IllegalActionError(f"cannot read move {text!r}: write {_FORMS}")

    def illegal_reason(self, action: int, state: State) -> str:
        """The one reason a move of an unfinished game is illegal: its cell is occupied."""
        return f"{cell_name(int(action) >> 3)} is occupied"

    def render(self, state: State) -> str:
        """The board with coordinates and quadrant borders; X is player 0, O player 1."""
        s = self._plain(state)
        marks = ["X" if (int(s[0]) >> c) & 1 else "O" if (int(s[1]) >> c) & 1 else "." for c in range(CELLS)]
        lines = ["    a b c   d e f"]
        for r in range(SIZE):
            row = marks[SIZE * r:SIZE * r + SIZE]
            lines.append(f" {r + 1}  {' '.join(row[:3])} | {' '.join(row[3:])}")
            if r == 2:
                lines.append("    ------+------")
        outcome = Outcome(int(s[S_STATUS]))
        if outcome == Outcome.ONGOING:
            lines.append(f"{'XO'[int(s[S_TO_MOVE])]} to move  (q0 q1 / q3 q2)")
        elif outcome.winner is None:
            lines.append("draw")
        else:
            lines.append(f"{'XO'[outcome.winner]} wins")
        return "\n".join(lines)
