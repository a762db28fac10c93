"""Oware's rules as kernels, as OpenSpiel's ``oware`` plays them.

params: ``[houses, seeds, total, cap]``: houses a player (``num_houses_per_player``),
seeds a house at the start, all the seeds, and OpenSpiel's ``kMaxGameLength`` (1000).

state: ``[to_move, score_0, score_1, moves, seen, houses..., boards seen...]``: the
``2 * houses`` counts in sowing order (player 0's houses ``0..H-1`` left to right as it
sees them, then player 1's ``H..2H-1``), then ``seen`` 64-bit keys, ascending, of the
boards (the player to move and the counts) met since the last capture, before the
current one: OpenSpiel's ``boards_since_last_capture_`` but for the current board (the
scores cannot change between captures, so they are left out). A move that makes a board
of that set, or the board it was played from, again ends the game: each player collects
the seeds of its own row. The slots past ``seen`` are 0, so one history is one vector;
there are ``cap + 1`` of them (no game has more boards since a capture than moves).
``moves`` counts the moves played: OpenSpiel stops with an error at move 1,001, so a game
still going after 1,000 moves ends here as a repetition does. The key covers the player
to move, the scores and the counts, not the moves or the boards seen (as chess's key leaves out its history).
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array, Params,
    State, helper, i64, kernel, shr,
)

P_HOUSES, P_SEEDS, P_TOTAL, P_CAP = 0, 1, 2, 3
S_TO_MOVE, S_SCORE, S_MOVES, S_SEEN_COUNT, S_HOUSES = 0, 1, 3, 4, 5  # S_SCORE + p: player p's score
_MIX = i64(0xFF51AFD7ED558CCD)  # MurmurHash3's finaliser multiplier
_SEED = i64(0x9E3779B97F4A7C15)


def state_size(houses: int, cap: int) -> int:
    """The length of a state with ``houses`` houses a player and a move cap ``cap``."""
    return S_HOUSES + 2 * houses + cap + 1


@helper
def seen_base(params: Params) -> int:  # pragma: no cover - compiled
    """The first slot of the boards seen."""
    return S_HOUSES + 2 * params[P_HOUSES]


@helper
def row_seeds(s: State, houses: int, p: int) -> int:  # pragma: no cover - compiled
    """The seeds in player ``p``'s row."""
    n = 0
    for i in range(p * houses, (p + 1) * houses):
        n += s[S_HOUSES + i]
    return n


@helper
def board_key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the player to move and the counts: what a repetition compares."""
    h = _SEED * (s[S_TO_MOVE] + 1)
    for i in range(2 * params[P_HOUSES]):
        h = (h ^ s[S_HOUSES + i]) * _MIX
        h ^= shr(h, 29)
    return h


@helper
def over(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """OpenSpiel's ``IsTerminal``: a score above half the seeds, or half each."""
    limit = params[P_TOTAL] // 2
    a, b = s[S_SCORE], s[S_SCORE + 1]
    if a > limit:
        return P0_WINS
    if b > limit:
        return P1_WINS
    if a == limit and b == limit:
        return DRAW
    return ONGOING


@helper
def may_sow(params: Params, s: State, p: int, a: int, feed: bool) -> bool:  # pragma: no cover - compiled
    """Whether player ``p`` may sow its house ``a`` (0 its first): it holds seeds, and, when
    the opponent has none (``feed``), enough of them to reach the opponent's row."""
    houses = params[P_HOUSES]
    seeds = s[S_HOUSES + p * houses + a]
    if feed:
        return seeds > houses - 1 - a
    return seeds > 0


@helper
def moves_of(params: Params, s: State, out: I64Array, write: bool) -> int:  # pragma: no cover - compiled
    """The legal actions (OpenSpiel's ``LegalActions``), written into ``out`` when
    ``write``; returns how many."""
    if over(params, s) != ONGOING:
        return 0
    houses = params[P_HOUSES]
    p = s[S_TO_MOVE]
    feed = row_seeds(s, houses, 1 - p) == 0
    n = 0
    for a in range(houses):  # without a branch on the seeds (which houses hold enough is a coin toss)
        if write:
            out[n] = a
        n += may_sow(params, s, p, a, feed)
    return n


@helper
def sow(s: State, houses: int, house: int) -> int:  # pragma: no cover - compiled
    """Sow ``house``'s seeds counterclockwise, one a house, never into ``house`` itself;
    returns the last house sown."""
    n = 2 * houses
    left = s[S_HOUSES + house]
    s[S_HOUSES + house] = 0
    at = house
    for _ in range(2 * left + 1):
        if left == 0:
            break
        at += 1  # no modulo: a compare wraps (a division a seed was much of a move's cost)
        if at == n:
            at = 0
        if at != house:
            s[S_HOUSES + at] += 1
            left -= 1
    return at


