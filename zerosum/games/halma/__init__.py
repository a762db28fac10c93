"""Halma for two players on 16x16 (default), 10x10 or 8x8.

Rules. Each player starts with its pieces filling its home camp in one corner; player 0
(X) starts top-left and moves first, player 1 (O) starts bottom-right. A move is either
a step to one of the 8 neighbouring empty squares, or a chain of one or more jumps, each
over an adjacent piece of either colour onto the empty square straight beyond it (8
directions); the chain may stop at any point, jumped pieces stay, a step and a jump never
mix, and no square is visited twice in one chain. A piece that starts its move in its
target camp (the opponent's home) never leaves it: every square of its chain, and its
destination, lie in the camp. A player wins when every square of its target camp is
occupied and at least one of them by its own pieces (this defeats "spoiling": parking
pieces at home to block). The game is a draw after ``max_turns`` moves of either player.
A player with no legal move at all (possible only in contrived positions) passes.

Camps (rows counted from the corner)::

    size 16: 19 pieces, rows 5 5 4 3 2      size 10: 15 pieces, rows 5 4 3 2 1
    size  8: 10 pieces, rows 4 3 2 1

    a b c d e f ...                          (size 16, player 0's home camp)
  1 X X X X X . .
  2 X X X X X . .
  3 X X X X . . .
  4 X X X . . . .
  5 X X . . . . .

Squares and actions. ``square = N*row + col`` (row 0 at the top, named 1; columns a, b,
c, ...). A move is one piece from its square to its destination, whatever the chain that
took it there (two chains reaching the same square are the same move)::

    action = from_square * N*N + to_square          num_actions = (N*N)**2

              to:   a1    b1   ...  p16
    from  a1  :      0     1   ...   255            (size 16: N*N = 256)
          b1  :    256   257   ...   511
          ...
          p16 : 65280 65281  ...  65535

Readable names are ``from-to``: ``c3-e5``. The pass (only legal when nothing else is)
is action 0 (``a1-a1``, which no real move can be), named ``pass``.

State vector (int64, 10 slots)::

    [x0, x1, x2, x3, o0, o1, o2, o3, turn, zobrist]

Pieces are stored by parity class: class ``k = 2*(row % 2) + (col % 2)`` holds the
squares whose coordinates have that parity, as an 8x8 bitboard over ``(row // 2, col //
2)`` (bit ``8*(row//2) + col//2``). A jump moves a piece by two squares, so it never
leaves its class: the squares reachable by jump chains are a flood fill in one 64-bit
word, with the "a piece to jump over" masks shifted in from the neighbouring classes.
``turn`` counts the moves played (player ``turn % 2`` is to move); ``zobrist`` is the XOR
of the pieces' Zobrist keys, kept up to date by ``apply``.

Observation (N, N, 6), from the observer's side: the board is turned 180 degrees for
player 1, so every observer starts top-left and moves towards the bottom-right corner.
Planes: 0 the observer's pieces, 1 the opponent's, 2 the observer's target camp, 3 the
observer's home camp, 4 all ones when the observer is to move, 5 the move counter in
binary (cell ``i`` in row-major order holds bit ``i`` of ``turn``).

Variants: ``size`` (8, 10 or 16) and ``max_turns`` (moves of either player, 1 to
100000; None, the default, is 600 on 16x16, 300 on 10x10, 200 on 8x8). Finished games
need far fewer: depth-2 alpha-beta self-play with the ``distance`` heuristic takes 196
moves on average on 16x16 (at most 235 in 100 seeded games; depth 3 about 175), 95 on
10x10 and 60 on 8x8 (bench/halma.py). The cap is about three times that, so that it ends
only games that have stopped making progress (random play, or engines that shuffle, like
the study's), and keeps the length of a random playout bounded.

Heuristics and strategies (the Halma study's, by name; every value is own minus
opponent's, so each one is antisymmetric; ``distance`` is the default):

==================  ===================================================================
``distance``        distances to the target camp's far corner, plus camp-entry distances
                    and the mover's best next move (see its docstring: both additions
                    are what makes depth-2 self-play finish its games)
``corner``          the study's plain sum of distances to the target camp's far corner
``distance_free``   king-move distances to the nearest free target square
``centre``          opening: rush the centre (distance to a gravity point)
``diagonal``        middle game: march along the main diagonal, penalty growing with the
                    distance from it, no gain for entering the target camp early
``careful``         far-corner distance, plus own forward jump chances, minus the opponent's
``fill``            endgame: fill the target camp from the far corner outwards
``fill_alternate``  endgame: fill every second row of the camp first
``phased``          the study's three-phase strategy: centre, then diagonal, then fill
==================  ===================================================================

The move-ordering hint (``forward_first``) puts the moves that bring a piece nearest the
far corner of its target first.

The package: :mod:`.tables` (the geometry, built once), :mod:`.rules` (the kernels),
:mod:`.heuristics` and :mod:`.strategies` (the search knowledge). The knowledge lives here,
not under ``zerosum.search``, because it is compiled against Halma's state layout and
tables; the search stays game-agnostic and takes it as a heuristic like any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any

import numpy as np

from zerosum.games.halma import heuristics, rules, strategies
from zerosum.games.halma.rules import HASH, PASS, STATE_SIZE, TURN
from zerosum.games.halma.tables import (
    CAMP_SIZE, DEFAULT_MAX_TURNS, HOME, IN_TARGET, SIZES, SQ_BIT, SQ_CLASS, ZOBRIST, Square,
)
from zerosum.games.kit import (
    Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=heuristics.forward_first)
"""Halma's compiled rules, as the kit's Kernels record."""
_COLS = "abcdefghijklmnop"
_EMPTY = [tuple(":" if IN_TARGET[z, 0, q] or IN_TARGET[z, 1, q] else "." for q in range(size * size))
          for z, size in enumerate(SIZES)]
"""Each board size's empty board as render draws it, square by square: ':' a camp square."""


