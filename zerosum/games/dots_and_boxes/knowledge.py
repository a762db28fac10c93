"""Dots and Boxes' search knowledge: boxes, chains and the long-chain rule (Berlekamp).

A box with ``n`` sides drawn is an *n-box*. Boxes with two sides drawn join, across the
undrawn side they share, into *chains* (with two ends) and *loops* (with none); a chain of
three boxes or more is *long*. Once no safe move is left (every move gives boxes away),
the player who must open a long chain loses *control*: the other takes all of it but two
boxes, hands those two back with a double-dealing move, and so makes the opponent open
the next. Berlekamp's long-chain rule (*The Dots-and-Boxes Game*, 2000, ch. 2) says who
gets control on a rectangle of dots: the first player wants the number of dots plus the
number of long chains to be even, the second player wants it odd. Its proof is a count of
turns, which the heuristic makes from the position in hand: every move that takes no box
ends a turn, so the player to move draws the last line (and takes the last chain)
exactly when ``lines left - boxes left + double-crosses to come`` is even, and the
controller's double-crosses number one less than the long chains (a declined loop gives
two, which leaves the parity alone).

Heuristics (symmetric: computed for player 0 and negated for player 1):

* ``boxes``: the box difference, ``BOX`` a box.
* ``chains`` (the default): the box difference, with every box the player to move can
  take now (a 3-box and the 2-boxes joined to it) counted as the mover's, plus, once no
  safe move is left (every line gives a box away, so the chains are what they will be),
  the long-chain rule on the rest: the player the rule gives control to is credited with
  what control is worth (Berlekamp's *controlled value*: the boxes in long chains and
  loops, less the 2 boxes it hands back for every long chain but the last and 4 for
  every loop), ``CONTROL`` a box. In the middle game (no box to take, a safe move left)
  it is the box difference, read without building the chains, so that it costs about
  what ``boxes`` costs there. Measured on 5x5 at 0.1 s a move against ``boxes`` (``zerosum
  match --game dots_and_boxes "alphabeta(time=0.1)" "alphabeta(time=0.1, heuristic=boxes)"
  --variant num_rows=5 num_cols=5 --max-games 20``): 9 of 20, level within the interval;
  applying the rule while safe moves remained (to chains still forming) and building the
  chains at every position had scored 5 and 6 of 20.

The ordering hint tries moves that take a box first, then safe moves (lines next to no
box with two sides drawn), then the rest, fewest boxes given away first. The forcing
moves (what the quiescence search follows past the horizon) are the moves that take a
box.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.dots_and_boxes.rules import (
    P_COLS, P_HLINES, P_LINES, P_ROWS, S_DRAWN, S_SCORE0, S_SCORE1, S_TO_MOVE, h_word, sides, v_word,
)
from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel,
    lowest_bit,
)

BOX = 20.0
"""Weight of one box in hand."""
CONTROL = 10.0
"""Weight of one box of controlled value (a forecast, so less than a box in hand)."""


@helper
def _side_counts(params: Params, s: State, count: I64Array) -> None:  # pragma: no cover - compiled
    """count[r*C + c] = sides drawn of box (r, c)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    for r in range(rows):
        for c in range(cols):
            count[r * cols + c] = sides(params, s, r, c)


@helper
def _open_side(params: Params, s: State, r: int, c: int, d: int) -> bool:  # pragma: no cover - compiled
    """Whether side ``d`` (0 up, 1 down, 2 left, 3 right) of box (r, c) is undrawn."""
    if d == 0:
        return ((s[h_word(params, r)] >> c) & 1) == 0
    if d == 1:
        return ((s[h_word(params, r + 1)] >> c) & 1) == 0
    vw = s[v_word(params, r)]
    return ((vw >> (c if d == 2 else c + 1)) & 1) == 0