@helper
def grand_slam(s: State, houses: int, last: int, lower: int) -> bool:  # pragma: no cover - compiled
    """OpenSpiel's ``IsGrandSlam``: the houses past ``last`` in its row (which starts at
    ``lower``) are empty and every house from ``last`` back to the row's first holds 2 or 3
    seeds, so a capture would take the whole row."""
    for i in range(last + 1, lower + houses):
        if s[S_HOUSES + i] > 0:
            return False
    for i in range(lower, last + 1):  # noqa: SIM110 - numba compiles no generator expressions
        if s[S_HOUSES + i] < 2 or s[S_HOUSES + i] > 3:
            return False
    return True


@helper
def capture(s: State, last: int, lower: int, p: int) -> int:  # pragma: no cover - compiled
    """Take the houses holding 2 or 3 seeds from ``last`` back towards the row's first
    (``lower``), until one does not, into player ``p``'s score; returns the seeds taken."""
    taken = 0
    for i in range(last, lower - 1, -1):
        c = s[S_HOUSES + i]
        if c < 2 or c > 3:
            break
        taken += c
        s[S_HOUSES + i] = 0
    s[S_SCORE + p] += taken
    return taken


@helper
def collect(s: State, houses: int) -> None:  # pragma: no cover - compiled
    """The end: each player's score takes the seeds of its row (``CollectAndTerminate``)."""
    for p in range(2):
        for i in range(p * houses, (p + 1) * houses):
            s[S_SCORE + p] += s[S_HOUSES + i]
            s[S_HOUSES + i] = 0


@helper
def seen(params: Params, s: State, key_: int) -> bool:  # pragma: no cover - compiled
    """Whether ``key_`` is among the boards seen."""
    base = seen_base(params)
    for i in range(s[S_SEEN_COUNT]):  # noqa: SIM110 - numba compiles no generator expressions
        if s[base + i] == key_:
            return True
    return False


@helper
def remember(params: Params, s: State, key_: int) -> None:  # pragma: no cover - compiled
    """Add ``key_`` to the boards seen, keeping them ascending (a set: one history, one vector)."""
    base = seen_base(params)
    n = s[S_SEEN_COUNT]
    at = n
    for i in range(n):
        if s[base + i] == key_:
            return
        if s[base + i] > key_:
            at = i
            break
    for i in range(n, at, -1):
        s[base + i] = s[base + i - 1]
    s[base + at] = key_
    s[S_SEEN_COUNT] = n + 1


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return over(params, s)


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    return moves_of(params, s, out, True)


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    houses = params[P_HOUSES]
    if a < 0 or a >= houses or over(params, s) != ONGOING:
        return False
    p = s[S_TO_MOVE]
    return may_sow(params, s, p, a, row_seeds(s, houses, 1 - p) == 0)


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    """OpenSpiel's ``DoApplyAction``: sow; capture from the last house when it is in the
    opponent's row and the capture would not take the whole row (a grand slam captures
    nothing); the turn passes; a capture forgets the boards seen; a board seen before
    ends the game, and so does a mover left without a legal move (or, past OpenSpiel's
    cap, the 1,000th move): each player collects its row."""
    houses = params[P_HOUSES]
    base = seen_base(params)
    live = base + s[S_SEEN_COUNT]
    for i in range(live):  # the boards seen end at live: copy up to there and fill the rest with 0
        child[i] = s[i]  # (a slice fill; copying the whole vector, 8 kB, was most of a move's cost)
    child[live:] = 0
    p = s[S_TO_MOVE]
    last = sow(child, houses, p * houses + a)
    lower = (1 - p) * houses  # the opponent's row starts here
    if lower <= last < lower + houses and not grand_slam(child, houses, last, lower) \
            and capture(child, last, lower, p) > 0:
        for i in range(child[S_SEEN_COUNT]):
            child[base + i] = 0
        child[S_SEEN_COUNT] = 0
    else:
        remember(params, child, board_key(params, s))
    child[S_TO_MOVE] = 1 - p
    child[S_MOVES] = s[S_MOVES] + 1
    repeated = seen(params, child, board_key(params, child))
    if repeated or moves_of(params, child, child, False) == 0 or child[S_MOVES] >= params[P_CAP]:
        collect(child, houses)


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the player to move, the scores and the counts."""
    h = board_key(params, s)
    h = (h ^ s[S_SCORE]) * _MIX
    h ^= shr(h, 29)
    h = (h ^ s[S_SCORE + 1]) * _MIX
    h ^= shr(h, 31)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """Rows: the observer's houses (its first to its last), the opponent's, the observer's
    score, the opponent's score; each a row of ``total`` cells, cell ``j`` 1 when it holds
    more than ``j`` seeds (plane 0); plane 1 all ones when the observer is to move."""
    houses = params[P_HOUSES]
    width = params[P_TOTAL]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for row in range(2 * houses + 2):
        if row < 2 * houses:
            count = s[S_HOUSES + (player_ * houses + row) % (2 * houses)]
        else:
            count = s[S_SCORE + (player_ if row == 2 * houses else 1 - player_)]
        for j in range(width):
            k = 2 * (row * width + j)
            out[k] = 1 if count > j else 0
            out[k + 1] = mover
