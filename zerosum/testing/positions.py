"""Positions for tests: seeded random positions, move path counts, and failure reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import numpy as np

from zerosum.games.kit import Game, State


def random_positions(game: Game, count: int, seed: int | np.random.Generator = 0, *,
                     max_plies: int | None = None, min_plies: int = 0, terminal: bool = False) -> list[State]:
    """``count`` positions from seeded random games.

    Each game plays a number of uniformly random moves drawn from ``min_plies`` to
    ``max_plies`` (default: the game's maximum length), stopping early if the game ends.
    Finished positions are skipped unless ``terminal=True``. The same seed gives the same
    positions. ValueError when positions this deep cannot be found (after 100 tries each).
    """
    return [s for s, _ in random_lines(game, count, seed, max_plies=max_plies, min_plies=min_plies,
                                       terminal=terminal)]


def random_lines(game: Game, count: int, seed: int | np.random.Generator = 0, *, max_plies: int | None = None,
                 min_plies: int = 0, terminal: bool = False) -> list[tuple[State, tuple[int, ...]]]:
    """:func:`random_positions` with the moves that reached each position."""
    top = game.max_game_length if max_plies is None else int(max_plies)
    if count < 0 or not 0 <= min_plies <= top:
        raise ValueError(f"random_positions needs count >= 0 and 0 <= min_plies <= max_plies; got count={count}, "
                         f"min_plies={min_plies}, max_plies={top}")
    rng = np.random.default_rng(seed)
    out: list[tuple[State, tuple[int, ...]]] = []
    for _ in range(100 * count + 100):
        if len(out) == count:
            break
        s = game.initial_state()
        line: list[int] = []
        for _ in range(int(rng.integers(min_plies, top + 1))):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            line.append(int(legal[rng.integers(len(legal))]))
            s = game.apply(s, line[-1])
        if terminal or not game.is_terminal(s):
            out.append((s, tuple(line)))
    if len(out) < count:
        raise ValueError(f"found only {len(out)} of {count} unfinished {game.name} positions "
                         f"of {min_plies}-{top} random plies")
    return out


def perft(game: Game, state: State, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` plies from ``state`` (sequences
    that finish the game sooner are not counted), as chess engines count them."""
    if depth == 0:
        return 1
    legal = game.legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(game, game.apply_unchecked(state, int(a)), depth - 1) for a in legal)


def describe_line(game: Game, actions: Sequence[int]) -> str:
    """The moves from the start as readable names and numbers, e.g. ``b2 a1 (actions [4, 0])``.
    Falls back to numbers where a name cannot be made (the check may be about names)."""
    if not actions:
        return "the initial position"
    names = []
    s = game.initial_state()
    try:
        for a in actions:
            names.append(game.action_to_string(int(a), s))
            s = game.apply_unchecked(s, int(a))
    except Exception:  # noqa: BLE001 - only for a message
        return f"actions {list(actions)}"
    return f"{' '.join(names)} (actions {list(actions)})"


def fail(game: Game, actions: Sequence[int] | None, message: str, state: State | None = None) -> NoReturn:
    """Raise AssertionError for ``game`` at the position after ``actions`` (None: no position)."""
    where = "" if actions is None else f" after {describe_line(game, actions)}"
    drawing = ""
    if state is not None:
        try:
            drawing = "\n" + game.render(state)
        except Exception:  # noqa: BLE001 - only for a message
            drawing = f"\nstate {np.asarray(state).tolist()}"
    raise AssertionError(f"{game!r}{where}: {message}{drawing}")
