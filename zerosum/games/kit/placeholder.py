"""The rules that compiled templates are written against: a tiny real game.

Templates (:mod:`zerosum.games.kit._hot_template`, :mod:`zerosum.search._template`) import
``KERNELS`` from here on their one rules line; :func:`zerosum.games.kit.specialize.specialize`
replaces that line with the real game's. The game here is "count to three": the state is
``[total, player_to_move]``, a move adds 1 or 2 (actions 0 and 1), and whoever brings the
total to 3 or more wins. It keeps the templates importable and testable on their own.
"""

from __future__ import annotations

from zerosum.games.kit.kernels import (
    APPLY, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, Kernels,
)
from zerosum.games.kit.toolkit import kernel

TARGET = 3


@kernel(LEGAL)
def legal(params, s, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    if s[0] >= TARGET:
        return 0
    out[0] = 0
    out[1] = 1
    return 2


@kernel(APPLY)
def apply(params, s, a, child):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    child[0] = s[0] + a + 1
    child[1] = 1 - s[1]


@kernel(STATUS)
def status(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    if s[0] < TARGET:
        return ONGOING
    return P0_WINS if s[1] == 1 else P1_WINS


@kernel(PLAYER)
def player(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return s[1]


@kernel(KEY)
def key(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return s[0] * 2 + s[1]


@kernel(OBSERVE)
def observe(params, s, p, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    out[0] = min(s[0], TARGET)
    out[1] = 1 if s[1] == p else 0


KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe)
