"""Labels kept by position, so that a position met again is not searched again.

Ladder rounds label every position of the network's games, and the same positions come back
from game to game and round to round: the openings above all, which are also the dearest to
search (the most moves, the deepest lines). :class:`LabelCache` wraps a
:class:`~zerosum.training.labeller.Labeller` and gives a position's first label again when the
position comes again, keeping the ``size`` most recently used. ``bench/label_cache.py``
measures what it saves on Connect Four's ladder rounds.

>>> from zerosum.games import make_game
>>> from zerosum.training.labeller import Labeller
>>> game = make_game("tictactoe")
>>> cache = LabelCache(Labeller(game, depth=9), size=100)
>>> first, again = cache.label(game.initial_state()), cache.label(game.initial_state())
>>> bool((first.policy == again.policy).all()), again.nodes, cache.hits
(True, 0, 1)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import Any

import numpy as np

from zerosum.games.kit import State
from zerosum.training.labeller import Label

LADDER_CACHE_MB = 256
"""The memory a ladder round's labeller may keep labels in, per process (:func:`ladder_cache_size`)."""


def ladder_cache_size(num_actions: int, megabytes: float = LADDER_CACHE_MB) -> int:
    """How many labels of a game with ``num_actions`` actions fit in ``megabytes``: a kept label
    holds a float32 policy and float64 move values (12 bytes an action) and about 500 bytes of
    Python objects and key (measured with tracemalloc: 592 bytes for Connect Four's, 3,964 for
    Pentago's). About 460,000 Connect Four labels or 68,000 Pentago labels in 256 MB."""
    return int(megabytes * 2**20 // (12 * num_actions + 500))


class LabelCache:
    """A labeller whose labels are kept by position (the ``size`` most recently used)."""

    def __init__(self, labeller: Any, size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size={size!r}: a whole number of labels >= 1 is required")
        self.labeller = labeller
        """The labeller that searches a position not in the cache."""
        self.size = size
        """How many labels are kept; the least recently used is dropped first."""
        self.hits = 0
        """How many labels were given from the cache."""
        self.misses = 0
        """How many labels were searched."""
        self._kept: OrderedDict[bytes, Label] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def label(self, state: State) -> Label:
        """The label of ``state``: the one kept for the same position (with ``nodes`` 0, as no search
        was made), else the labeller's, then kept."""
        key = np.ascontiguousarray(state, dtype=np.int64).tobytes()
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return replace(kept, nodes=0)
        label: Label = self.labeller.label(state)
        self._kept[key] = label
        self.misses += 1
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return label


__all__ = ["LADDER_CACHE_MB", "LabelCache", "ladder_cache_size"]
