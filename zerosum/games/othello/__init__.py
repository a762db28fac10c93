"""Othello (Reversi with the standard start), as OpenSpiel's ``othello``.

Black (player 0, ``x``) and white (player 1, ``o``) place discs in turn, black first, from
the four centre discs set crosswise (d4 and e5 white, e4 and d5 black on 8x8). A disc must
be placed so that it encloses, in at least one of the 8 directions, a straight unbroken
line of the opponent's discs between itself and another disc of the mover; every such
line is turned over. A player who cannot place passes (and may not pass otherwise); the
game ends when neither player can place (a full board among others), and the player with
more discs wins; equal counts are a draw.

Board and actions (8x8; action = size*row + col, row 0 the top row as OpenSpiel draws it;
pass = size*size, 64 on 8x8)::

        a  b  c  d  e  f  g  h
    1   0  1  2  3  4  5  6  7
    2   8  9 10 11 12 13 14 15
    3  16 17 18 19 20 21 22 23        readable names: the column letter and the
    4  24 25 26  o  x 29 30 31        row number ("d3" = action 19), and "pass"
    5  32 33 34  x  o 37 38 39
    6  40 41 42 43 44 45 46 47
    7  48 49 50 51 52 53 54 55
    8  56 57 58 59 60 61 62 63        pass = 64

Variants: ``size`` (4, 6, 8 or 10; OpenSpiel has 8x8 only). A game lasts at most
``2 * (size*size - 4)`` plies (every placement fills a square, and at most one pass comes
before each). State vector: ``[black lo, hi, white lo, hi, to_move, status, moves lo, hi]``
(128-bit bitboards as two int64 words, see :mod:`zerosum.games.othello.rules`).
Observation (size, size, 3): the observer's discs, the opponent's, and a plane of ones when
the observer is to move.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
    i64_array,
)
from zerosum.games.records import sgf_coords, sgf_point
from zerosum.games.othello import knowledge, rules
from zerosum.games.othello.rules import S_MOVES, S_STATUS, S_TO_MOVE, STATE_SIZE

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
"""Othello's compiled rules and ordering hint, as the search and the hot calls import them."""
_LETTERS = "abcdefghij"
_MARKS = "xo"
_COLOURS = ("black", "white")
_SQUARE = re.compile(r"^([a-j])([1-9]|10)$")


