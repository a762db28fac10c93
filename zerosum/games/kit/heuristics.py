"""Named evaluation functions, and the game-independent ``zero``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from zerosum.games.kit.kernels import HEURISTIC, Params, State, has_signature
from zerosum.games.kit.toolkit import kernel

HEURISTIC_LIMIT = 10_000.0
"""Every heuristic stays within +-HEURISTIC_LIMIT (wins score 1,000,000 - ply)."""


@dataclass(frozen=True)
class Heuristic:
    """A named evaluation function, from ``player``'s point of view (larger is better).

    ``fn`` is either a compiled kernel of signature :data:`HEURISTIC` (full speed inside
    the compiled search) or any Python callable ``fn(params, state, player) -> float``
    (the search then runs it through a bridge, with identical results). ``symmetric``
    claims ``fn(s, 0) == -fn(s, 1)`` for every position (``zerosum.testing`` checks it).
    """

    name: str
    """The name a search or agent spec uses (``heuristic="name"``)."""
    fn: Callable[[np.ndarray, np.ndarray, int], float]
    """The evaluation: a numba kernel of signature ``HEURISTIC`` or a Python callable ``fn(params, state, player) ->
    float``."""
    doc: str = ""
    """One line saying what it measures (shown by ``zerosum describe`` and the game pages)."""
    symmetric: bool = False
    """Claims ``fn(s, 0) == -fn(s, 1)`` for every position; ``zerosum.testing.check_heuristic`` checks it."""

    @property
    def compiled(self) -> bool:
        """True when the function is a numba kernel with the HEURISTIC signature."""
        return has_signature(self.fn, HEURISTIC)


@kernel(HEURISTIC)
def zero(params: Params, state: State, player: int) -> float:  # pragma: no cover - compiled
    """Every unfinished position is worth 0: search then sees only wins, losses and draws."""
    return 0.0


ZERO = Heuristic("zero", zero, "no knowledge: every unfinished position is worth 0", symmetric=True)
"""The game-independent heuristic every game offers under the name ``zero``."""
