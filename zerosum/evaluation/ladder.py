"""Scoring agents against a ladder of opponents: the protocol the model zoo's figures are measured by.

>>> from zerosum.evaluation.ladder import score_ladder
>>> rows = score_ladder(["alphabeta(depth=2)"], "tictactoe", ["random"], games=4, seed=0)
>>> [(r.agent, r.opponent, r.games) for r in rows]
[('alphabeta(depth=2)', 'random', 4)]

Each agent plays ``games`` games against each opponent with :func:`~zerosum.evaluation.evaluate.evaluate`:
seats alternating, games 2j and 2j+1 from the same opening of ``opening_plies`` random plies,
every game's agents seeded from (seed, opponent, game), so every agent meets the same openings.
A score is wins + draws/2 a game, with its Wilson 95% interval. With ``mcts=True`` each agent
also plays plain ``mcts`` given the same time a move as the agent took in its own games, so a
searching network is not credited with what any search at that time would do.

``zerosum evaluate`` (:mod:`zerosum.cli.evaluate`) runs it from the command line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from zerosum.evaluation.evaluate import EvaluationReport, evaluate
from zerosum.evaluation.stats import Record


@dataclass(frozen=True)
class LadderRow:
    """One agent's result against one opponent."""

    agent: str
    """The agent's spec."""
    opponent: str
    """The opponent's spec (``mcts(time=...)`` for the equal-time search)."""
    games: int
    """Games played."""
    wins: int
    """Games the agent won."""
    draws: int
    """Games drawn."""
    losses: int
    """Games the agent lost."""
    score: float
    """(wins + draws / 2) / games."""
    low: float
    """The lower end of the score's Wilson 95% interval."""
    high: float
    """The upper end."""
    seconds_per_move: float
    """The agent's own mean time a move in its games against the ladder."""

    @classmethod
    def of(cls, agent: str, opponent: str, record: Record, seconds_per_move: float) -> LadderRow:
        """The row of ``record`` (an opponent's total)."""
        lo, hi = record.interval
        return cls(agent, opponent, record.games, record.wins, record.draws, record.losses, record.score, lo, hi,
                   seconds_per_move)

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON types, the score and interval rounded to 3 places."""
        d = asdict(self)
        for k in ("score", "low", "high"):
            d[k] = round(d[k], 3)
        d["seconds_per_move"] = round(d["seconds_per_move"], 5)
        return d


def seconds_per_move(report: EvaluationReport) -> float:
    """The evaluated agent's mean time a move over the games of ``report``."""
    own = [m.time for g in report.games for m in g.match.moves if m.player == g.seat]
    return sum(own) / max(len(own), 1)


MIN_SECONDS = 1e-6
"""The least time a move the equal-time MCTS is given: an agent that took less (or whose
games had no move of its own) is matched at this (MCTS runs its first 64 simulations
whatever its time)."""


def equal_time_opponent(per_move: float) -> str:
    """The spec of plain MCTS at ``per_move`` seconds a move, for any agent speed: three
    significant digits, in exponent form below 1e-4 (``mcts(time=0.0118)``,
    ``mcts(time=3.2e-05)``), never a time the spec grammar refuses (0 or below)."""
    return f"mcts(time={max(float(per_move), MIN_SECONDS):.3g})"


def score_ladder(agents: Sequence[str], game: Any, opponents: Sequence[str], *, games: int = 400, seed: int = 0,
                 opening_plies: int = 2, mcts: bool = False, workers: int = 1,
                 variant: Mapping[str, Any] | None = None) -> list[LadderRow]:
    """Each of ``agents`` (agent specs) against each of ``opponents``, ``games`` games each (see the
    module); with ``mcts`` also against ``mcts(time=T)``, T the agent's own mean time a move
    (:func:`equal_time_opponent`)."""
    rows: list[LadderRow] = []
    for spec in agents:
        report = evaluate(spec, game, opponents=list(opponents), games=games, seed=seed, workers=workers,
                          variant=variant, opening_plies=opening_plies)
        per_move = seconds_per_move(report)
        rows += [LadderRow.of(spec, r.opponent, r.total, per_move) for r in report.results]
        if mcts:
            equal = evaluate(spec, game, opponents=[equal_time_opponent(per_move)], games=games, seed=seed,
                             workers=workers, variant=variant, opening_plies=opening_plies)
            rows += [LadderRow.of(spec, r.opponent, r.total, per_move) for r in equal.results]
    return rows


def load_average() -> float:
    """The machine's load average over the last minute (0 where the system has none): the figures
    of a busy machine are slower, and the time-a-move of ``mcts=True`` depends on it."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return 0.0


__all__ = ["MIN_SECONDS", "LadderRow", "equal_time_opponent", "load_average", "score_ladder", "seconds_per_move"]