class Othello(Game):
    """Othello on a ``size`` x ``size`` board (8x8 by default, as OpenSpiel's ``othello``)."""

    name = "othello"
    """The registered name, ``"othello"``."""
    kernels = KERNELS
    """Othello's compiled rules."""
    variants = (Variant("size", int, 8, "squares on a side (OpenSpiel has 8 only)", choices=(4, 6, 8, 10)),)
    """``size``: 4, 6, 8 (default, OpenSpiel's board) or 10."""
    heuristics = knowledge.HEURISTICS
    """``classic`` (the default), ``mobility``, ``corners`` and ``stability`` (see knowledge.py)."""
    default_heuristic = knowledge.DEFAULT
    """``classic``: 4 x mobility + corners + 4 x stability."""
    # at 0.1 s a move, 4 random plies then both seats (load 15 on 2 cores): it took 16 of 16 games from each of
    # alphabeta(time=0.1, heuristic=mobility) and mcts(time=0.1), which split theirs 4-4
    default_opponent = "alphabeta(time=0.1, heuristic=classic)"
    """The engine that plays Othello best at 0.1 s a move among those measured."""
    sgf_game = 2
    """Othello's number in SGF's ``GM`` list."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``size*size + 1`` actions (the last one passes); the four centre discs set crosswise."""
        n = variant["size"]
        params = rules.geometry(n)
        m = n // 2
        black = [(m - 1) * n + m, m * n + m - 1]
        white = [(m - 1) * n + m - 1, m * n + m]
        start = _complete(params, [*rules.mask(black), *rules.mask(white)], 0)
        return Layout(params=params, initial=start, num_actions=n * n + 1, max_moves=n * n - 4,
                      max_game_length=2 * (n * n - 4), observation_shape=(n, n, 3))

    @property
    def size(self) -> int:
        """Squares on a side."""
        return int(self.variant["size"])

    @property
    def pass_action(self) -> int:
        """The action that passes: ``size * size``."""
        return self.size * self.size

    # ---- discs -----------------------------------------------------------------------------
    def discs(self, state: State) -> tuple[int, int]:
        """The disc sets of black (player 0) and white (player 1) as Python ints (bit ``square``)."""
        s = self._plain(state)
        return tuple((int(s[2 * p]) & (1 << 64) - 1) | (int(s[2 * p + 1]) & (1 << 64) - 1) << 64  # type: ignore[return-value]
                     for p in (0, 1))

    def counts(self, state: State) -> tuple[int, int]:
        """How many discs black and white have."""
        b, w = self.discs(state)
        return b.bit_count(), w.bit_count()

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``x`` (black), ``o`` (white) and ``.``, top row (row 1) first."""
        b, w = self.discs(state)
        n = self.size
        return ["".join("x" if (b >> (r * n + c)) & 1 else "o" if (w >> (r * n + c)) & 1 else "." for c in range(n))
                for r in range(n)]

    # ---- text ------------------------------------------------------------------------------
    def square_name(self, square: int) -> str:
        """``a1`` .. ``h8`` on 8x8: the column letter and the row number, row 1 at the top."""
        return f"{_LETTERS[square % self.size]}{square // self.size + 1}"

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The square (``d3``) or ``pass``."""
        a = check_action(action, self.num_actions)
        return "pass" if a == self.pass_action else self.square_name(a)

    def sgf_move(self, action: int, state: State) -> str:
        """SGF's point (``dc``: column, then row from the top) or ``""`` for a pass."""
        a = check_action(action, self.num_actions)
        return "" if a == self.pass_action else sgf_point(a % self.size, a // self.size)

    def sgf_action(self, value: str, state: State) -> int:
        """The action of an SGF point; ``""`` (or ``tt``) is a pass."""
        if value.strip() in ("", "tt"):
            return self.pass_action
        col, row = sgf_coords(value, self.size)
        return row * self.size + col

    def sgf_root(self) -> dict[str, str | list[str]]:
        """``SZ``: the board's side."""
        return {"SZ": str(self.size)}

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a square (``d3``, any case), ``pass`` or a bare action number."""
        t = str(text).strip().lower()
        if t in ("pass", "p"):
            return self.pass_action
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        m = _SQUARE.match(t)
        n = self.size
        if m and _LETTERS.index(m.group(1)) < n and int(m.group(2)) <= n:
            return (int(m.group(2)) - 1) * n + _LETTERS.index(m.group(1))
        raise IllegalActionError(f"cannot read move {text!r}: write a square a1-{_LETTERS[n - 1]}{n} "
                                 f"(column letter, row number; row 1 at the top), 'pass' or an action 0-{n * n}")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why a move of an unfinished game is illegal: occupied, turns nothing, or a pass
        when the mover can place (or a placement when it must pass)."""
        s = self._plain(state)
        must_pass = s[S_MOVES] == 0 and s[S_MOVES + 1] == 0
        if action == self.pass_action:
            return "a player who can place a disc may not pass"
        if must_pass:
            return f"{_COLOURS[int(s[S_TO_MOVE])]} has no placement and must pass"
        b, w = self.discs(s)
        if ((b | w) >> action) & 1:
            return f"{self.square_name(action)} is occupied"
        return f"a disc on {self.square_name(action)} would turn no disc over"

    def render(self, state: State) -> str:
        """The board (x black, o white), row 1 at the top as OpenSpiel draws it, the disc
        counts and who is to move (or the result)."""
        s = self._plain(state)
        n = self.size
        lines = ["    " + " ".join(_LETTERS[:n])]
        lines += [f"{r + 1:>2}  " + " ".join(row) for r, row in enumerate(self.cells(s))]
        nb, nw = self.counts(s)
        st = int(s[S_STATUS])
        if st == ONGOING:
            p = int(s[S_TO_MOVE])
            said = f"{_MARKS[p]} ({_COLOURS[p]}) to move" + \
                (", must pass" if s[S_MOVES] == 0 and s[S_MOVES + 1] == 0 else "")
        else:
            said = "draw" if st == DRAW else f"{_MARKS[st - P0_WINS]} ({_COLOURS[st - P0_WINS]}) wins"
        return "\n".join([*lines, f"x {nb} o {nw}: {said}"])

    # ---- positions -------------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: int | str = 0) -> State:
        """A state from ``size`` rows of ``x`` (black), ``o`` (white) and ``.``, row 1 (the
        top) first, as :meth:`render` draws them, and the player to move (0 or ``"black"``,
        1 or ``"white"``). A mover with no placement must pass; with none for either side
        the game is over. PositionError for a board of the wrong shape or a bad mover."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row) if not ch.isspace()).lower() for row in rows]
        n = self.size
        if len(grid) != n or any(len(g) != n or set(g) - set("xo.") for g in grid):
            raise PositionError(f"a {n}x{n} othello board is {n} rows of {n} cells of x, o or '.', row 1 "
                                f"first; got {board!r}")
        q = {0: 0, 1: 1, "black": 0, "white": 1, "x": 0, "o": 1}.get(to_move) \
            if isinstance(to_move, (int, str)) and not isinstance(to_move, bool) else None
        if q is None:
            raise PositionError(f"to_move is 0 or 'black', 1 or 'white'; got {to_move!r}")
        sq = {"x": [], "o": []}  # type: dict[str, list[int]]
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch in sq:
                    sq[ch].append(r * n + c)
        return _complete(self.params, [*rules.mask(sq["x"]), *rules.mask(sq["o"])], q)


def _complete(params: Any, discs: list[int], to_move: int) -> State:
    """The state of these discs (black lo, hi, white lo, hi) with ``to_move`` to move."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[:4] = i64_array(discs)
    child = np.zeros(STATE_SIZE, np.int64)
    p = i64_array(params)
    p.flags.writeable = False  # the kernels' params are read-only arrays
    rules.complete(p, s, int(to_move), child)
    return child


__all__ = ["KERNELS", "Othello"]
