"""Go's rules as kernels: OpenSpiel's ``go`` (simple ko, no suicide, Tromp-Taylor area
scoring, the game drawn at once on a positional superko).

The boards are bitboards of ``K`` words (see :mod:`zerosum.games.go.tables`); groups and
their liberties are found by flood fill, one word-wise neighbour step a pass, in scratch
bitboards on the stack (:mod:`zerosum.games.go.scratch`).

state (``S_HIST + max_game_length + 1`` words)::

    [black words (K_MAX), white words (K_MAX), to_move, ko, passed, moves, status,
     board key, history key, boards seen, the keys of the boards seen, ascending, then zeros]

``ko`` is the point the player to move may not play (a simple ko just taken), -1 for none;
``passed`` is 1 when the last move was a pass (a second pass ends the game); ``moves``
counts the moves played, passes included (the game ends at ``max_game_length``);
``status`` is set by ``apply`` when the game ends; the board key is the Zobrist key of the
stones; the boards seen are every board of the game so far, the present one included (a
move that makes one of them again is a positional superko: OpenSpiel ends the game there
as a draw), kept as a sorted set of their keys, with a key of the whole set for ``key``.
action: ``row * N + col`` (row 0 is row 1 of the board, at the bottom), ``N * N`` = pass.
"""

from __future__ import annotations

from zerosum.games.go.scratch import words
from zerosum.games.go.tables import (
    HISTORY_SALT, K_MAX, P_ACTION_TO_BIT, P_BIT_TO_ACTION, P_HANDICAP, P_K, P_KOMI2, P_MASK, P_MAX_LENGTH, P_N,
    P_ROW0, P_TOP_SHIFT, P_W, ZOBRIST,
)
from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array, Params,
    State, helper, kernel, lowest_bit, popcount, shr,
)

S_BLACK, S_WHITE = 0, K_MAX
S_TO_MOVE, S_KO, S_PASSED, S_MOVES, S_STATUS, S_HASH, S_HIST_KEY, S_SEEN = range(2 * K_MAX, 2 * K_MAX + 8)
S_HIST = S_SEEN + 1
NO_POINT = -1
PLANES = 6
"""Observation planes: own stones, the opponent's, the ko point, the observer to move, the
observer plays black, the last move was a pass."""


@helper
def mix(x: int) -> int:  # pragma: no cover - compiled
    """splitmix64's finaliser: a board key as it enters the history key."""
    z = x ^ HISTORY_SALT
    z = (z ^ shr(z, 30)) * -4658895280553007687   # 0xBF58476D1CE4E5B9
    z = (z ^ shr(z, 27)) * -7723592293110705685   # 0x94D049BB133111EB
    return z ^ shr(z, 31)


@helper
def neighbours(params: Params, a: I64Array, off: int, k: int) -> int:  # pragma: no cover - compiled
    """Word ``k`` of the points next to the stones of the bitboard ``a[off:off + K]``."""
    x = a[off + k]
    w = params[P_W]
    r = (x << 1) | (x >> 1) | (x << w) | (x >> w)
    if k > 0:
        r |= a[off + k - 1] >> params[P_TOP_SHIFT]
    if k < params[P_K] - 1:
        r |= (a[off + k + 1] & params[P_ROW0]) << params[P_TOP_SHIFT]
    return r & params[P_MASK + k]


@helper
def empty_word(params: Params, s: State, k: int) -> int:  # pragma: no cover - compiled
    """Word ``k`` of the empty points."""
    return ~(s[S_BLACK + k] | s[S_WHITE + k]) & params[P_MASK + k]


@helper
def spread(params: Params, g: I64Array, k: int, stones: int) -> None:  # pragma: no cover - compiled
    """Grow ``g[k]`` through ``stones`` (word ``k``'s) until it stops, inside its word."""
    w = params[P_W]
    x = g[k]
    for _ in range(64):
        y = (x | (x << 1) | (x >> 1) | (x << w) | (x >> w)) & stones
        if y == x:
            break
        x = y
    g[k] = x


