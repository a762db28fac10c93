"""Evaluation: one policy in one call, matches, tournaments, a durable store, statistics, ratings, reports.

    import zerosum
    report = zerosum.evaluate(policy, "pentago_v0", opponents=["random", "alphabeta(depth=2)"], games=100)
    print(report)                        # W/D/L with 95% intervals per opponent, by seat, search cost

    from zerosum.evaluation import build_config, run_tournament
    cfg = build_config({"game": "tictactoe", "agents": ["random", "alphabeta(depth=2)"], "games_per_pairing": 10})
    out = run_tournament(cfg)            # results/<game>-<hash>/: tournament.sqlite, report.md, plots/, CSV
    print(out.summary.standings()[0])

    from zerosum.evaluation import sprt  # is A stronger than B? game pairs until a sequential test decides
    print(sprt("tictactoe", "alphabeta(depth=9)", "random", elo0=0, elo1=50).summary())

Modules: ``evaluate`` (one policy against opponents), ``match`` (one recorded game),
``tournament`` (schedule, validation, the run),
``store`` (SQLite, ``Store(path).game_record(id)``), ``stats`` and ``ratings`` (Wilson
intervals, Bradley-Terry/Elo with bootstrap, openskill, search cost), ``report`` and
``plots`` (terminal tables, Markdown, PNG), ``backends`` (inline, processes, Ray),
``config`` (TOML and options), ``scale`` (the rated ladder of each game: ``ladder``),
``placement`` (``rate``: a policy's Elo on a ladder), ``scale_build`` (building a ladder),
``sprt_match`` (``sprt``: a match of game pairs under a sequential
test) and ``gsprt`` (its statistics: the pentanomial GSPRT, Elo with intervals, a simulator).
The command lines are in :mod:`zerosum.cli`. Names below load lazily.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "play_match": "match", "random_opening": "match", "MatchResult": "match", "MoveRecord": "match",
    "Store": "store", "StoredGame": "store", "GameTask": "store", "StoreError": "store",
    "ConfigMismatchError": "store",
    "TournamentConfig": "config", "build_config": "config", "load_config": "config", "ConfigError": "config",
    "run_tournament": "tournament", "schedule": "tournament", "validate": "tournament",
    "summarize_store": "report", "print_summary": "report",
    "wilson_interval": "stats", "bradley_terry": "ratings", "bootstrap_ratings": "ratings",
    "openskill_ratings": "ratings",
    "evaluate": "evaluate", "EvaluationReport": "evaluate", "EvaluationError": "evaluate",
    "sprt": "sprt_match", "SprtResult": "sprt_match", "SprtStatus": "sprt_match",
    "Sprt": "gsprt", "SprtError": "gsprt", "elo_estimate": "gsprt",
    "ladder": "scale", "Ladder": "scale", "Rung": "scale", "LadderError": "scale", "load_ladder": "scale",
    "rate": "placement", "Rating": "placement", "PlacementError": "placement",
    "build_ladder": "scale_build",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'zerosum.evaluation' has no attribute {name!r}")
    return getattr(importlib.import_module(f"zerosum.evaluation.{module}"), name)