def _max_moves(size: int, pieces: int) -> int:
    """A true bound on the number of legal moves: each piece has at most 8 steps and one
    jump destination per other square of its parity class, and at most one destination
    per square not holding its own pieces."""
    class_squares = ((size + 1) // 2) ** 2
    return min(pieces * (8 + class_squares - 1), pieces * (size * size - pieces))


class Halma(Game):
    """Two-player Halma; ``size`` 16 (default), 10 or 8; ``max_turns`` counts moves of both players."""

    name = "halma"
    """The registered name, ``"halma"``."""
    kernels = KERNELS
    """Halma's compiled rules."""
    variants = (
        Variant("size", int, 16, "the board's side (camps of 10, 15 or 19 pieces)", choices=SIZES),
        Variant("max_turns", int, None, "the draw cap in moves of either player (None: 200, 300 or 600 "
                "by size)", range=(1, 100_000), optional=True),
    )
    """``size`` (8, 10 or 16) and ``max_turns`` (None: the size's default)."""
    heuristics = {**heuristics.HEURISTICS, "phased": strategies.PHASED}
    """Distance-based heuristics and the phased strategy."""
    default_heuristic = "distance"
    """``distance``: the difference of the players' distances to their goal camps."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """params ``[size index, size, max_turns]``; both camps full; (N*N)**2 actions."""
        size = variant["size"]
        max_turns = variant["max_turns"] if variant["max_turns"] is not None else DEFAULT_MAX_TURNS[size]
        z = SIZES.index(size)
        initial = np.zeros(STATE_SIZE, np.int64)
        initial[0:4], initial[4:8] = HOME[z, 0], HOME[z, 1]
        initial[HASH] = _zobrist(z, initial)
        return Layout(params=[z, size, max_turns], initial=initial, num_actions=size ** 4,
                      max_moves=_max_moves(size, int(CAMP_SIZE[z])), max_game_length=max_turns,
                      observation_shape=(size, size, 6), variant={"size": size, "max_turns": max_turns})

    # ---- squares ----------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """The board's side N."""
        return self.variant["size"]  # type: ignore[no-any-return]

    @cached_property
    def pieces(self) -> int:
        """Pieces per player (the size of a camp)."""
        return int(CAMP_SIZE[self._z])

    @cached_property
    def _z(self) -> int:
        return SIZES.index(self.size)

    def square_name(self, sq: Square) -> str:
        """``c3`` style: column letter, row number (row 1 at the top)."""
        return f"{_COLS[sq % self.size]}{sq // self.size + 1}"

    def parse_square(self, text: str) -> Square:
        """The inverse of square_name; raises IllegalActionError for a square off the board."""
        t = text.strip().lower()
        if len(t) >= 2 and t[0] in _COLS[: self.size] and t[1:].isdigit() and 1 <= int(t[1:]) <= self.size:
            return (int(t[1:]) - 1) * self.size + _COLS.index(t[0])
        raise IllegalActionError(
            f"cannot read square {text!r}: columns a-{_COLS[self.size - 1]}, rows 1-{self.size} (e.g. 'c3')")

    def camp(self, player: int) -> list[Square]:
        """The squares of ``player``'s home camp, ascending (its target is the other camp)."""
        return np.flatnonzero(IN_TARGET[self._z, 1 - player, : self.size ** 2]).tolist()

    def pieces_of(self, state: State, player: int) -> list[Square]:
        """The squares of ``player``'s pieces, ascending."""
        s, z, nn = self._plain(state), self._z, self.size ** 2
        return np.flatnonzero((s[4 * player + SQ_CLASS[z, :nn]] >> SQ_BIT[z, :nn]) & 1).tolist()

    def board(self, state: State) -> np.ndarray:
        """An (N, N) int array: -1 empty, 0 or 1 the player whose piece stands there."""
        cells = np.full(self.size ** 2, -1, np.int64)
        for p in (0, 1):
            cells[self.pieces_of(state, p)] = p
        return cells.reshape(self.size, self.size)

    def position(self, x: Iterable[Square | str], o: Iterable[Square | str], turn: int = 0) -> State:
        """A state with player 0's pieces on ``x`` and player 1's on ``o`` (squares or names),
        ``turn`` moves played (player ``turn % 2`` to move). For scripted tests and puzzles;
        PositionError says what is wrong."""
        nn = self.size ** 2
        squares = [[self._position_square(q, nn) for q in side] for side in (x, o)]
        for p, side in enumerate(squares):
            if len(side) > self.pieces:
                raise PositionError(f"player {p} has {len(side)} pieces; at most {self.pieces} are allowed")
        both = squares[0] + squares[1]
        if len(set(both)) != len(both):
            twice = sorted({self.square_name(q) for q in both if both.count(q) > 1})
            raise PositionError(f"two pieces on one square: {', '.join(twice)}")
        if isinstance(turn, (bool, np.bool_)) or not isinstance(turn, (int, np.integer)) \
                or not 0 <= turn <= self.max_game_length:
            raise PositionError(f"turn={turn!r}: the moves played, an int from 0 to max_turns={self.max_game_length}")
        s = np.zeros(STATE_SIZE, np.int64)
        for p, side in enumerate(squares):
            for q in side:
                s[4 * p + SQ_CLASS[self._z, q]] |= np.int64(1) << SQ_BIT[self._z, q]
        s[TURN] = turn
        s[HASH] = _zobrist(self._z, s)
        return s

    def _position_square(self, q: Any, nn: int) -> Square:
        if isinstance(q, str):
            try:
                return self.parse_square(q)
            except IllegalActionError as e:
                raise PositionError(str(e)) from None
        if isinstance(q, (bool, np.bool_)) or not isinstance(q, (int, np.integer)) or not 0 <= q < nn:
            raise PositionError(f"a square is a name such as 'c3' or an int in [0, {nn}); got {q!r}")
        return int(q)

    # ---- text ---------------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``c3-e5``: the piece's square and its destination; ``pass`` for action 0."""
        f, t = divmod(check_action(action, self.num_actions), self.size ** 2)
        return "pass" if f == t else f"{self.square_name(f)}-{self.square_name(t)}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``c3-e5`` (also ``c3e5``, ``c3 e5``), ``pass`` or a bare action index.

        With ``state``, the move must also be legal there."""
        t = str(text).strip().lower()
        nn = self.size ** 2
        forms = (f"write 'from-to' such as 'c3-e5' (columns a-{_COLS[self.size - 1]}, rows 1-{self.size}), "
                 f"'pass', or an action index in [0, {nn * nn})")
        if t == "pass":
            a = PASS
        elif t.isdigit():
            a = int(t)
            if a >= nn * nn:
                raise IllegalActionError(f"cannot read move {text!r}: {forms}")
        else:
            parts = t.replace("-", " ").replace(">", " ").split()
            if len(parts) == 1:  # c3e5: split before the second letter
                j = next((i for i in range(1, len(t)) if t[i].isalpha()), 0)
                parts = [t[:j], t[j:]] if j else parts
            try:
                if len(parts) != 2:
                    raise IllegalActionError(forms)
                f, to = self.parse_square(parts[0]), self.parse_square(parts[1])
            except IllegalActionError:
                raise IllegalActionError(f"cannot read move {text!r}: {forms}") from None
            if f == to:
                raise IllegalActionError(f"cannot read move {text!r}: a move ends on another square; {forms}")
            a = f * nn + to
        if state is not None:
            legal = self.legal_actions(state)
            if a not in set(legal.tolist()):
                raise IllegalActionError(f"move {text!r} is not legal here; "
                                         f"legal: {self.describe_actions(legal, state)}")
        return a

    def render(self, state: State) -> str:
        """The board with coordinates: X player 0, O player 1, ':' an empty camp square."""
        s = self._plain(state)
        n = self.size
        marks = list(_EMPTY[self._z])
        for p in (0, 1):
            for q in self.pieces_of(s, p):
                marks[q] = "XO"[p]
        lines = ["    " + " ".join(_COLS[:n])]
        lines += [f"{r + 1:>3} " + " ".join(marks[r * n:(r + 1) * n]) for r in range(n)]
        turn = int(s[TURN])
        lines.append(f"move {turn}, {'X' if turn % 2 == 0 else 'O'} to play")
        return "\n".join(lines)


def _zobrist(z: int, s: np.ndarray) -> np.int64:
    """The XOR of the Zobrist keys of the pieces of state ``s`` on board size index ``z``."""
    nn = SIZES[z] ** 2
    h = np.int64(0)
    for p in (0, 1):
        on = (s[4 * p + SQ_CLASS[z, :nn]] >> SQ_BIT[z, :nn]) & 1
        h ^= np.bitwise_xor.reduce(ZOBRIST[p, :nn][on == 1], initial=np.int64(0))
    return h


__all__ = ["HASH", "KERNELS", "PASS", "SIZES", "STATE_SIZE", "TURN", "Halma"]