@helper
def liberties(params: Params, s: State, colour: int, seed: int, but: int, cap: int,  # pragma: no cover - compiled
              g: I64Array) -> int:
    """The liberties of the group of ``colour`` (0 black, 1 white) through the point
    ``seed`` (word * 64 + bit), the point ``but`` (word * 64 + bit; -1: none) not counted,
    counted up to ``cap``: the fill stops as soon as it has found ``cap``. ``g[:K]`` holds
    the group (the whole group when fewer than ``cap`` were found), ``g[K_MAX:K_MAX + K]``
    the liberties found."""
    kk = params[P_K]
    for k in range(kk):
        g[k] = 0
        g[K_MAX + k] = 0
    g[seed >> 6] = 1 << (seed & 63)
    off = S_BLACK if colour == 0 else S_WHITE
    count = 0
    for step in range(params[P_N] * params[P_N]):
        grown = step == 0                  # first the seed's own liberties: often enough
        for k in range(kk):
            if step == 0:
                break
            before = g[k]
            g[k] = (before | neighbours(params, g, 0, k)) & s[off + k]
            spread(params, g, k, s[off + k])
            grown = grown or g[k] != before
        count = 0
        for k in range(kk):
            free = empty_word(params, s, k)
            if (but >> 6) == k:
                free &= ~(1 << (but & 63))
            g[K_MAX + k] |= neighbours(params, g, 0, k) & free
            count += popcount(g[K_MAX + k])
        if count >= cap or not grown:
            return count
    return count


@helper
def has_liberty(params: Params, s: State, colour: int, seed: int, but: int, g: I64Array) -> bool:  # pragma: no cover
    """Whether the group of ``colour`` through ``seed`` has a liberty other than ``but``
    (points as word * 64 + bit; ``but`` -1: none). When it has none, ``g[:K]`` holds the
    whole group."""
    return liberties(params, s, colour, seed, but, 1, g) > 0


@helper
def colour_at(s: State, wb: int) -> int:  # pragma: no cover - compiled
    """0 for a black stone at the point ``wb`` (word * 64 + bit), 1 for white, -1 if empty."""
    k, b = wb >> 6, wb & 63
    if (s[S_BLACK + k] >> b) & 1:
        return 0
    if (s[S_WHITE + k] >> b) & 1:
        return 1
    return -1


@helper
def next_to(params: Params, a: int, d: int) -> int:  # pragma: no cover - compiled
    """The point next to the point ``a`` in direction ``d`` (0: the row above, 1: right,
    2: left, 3: the row below), or -1 off the board."""
    n = params[P_N]
    r, q = a // n, a % n
    if d == 0:
        r += 1
    elif d == 1:
        q += 1
    elif d == 2:
        q -= 1
    else:
        r -= 1
    if r < 0 or r >= n or q < 0 or q >= n:
        return -1
    return r * n + q


