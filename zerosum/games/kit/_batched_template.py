"""The kit's batched rules: one compiled call over N states at once, specialised per game.

A template in the sense of :mod:`zerosum.games.kit.specialize` (the contract is there):
:mod:`zerosum.games.kit.batched` has it copied for each game with the rules line importing
that game's kernels, so every call below runs the game's own kernels inlined, over all
rows of a 2-D int64 array of states (one state a row), in one call from Python. No game
has code of its own here: a user's kit game gets the same calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import I8Array, I64Array, Params

legal, apply, status, player, observe = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.observe


@njit(cache=True, nogil=True)
def batch_reset(initial: I64Array, states: I64Array) -> None:  # pragma: no cover - compiled
    """Every row of ``states`` becomes the starting position."""
    for i in range(states.shape[0]):
        states[i, :] = initial


@njit(cache=True, nogil=True)
def batch_masks(params: Params, states: I64Array, moves: I64Array, masks: I8Array) -> int:  # pragma: no cover
    """masks[i, a] = 1 where action a is legal in states[i], else 0 (``moves``: scratch of max_moves,
    with room past it: zerosum.games.kit.movebuf). Returns 0, or the count of a legal kernel that
    listed more than max_moves (it stops there; the caller raises)."""
    for i in range(states.shape[0]):
        masks[i, :] = 0
        n: int = legal(params, states[i], moves)
        if n > moves.shape[0]:
            return n
        for j in range(n):
            masks[i, moves[j]] = 1
    return 0


@njit(cache=True, nogil=True)
def batch_apply(params: Params, states: I64Array, actions: I64Array, children: I64Array) -> None:  # pragma: no cover
    """children[i] = the successor of states[i] after actions[i] (legality unchecked: the caller's)."""
    for i in range(states.shape[0]):
        apply(params, states[i], actions[i], children[i])


@njit(cache=True, nogil=True)
def batch_status(params: Params, states: I64Array, out: I64Array) -> None:  # pragma: no cover - compiled
    """out[i] = the status code of states[i] (ONGOING, P0_WINS, P1_WINS, DRAW)."""
    for i in range(states.shape[0]):
        out[i] = status(params, states[i])


@njit(cache=True, nogil=True)
def batch_player(params: Params, states: I64Array, out: I64Array) -> None:  # pragma: no cover - compiled
    """out[i] = the player to move in states[i]."""
    for i in range(states.shape[0]):
        out[i] = player(params, states[i])


@njit(cache=True, nogil=True)
def batch_observe(params: Params, states: I64Array, players: I64Array, out: I8Array) -> None:  # pragma: no cover
    """out[i] = the observation planes (flattened) of states[i] from players[i]'s side."""
    for i in range(states.shape[0]):
        out[i, :] = 0
        observe(params, states[i], players[i], out[i])


@njit(cache=True, nogil=True)
def batch_random_moves(params: Params, states: I64Array, moves: I64Array, seed: int,  # pragma: no cover
                       out: I64Array) -> int:
    """out[i] = a uniformly random legal action of states[i] (-1 where the game is over); returns 0,
    or the count of a legal kernel that listed more than max_moves (as batch_masks)."""
    np.random.seed(seed)
    for i in range(states.shape[0]):
        n: int = legal(params, states[i], moves)
        if n > moves.shape[0]:
            return n
        out[i] = moves[np.random.randint(n)] if n > 0 else -1
    return 0

