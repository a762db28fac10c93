"""Every game a deterministic policy can be led into: its worst case against any opponent (small games).

>>> from zerosum.evaluation.exhaustive import worst_case
>>> r = worst_case("solved", "tictactoe", seat=1)
>>> (r.losses, r.lines > 0)
(0, True)

Sampled games bound a policy's losses only statistically: one loss in 2,000 games against
random is a line that random finds once in a while. For a game as small as tic-tac-toe
the whole tree under a fixed policy can be walked instead: the policy's move where it is
to move, every legal move where the opponent is (and every move of the first
``opening_plies`` plies, by whoever moves). ``losses == 0`` then proves that no opponent,
random, alpha-beta or any other, ever beats the policy from those starts. Subtrees are
counted once per position (the policy is deterministic), so a tic-tac-toe seat takes a
few thousand policy calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from zerosum.agents.base import Agent
from zerosum.games.kit import Game


@dataclass(frozen=True)
class WorstCase:
    """The lines (opening plies and opponent moves) a policy can be led through, by result for its seat."""

    seat: int
    """The policy's seat."""
    opening_plies: int
    """Plies at the start where every move, by whoever moves, is walked."""
    lines: int
    """Distinct lines walked."""
    wins: int
    """Lines the policy wins."""
    draws: int
    """Lines drawn."""
    losses: int
    """Lines the policy loses."""
    positions: int
    """Distinct positions where the policy chose a move."""
    losing_moves: dict[bytes, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    """Where the opponent (or the opening) is to move: the moves that lead to a lost line, by ``state.tobytes()``."""


def worst_case(policy: str | Agent, game: str | Game, seat: int, *, opening_plies: int = 0,
               max_positions: int = 1_000_000) -> WorstCase:
    """Walk every line against ``policy`` (deterministic: an agent spec or Agent) in ``seat``.

    A ValueError when the walk meets more than ``max_positions`` distinct positions (the
    game is too large for this) or when ``seat``/``opening_plies`` is out of range.
    """
    from zerosum.agents import make_agent
    from zerosum.games import make_game

    g = make_game(game) if isinstance(game, str) else game
    agent = make_agent(policy) if isinstance(policy, str) else policy
    if seat not in (0, 1):
        raise ValueError(f"seat={seat!r} is not allowed: 0 or 1")
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int) or opening_plies < 0:
        raise ValueError(f"opening_plies={opening_plies!r} is not allowed: an int >= 0")
    agent.prepare(g)
    agent.reset()
    memo: dict[bytes, np.ndarray] = {}
    losing: dict[bytes, tuple[int, ...]] = {}
    choices = [0]

    def walk(state: Any, plies: int) -> np.ndarray:  # (wins, draws, losses) over the lines below
        key = state.tobytes() + bytes([min(plies, 255)])
        hit = memo.get(key)
        if hit is not None:
            return hit
        if len(memo) >= max_positions:
            raise ValueError(f"{g.name}: more than max_positions={max_positions:,} positions under this policy; "
                             "too large to walk every line")
        if g.is_terminal(state):
            r = g.returns(state)[seat]
            counts = np.array([r > 0, r == 0, r < 0], dtype=np.int64)
        elif plies > 0 or g.current_player(state) != seat:
            counts = np.zeros(3, dtype=np.int64)
            bad = []
            for a in g.legal_actions(state):
                below = walk(g.apply_unchecked(state, int(a)), max(plies - 1, 0))
                counts = counts + below
                if below[2]:
                    bad.append(int(a))
            if bad and g.current_player(state) != seat:  # the opponent's choice (not the policy's opening ply)
                losing[state.tobytes()] = tuple(bad)
        else:
            choices[0] += 1
            counts = walk(g.apply(state, agent.act(g, state)), 0)
        memo[key] = counts
        return counts

    wins, draws, losses = (int(x) for x in walk(g.initial_state(), opening_plies))
    return WorstCase(seat, opening_plies, wins + draws + losses, wins, draws, losses, choices[0], losing)


__all__ = ["WorstCase", "worst_case"]