@helper
def _neighbour(params: Params, r: int, c: int, d: int) -> int:  # pragma: no cover - compiled
    """The box across side ``d`` of box (r, c), -1 at the edge of the board."""
    rows, cols = params[P_ROWS], params[P_COLS]
    if d == 0:
        return (r - 1) * cols + c if r > 0 else -1
    if d == 1:
        return (r + 1) * cols + c if r < rows - 1 else -1
    if d == 2:
        return r * cols + c - 1 if c > 0 else -1
    return r * cols + c + 1 if c < cols - 1 else -1


@helper
def _analyse(params: Params, s: State, out: I64Array) -> None:  # pragma: no cover - compiled
    """The chain structure: out = [boxes the mover can take now, long chains, loops,
    boxes in long chains and loops, 1 if a safe move is left else 0]. Components are grown
    over 2-boxes and 3-boxes across undrawn shared sides; one holding a 3-box is open (the
    mover takes it), one without is a chain (it has an end: an undrawn side to the edge or
    to a box with fewer sides) or a loop."""
    rows, cols = params[P_ROWS], params[P_COLS]
    n = rows * cols
    count = np.empty(n, np.int64)
    _side_counts(params, s, count)
    seen = np.zeros(n, np.int64)
    stack = np.empty(n, np.int64)
    out[0] = 0
    out[1] = 0
    out[2] = 0
    out[3] = 0
    out[4] = 0
    for r in range(rows + 1):  # a safe move: an undrawn line next to no box with two sides or more
        for c in range(cols):
            if not (s[h_word(params, r)] >> c) & 1 and (r == 0 or count[(r - 1) * cols + c] <= 1) \
                    and (r == rows or count[r * cols + c] <= 1):
                out[4] = 1
    for r in range(rows):
        for c in range(cols + 1):
            if not (s[v_word(params, r)] >> c) & 1 and (c == 0 or count[r * cols + c - 1] <= 1) \
                    and (c == cols or count[r * cols + c] <= 1):
                out[4] = 1
    for start in range(n):
        if seen[start] or count[start] < 2 or count[start] > 3:
            continue
        seen[start] = 1
        stack[0] = start
        top = 1
        size = 0
        threes = 0
        ends = 0
        while top > 0:
            top -= 1
            x = stack[top]
            size += 1
            if count[x] == 3:
                threes += 1
            r = x // cols
            c = x % cols
            for d in range(4):
                if not _open_side(params, s, r, c, d):
                    continue
                y = _neighbour(params, r, c, d)
                if y < 0 or count[y] < 2 or count[y] > 3:
                    ends += 1
                    continue
                if not seen[y]:
                    seen[y] = 1
                    stack[top] = y
                    top += 1
        if threes > 0:
            out[0] += size
        elif ends == 0:
            out[2] += 1
            out[3] += size
        elif size >= 3:
            out[1] += 1
            out[3] += size


@helper
def _quiet(params: Params, s: State) -> bool:  # pragma: no cover - compiled
    """No box can be taken (none has three sides) and a safe move is left (an undrawn line
    with no box beside it that has two sides): the middle game, where ``chains`` is the box
    difference. Reads the sides straight from the lines (no arrays: most positions a search
    evaluates are such)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    safe = False
    for r in range(rows + 1):
        hw = s[h_word(params, r)]
        for c in range(cols):
            above = sides(params, s, r - 1, c) if r > 0 else 0
            below = sides(params, s, r, c) if r < rows else 0
            if above == 3 or below == 3:
                return False
            if not safe and not (hw >> c) & 1 and above <= 1 and below <= 1:
                safe = True
    if safe:
        return True
    for r in range(rows):
        vw = s[v_word(params, r)]
        for c in range(cols + 1):
            if not (vw >> c) & 1 and (c == 0 or sides(params, s, r, c - 1) <= 1) \
                    and (c == cols or sides(params, s, r, c) <= 1):
                return True
    return False


@kernel(HEURISTIC)
def boxes(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """BOX a box, own minus the opponent's."""
    v = BOX * (s[S_SCORE0] - s[S_SCORE1])
    return v if player == 0 else -v


