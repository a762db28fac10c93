"""Nine Men's Morris's search knowledge: five heuristics, the ordering hint and the forcing
moves (those that close a mill, and removals) that the quiescence search follows.

Every heuristic is from ``player``'s point of view and counts a removal due as done; each
is antisymmetric (h(s, 0) == -h(s, 1) for every position).

``petcu`` is the evaluation of S.-A. Petcu and S. Holban, *Nine Men's Morris: evaluation
functions* (2008): three weighted sums, one per phase of the game (placing while either
side has men in hand, flying while either side flies, moving otherwise), over (1) a mill
closed on the last move (here: the removal it earns is still due), (2) closed mills, (3)
blocked men (no adjacent empty point; the opponent's count for, one's own against), (4)
men, (5) two-men configurations (two men on a mill line, its third point empty), (6)
three-men configurations (a man shared by two two-men configurations: two ways to close
a mill), (7) double mills (a man shared by two closed mills) and (8) a won position (the
removal due leaves the opponent two men, or the opponent, moving, has every man
blocked). Placing uses 1-6, moving 1-4, 7, 8 and flying 1, 5, 6, 8, as in the paper; the
paper's weights were the starting point of the self-play tuning that gave PETCU_WEIGHTS.
Its only mobility term is a man with no move at all: ``men_mobility`` (men and every
adjacent move) beats it at equal nodes and at equal time, and is the game's default.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel,
    lowest_bit, popcount,
)
from zerosum.games.nine_mens_morris.rules import closes_mill, legal, men, phase
from zerosum.games.nine_mens_morris.tables import (
    ADJ, FLYING, FULL, MILLS, MILLS_OF, MOVE_BASE, MOVING, NUM_POINTS, PLACING, S_MEN, S_REMOVAL, S_TO_MOVE,
)


@helper
def _material(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Men difference; a removal due counts as the opponent's man already gone."""
    v = float(men(params, s, player) - men(params, s, 1 - player))
    if s[S_REMOVAL] != 0:
        v += 1.0 if s[S_TO_MOVE] == player else -1.0
    return v


@helper
def _mills_of(board: int, other: int) -> int:  # pragma: no cover - compiled
    """Closed mills of board."""
    n = 0
    for m in MILLS:
        if board & m == m:
            n += 1
    return n


@helper
def _open_twos(board: int, other: int) -> int:  # pragma: no cover - compiled
    """Mill lines holding two of board's men and an empty third point."""
    n = 0
    for m in MILLS:
        if other & m == 0 and popcount(board & m) == 2:
            n += 1
    return n


@helper
def _mobility(board: int, other: int) -> int:  # pragma: no cover - compiled
    """(man, adjacent empty point) pairs: the moves of the moving phase."""
    empty = FULL & ~(board | other)
    n = 0
    for p in range(NUM_POINTS):
        if (board >> p) & 1:
            n += popcount(ADJ[p] & empty)
    return n


