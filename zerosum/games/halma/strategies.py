"""The Halma study's phased strategies: centre in the opening, the diagonal march in the
middle game, filling the camp in the endgame, and the switch checks between them.

A :class:`Strategy` bundles an evaluation, the check that says when to move on to the
next one, and a move ordering; :data:`PHASES` is the study's sequence and
:func:`phased` the heuristic that plays it (each side scored by the strategy of its own
phase, which is a function of the position, so it is an ordinary heuristic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from numba import types

from zerosum.games.halma.heuristics import (
    CENTRE_C, DIAG_C, FILL_C, centre, diagonal, fill, forward_first, table_sum,
)
from zerosum.games.halma.rules import P_Z
from zerosum.games.halma.tables import HALF, HOME
from zerosum.games.kit import HEURISTIC, Heuristic, Params, State, helper, kernel

SWITCH = types.int64(*HEURISTIC.args)
"""Signature of a strategy's switch check: (params, state, player) -> 1 to switch, else 0."""
PHASE_BONUS = 1000.0
"""What each phase reached is worth in ``phased``, so that leaves in different phases compare."""


@kernel(SWITCH)
def left_home(params: Params, s: State, player: int) -> int:  # pragma: no cover - compiled
    """Switch check of the opening: no own piece is left in the home camp."""
    z = params[P_Z]
    for k in range(4):
        if s[4 * player + k] & HOME[z, player, k] != 0:
            return 0
    return 1


@kernel(SWITCH)
def past_midline(params: Params, s: State, player: int) -> int:  # pragma: no cover - compiled
    """Switch check of the middle game: every own piece is past the board's midline."""
    z = params[P_Z]
    for k in range(4):
        if s[4 * player + k] & ~HALF[z, player, k] != 0:
            return 0
    return 1


@kernel(SWITCH)
def never(params: Params, s: State, player: int) -> int:  # pragma: no cover - compiled
    """Switch check of the last phase: it never ends."""
    return 0


@helper
def phase(params: Params, s: State, player: int) -> int:  # pragma: no cover - compiled
    """0, 1 or 2: the phase ``player`` has reached (opening, middle game, endgame)."""
    if past_midline(params, s, player):
        return 2
    if left_home(params, s, player):
        return 1
    return 0


@helper
def phase_score(z: int, s: State, p: int, ph: int) -> float:  # pragma: no cover - compiled
    """p's own score under its phase's strategy (higher is better), plus the phase bonus."""
    if ph == 0:
        own = -table_sum(CENTRE_C, z, s, p)
    elif ph == 1:
        own = table_sum(DIAG_C, z, s, p)
    else:
        own = -table_sum(FILL_C, z, s, p)
    return PHASE_BONUS * ph + own


@kernel(HEURISTIC)
def phased(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """The study's three phases: ``centre`` until no own piece is left at home, then
    ``diagonal`` until every own piece is past the midline, then ``fill``.

    Each side is scored by the strategy of its own phase, which is a function of the
    position (no memory), so this is an ordinary heuristic: own score minus the
    opponent's. Each phase reached is worth PHASE_BONUS, so that leaves in different
    phases compare fairly (a later phase is always better)."""
    z = params[P_Z]
    return (phase_score(z, s, player, phase(params, s, player))
            - phase_score(z, s, 1 - player, phase(params, s, 1 - player)))


@dataclass(frozen=True)
class Strategy:
    """One of the study's strategies: evaluate a position, check whether to switch to the
    next strategy, and order the children for alpha-beta. Each part is a compiled kernel:
    ``evaluate`` has the HEURISTIC signature, ``switch`` the SWITCH signature, ``order``
    the ORDER signature."""

    name: str
    evaluate: Any
    switch: Any
    order: Any = forward_first


STRATEGIES = {
    "centre": Strategy("centre", centre, left_home),
    "diagonal": Strategy("diagonal", diagonal, past_midline),
    "fill": Strategy("fill", fill, never),
}
"""The study's strategies by name."""
PHASES = ("centre", "diagonal", "fill")
"""The order in which ``phased`` plays them."""
PHASED = Heuristic("phased", phased, "centre, then diagonal, then fill, switching by phase of the game",
                   symmetric=True)