@kernel(HEURISTIC)
def chains(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """The box difference with the mover's takeable boxes, plus, once no safe move is left,
    the long-chain rule's controlled value for the player it gives control to (see the
    module docstring)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    v = BOX * (s[S_SCORE0] - s[S_SCORE1])
    if _quiet(params, s):
        return v if player == 0 else -v
    info = np.empty(5, np.int64)
    _analyse(params, s, info)
    mover_sign = 1.0 if s[S_TO_MOVE] == 0 else -1.0
    v += BOX * mover_sign * info[0]
    long_chains, loops, held = info[1], info[2], info[3]
    if long_chains + loops > 0 and info[4] == 0:
        # The player to move draws the last line (and takes the last chain) exactly when
        # the turns still to change, lines left - boxes left + double-crosses to come, are
        # even; the controller's double-crosses: one a long chain but the last, two a loop.
        lines_left = params[P_LINES] - s[S_DRAWN]
        boxes_left = rows * cols - s[S_SCORE0] - s[S_SCORE1]
        crosses = long_chains - 1 if long_chains > 0 else 0
        controller = mover_sign if (lines_left - boxes_left + crosses) % 2 == 0 else -mover_sign
        back = 2 * (long_chains - 1) + 4 * loops if long_chains > 0 else 4 * (loops - 1)
        worth = held - 2 * back  # what the controller keeps less what it hands back
        if worth > 0:
            v += CONTROL * controller * worth
    v = min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)
    return v if player == 0 else -v


@helper
def _given(params: Params, s: State, count: I64Array, a: int) -> int:  # pragma: no cover - compiled
    """For the line of action ``a``: 10 if it takes a box, else how many boxes beside it
    it turns into 3-boxes (0: a safe move)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    hlines = params[P_HLINES]
    first = -1
    second = -1
    if a < hlines:
        r = a // cols
        c = a % cols
        if r > 0:
            first = (r - 1) * cols + c
        if r < rows:
            second = r * cols + c
    else:
        b = a - hlines
        r = b // (cols + 1)
        c = b % (cols + 1)
        if c > 0:
            first = r * cols + c - 1
        if c < cols:
            second = r * cols + c
    given = 0
    for x in (first, second):
        if x >= 0:
            if count[x] == 3:
                return 10
            if count[x] == 2:
                given += 1
    return given


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Moves that take a box, then safe moves, then the rest (fewest boxes given first)."""
    count = np.empty(params[P_ROWS] * params[P_COLS], np.int64)
    _side_counts(params, s, count)
    for i in range(n):
        g = _given(params, s, count, moves[i])
        scores[i] = 3.0 if g == 10 else 2.0 - g


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """The moves that take a box, ascending."""
    rows, cols = params[P_ROWS], params[P_COLS]
    count = np.empty(rows * cols, np.int64)
    _side_counts(params, s, count)
    n = 0
    hmask = (1 << cols) - 1
    for r in range(rows + 1):
        free = hmask & ~s[h_word(params, r)]
        for _ in range(cols):
            if free == 0:
                break
            a = r * cols + lowest_bit(free)
            free &= free - 1
            if _given(params, s, count, a) == 10:
                out[n] = a
                n += 1
    vmask = (1 << (cols + 1)) - 1
    for r in range(rows):
        free = vmask & ~s[v_word(params, r)]
        for _ in range(cols + 1):
            if free == 0:
                break
            a = params[P_HLINES] + r * (cols + 1) + lowest_bit(free)
            free &= free - 1
            if _given(params, s, count, a) == 10:
                out[n] = a
                n += 1
    return n


HEURISTICS = {
    "boxes": Heuristic("boxes", boxes, "the box difference", symmetric=True),
    "chains": Heuristic("chains", chains, "boxes, takeable boxes and the long-chain rule's controlled value",
                        symmetric=True),
}