@helper
def point_is_legal(params: Params, s: State, a: int, g: I64Array) -> bool:  # pragma: no cover - compiled
    """Whether the player to move may play on the point ``a`` (not a pass): empty, not the
    ko point, and not suicide (OpenSpiel's GoBoard::IsLegalMove)."""
    wb = params[P_ACTION_TO_BIT + a]
    if colour_at(s, wb) >= 0 or a == s[S_KO]:
        return False
    c = s[S_TO_MOVE]
    for d in range(4):
        nb = next_to(params, a, d)
        if nb < 0:
            continue
        nwb = params[P_ACTION_TO_BIT + nb]
        who = colour_at(s, nwb)
        if who < 0:
            return True                                        # an empty neighbour
        if who == c and has_liberty(params, s, c, nwb, wb, g):
            return True                                        # joins a group with another liberty
        if who != c and not has_liberty(params, s, who, nwb, wb, g):
            return True                                        # captures a group in atari
    return False


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_STATUS]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """Empty points with an empty neighbour are legal at once. A "tight" point (none) is
    legal when a neighbour group of the mover's has two liberties or more, or one of the
    opponent's has only one (that point: the move captures it); each group next to a tight
    point is filled once, and its stones marked ``good`` when it makes its tight
    neighbours legal."""
    if s[S_STATUS] != ONGOING:
        return 0
    kk = params[P_K]
    c = s[S_TO_MOVE]
    e = words()         # [0, K): empty points; [K_MAX, K_MAX + K): tight ones
    good = words()      # [0, K): the mover's stones in groups with 2 liberties or more, the opponent's in atari
    tight = 0
    for k in range(kk):
        e[k] = empty_word(params, s, k)
        good[k] = 0
    for k in range(kk):
        e[K_MAX + k] = e[k] & ~neighbours(params, e, 0, k)
        tight |= e[K_MAX + k]
    if tight:
        g = words()
        seeds = words()
        for side in range(2):
            colour = c if side == 0 else 1 - c
            off = S_BLACK if colour == 0 else S_WHITE
            for k in range(kk):
                seeds[k] = s[off + k] & neighbours(params, e, K_MAX, k)
            for k in range(kk):
                for _ in range(64):
                    if seeds[k] == 0:
                        break
                    libs = liberties(params, s, colour, k * 64 + lowest_bit(seeds[k]), -1, 2, g)
                    mark = libs >= 2 if side == 0 else libs == 1
                    for j in range(kk):
                        seeds[j] &= ~g[j]
                        if mark:
                            good[j] |= g[j]
    ko = params[P_ACTION_TO_BIT + s[S_KO]] if s[S_KO] >= 0 else -1
    n = 0
    for k in range(kk):
        tk = e[K_MAX + k]
        ok = (e[k] & ~tk) | (tk & neighbours(params, good, 0, k))
        if (ko >> 6) == k:
            ok &= ~(1 << (ko & 63))
        while ok:
            b = lowest_bit(ok)
            ok &= ok - 1
            out[n] = params[P_BIT_TO_ACTION + k * 64 + b]
            n += 1
    out[n] = params[P_N] * params[P_N]                 # the pass is always legal
    return n + 1


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    n2 = params[P_N] * params[P_N]
    if a < 0 or a > n2 or s[S_STATUS] != ONGOING:
        return False
    if a == n2:
        return True
    g = words()
    return point_is_legal(params, s, a, g)


