"""Batched rules: the kit's compiled calls over N states at once, for every game.

>>> import numpy as np
>>> from zerosum.games import make_game
>>> from zerosum.games.kit.batched import batched
>>> game = make_game("tictactoe")
>>> rules = batched(game)
>>> states = rules.reset(4)                                  # four starting positions, one a row
>>> states = rules.apply(states, np.array([0, 4, 8, 4]))     # one move in each
>>> rules.masks(states).sum(axis=1).tolist(), rules.players(states).tolist()
([8, 8, 8, 8], [1, 1, 1, 1])

From a game's declaration alone (its ``Kernels``), with no code of the game's own, the kit
builds compiled calls that each run over all rows of a 2-D ``int64`` array of states in one
call: ``reset``, ``masks``, ``apply``, ``status``, ``players``, ``observe`` and
``random_moves``. They are the kit's template :mod:`zerosum.games.kit._batched_template`
specialised per game (:mod:`zerosum.games.kit.specialize`), so a user's kit game gets them
too. The vector environments (:mod:`zerosum.envs.vector`) step many games with the same
mechanism, the opponent's reply included.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np

from zerosum.games.kit.errors import IllegalActionError
from zerosum.games.kit.movebuf import moves_buffer
from zerosum.games.kit.game import Game
from zerosum.games.kit.kernels import I8Array, I64Array
from zerosum.games.kit.specialize import specialize

BATCHED_TEMPLATE = Path(__file__).with_name("_batched_template.py")
"""The path of the batched calls' template (:mod:`zerosum.games.kit._batched_template`), which
:func:`batched_rules` specialises per game."""


def batched_rules(game: Game) -> ModuleType:
    """The batched template compiled for ``game``'s rules (written, compiled and cached on first use)."""
    return specialize(BATCHED_TEMPLATE, game.kernels)


class BatchedRules:
    """A game's rules over N states at once: each method is one compiled call for all rows.

    States are a C-contiguous 2-D int64 array, one state a row (``reset(n)`` makes one);
    every method checks its input's shape and dtype and says what it expected.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        """The game whose rules these are."""
        self._m = batched_rules(game)
        self._moves = moves_buffer(game.max_moves, game.num_actions)  # room past max_moves (kit.movebuf)

    def _states(self, states: np.ndarray) -> I64Array:
        g = self.game
        if not isinstance(states, np.ndarray) or states.ndim != 2 or states.shape[1] != g.state_size:
            raise ValueError(f"states must be an int64 array of shape (n, {g.state_size}); "
                             f"got {getattr(states, 'shape', type(states).__name__)}")
        if states.dtype != np.int64:
            raise ValueError(f"states must be int64; got {states.dtype}")
        return np.ascontiguousarray(states)

    def reset(self, n: int) -> I64Array:
        """``n`` starting positions, one a row."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n={n!r}: a positive number of states is required")
        states = np.empty((int(n), self.game.state_size), np.int64)
        self._m.batch_reset(self.game.initial, states)
        return states

    def masks(self, states: np.ndarray) -> I8Array:
        """int8 (n, num_actions): 1 at each row's legal actions."""
        s = self._states(states)
        out = np.empty((s.shape[0], self.game.num_actions), np.int8)
        over = self._m.batch_masks(self.game.params, s, self._moves, out)
        if over:
            raise self.game.moves_error("legal", int(over), "BatchedRules.masks")
        return out

    def apply(self, states: np.ndarray, actions: np.ndarray, *, check: bool = True) -> I64Array:
        """The successors of each row after its action (new array). ``check=True`` raises
        IllegalActionError naming the first row whose action is not legal there."""
        s = self._states(states)
        a = np.asarray(actions)
        if a.shape != (s.shape[0],) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers of shape ({s.shape[0]},); got {a.dtype} {a.shape}")
        a = a.astype(np.int64, copy=False)
        if check:
            masks = self.masks(s)
            inside = (a >= 0) & (a < self.game.num_actions)
            ok = inside.copy()
            ok[inside] = masks[np.flatnonzero(inside), a[inside]] == 1
            if not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                raise IllegalActionError(f"row {i}: action {int(a[i])} is not legal there; legal: "
                                         f"{np.flatnonzero(masks[i]).tolist()}")
        out = np.empty_like(s)
        self._m.batch_apply(self.game.params, s, np.ascontiguousarray(a), out)
        return out

    def status(self, states: np.ndarray) -> I64Array:
        """Each row's status code (ONGOING, P0_WINS, P1_WINS, DRAW)."""
        s = self._states(states)
        out = np.empty(s.shape[0], np.int64)
        self._m.batch_status(self.game.params, s, out)
        return out

    def players(self, states: np.ndarray) -> I64Array:
        """The player to move in each row."""
        s = self._states(states)
        out = np.empty(s.shape[0], np.int64)
        self._m.batch_player(self.game.params, s, out)
        return out

    def observe(self, states: np.ndarray, players: np.ndarray | int) -> I8Array:
        """int8 (n, *observation_shape): each row's planes from that row's player's side."""
        s = self._states(states)
        p = np.broadcast_to(np.asarray(players, dtype=np.int64), (s.shape[0],))
        if ((p != 0) & (p != 1)).any():
            raise ValueError(f"players are 0 or 1; got {sorted(set(p.tolist()))}")
        out = np.empty((s.shape[0], int(np.prod(self.game.observation_shape))), np.int8)
        self._m.batch_observe(self.game.params, s, np.ascontiguousarray(p), out)
        return out.reshape((s.shape[0], *self.game.observation_shape))

    def random_moves(self, states: np.ndarray, seed: int) -> I64Array:
        """A uniformly random legal action per row (-1 where the game is over), from ``seed``."""
        s = self._states(states)
        out = np.empty(s.shape[0], np.int64)
        over = self._m.batch_random_moves(self.game.params, s, self._moves, int(seed), out)
        if over:
            raise self.game.moves_error("legal", int(over), "BatchedRules.random_moves")
        return out


def batched(game: Game) -> BatchedRules:
    """The batched rules of ``game`` (see :class:`BatchedRules`)."""
    return BatchedRules(game)


__all__ = ["BATCHED_TEMPLATE", "BatchedRules", "batched", "batched_rules"]
