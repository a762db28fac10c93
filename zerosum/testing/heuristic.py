"""``check_heuristic``: a heuristic's range, its symmetry, and compiled against plain Python."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.games.kit import HEURISTIC_LIMIT, Heuristic
from zerosum.games.kit.game import Game
from zerosum.testing.positions import fail, random_lines

SYMMETRY_TOLERANCE = 1e-9
"""Relative tolerance of ``h(s, 0) == -h(s, 1)`` (sums in another order may round apart)."""


@dataclass(frozen=True)
class HeuristicReport:
    """What :func:`check_heuristic` saw; every check passed."""

    name: str
    """The heuristic's name."""
    positions: int
    """Positions evaluated for both players."""
    low: float
    """The smallest value seen."""
    high: float
    """The largest value seen."""
    compared: bool
    """Compiled kernel compared with its source run as plain Python."""
    searched: int
    """Positions where both versions gave the same search result."""


def _value(game: Game, h: Heuristic, fn: Callable[..., Any], state: np.ndarray,
           player: int, line: tuple[int, ...]) -> float:
    try:
        v = float(fn(game.params, state.copy(), player))
    except Exception as e:  # noqa: BLE001 - any error is the finding
        what = "its source run as plain Python" if fn is not h.fn else "it"
        fail(game, line, f"heuristic {h.name!r}: {what} raised {e!r} for player {player}", state)
    if not math.isfinite(v) or abs(v) > HEURISTIC_LIMIT:
        fail(game, line, f"heuristic {h.name!r} gives {v} for player {player}; |h| <= {HEURISTIC_LIMIT:g} "
                         "(wins score 1,000,000 - ply)", state)
    return v


def check_heuristic(game: Game, heuristic: str | Heuristic | None = None, *, positions: int = 40, seed: int = 0,
                    depth: int = 2, search_positions: int = 3) -> HeuristicReport:
    """Check a heuristic of ``game`` (a name, None for the default, or a Heuristic record).

    On ``positions`` seeded random positions, for both players: the value is finite and
    within +-HEURISTIC_LIMIT, and the state is not modified; where the heuristic claims
    ``symmetric``, ``h(s, 0) == -h(s, 1)``. A compiled heuristic is also run as plain
    Python (the kernel's ``py_func``: its own source, helpers called from Python) and must
    give identical values, and ``alphabeta`` to ``depth`` with either version must give
    the same value and action on ``search_positions`` positions (``depth=0`` skips it).
    """
    h = heuristic if isinstance(heuristic, Heuristic) else game.heuristic(heuristic)
    plain = getattr(h.fn, "py_func", None) if h.compiled else None
    lines = random_lines(game, positions, seed)
    seen: list[float] = []
    for state, line in lines:
        before = state.copy()
        v = [_value(game, h, h.fn, state, p, line) for p in (0, 1)]
        if not np.array_equal(state, before):
            fail(game, line, f"heuristic {h.name!r} modified the state", before)
        if h.symmetric and abs(v[0] + v[1]) > SYMMETRY_TOLERANCE * max(1.0, abs(v[0])):
            fail(game, line, f"heuristic {h.name!r} claims symmetric, yet h(s, 0) = {v[0]} and h(s, 1) = {v[1]}",
                 state)
        if plain is not None:
            py = [_value(game, h, plain, state, p, line) for p in (0, 1)]
            if py != v:
                fail(game, line, f"heuristic {h.name!r}: compiled {v}, the same source as plain Python {py} "
                                 "(players 0, 1); a global changed after compilation?", state)
        seen += v
    searched = 0
    if plain is not None and depth > 0:
        from zerosum.search import alphabeta

        as_python = Heuristic(h.name, plain, h.doc, h.symmetric)
        for state, line in lines[:search_positions]:
            a = alphabeta(game, state, depth=depth, heuristic=h)
            b = alphabeta(game, state, depth=depth, heuristic=as_python)
            if (a.value, a.action) != (b.value, b.action):
                fail(game, line, f"heuristic {h.name!r}: alphabeta(depth={depth}) gives value {a.value}, action "
                                 f"{a.action} compiled; {b.value}, {b.action} as plain Python", state)
            searched += 1
    return HeuristicReport(h.name, len(lines), min(seen, default=0.0), max(seen, default=0.0), plain is not None,
                           searched)