@helper
def score_status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The result by Tromp-Taylor area scoring (OpenSpiel's TrompTaylorScore): stones, plus
    empty regions that reach only one colour, minus komi, minus the handicap for black."""
    kk = params[P_K]
    seen = words()
    g = words()
    delta = 0
    for k in range(kk):
        delta += popcount(s[S_BLACK + k]) - popcount(s[S_WHITE + k])
        seen[k] = 0
    for k in range(kk):
        for _ in range(64):
            todo = empty_word(params, s, k) & ~seen[k]
            if todo == 0:
                break
            for j in range(kk):
                g[j] = 0
            g[k] = todo & -todo
            for _ in range(params[P_N] * params[P_N]):     # fill the region through that point
                grown = False
                for j in range(kk):
                    now = (g[j] | neighbours(params, g, 0, j)) & empty_word(params, s, j)
                    if now != g[j]:
                        g[j] = now
                        grown = True
                if not grown:
                    break
            size, black, white = 0, False, False
            for j in range(kk):
                seen[j] |= g[j]
                size += popcount(g[j])
                nb = neighbours(params, g, 0, j)
                black = black or (nb & s[S_BLACK + j]) != 0
                white = white or (nb & s[S_WHITE + j]) != 0
            if black and not white:
                delta += size
            elif white and not black:
                delta -= size
    handicap = params[P_HANDICAP] if params[P_HANDICAP] >= 2 else 0
    score2 = 2 * (delta - handicap) - params[P_KOMI2]
    if score2 > 0:
        return P0_WINS
    if score2 < 0:
        return P1_WINS
    return DRAW


@helper
def seen_index(s: State, h: int) -> int:  # pragma: no cover - compiled
    """Where ``h`` is, or would be inserted, in the sorted keys of the boards seen."""
    lo, hi = 0, s[S_SEEN]
    while lo < hi:
        mid = (lo + hi) >> 1
        if s[S_HIST + mid] < h:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    n = params[P_N]
    kk = params[P_K]
    c = s[S_TO_MOVE]
    for k in range(child.shape[0]):       # the boards seen too: a pass or a repetition keeps them
        child[k] = s[k]
    child[S_TO_MOVE] = 1 - c
    child[S_MOVES] = s[S_MOVES] + 1
    child[S_KO] = NO_POINT
    m = s[S_SEEN]
    repeated = False
    ended = False
    if a == n * n:
        child[S_PASSED] = 1
        ended = s[S_PASSED] == 1
    else:
        child[S_PASSED] = 0
        own = S_BLACK if c == 0 else S_WHITE
        opp = S_WHITE if c == 0 else S_BLACK
        wb = params[P_ACTION_TO_BIT + a]
        row, col = a // n, a % n
        h = s[S_HASH] ^ ZOBRIST[c, 19 * row + col]
        child[own + (wb >> 6)] |= 1 << (wb & 63)
        g = words()
        eye = True                      # every neighbour an opponent's stone (or off the board)
        captured, last = 0, NO_POINT
        for d in range(4):
            nb = next_to(params, a, d)
            if nb < 0:
                continue
            nwb = params[P_ACTION_TO_BIT + nb]
            who = colour_at(child, nwb)
            if who != 1 - c:
                if colour_at(s, nwb) != 1 - c:
                    eye = False
                continue
            if has_liberty(params, child, 1 - c, nwb, -1, g):
                continue
            for k in range(kk):          # the group has no liberty: take it off
                x = g[k]
                child[opp + k] &= ~x
                while x:
                    b = lowest_bit(x)
                    x &= x - 1
                    p = params[P_BIT_TO_ACTION + k * 64 + b]
                    h ^= ZOBRIST[1 - c, 19 * (p // n) + p % n]
                    captured += 1
                    last = p
        if eye and captured == 1:
            child[S_KO] = last
        child[S_HASH] = h
        i = seen_index(s, h)
        repeated = i < m and s[S_HIST + i] == h
        if not repeated:                 # insert h in the sorted keys
            for j in range(m, i, -1):
                child[S_HIST + j] = s[S_HIST + j - 1]
            child[S_HIST + i] = h
            child[S_SEEN] = m + 1
            child[S_HIST_KEY] = s[S_HIST_KEY] ^ mix(h)
    if repeated:
        child[S_STATUS] = DRAW
    elif ended or child[S_MOVES] >= params[P_MAX_LENGTH]:
        child[S_STATUS] = score_status(params, child)
    else:
        child[S_STATUS] = ONGOING


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The stones' Zobrist key, the key of the boards seen, and the small fields mixed in."""
    small = s[S_TO_MOVE] | ((s[S_KO] + 1) << 1) | (s[S_PASSED] << 10) | (s[S_MOVES] << 11) | (s[S_STATUS] << 24)
    return s[S_HASH] ^ mix(s[S_HIST_KEY] ^ mix(small))


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    n = params[P_N]
    own = S_BLACK if player_ == 0 else S_WHITE
    opp = S_WHITE if player_ == 0 else S_BLACK
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    black = 1 if player_ == 0 else 0
    passed = s[S_PASSED]
    for a in range(n * n):
        wb = params[P_ACTION_TO_BIT + a]
        k, b = wb >> 6, wb & 63
        i = PLANES * a
        out[i] = (s[own + k] >> b) & 1
        out[i + 1] = (s[opp + k] >> b) & 1
        out[i + 2] = 1 if a == s[S_KO] else 0
        out[i + 3] = mover
        out[i + 4] = black
        out[i + 5] = passed
