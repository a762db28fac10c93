"""``check_heuristic``: a heuristic's range, its symmetry, and compiled against plain Python."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.games.kit import HEURISTIC_LIMIT, Heuristic
from zerosum.games.kit.game import Game
from zerosum.testing.plain import as_python, mixed
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


SEARCH_PYTHON_SECONDS = 1e-3
"""The time a call of the all-Python version may take for the search comparison to use it: a
search evaluates hundreds of leaves, and some heuristics take 6 ms a call all in Python (Gomoku's
and Hex's), 0.02-0.3 ms compiled helpers and all. A slower one is compared with the ``py_func``
and compiled helpers there."""


class _Plain:
    """A compiled heuristic's source as plain Python: all of it (helpers included) where
    that runs, and the kernel's ``py_func`` with compiled helpers (``mixed``) as the
    fallback, and in searches where the all-Python version is slow."""

    def __init__(self, fn: Any) -> None:
        self.python = as_python(fn)
        self.mixed = mixed(fn)
        self.calls = 0
        self.seconds = 0.0

    def values(self, params: np.ndarray, state: np.ndarray) -> list[float] | None:
        """Both players' values all in Python, or None where that raised."""
        start = time.perf_counter()
        try:
            with np.errstate(over="ignore"):  # numpy's int64 scalars wrap around as numba's do
                return [float(self.python(params, state.copy(), p)) for p in (0, 1)]
        except Exception:  # noqa: BLE001 - code that runs only compiled: the mixed version decides
            return None
        finally:
            self.calls += 2
            self.seconds += time.perf_counter() - start

    def search(self, game: Game, state: np.ndarray, depth: int, h: Heuristic) -> tuple[float, int] | None:
        """``alphabeta``'s value and action with the all-Python version where it is fast enough
        (:data:`SEARCH_PYTHON_SECONDS`), else with the mixed one; None where that raised."""
        fast = self.calls > 0 and self.seconds / self.calls <= SEARCH_PYTHON_SECONDS
        try:
            with np.errstate(over="ignore"):
                return _searched(game, state, depth, Heuristic(h.name, self.python if fast else self.mixed, h.doc,
                                                              h.symmetric))
        except Exception:  # noqa: BLE001 - as in values()
            return None


def _searched(game: Game, state: np.ndarray, depth: int, h: Heuristic) -> tuple[float, int]:
    """``alphabeta(game, state, depth, heuristic=h)``'s value and action."""
    from zerosum.search import alphabeta

    r = alphabeta(game, state, depth=depth, heuristic=h)
    return r.value, r.action


def check_heuristic(game: Game, heuristic: str | Heuristic | None = None, *, positions: int = 40, seed: int = 0,
                    depth: int = 2, search_positions: int = 3) -> HeuristicReport:
    """Check a heuristic of ``game`` (a name, None for the default, or a Heuristic record).

    On ``positions`` seeded random positions, for both players: the value is finite and
    within +-HEURISTIC_LIMIT, and the state is not modified; where the heuristic claims
    ``symmetric``, ``h(s, 0) == -h(s, 1)``. A compiled heuristic is also run as plain
    Python (its own source and its helpers', :func:`zerosum.testing.plain.as_python`) and
    must give identical values, and ``alphabeta`` to ``depth`` with either version must
    give the same value and action on ``search_positions`` positions (``depth=0`` skips
    it; the search takes the kernel's ``py_func`` with its helpers compiled where a call all
    in Python takes over :data:`SEARCH_PYTHON_SECONDS`). Where the all-Python version
    differs or raises, the ``py_func`` with compiled helpers is tried before that counts as
    a finding (Python's integers do not wrap around at 64 bits as numba's do).
    """
    h = heuristic if isinstance(heuristic, Heuristic) else game.heuristic(heuristic)
    plain = _Plain(h.fn) if h.compiled and hasattr(h.fn, "py_func") else None
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
        if plain is not None and plain.values(game.params, state) != v:
            py = [_value(game, h, plain.mixed, state, p, line) for p in (0, 1)]
            if py != v:
                fail(game, line, f"heuristic {h.name!r}: compiled {v}, the same source as plain Python {py} "
                                 "(players 0, 1); a global changed after compilation?", state)
        seen += v
    searched = 0
    if plain is not None and depth > 0:
        for state, line in lines[:search_positions]:
            a = _searched(game, state, depth, h)
            b = plain.search(game, state, depth, h)
            if b != a:
                b = _searched(game, state, depth, Heuristic(h.name, plain.mixed, h.doc, h.symmetric))
            if b != a:
                fail(game, line, f"heuristic {h.name!r}: alphabeta(depth={depth}) gives value {a[0]}, action "
                                 f"{a[1]} compiled; {b[0]}, {b[1]} as plain Python", state)
            searched += 1
    return HeuristicReport(h.name, len(lines), min(seen, default=0.0), max(seen, default=0.0), plain is not None,
                           searched)