@kernel(HEURISTIC)
def men_count(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Men (on the board and in hand) minus the opponent's; a removal due counts as done."""
    return _material(params, s, player)


@kernel(HEURISTIC)
def men_mills(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 per man of difference, plus 1 per closed mill of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + float(_mills_of(a, b) - _mills_of(b, a))


@kernel(HEURISTIC)
def men_mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 per man of difference, plus 1 per adjacent move of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + float(_mobility(a, b) - _mobility(b, a))


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 per man of difference, plus 3 per open two-in-a-row of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + 3.0 * float(_open_twos(a, b) - _open_twos(b, a))


# ---- petcu: the feature set of Petcu & Holban (2008), weighted per phase ----------------------
PETCU_FEATURES = (
    "placing: closed mill", "placing: mills", "placing: blocked men", "placing: men", "placing: two-men",
    "placing: three-men", "moving: closed mill", "moving: mills", "moving: blocked men", "moving: men",
    "moving: double mills", "moving: win", "flying: closed mill", "flying: two-men", "flying: three-men",
    "flying: win",
)
"""The features of ``petcu`` by phase of the game, each own minus the opponent's."""
# The output of ``python experiments/tune_heuristic.py nine_mens_morris petcu --iterations 40 --pairs 16 --workers 2
# --a 0.5 --versus men_mills --final-pairs 50`` (seed 0, 20,000 nodes a move, 59 minutes), SPSA from the paper's
# weights 18 26 1 9 10 7 | 14 43 10 11 8 1086 | 16 10 1 1190. Its final matches, 100 games each: tuned vs the
# paper's 40/38/22, Elo +63 [+17, +115]; tuned vs men_mills 41/17/42, -3 [-64, +56]; the paper's weights vs
# men_mills 32/11/57, -89 [-157, -22].
PETCU_WEIGHTS = np.array([18.0, 33.315, 1.15, 14.088, 8.182, 7.839, 13.599, 39.159, 10.52, 12.333, 9.809, 1480.393,
                          15.349, 9.961, 0.997, 1697.791])
"""The weights of PETCU_FEATURES, tuned by self-play (experiments/tune_heuristic.py; the run is cited above)."""


@helper
def _configurations(own: int, opp: int) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """own's closed mills, two-men configurations (two men on a mill line, the third point
    empty), three-men configurations (men shared by two two-men configurations) and
    double mills (men shared by two closed mills)."""
    mills = 0
    twos = 0
    in_mill = 0
    in_two = 0
    shared_mill = 0
    shared_two = 0
    for m in MILLS:
        mine = own & m
        if mine == m:
            mills += 1
            shared_mill |= in_mill & m
            in_mill |= m
        elif opp & m == 0 and popcount(mine) == 2:
            twos += 1
            shared_two |= in_two & mine
            in_two |= mine
    return mills, twos, popcount(shared_two), popcount(shared_mill)


@helper
def _blocked(own: int, empty: int) -> int:  # pragma: no cover - compiled
    """own's men with no adjacent empty point."""
    n = 0
    while own != 0:
        p = lowest_bit(own)
        own &= own - 1
        if ADJ[p] & empty == 0:
            n += 1
    return n


@helper
def _won(params: Params, s: State, p: int, blocked: int) -> int:  # pragma: no cover - compiled
    """1 when p has all but won: the removal p has due leaves the opponent 2 men, or the
    opponent, moving (not placing or flying), has every man blocked."""
    q = 1 - p
    if s[S_REMOVAL] != 0 and s[S_TO_MOVE] == p and men(params, s, q) <= 3:
        return 1
    return 1 if phase(params, s, q) == MOVING and blocked == popcount(s[S_MEN + q]) else 0


@helper
def petcu_value(params: Params, s: State, player: int, w: F64Array) -> float:  # pragma: no cover - compiled
    """The Petcu & Holban evaluation with weights w (PETCU_FEATURES), from player's side."""
    own = s[S_MEN + player]
    opp = s[S_MEN + 1 - player]
    empty = FULL & ~(own | opp)
    mills, twos, threes, doubles = _configurations(own, opp)
    o_mills, o_twos, o_threes, o_doubles = _configurations(opp, own)
    closed = 0
    if s[S_REMOVAL] != 0:
        closed = 1 if s[S_TO_MOVE] == player else -1
    ph_me = phase(params, s, player)
    ph_op = phase(params, s, 1 - player)
    if ph_me == PLACING or ph_op == PLACING:
        v = (w[0] * closed + w[1] * (mills - o_mills) + w[2] * (_blocked(opp, empty) - _blocked(own, empty))
             + w[3] * _material(params, s, player) + w[4] * (twos - o_twos) + w[5] * (threes - o_threes))
    else:
        blocked_op = _blocked(opp, empty)
        blocked_me = _blocked(own, empty)
        won = _won(params, s, player, blocked_op) - _won(params, s, 1 - player, blocked_me)
        if ph_me == FLYING or ph_op == FLYING:
            v = w[12] * closed + w[13] * (twos - o_twos) + w[14] * (threes - o_threes) + w[15] * won
        else:
            v = (w[6] * closed + w[7] * (mills - o_mills) + w[8] * (blocked_op - blocked_me)
                 + w[9] * _material(params, s, player) + w[10] * (doubles - o_doubles) + w[11] * won)
    return min(max(v, 1.0 - HEURISTIC_LIMIT), HEURISTIC_LIMIT - 1.0)


@kernel(HEURISTIC)
def petcu(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Petcu & Holban (2008): closed mill, mills, blocked men, men, two- and three-men
    configurations, double mills and a won position, weighted per phase (PETCU_WEIGHTS)."""
    return petcu_value(params, s, player, PETCU_WEIGHTS)


@helper
def _moved(own: int, a: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The mover's men after placing or moving action a (not a removal), and the point reached."""
    if a < MOVE_BASE:
        return own | (1 << a), a
    q = (a - MOVE_BASE) % NUM_POINTS
    return own ^ ((1 << ((a - MOVE_BASE) // NUM_POINTS)) | (1 << q)), q


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Mill-closing moves 2, mill-blocking moves +1; removals: men in an open two first."""
    me = s[S_TO_MOVE]
    own = s[S_MEN + me]
    opp = s[S_MEN + 1 - me]
    empty = FULL & ~(own | opp)
    for i in range(n):
        a = moves[i]
        score = 0.0
        if s[S_REMOVAL] != 0:
            for j in range(2):
                m = MILLS_OF[a, j]
                if popcount(opp & m) == 2 and (m & empty) != 0:
                    score = 1.0
        else:
            board, q = _moved(own, a)
            if closes_mill(board, q):
                score += 2.0
            for j in range(2):
                other = MILLS_OF[q, j] & ~(1 << q)
                if opp & other == other:
                    score += 1.0
                    break
        scores[i] = score


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """The forcing moves: every removal (while one is due) and the moves that close a mill."""
    n = legal(params, s, out)
    if s[S_REMOVAL] != 0:
        return n
    own = s[S_MEN + s[S_TO_MOVE]]
    m = 0
    for i in range(n):
        a = out[i]
        board, q = _moved(own, a)
        if closes_mill(board, q):
            out[m] = a
            m += 1
    return m


HEURISTICS = {
    "men": Heuristic("men", men_count, "men on the board and in hand, own minus the opponent's", symmetric=True),
    "men_mills": Heuristic("men_mills", men_mills, "10 x men difference + closed mills difference", symmetric=True),
    "men_mobility": Heuristic("men_mobility", men_mobility, "10 x men difference + adjacent-move difference",
                              symmetric=True),
    "threats": Heuristic("threats", threats, "10 x men difference + 3 x open two-in-a-row difference",
                         symmetric=True),
    "petcu": Heuristic("petcu", petcu, "Petcu & Holban (2008): closed mill, mills, blocked men, men, two- and "
                       "three-men configurations, double mills, a won position, weighted per phase", symmetric=True),
}
