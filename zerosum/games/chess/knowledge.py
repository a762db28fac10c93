"""Chess's search knowledge: material and piece-square tables, MVV-LVA ordering, captures.

* ``material``: material in centipawns (pawn 100, knight 320, bishop 330, rook 500,
  queen 900), the mover's minus the opponent's.
* ``pst`` (the default): material plus the piece-square tables of Tomasz Michniewski's
  "simplified evaluation function" (chessprogramming wiki), black's mirrored.

Both score white minus black and negate for black, so ``h(s, 0) == -h(s, 1)``, and stay
within +-HEURISTIC_LIMIT.

The ordering hint ranks captures by most valuable victim, then least valuable attacker
(MVV-LVA), promotions by the piece made, and every quiet move at 0. The forcing moves
(what alpha-beta's quiescence search follows past its horizon) are the legal captures and
promotions, ascending.
"""

from __future__ import annotations

from zerosum.games.chess.board import GEN_CAPTURES, S_EP, S_STM, type_at
from zerosum.games.chess.movegen import generate
from zerosum.games.chess.rules import drawn_with_moves
from zerosum.games.chess.tables import PIECE_VALUE, PLANE_FILE, PLANE_PROMOTION, PLANE_RANK, PST
from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel,
    lowest_bit, popcount,
)


@helper
def _score(s: I64Array, with_pst: bool) -> float:  # pragma: no cover - compiled
    """White's material (and piece-square bonus) minus black's, in centipawns."""
    v = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        for t in range(6):
            b = s[c] & s[2 + t]
            k = popcount(b)
            v += sign * PIECE_VALUE[t] * k
            if with_pst:
                for _ in range(k):
                    sq = lowest_bit(b)
                    b &= b - 1
                    v += sign * PST[t, sq if c == 0 else sq ^ 56]
    return min(max(v, -HEURISTIC_LIMIT + 1.0), HEURISTIC_LIMIT - 1.0)


@kernel(HEURISTIC)
def material(params: Params, state: State, player: int) -> float:  # pragma: no cover - compiled
    """Material in centipawns, ``player``'s minus the opponent's."""
    v = _score(state, False)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def pst(params: Params, state: State, player: int) -> float:  # pragma: no cover - compiled
    """Material plus piece-square tables in centipawns, ``player``'s minus the opponent's."""
    v = _score(state, True)
    return v if player == 0 else -v


@helper
def _target(s: I64Array, a: int) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The from-square, to-square and under-promotion (-1 none) of action ``a``."""
    us = s[S_STM]
    fidx = a // 73
    plane = a % 73
    rank = fidx & 7
    if us == 1:
        rank = 7 - rank
    frm = 8 * rank + (fidx >> 3)
    dr = PLANE_RANK[plane] if us == 0 else -PLANE_RANK[plane]
    return frm, frm + 8 * dr + PLANE_FILE[plane], PLANE_PROMOTION[plane]


@kernel(ORDER)
def order(params: Params, state: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """MVV-LVA for captures (en passant as a pawn), the promoted piece for promotions, 0 otherwise."""
    for i in range(n):
        frm, to, promo = _target(state, moves[i])
        attacker = type_at(state, frm)
        victim = type_at(state, to)
        v = 0.0
        if victim >= 0:
            v = 10.0 * PIECE_VALUE[victim] - PIECE_VALUE[attacker] + 10_000.0
        elif attacker == 0 and to == state[S_EP] and (to - frm) % 8 != 0:
            v = 10.0 * PIECE_VALUE[0] - PIECE_VALUE[0] + 10_000.0
        if attacker == 0 and (to < 8 or to >= 56):
            v += PIECE_VALUE[promo if promo >= 0 else 4]
        scores[i] = v


@kernel(FORCING)
def forcing(params: Params, state: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """The legal captures and promotions, ascending (none in a finished game)."""
    n = generate(state, out, GEN_CAPTURES)
    if n == 0 or drawn_with_moves(params, state):
        return 0  # a capture means a legal move: only the draw rules can have ended the game
    return n


HEURISTICS = {
    "pst": Heuristic("pst", pst, "material + piece-square tables (Michniewski's simplified evaluation), centipawns",
                     symmetric=True),
    "material": Heuristic("material", material, "material in centipawns (1/3/3.3/5/9)", symmetric=True),
}
"""Chess's built-in heuristics by name."""

__all__ = ["HEURISTICS", "forcing", "material", "order", "pst"]
