"""A small match loop for evaluation during training (to be swapped for ``zerosum.evaluate()``).

It plays games on the Game directly, asking ``current_player`` before every move, and
counts wins, draws and losses per seat of the agent under test. An illegal action loses
the game for its author, as in the PettingZoo safe env.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from zerosum.agents.base import Agent
from zerosum.games.base import Game, IllegalActionError


@dataclass(frozen=True)
class SeatResult:
    """The agent's results in one seat against one opponent."""

    opponent: str
    seat: int
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The fields plus the score, for CSV rows and JSON."""
        return {**asdict(self), "score": self.score}


def play_game(game: Game, agents: tuple[Agent, Agent]) -> tuple[float, float]:
    """Play one game; the returns of players 0 and 1 (an illegal move loses)."""
    for a in agents:
        a.reset()
    state = game.initial_state()
    while not game.is_terminal(state):
        p = game.current_player(state)
        action = agents[p].act(game, state)
        try:
            state = game.apply(state, action)
        except IllegalActionError:
            return (-1.0, 1.0) if p == 0 else (1.0, -1.0)
    return game.returns(state)


def evaluate(agent: Agent, opponent: str | Agent, game: Game, games_per_seat: int,
             rng: np.random.Generator | int | None = 0) -> list[SeatResult]:
    """``agent`` against ``opponent`` for ``games_per_seat`` games in each seat.

    An opponent given as a spec string is built afresh for every game (as tournaments do),
    so a search agent's table cannot make its random tie-breaks replay one game.
    """
    from zerosum.agents import make_agent

    rng = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    agent.prepare(game)
    name = opponent if isinstance(opponent, str) else opponent.name
    out = []
    for seat in (0, 1):
        w = d = l = 0
        for _ in range(games_per_seat):
            agent.seed(int(rng.integers(2**63)))
            opp = make_agent(opponent, rng=int(rng.integers(2**63)))
            opp.prepare(game)
            agents = (agent, opp) if seat == 0 else (opp, agent)
            r = play_game(game, agents)[seat]
            w, d, l = w + (r > 0), d + (r == 0), l + (r < 0)
        out.append(SeatResult(name, seat, games_per_seat, w, d, l))
    return out


__all__ = ["SeatResult", "evaluate", "play_game"]
