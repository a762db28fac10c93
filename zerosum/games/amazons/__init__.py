"""The Game of the Amazons (Walter Zamkauskas, 1988), as OpenSpiel's ``amazons``.

Each side has four queens (amazons). A move has two parts: one of one's queens moves like
a chess queen (any distance along a row, column or diagonal over empty cells), then,
from where it lands, shoots an arrow the same way (through or onto the square it left);
the arrow stays for the rest of the game. A player who cannot move loses, so there are no
draws. Player 0 (``X``) moves first. As OpenSpiel, a move is three actions of the same
player: the queen (one with an empty cell next to it), its destination, the arrow.

Board and actions (default 10x10; OpenSpiel's encoding and starting squares, so a policy
or a game record moves between the two)::

        a b c d e f g h i j
    10  . . . O . . O . . .     row 0 (OpenSpiel's rows count from the top)
     9  . . . . . . . . . .
     8  . . . . . . . . . .
     7  O . . . . . . . . O     row 3: a7 = 30, j7 = 39
     6  . . . . . . . . . .
     5  . . . . . . . . . .
     4  X . . . . . . . . X     row 6: a4 = 60, j4 = 69
     3  . . . . . . . . . .
     2  . . . . . . . . . .
     1  . . . X . . X . . .     row 9: d1 = 93, g1 = 96

    action = row*size + column      (100 actions on 10x10), in each of the three phases:
    1. the queen to move: d1 = 93;  2. its destination: d7 = 33;  3. the arrow: g7 = 36

Names: OpenSpiel's, which say the phase (``X From (10, 4)``, ``X To (4, 4)``,
``X Shoot: (4, 7)``: row and column counted from 1 at the top left); players write the
square, ``d1``, ``d7``, ``g7``, or a whole move ``d1-d7/g7`` (three actions). The
square names, ``(10, 4)`` and action numbers are read as well.

Variants (as OpenSpiel's ``amazons``): ``board_size`` 10 (default), 8 or 6, the sizes
OpenSpiel has starting squares for (8x8: c8, f8, a6, h6 against a3, h3, c1, f1; 6x6: b6,
e6, a5, f5 against a2, f2, b1, e1). State: the player to move, the phase, the lifted and
the moved queen's squares, the cells (see :mod:`zerosum.games.amazons.rules`).
Observation (size, size, 6), row 0 the top row: the observer's queens, the opponent's,
arrows, the lifted queen's square (phase 2), the queen about to shoot (phase 3), all ones
when the observer is to move.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from zerosum.games.amazons import knowledge, rules
from zerosum.games.amazons.rules import (
    EMPTY, MOVE, NUM_PLANES, S_CELLS, S_FROM, S_PHASE, S_TO, S_TO_MOVE, SELECT, max_reach, starting_state,
)
from zerosum.games.kit import (
    ONGOING, P0_WINS, Action, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_LETTERS = "abcdefghij"
_MARKS = "XO"
_CELL_MARKS = ".XO#"
_PHASE_WORDS = (" From ", " To ", " Shoot: ")
_SQUARE = re.compile(r"^([a-j])(\d{1,2})$")
_PAIR = re.compile(r"^\(?\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)?$")
_OPENSPIEL = re.compile(r"^[xo]\s+(from|to|shoot:)\s*(\(.*\))$")
_WHOLE = re.compile(r"^([a-j]\d{1,2})\s*[-x ]?\s*([a-j]\d{1,2})\s*[/ ,]?\s*([a-j]\d{1,2})$")


class Amazons(Game):
    """The Game of the Amazons on a ``board_size`` x ``board_size`` board."""

    name = "amazons"
    kernels = KERNELS
    variants = (
        Variant("board_size", int, 10, "the board's side (OpenSpiel has starting squares for 6, 8 and 10)",
                choices=(6, 8, 10)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "territory"
    # Against OpenSpiel's MCTSBot(1000) (bench/amazons.py; 2026-11-29, load 7-9 on 2 cores): 100 wins in 100
    # games, seats alternating from paired 4-action openings, 0.10 s an action
    default_opponent = "alphabeta(time=0.1)"
    sgf_game = 18  # SGF's number for Amazons: records are kept as SGF, each action a node with its square

    def layout(self, variant: dict[str, Any]) -> Layout:
        """One action a cell; OpenSpiel's bound on the game's length, three actions a cell."""
        size = variant["board_size"]
        return Layout(params=[size], initial=starting_state(size), num_actions=size * size,
                      max_moves=max(4, max_reach(size)), max_game_length=3 * size * size,
                      observation_shape=(size, size, NUM_PLANES))

    @property
    def size(self) -> int:
        """The board's side."""
        return int(self.variant["board_size"])

    # ---- text -------------------------------------------------------------------------
    def square_name(self, sq: int) -> str:
        """``a10`` for cell 0 on 10x10: the column letter and the rank counted from 1 at the bottom."""
        return f"{_LETTERS[sq % self.size]}{self.size - sq // self.size}"

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """OpenSpiel's name with a state (``X From (10, 4)``, ``X To (4, 4)``, ``X Shoot: (4, 7)``:
        the mover, the phase, the row and column from 1 at the top left); the square (``d1``)
        without one."""
        a = check_action(action, self.num_actions)
        if state is None:
            return self.square_name(a)
        s = self._plain(state)
        r, c = divmod(a, self.size)
        return f"{_MARKS[int(s[S_TO_MOVE])]}{_PHASE_WORDS[int(s[S_PHASE])]}({r + 1}, {c + 1})"

    def move_name(self, action: Action, state: State) -> str:
        """The square, as players write each part of a move: ``d1``, then ``d7``, then ``g7``."""
        return self.square_name(check_action(action, self.num_actions))

    def sgf_move(self, action: Action, state: State) -> str:
        """The square (``d1``): each of a move's three actions is one SGF node."""
        return self.square_name(check_action(action, self.num_actions))

    def sgf_root(self) -> dict[str, str | list[str]]:
        """``SZ``: the board's side."""
        return {"SZ": str(self.size)}

    @classmethod
    def sgf_variant(cls, root: Mapping[str, str]) -> dict[str, Any]:
        """``board_size`` from ``SZ``."""
        return {"board_size": int(root["SZ"])} if str(root.get("SZ", "")).isdigit() else {}

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a square (``d1``), OpenSpiel's name or its ``(row, column)``, or an action number."""
        t = str(text).strip().lower()
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        m = _OPENSPIEL.match(t)
        if m:
            t = m[2]
        m = _SQUARE.match(t)
        if m and _LETTERS.index(m[1]) < self.size and 1 <= int(m[2]) <= self.size:
            return (self.size - int(m[2])) * self.size + _LETTERS.index(m[1])
        m = _PAIR.match(t)
        if m and 1 <= int(m[1]) <= self.size and 1 <= int(m[2]) <= self.size:
            return (int(m[1]) - 1) * self.size + int(m[2]) - 1
        raise IllegalActionError(
            f"cannot read {text!r}: write a square, 'd1' (columns a-{_LETTERS[self.size - 1]}, rows 1-{self.size}), "
            f"for the queen, then its destination, then the arrow; or a whole move, 'd1-d7/g7'")

    def string_to_actions(self, text: str, state: State | None = None) -> list[Action]:
        """A whole move typed at once (``d1-d7/g7``, ``d1 d7 g7``): the queen, its destination
        and the arrow; anything else is :meth:`string_to_action`'s one action."""
        m = _WHOLE.match(str(text).strip().lower())
        if m:
            return [self.string_to_action(m[i], state) for i in (1, 2, 3)]
        return [self.string_to_action(text, state)]

    def illegal_reason(self, action: Action, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        s = self._plain(state)
        p, phase = int(s[S_TO_MOVE]), int(s[S_PHASE])
        a = int(action)
        cell = int(s[S_CELLS + a])
        if phase == SELECT:
            if cell != 1 + p:
                return f"no {_MARKS[p]} queen on {self.square_name(a)}: pick one of your queens"
            return (f"the {_MARKS[p]} queen on {self.square_name(a)} is blocked: no empty cell next to it, so it "
                    "cannot move")
        frm = int(s[S_FROM] if phase == MOVE else s[S_TO])
        what = "the queen" if phase == MOVE else "the arrow"
        where = f"{what} from {self.square_name(frm)} cannot reach {self.square_name(a)}"
        if cell != EMPTY:
            return f"{where}: it is not empty"
        dr, dc = a // self.size - frm // self.size, a % self.size - frm % self.size
        if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            return f"{where}: it is not along a row, a column or a diagonal"
        step = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
        for i in range(1, max(abs(dr), abs(dc))):
            sq = frm + i * (step[0] * self.size + step[1])
            if int(s[S_CELLS + sq]) != EMPTY:
                return f"{where}: {self.square_name(sq)} is in the way"
        return "the game is over"

    def result_reason(self, state: State) -> str:
        """How the game ended: the loser had no queen that could move."""
        s = self._plain(state)
        if self.outcome(s) == ONGOING:
            return ""
        return f"{_MARKS[int(s[S_TO_MOVE])]} has no queen that can move"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``X``, ``O``, ``#`` (arrows) and ``.``, the top row first, as
        OpenSpiel draws it (a queen lifted to move is not on the board)."""
        s = self._plain(state)
        n = self.size
        return ["".join(_CELL_MARKS[int(s[S_CELLS + r * n + c])] for c in range(n)) for r in range(n)]

    def render(self, state: State) -> str:
        """The board with ranks and column letters, and what the player to move does next
        (or who won)."""
        s = self._plain(state)
        n = self.size
        width = len(str(n))
        lines = [f"{n - r:>{width}}  " + " ".join(row) for r, row in enumerate(self.cells(s))]
        lines.append(" " * (width + 2) + " ".join(_LETTERS[:n]))
        st = self.outcome(s)
        p, phase = int(s[S_TO_MOVE]), int(s[S_PHASE])
        if st != ONGOING:
            said = f"{_MARKS[0 if st == P0_WINS else 1]} wins: {self.result_reason(s)}"
        elif phase == SELECT:
            said = f"{_MARKS[p]} to move: pick a queen"
        elif phase == MOVE:
            said = f"{_MARKS[p]} to move the queen from {self.square_name(int(s[S_FROM]))}"
        else:
            said = f"{_MARKS[p]} to shoot an arrow from {self.square_name(int(s[S_TO]))}"
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "X") -> State:
        """A state from ``size`` rows of ``X`` (player 0), ``O``, ``#`` (arrows) and ``.``, the
        top row first as :meth:`cells` gives them (rank labels and spaces are ignored), the
        side to move (``"X"`` or ``"O"``) to pick a queen. PositionError for a board of the
        wrong size or with other marks."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = [re.sub(r"[\s\d]", "", str(row)).upper() for row in rows]
        n = self.size
        if len(grid) != n or any(len(g) != n or set(g) - set(_CELL_MARKS) for g in grid):
            raise PositionError(f"a {n}x{n} amazons board is {n} rows of {n} cells of X, O, # or '.', top row "
                                f"first; got {board!r}")
        if str(to_move).upper() not in _MARKS:
            raise PositionError(f"to_move={to_move!r}: 'X' or 'O'")
        cells = [_CELL_MARKS.index(ch) for row in grid for ch in row]
        return self._plain([_MARKS.index(str(to_move).upper()), SELECT, 0, 0, *cells])

