"""Checkers (English draughts), move for move as OpenSpiel's ``checkers``.

**Rules.** The 8x8 board's dark squares (``a1`` is dark) hold 12 men a side: white (``o``,
player 0) on the bottom three rows, moving first and up the board; black (``+``, player 1)
on the top three rows, moving down. A man steps one square diagonally forward onto an empty
square, or jumps diagonally forward over an opponent's piece onto the empty square beyond,
removing it. A man reaching the far row is crowned a king (``8`` white, ``*`` black), which
steps and jumps in all four diagonal directions. Captures are forced: when a jump is
possible, only jumps are legal (any of them: there is no rule to take the most). A
*multi-jump* is a sequence of actions by the same player: after a jump, while the piece
that jumped can jump again, the same player moves again and only that piece's jumps are
legal (OpenSpiel's encoding; the player to move is always asked, never assumed to
alternate). A jump that crowns a man ends the move. A player with no legal move (no piece
left, or every piece blocked) loses. After 40 plies in a row without a capture (any step,
by a man or a king, counts) the game is drawn.

Board and actions (default 8x8; squares numbered as OpenSpiel, row 0 at the top)::

      a  b  c  d  e  f  g  h
    8 .  +  .  +  .  +  .  +      row 0     black's men (player 1)
    7 +  .  +  .  +  .  +  .      row 1
    6 .  +  .  +  .  +  .  +      row 2
    5 .  .  .  .  .  .  .  .      row 3
    4 .  .  .  .  .  .  .  .      row 4
    3 o  .  o  .  o  .  o  .      row 5     white's men (player 0), moving first, up
    2 .  o  .  o  .  o  .  o      row 6
    1 o  .  o  .  o  .  o  .      row 7

    square = row * columns + column
    action = (square * 4 + direction) * 2 + kind     (rows * columns * 8 actions: 512)
    direction: 0 up-left, 1 up-right, 2 down-right, 3 down-left;  kind: 0 step, 1 jump

So white's opening ``c3d4`` is square 42 (row 5, column 2), direction 1, a step: action
``(42*4 + 1)*2 = 338``. Readable names are OpenSpiel's: the square a piece leaves and the
square it lands on, ``c3d4`` for a step and ``c3e5`` for a jump. The standard checkers
numbering is read too, ``11-15`` for a step and ``11x18`` for a jump (one jump of a
multi-jump at a time): the dark squares are numbered from 1 on the first mover's side, as
the first mover (standard checkers' Black) counts them, so white's 12 men start on 1-12 and
``11-15`` is ``c3d4``::

       h   g   f   e   d   c   b   a          (white's side seen from black's)
      ...
    rank 3:  9 (g3)  10 (e3)  11 (c3)  12 (a3)
    rank 2:  5 (h2)   6 (f2)   7 (d2)   8 (b2)
    rank 1:  1 (g1)   2 (e1)   3 (c1)   4 (a1)

**Variants** (as OpenSpiel's ``checkers``): ``rows`` (7-16, default 8) and ``columns``
(4-16, default 8), with ``columns <= rows``. Each side starts on the dark squares of its
three home rows. OpenSpiel stores the square of a multi-jumping piece as ``row * rows +
column``, which names another square when ``columns > rows`` (and its ``LegalActions`` then
fails), and on 6 rows the men start face to face with no move, so those boards are refused.

**State** (``int64[5 + rows * columns]``): ``[to_move, jump, quiet, status, board_hash,
cells...]``, see :mod:`zerosum.games.checkers.rules`. **Observation** ``(rows, columns, 7)``
int8 from the observer's side (black sees the board turned round): own men, own kings,
the opponent's men, the opponent's kings, all ones when the observer is to move, the piece
that must jump again, and the plies without a capture as a fraction of 40 (ones in the
first ``rows * columns * quiet // 40`` cells, row-major in the observer's view).

**Heuristics**: ``material``, ``kings``, ``back_rank``, ``mobility``
(:mod:`zerosum.games.checkers.knowledge`).
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import numpy as np

from zerosum.games.checkers import knowledge, rules
from zerosum.games.checkers.rules import (
    DIR_COLS, DIR_ROWS, EMPTY, JUMP, KING0, KING1, MAN0, MAN1, S_CELLS, S_JUMP, S_QUIET, S_STATUS, S_TO_MOVE, STEP,
)
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, Action, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action, check_variant,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal, forcing=knowledge.forcing)
"""The game's compiled rules (imported by name by the compiled searches)."""
QUIET_LIMIT = 40
"""OpenSpiel's kMaxMovesWithoutCapture: plies without a capture that draw the game."""
SYMBOLS = {EMPTY: ".", MAN0: "o", KING0: "8", MAN1: "+", KING1: "*"}
_PIECES = {ch: piece for piece, ch in SYMBOLS.items()}
_LETTERS = "abcdefghijklmnop"
_COORDS = re.compile(r"^([a-p])(\d{1,2})\s*[-x:]?\s*([a-p])(\d{1,2})$")
_NUMBERS = re.compile(r"^(\d{1,3})\s*([-x:])\s*(\d{1,3})$")
_CHAIN_NUMBERS = re.compile(r"^\d{1,3}(\s*x\s*\d{1,3}){2,}$")
"""A multi-jump typed whole in the standard numbering: ``21x14x7``."""
_CHAIN_COORDS = re.compile(r"^([a-p]\d{1,2}\s*[-x:]?\s*){2,}[a-p]\d{1,2}$")
"""A multi-jump typed whole as the squares it visits: ``a3c5e7``, ``a3xc5xe7``."""
_SIDES = ("white", "black")


