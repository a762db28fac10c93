"""What a search thought, in words: values, principal variations, search statistics.

Shared by ``zerosum play`` (after each engine move and hint) and ``zerosum replay`` (each
stored move), so both say the same thing the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from zerosum.games import Game, State


def describe_value(value: float) -> str:
    """A search value in words: a proven win/loss in N plies, or the heuristic score."""
    from zerosum.search.result import WIN, WIN_BOUND

    v = float(value) + 0.0  # no "-0"
    if abs(v) >= WIN_BOUND:
        plies = round(WIN - abs(v))
        return f"{'win' if v > 0 else 'loss'} in {plies} {'ply' if plies == 1 else 'plies'}"
    return f"{v:+.3g}"


def join_moves(names: Sequence[str]) -> str:
    """Moves separated by spaces, or by commas when a move's name has spaces (``c4 q2 cw``)."""
    return (", " if any(" " in n for n in names) else " ").join(names)


def pv_text(game: Game, state: State, pv: Sequence[int]) -> str:
    """The principal variation in the game's notation (``Game.move_name``), stopping at the first move
    not legal."""
    names = []
    s = state
    for a in pv:
        a = int(a)
        if game.is_terminal(s) or a not in {int(x) for x in game.legal_actions(s)}:
            break
        names.append(game.move_name(a, s))
        s = game.apply_unchecked(s, a)
    return join_moves(names) if names else "-"


def describe_search(game: Game, state: State, result: Any, elapsed: float, whom: str = "the engine") -> str:
    """One line of what a search thought, from ``agent.last_stats`` (a SearchResult) if present.

    The value is from the side of the player to move in ``state`` (``whom``).
    """
    stats = getattr(result, "stats", None)
    if stats is None:
        return f"time {elapsed:.3f} s"
    parts = [f"value {describe_value(result.value)} for {whom}", f"depth {stats.depth}", f"nodes {stats.nodes:,}",
             f"time {stats.time:.3f} s", f"pv {pv_text(game, state, result.pv)}"]
    return ", ".join(parts)


def describe_stored_move(move: Mapping[str, Any]) -> str:
    """One line from a stored move's statistics (``Store.game_moves``): value, depth, nodes, time, pv."""
    parts = []
    if move.get("value") is not None:
        parts.append(f"value {describe_value(move['value'])}")
    if move.get("depth") is not None:
        parts.append(f"depth {move['depth']}")
    if move.get("nodes") is not None:
        parts.append(f"nodes {int(move['nodes']):,}")
    parts.append(f"time {float(move['time']):.3f} s")
    if move.get("pv"):
        parts.append(f"pv {join_moves([str(m) for m in move['pv']])}")
    return ", ".join(parts)
