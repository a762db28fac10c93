"""Checkers' search knowledge: the evaluation terms of the checkers-program literature.

Arthur Samuel's checkers player (1959, 1967) scored a position by piece advantage first and
by a handful of positional terms after it: ``KCENT``/``CENT`` (control of the centre),
``MOB`` (mobility), ``BACK`` (the back rank kept against crowning), ``ADV`` (advancement);
Chinook (Schaeffer et al., 1992) and every engine since value a king at about 1.3 to 1.5 men.
Each heuristic below is one step of that ladder, scored white minus black and returned from
``player``'s side, so ``h(s, 0) == -h(s, 1)``:

* ``material``: 100 per piece, men and kings alike;
* ``kings``: 100 per man, 150 per king;
* ``back_rank``: ``kings`` + 12 per man still on its own back row (a guard: the opponent
  cannot crown on a square a man stands on);
* ``mobility``: ``back_rank`` + 4 per step a side's pieces could make if it were to move
  (forced captures aside) + 2 per row a man has advanced + 6 per piece on the four central
  dark squares of its board area (Samuel's MOB, ADV and CENT), + 300 x (own pieces - the
  opponent's) / all pieces: the side ahead gains by trading pieces off (every engine's
  "trade when ahead"), which also keeps a won ending from drifting into the 40-ply draw.

The ordering hint puts jumps first (a checkers position offers only jumps or only steps,
so this matters in the search's generic code), then moves that crown, then moves of men
towards the centre. The forcing moves (what quiescence follows past the horizon) are the
jumps: a position where a capture is due is not quiet.
"""

from __future__ import annotations

from zerosum.games.checkers.rules import (
    DIR_COLS, DIR_ROWS, EMPTY, JUMP, KING0, MAN0, MAN1, P_COLS, P_ROWS, S_CELLS, S_STATUS, STEP,
    generate,
)
from zerosum.games.kit import (
    FORCING, HEURISTIC, ONGOING, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel,
)

_MAN, _KING, _BACK, _STEP, _ADVANCE, _CENTRE, _TRADE = 100.0, 150.0, 12.0, 4.0, 2.0, 6.0, 300.0


@helper
def _terms(params: Params, s: State, king_value: float, back: float, positional: bool) -> float:  # pragma: no cover
    """White's score minus black's (see the module docstring for the terms)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    score = 0.0
    count0 = count1 = 0
    mid_r0, mid_c0 = rows // 2 - 1, cols // 2 - 1
    for r in range(rows):
        for c in range(1 - (r & 1), cols, 2):
            square = r * cols + c
            piece = s[S_CELLS + square]
            if piece == EMPTY:
                continue
            sign = 1.0 if piece <= KING0 else -1.0
            if piece <= KING0:
                count0 += 1
            else:
                count1 += 1
            if piece & 1:  # a man (MAN0, MAN1 are odd, kings even)
                score += sign * _MAN
                if (piece == MAN0 and r == rows - 1) or (piece == MAN1 and r == 0):
                    score += sign * back
            else:
                score += sign * king_value
            if not positional:
                continue
            if piece == MAN0:
                score += _ADVANCE * (rows - 1 - r)
            elif piece == MAN1:
                score -= _ADVANCE * r
            if mid_r0 <= r <= mid_r0 + 1 and mid_c0 - 1 <= c <= mid_c0 + 2:
                score += sign * _CENTRE
            for d in range(4):
                if (piece == MAN0 and d > 1) or (piece == MAN1 and d < 2):
                    continue
                rr, cc = r + DIR_ROWS[d], c + DIR_COLS[d]
                if 0 <= rr < rows and 0 <= cc < cols and s[S_CELLS + rr * cols + cc] == EMPTY:
                    score += sign * _STEP
    if positional and count0 + count1 > 0:
        score += _TRADE * (count0 - count1) / (count0 + count1)  # the side ahead gains by trading
    return score


@kernel(HEURISTIC)
def material(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """100 per piece, own minus the opponent's."""
    v = _terms(params, s, _MAN, 0.0, False)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def kings(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """100 per man, 150 per king, own minus the opponent's."""
    v = _terms(params, s, _KING, 0.0, False)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def back_rank(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """``kings`` + 12 per man on its own back row."""
    v = _terms(params, s, _KING, _BACK, False)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """``back_rank`` + steps available, advancement of men and centre control."""
    v = _terms(params, s, _KING, _BACK, True)
    return v if player == 0 else -v


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """Jumps first, then moves that crown, then men moving towards the centre."""
    rows, cols = params[P_ROWS], params[P_COLS]
    for i in range(n):
        a = moves[i]
        kind = a & 1
        d = (a >> 1) & 3
        square = a >> 3
        piece = s[S_CELLS + square]
        r = square // cols + DIR_ROWS[d] * (kind + 1)
        c = square % cols + DIR_COLS[d] * (kind + 1)
        score = 4.0 if kind == JUMP else 0.0
        if (piece == MAN0 and r == 0) or (piece == MAN1 and r == rows - 1):
            score += 2.0
        if kind == STEP and piece & 1:
            score += 1.0 - abs(2.0 * c - (cols - 1)) / cols
        scores[i] = score


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """The legal jumps (all the legal moves when a capture is due, else none)."""
    if s[S_STATUS] != ONGOING:
        return 0
    n = generate(params, s, out)
    if n > 0 and (out[0] & 1) == JUMP:
        return n
    return 0


HEURISTICS = {
    "material": Heuristic("material", material, "100 per piece, own minus the opponent's", symmetric=True),
    "kings": Heuristic("kings", kings, "100 per man, 150 per king", symmetric=True),
    "back_rank": Heuristic("back_rank", back_rank, "kings + 12 per man on its own back row", symmetric=True),
    "mobility": Heuristic("mobility", mobility, "back_rank + 4 per step, 2 per row advanced, 6 per centre piece "
                          "(Samuel's MOB, ADV, CENT), 300 x piece difference / pieces (trade when ahead)",
                          symmetric=True),
}