def _pieces(rows: int, columns: int) -> tuple[int, int]:
    """The men white and black start with."""
    dark = [sum((r + c) % 2 == 1 for c in range(columns)) for r in range(rows)]
    return sum(dark[rows - 3:]), sum(dark[:3])


class Checkers(Game):
    """English draughts on ``rows`` x ``columns`` squares, as OpenSpiel's ``checkers``."""

    name = "checkers"
    """The registered name: ``make_game(name)``."""
    kernels = KERNELS
    """The compiled rules."""
    variants = (
        Variant("rows", int, 8, "rows of the board", range=(7, 16)),
        Variant("columns", int, 8, "columns of the board (at most rows)", range=(4, 16)),
    )
    """The rule variants, as keyword arguments (the page's variants table)."""
    heuristics = knowledge.HEURISTICS
    """The evaluations alpha-beta can use, by name."""
    default_heuristic = "mobility"
    """The heuristic a search uses when none is named."""
    # mobility with quiescence on jumps. Quick matches at 0.1 s a move, 16 games from 4 random plies (zerosum
    # match "alphabeta(time=0.1)" SPEC --game checkers --max-games 16 --opening-plies 4, load ~24 on 2 cores):
    # W/D/L 6/7/3 against quiescence=False, 8/7/1 against heuristic=kings, 15/1/0 against mcts(time=0.1)
    default_opponent = "alphabeta(time=0.1)"
    """The agent spec that plays this game best at about 0.1 s a move."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``rows * columns * 8`` actions; at most 4 moves a piece; a game lasts at most
        ``40 * (captures + 1) + captures`` plies, captures fewer than both sides' men."""
        rows, cols = variant["rows"], variant["columns"]
        check_variant("columns", cols, f"at most rows={rows}: OpenSpiel stores a jumping piece's square as "
                      "row * rows + column, which names another square when columns > rows", cols <= rows)
        white, black = _pieces(rows, cols)
        captures = white + black - 1
        return Layout(params=[rows, cols, QUIET_LIMIT, max(white, black)],
                      initial=rules.initial_state(rows, cols, QUIET_LIMIT), num_actions=rows * cols * 8,
                      max_moves=4 * max(white, black), max_game_length=QUIET_LIMIT * (captures + 1) + captures,
                      observation_shape=(rows, cols, rules.NUM_PLANES))

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return int(self.variant["rows"])

    @property
    def columns(self) -> int:
        """Columns of the board."""
        return int(self.variant["columns"])

    # ---- squares ----------------------------------------------------------------------
    def square_name(self, square: int) -> str:
        """``c3`` for square ``row * columns + column`` (row 0 is rank ``rows``)."""
        r, c = divmod(square, self.columns)
        return f"{_LETTERS[c]}{self.rows - r}"

    def _square_of(self, letter: str, rank: str) -> int:
        """The square named by a column letter and a rank, -1 off the board."""
        c, r = _LETTERS.index(letter), self.rows - int(rank)
        return r * self.columns + c if 0 <= c < self.columns and 0 <= r < self.rows else -1

    def dark_squares(self) -> list[int]:
        """The dark squares in the standard numbering's order: square number ``k`` is
        ``dark_squares()[k - 1]`` (from the first mover's side: the bottom row first, each
        row from right to left)."""
        return [r * self.columns + c for r in reversed(range(self.rows)) for c in reversed(range(self.columns))
                if (r + c) % 2 == 1]

    def _end(self, action: int) -> tuple[int, int, int, int] | None:
        """(from, to, direction, kind) of an action, None when it leaves the board."""
        square, rest = divmod(action, 8)
        d, kind = divmod(rest, 2)
        r, c = divmod(square, self.columns)
        r2, c2 = r + DIR_ROWS[d] * (kind + 1), c + DIR_COLS[d] * (kind + 1)
        if not (0 <= r2 < self.rows and 0 <= c2 < self.columns):
            return None
        return square, r2 * self.columns + c2, d, kind

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: Action, state: State | None = None) -> str:
        """OpenSpiel's name: the square left and the square reached, ``c3d4`` (a step) or
        ``c3e5`` (a jump)."""
        action = check_action(action, self.num_actions)
        end = self._end(action)
        if end is None:
            square, rest = divmod(action, 8)
            return f"{self.square_name(square)}?{rest}"  # leaves the board: never legal
        return self.square_name(end[0]) + self.square_name(end[1])

    def string_to_action(self, text: str, state: State | None = None) -> Action:
        """Read ``c3d4`` / ``c3-d4`` / ``c3xe5`` (coordinates), ``11-15`` / ``11x18`` (the
        standard numbering, see the module docstring) or an action number."""
        t = str(text).strip().lower()
        ends: tuple[int, int] | None = None
        m = _COORDS.match(t)
        if m:
            ends = (self._square_of(m[1], m[2]), self._square_of(m[3], m[4]))
        elif (m := _NUMBERS.match(t)) is not None:
            dark = self.dark_squares()
            a, b = int(m[1]), int(m[3])
            if 1 <= a <= len(dark) and 1 <= b <= len(dark):
                ends = (dark[a - 1], dark[b - 1])
        elif t.isdigit() and int(t) < self.num_actions:
            return int(t)
        if ends is not None and min(ends) >= 0:
            (r, c), (r2, c2) = divmod(ends[0], self.columns), divmod(ends[1], self.columns)
            dr, dc = r2 - r, c2 - c
            if abs(dr) == abs(dc) and abs(dr) in (1, 2):
                kind = abs(dr) - 1
                d = [(DIR_ROWS[i], DIR_COLS[i]) for i in range(4)].index((dr // abs(dr), dc // abs(dc)))
                return (ends[0] * 4 + d) * 2 + kind
        last = len(self.dark_squares())
        raise IllegalActionError(
            f"cannot read move {text!r}: write the squares left and reached, 'c3d4' for a step or 'c3e5' for a "
            f"jump (columns a-{_LETTERS[self.columns - 1]}, ranks 1-{self.rows}), the standard numbers '11-15' or "
            f"'11x18' (1-{last}), or an action number 0-{self.num_actions - 1}")

    def string_to_actions(self, text: str, state: State | None = None) -> list[Action]:
        """A whole move: a multi-jump typed whole (``21x14x7``, ``a3c5e7``, ``a3xc5xe7``) is one
        jump action per square after the first; anything else is :meth:`string_to_action`'s one action."""
        t = str(text).strip().lower()
        if _CHAIN_NUMBERS.match(t):
            squares = re.findall(r"\d{1,3}", t)
            return [self.string_to_action(f"{a}x{b}", state) for a, b in pairwise(squares)]
        if _CHAIN_COORDS.match(t):
            squares = re.findall(r"[a-p]\d{1,2}", t)
            return [self.string_to_action(a + b, state) for a, b in pairwise(squares)]
        return [self.string_to_action(text, state)]

    def illegal_reason(self, action: Action, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        s = self._plain(state)
        p = int(s[S_TO_MOVE])
        end = self._end(action)
        square = action // 8
        piece = int(s[S_CELLS + square])
        if piece == EMPTY or (piece - 1) >> 1 != p:
            return f"no {_SIDES[p]} piece on {self.square_name(square)}"
        if int(s[S_JUMP]) >= 0 and square != int(s[S_JUMP]):
            return f"the piece on {self.square_name(int(s[S_JUMP]))} must go on jumping"
        if end is None:
            return "that move leaves the board"
        if piece in (MAN0, MAN1) and (piece == MAN0) != (end[2] < 2):
            return "a man moves forward only"
        if int(s[S_CELLS + end[1]]) != EMPTY:
            return f"{self.square_name(end[1])} is occupied"
        if end[3] == JUMP:
            return "a jump goes over an opponent's piece"
        return "a capture is due (captures are forced)"

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``o`` ``8`` (white's man, king), ``+`` ``*`` (black's) and
        ``.``, the top row (rank ``rows``) first, as OpenSpiel prints it."""
        s = self._plain(state)
        return ["".join(SYMBOLS[int(s[S_CELLS + r * self.columns + c])] for c in range(self.columns))
                for r in range(self.rows)]

    def render(self, state: State) -> str:
        """The board (white's side at the bottom), who is to move or the result."""
        s = self._plain(state)
        width = len(str(self.rows))
        lines = [f"{self.rows - r:>{width}}  " + " ".join(row) for r, row in enumerate(self.cells(s))]
        lines[0] += "    black: + man, * king"  # the key beside the board: a crowned man changes its mark
        lines[1] += "    white: o man, 8 king"
        lines.append(" " * (width + 2) + " ".join(_LETTERS[: self.columns]))
        st = int(s[S_STATUS])
        if st == ONGOING:
            p = int(s[S_TO_MOVE])
            said = f"{_SIDES[p]} ({'o+'[p]}) to move"
            if int(s[S_JUMP]) >= 0:
                said += f", jumping on with {self.square_name(int(s[S_JUMP]))}"
        elif st == DRAW:
            said = f"draw ({QUIET_LIMIT} plies without a capture)"
        else:
            said = f"{_SIDES[st - P0_WINS]} wins"
        return "\n".join([*lines, said])

    def result_reason(self, state: State) -> str:
        """How a finished game ended: the loser had no move, or 40 plies without a capture."""
        st = int(self._plain(state)[S_STATUS])
        if st == DRAW:
            return f"{QUIET_LIMIT} plies without a capture"
        return "" if st == ONGOING else f"{_SIDES[1 - (st - P0_WINS)]} has no move"

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "white",
                 jump: str | None = None, quiet: int = 0) -> State:
        """A state from ``rows`` rows of ``o 8 + * .`` (the top row first, as :meth:`cells`
        and OpenSpiel print them; spaces are ignored), the side to move, the square of a
        piece in the middle of a multi-jump (``jump``, which must have a jump) and the plies
        without a capture; PositionError if it cannot be read."""
        lines = board.strip().splitlines() if isinstance(board, str) else list(board)
        grid = ["".join(ch for ch in str(line) if not ch.isspace()) for line in lines]
        if len(grid) != self.rows or any(len(g) != self.columns or set(g) - set(_PIECES) for g in grid):
            raise PositionError(f"a {self.rows}x{self.columns} checkers board is {self.rows} rows of {self.columns} "
                                f"cells of o 8 + * or '.', the top row first; got {board!r}")
        if to_move not in _SIDES:
            raise PositionError(f"to_move={to_move!r}: 'white' or 'black'")
        if not (isinstance(quiet, int) and 0 <= quiet < QUIET_LIMIT):
            raise PositionError(f"quiet={quiet!r}: the plies without a capture, 0-{QUIET_LIMIT - 1}")
        cells = [_PIECES[ch] for row in grid for ch in row]
        for square, piece in enumerate(cells):
            r, c = divmod(square, self.columns)
            if piece != EMPTY and (r + c) % 2 == 0:
                raise PositionError(f"{self.square_name(square)} is a light square: pieces stand on dark ones")
            if (piece == MAN0 and r == 0) or (piece == MAN1 and r == self.rows - 1):
                raise PositionError(f"a man on {self.square_name(square)}, its crowning row, would be a king")
        p = _SIDES.index(to_move)
        s = np.array([p, -1, quiet, ONGOING, 0, *cells], dtype=np.int64)
        h = 0
        for square, piece in enumerate(cells):
            h ^= rules.code_of(square, piece)
        s[rules.S_HASH] = h
        if jump is not None:
            sq = self._square_of(jump[:1], jump[1:]) if re.fullmatch(r"[a-p]\d{1,2}", str(jump)) else -1
            if sq < 0 or (cells[sq] - 1) >> 1 != p or cells[sq] == EMPTY:
                raise PositionError(f"jump={jump!r}: the square of a {to_move} piece in the middle of a multi-jump")
            if not rules.can_jump_from(self.params, s, sq):
                raise PositionError(f"jump={jump!r}: the piece on {jump} has no jump to go on with")
            if quiet != 0:
                raise PositionError("quiet must be 0 in a multi-jump (the jump just made was a capture)")
            s[S_JUMP] = sq
        rules.settle(self.params, s)
        return s

    def whole_move_perft(self, state: State, depth: int) -> int:
        """Move sequences of ``depth`` whole moves from ``state``, a multi-jump (one player's
        consecutive actions) counted once, as the published checkers perft tables count
        them (Aart Bik's); a finished game counts 0 below depth 0."""
        if depth == 0:
            return 1
        if self.is_terminal(state):
            return 0
        me, total, stack = self.current_player(state), 0, [self._plain(state)]
        while stack:
            x = stack.pop()
            for a in self.legal_actions(x):
                child = self.apply(x, int(a))
                if not self.is_terminal(child) and self.current_player(child) == me:
                    stack.append(child)  # the same player jumps on: the same move
                else:
                    total += self.whole_move_perft(child, depth - 1)
        return total


__all__ = ["JUMP", "KERNELS", "QUIET_LIMIT", "STEP", "S_QUIET", "Checkers"]
