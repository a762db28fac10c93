"""A compiled perft for chess: the number of move sequences of a given length, counted by
legal move generation with the last ply counted in bulk (each piece's target set is
popcounted rather than its moves made), as engines count it to test a move generator."""

from __future__ import annotations

import numpy as np
from numba import types

from zerosum.games.chess.board import GEN_ALL, GEN_COUNT, MAX_MOVES
from zerosum.games.chess.movegen import generate, make
from zerosum.games.kit import I64Array, kernel

_SLOTS = 16


@kernel(types.int64(types.int64[::1], types.int64))
def perft(s: I64Array, depth: int) -> int:  # pragma: no cover - compiled
    """Leaf nodes of the legal move tree of ``state`` to ``depth`` plies (draw rules ignored,
    as the published perft tables ignore them)."""
    if depth <= 0:
        return 1
    pos = np.zeros((depth + 1, _SLOTS), np.int64)
    for i in range(13):
        pos[0, i] = s[i]
    moves = np.empty((depth, MAX_MOVES), np.int64)
    cnt = np.zeros(depth, np.int64)
    idx = np.zeros(depth, np.int64)
    if depth == 1:
        return int(generate(pos[0], moves[0], GEN_COUNT))
    cnt[0] = generate(pos[0], moves[0], GEN_ALL)
    level = 0
    total = 0
    while level >= 0:
        if idx[level] >= cnt[level]:
            level -= 1
            continue
        a = moves[level, idx[level]]
        idx[level] += 1
        make(pos[level], a, pos[level + 1])
        if level + 1 == depth - 1:
            total += generate(pos[level + 1], moves[level + 1], GEN_COUNT)
        else:
            level += 1
            cnt[level] = generate(pos[level], moves[level], GEN_ALL)
            idx[level] = 0
    return total


__all__ = ["perft"]
