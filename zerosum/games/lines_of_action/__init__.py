"""Lines of Action (Claude Soucie; Sid Sackson, "A Gamut of Games", 1969), as OpenSpiel's
``lines_of_action``.

Each side has 12 pieces: black (``x``, player 0, moving first) on b1-g1 and b8-g8, white
(``o``) on a2-a7 and h2-h7. A piece moves in a straight line (along a row, a column or a
diagonal) exactly as many squares as there are pieces, of both colours, on that whole
line; it may jump over its own pieces but not over the opponent's, and it lands on an
empty square or takes the opponent's piece there. A player whose pieces form one group
(touching by side or corner) wins; a move that connects both sides wins for the mover.
A player with no legal move loses. As OpenSpiel, a board (the pieces only, not who is to
move) that has been seen before ends the game in a draw, and so does the
``max_game_length``-th move (default 1,000), even one that connects.

Board and actions (OpenSpiel's encoding, so a policy or a game record moves between the
two; rows count from rank 1)::

       a b c d e f g h
    8  . x x x x x x .     row 7
    7  o . . . . . . o
    6  o . . . . . . o
    5  o . . . . . . o
    4  o . . . . . . o
    3  o . . . . . . o
    2  o . . . . . . o
    1  . x x x x x x .     row 0: square = row*8 + column, a1 = 0, h1 = 7, a8 = 56

    action = (from*64 + to)*2 + capture          (8,192 actions; capture 1 when a piece is taken)

    b1-h1 = (1*64 + 7)*2 = 142; c1xa3 = (2*64 + 16)*2 + 1 = 289

Names as OpenSpiel writes them: the square left, ``-`` (a move) or ``x`` (a capture), the
square reached: ``b1-h1``, ``c1xa3``; ``b1h1`` (the capture read from the board) and the
action number are read as well.

Variants (as OpenSpiel's ``lines_of_action``): ``max_game_length`` (1-10,000, default
1,000), the move that ends the game in a draw. State: the two boards, the player to move,
the moves played, the result, and the moves since the last capture (what a repetition
needs; see :mod:`zerosum.games.lines_of_action.rules`). Observation (8, 8, 3), row 0 the
top row (rank 8): the observer's pieces, the opponent's, all ones when the observer is to
move.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
)
from zerosum.games.lines_of_action import knowledge, rules
from zerosum.games.lines_of_action.rules import (
    MAX_MOVES, NUM_ACTIONS, S_BLACK, S_MOVES, S_RESULT, S_TO_MOVE, S_WHITE, SQUARES, geometry, history_words,
    starting_state,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_FILES = "abcdefgh"
_SIDES = ("black", "white")
_MARKS = "xo"
_MOVE = re.compile(r"^([a-h])([1-8])\s*([-x:]?)\s*([a-h])([1-8])$")


class LinesOfAction(Game):
    """Lines of Action on the 8x8 board."""

    name = "lines_of_action"
    kernels = KERNELS
    variants = (
        Variant("max_game_length", int, 1000, "the move that ends the game in a draw", range=(1, 10_000)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "combined"
    # Against OpenSpiel's MCTSBot(1000) (bench/lines_of_action.py; 2026-11-29, load 7-9 on 2 cores): 100 wins in
    # 100 games, seats alternating from paired 4-ply openings, 0.08 s a move
    default_opponent = "alphabeta(time=0.1)"
    sgf_game = 9  # SGF's number for Lines of Action: its records are kept as SGF, moves as OpenSpiel's names

    def layout(self, variant: dict[str, Any]) -> Layout:
        """8,192 actions (OpenSpiel's), at most 96 legal (12 pieces, 8 directions)."""
        cap = variant["max_game_length"]
        return Layout(params=geometry(cap), initial=starting_state(cap), num_actions=NUM_ACTIONS,
                      max_moves=MAX_MOVES, max_game_length=cap, observation_shape=(8, 8, 3))

    @property
    def history_words(self) -> int:
        """The words a state keeps for the moves since the last capture."""
        return history_words(int(self.variant["max_game_length"]))

    # ---- text -------------------------------------------------------------------------
    @staticmethod
    def _square(sq: int) -> str:
        """``a1`` for square 0, ``h8`` for 63."""
        return f"{_FILES[sq % 8]}{sq // 8 + 1}"

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """OpenSpiel's name: ``b1-h1`` (a move), ``c1xa3`` (a capture)."""
        a = check_action(action, self.num_actions)
        return f"{self._square(a // 128)}{'x' if a % 2 else '-'}{self._square((a // 2) % 64)}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``b1-h1``, ``c1xa3``, ``b1h1`` (a capture when ``state`` has an opponent's
        piece there) or an action number."""
        t = str(text).strip().lower()
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        m = _MOVE.match(t)
        if m:
            frm = (int(m[2]) - 1) * 8 + _FILES.index(m[1])
            to = (int(m[5]) - 1) * 8 + _FILES.index(m[4])
            if m[3] == "x":
                capture = 1
            elif m[3] == "" and state is not None:
                s = self._plain(state)
                capture = 1 if (int(s[1 - int(s[S_TO_MOVE])]) >> to) & 1 else 0
            else:
                capture = 0
            return (frm * SQUARES + to) * 2 + capture
        raise IllegalActionError(
            f"cannot read move {text!r}: write the square a piece leaves and the square it reaches, 'b1-h1', or "
            "'c1xa3' for a capture (columns a-h, rows 1-8)")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        s = self._plain(state)
        p = int(s[S_TO_MOVE])
        mine, theirs = int(s[p]), int(s[1 - p])
        frm, to, capture = action // 128, (action // 2) % 64, action % 2
        name = f"{self._square(frm)}{'x' if capture else '-'}{self._square(to)}"
        if not (mine >> frm) & 1:
            return f"no {_SIDES[p]} piece on {self._square(frm)}"
        if (mine >> to) & 1:
            return f"{self._square(to)} holds a {_SIDES[p]} piece"
        dr, dc = to // 8 - frm // 8, to % 8 - frm % 8
        if frm == to or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            return f"{name} is not along a row, a column or a diagonal"
        step = (int(np.sign(dr)), int(np.sign(dc)))
        line = (0 if dc == 0 else 2 if dr == 0 else 1 if step[0] == step[1] else 3)
        pieces = bin(int(self.params[rules.P_LINES + 4 * frm + line]) & ((mine | theirs) & ((1 << 64) - 1))).count("1")
        if max(abs(dr), abs(dc)) != pieces:
            return (f"{name} goes {max(abs(dr), abs(dc))} squares, and a piece moves exactly as many squares as its "
                    f"line holds pieces: {pieces} here")
        for i in range(1, pieces):
            sq = frm + i * (8 * step[0] + step[1])
            if (theirs >> sq) & 1:
                return (f"{name} jumps over the {_SIDES[1 - p]} piece on {self._square(sq)}: a piece may jump only "
                        "its own")
        if capture != (theirs >> to) & 1:
            return (f"{self._square(to)} holds a {_SIDES[1 - p]} piece: write {name.replace('-', 'x')}" if not capture
                    else f"{self._square(to)} is empty: write {name.replace('x', '-')}")
        return "the game is over"

    def position_bytes(self, state: State) -> bytes:
        """The part of the state the key covers: the boards, the mover and the result."""
        return self._plain(state)[[S_BLACK, S_WHITE, S_TO_MOVE, S_RESULT]].tobytes()

    def result_reason(self, state: State) -> str:
        """How the game ended: 'one group', 'no legal move', 'a repeated board' or the length limit."""
        s = self._plain(state)
        st = self.outcome(s)
        if st == ONGOING:
            return ""
        if int(s[S_RESULT]) == ONGOING:
            return f"{_SIDES[int(s[S_TO_MOVE])]} has no legal move"
        if st == DRAW:
            if int(s[S_MOVES]) >= self.max_game_length:
                return f"the {self.max_game_length}-move limit"
            return "a repeated board"
        return f"{_SIDES[0 if st == P0_WINS else 1]}'s pieces form one group"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``x`` (black), ``o`` (white) and ``.``, rank 8 first, as
        OpenSpiel draws it."""
        s = self._plain(state)
        b, w = int(s[S_BLACK]) & ((1 << 64) - 1), int(s[S_WHITE]) & ((1 << 64) - 1)
        return ["".join("x" if (b >> sq) & 1 else "o" if (w >> sq) & 1 else "."
                        for sq in range(r * 8, r * 8 + 8)) for r in range(7, -1, -1)]

    def render(self, state: State) -> str:
        """The board with ranks on the left and column letters below, and who is to move
        (or how the game ended); ``x`` is player 0 (black), ``o`` player 1 (white)."""
        s = self._plain(state)
        lines = [f"{8 - r}  " + " ".join(row) for r, row in enumerate(self.cells(s))]
        lines.append("   " + " ".join(_FILES))
        st = self.outcome(s)
        mover = int(s[S_TO_MOVE])
        if st == ONGOING:
            said = f"{_SIDES[mover]} ({_MARKS[mover]}) to move"
        elif st == DRAW:
            said = f"draw: {self.result_reason(s)}"
        else:
            said = f"{_SIDES[0 if st == P0_WINS else 1]} wins: {self.result_reason(s)}"
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "black") -> State:
        """A state from 8 rows of ``x`` (black, player 0), ``o`` (white) and ``.``, rank 8
        first as :meth:`cells` gives them (rank labels and spaces are ignored), and the side
        to move; no moves played and no history. PositionError for a board of the wrong
        size or with other marks."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = [re.sub(r"[\s\d]", "", str(row)).lower() for row in rows]
        if len(grid) != 8 or any(len(g) != 8 or set(g) - set("xo.") for g in grid):
            raise PositionError(f"a lines of action board is 8 rows of 8 cells of x, o or '.', rank 8 first; "
                                f"got {board!r}")
        if to_move not in _SIDES:
            raise PositionError(f"to_move={to_move!r}: 'black' or 'white'")
        bits = [0, 0]
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != ".":
                    bits[_MARKS.index(ch)] |= 1 << ((7 - r) * 8 + c)
        if 0 in bits:
            raise PositionError("each side needs a piece at least")
        s = list(starting_state(self.max_game_length))
        s[S_BLACK], s[S_WHITE], s[S_TO_MOVE] = bits[0], bits[1], _SIDES.index(to_move)
        return self._plain(s)
