"""Gomoku (five in a row), OpenSpiel's ``gomoku``.

Two players take turns placing a stone of their colour on an empty cell of a 15x15
board; player 0 (black, X) moves first. The first to make a line of ``connect`` (5) or
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
``connect`` (1 to ``size``: stones in a row that win), ``anti`` (False; True: the player
who makes a line loses) and ``wrap`` (False; True: the board is a torus, lines run over
the edges). OpenSpiel's ``dims`` (boards of more than two dimensions) is not offered.

State: ``[player 0's words, player 1's words, status, stones]``, each side's stones in
``ceil(size / (63 // size))`` int64 words of whole rows (4 on 15x15; see
:mod:`zerosum.games.gomoku.rules`). Observation (size, size, 3): the observer's stones,
the opponent's, and a plane of ones when the observer is to move (OpenSpiel's planes are
black, white and black-to-move: the same for player 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.games.gomoku import knowledge, rules
from zerosum.games.gomoku.rules import MAX_SIZE, geometry, initial, words_for
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action, check_variant,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal,
                  forcing=knowledge.forcing)
"""The game's compiled rules (imported by name by the compiled searches)."""
_LETTERS = "abcdefghijklmnopqrstuvwxyz"[:MAX_SIZE]
_MARKS = "XO"


class Gomoku(Game):
    """Gomoku on a ``size`` x ``size`` board, ``connect`` in a row to win."""

    name = "gomoku"
    """The registered name: ``make_game(name)``."""
    kernels = KERNELS
    """The compiled rules."""
    variants = (
        Variant("size", int, 15, "side of the square board", range=(1, MAX_SIZE)),
        Variant("connect", int, 5, "stones in a row that win (at most size)", range=(1, MAX_SIZE)),
        Variant("anti", bool, False, "the player who makes a line loses"),
        Variant("wrap", bool, False, "the board is a torus: lines run over the edges"),
    )
    """The rule variants, as keyword arguments (the page's variants table)."""
    heuristics = knowledge.HEURISTICS
    """The evaluations alpha-beta can use, by name."""
    default_heuristic = "threats"
    """The heuristic a search uses when none is named."""
    default_opponent = "alphabeta(time=0.1)"  # threats, quiescence on fours; level with lmr=off, ahead of mcts
    """The agent spec that plays this game best at about 0.1 s a move."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``size**2`` actions; a game lasts at most ``size**2`` moves."""
        size, connect = variant["size"], variant["connect"]
        check_variant("connect", connect, f"an int from 1 to {size} (the side of the board) with size={size}",
                      connect <= size)
        cells = size * size
        return Layout(params=geometry(size, connect, variant["anti"], variant["wrap"]), initial=initial(size),
                      num_actions=cells, max_moves=cells, max_game_length=cells, observation_shape=(size, size, 3))

    @property
    def size(self) -> int:
        """The side of the board."""
        return self.variant["size"]  # type: ignore[no-any-return]

    @property
    def connect(self) -> int:
        """Stones in a row that win."""
        return self.variant["connect"]  # type: ignore[no-any-return]

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The column letter and the row number counted from 1 at the bottom: ``h8``."""
        r, c = divmod(check_action(action, self.num_actions), self.size)
        return f"{_LETTERS[c]}{self.size - r}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``h8`` (column letter, row number from 1 at the bottom) or OpenSpiel's
        ``row,col`` (``7,7``, row 0 at the top)."""
        t = str(text).strip().lower().replace(" ", "")
        n = self.size
        if "," in t:
            r_text, _, c_text = t.partition(",")
            if r_text.isdigit() and c_text.isdigit() and int(r_text) < n and int(c_text) < n:
                return int(r_text) * n + int(c_text)
        elif len(t) >= 2 and t[0] in _LETTERS[:n] and t[1:].isdigit() and 1 <= int(t[1:]) <= n:
            return (n - int(t[1:])) * n + _LETTERS.index(t[0])
        raise IllegalActionError(f"cannot read move {text!r}: write a column letter a-{_LETTERS[n - 1]} and a row "
                                 f"1-{n} (e.g. {self.action_to_string((n // 2) * n + n // 2)}), or OpenSpiel's "
                                 f"'row,col' with 0-{n - 1} each")

    def illegal_reason(self, action: int, state: State) -> str:
        """The cell is taken."""
        s = self._plain(state)
        r, c = divmod(action, self.size)
        for p in (0, 1):
            if rules.stone.py_func(self.params, s, p, r, c):
                return f"{self.action_to_string(action)} is taken by {_MARKS[p]}"
        return ""

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``X`` (player 0), ``O`` and ``.``, row 0 (the top) first."""
        s = self._plain(state)
        rows = []
        for r in range(self.size):
            b0 = int(rules.row_bits.py_func(self.params, s, 0, r))
            b1 = int(rules.row_bits.py_func(self.params, s, 1, r))
            rows.append("".join("X" if (b0 >> c) & 1 else "O" if (b1 >> c) & 1 else "." for c in range(self.size)))
        return rows

    def render(self, state: State) -> str:
        """The board with column letters above and row numbers (1 at the bottom) at the
        left, and who is to move (or the result); X is player 0 (black), O player 1."""
        s = self._plain(state)
        width = len(str(self.size))
        st = self.outcome(s)
        said = {ONGOING: f"{_MARKS[self.current_player(s)]} to move", DRAW: "draw",
                P0_WINS: "X wins", P1_WINS: "O wins"}[st]
        lines = [" " * (width + 1) + " ".join(_LETTERS[: self.size])]
        lines += [f"{self.size - r:>{width}} " + " ".join(row) for r, row in enumerate(self.cells(s))]
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...]) -> State:
        """A state from ``size`` rows of ``X`` (player 0), ``O`` (player 1) and ``.``, top row
        first, as :meth:`cells` gives them. The player to move follows from the counts.
        PositionError for counts X first cannot give, lines of both players, or a line of
        the player who did not move last."""
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else \
            list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row) if not ch.isspace()).upper() for row in rows]
        n = self.size
        if len(grid) != n or any(len(g) != n or set(g) - set("XO.") for g in grid):
            raise PositionError(f"a {n}x{n} gomoku board is {n} rows of {n} cells of X, O or '.', top row first; "
                                f"got {board!r}")
        words, rpw = words_for(n)
        state = np.zeros(2 * words + 2, np.int64)
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != ".":
                    state[_MARKS.index(ch) * words + r // rpw] |= 1 << ((r % rpw) * n + c)
        counts = [sum(row.count(m) for row in grid) for m in _MARKS]
        if counts[0] - counts[1] not in (0, 1):
            raise PositionError(f"X moves first, so X has as many stones as O or one more; got X {counts[0]}, "
                                f"O {counts[1]}")
        stones = counts[0] + counts[1]
        state[2 * words + 1] = stones
        lines = [any(rules.makes_line.py_func(self.params, state, p, r, c)
                     for r in range(n) for c in range(n) if grid[r][c] == _MARKS[p]) for p in (0, 1)]
        last = (stones - 1) & 1
        if lines[1 - last] or (lines[last] and stones == 0):
            raise PositionError(f"{_MARKS[1 - last]} has a line of {self.connect}, but {_MARKS[last]} moved last "
                                "(the game ended at that line)")
        if lines[last]:
            state[2 * words] = P0_WINS + (1 - last if self.variant["anti"] else last)
        elif stones == n * n:
            state[2 * words] = DRAW
        return state


__all__ = ["KERNELS", "Gomoku"]
