"""The periodic evaluation of a run: the network alone (``sims=0``: its greedy legal move) against
the evaluation's ladder, seats alternating, paired random openings (:func:`zerosum.evaluate`); with
``eval_exhaustive`` (tic-tac-toe) also walked against every opponent reply in both seats. ``best.pt``
is the evaluation with the fewest lost lines, then the highest mean score (:func:`better`).

A checkpoint is scored after the run, with search or without, by ``zerosum evaluate``
(:mod:`zerosum.evaluation.ladder`).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.nets.evaluator import greedy_moves
from zerosum.training.alphazero.config import EvalConfig


def greedy_policy(net: Any, game: Game) -> Any:
    """The network alone (``sims=0``) as a policy callable for :func:`zerosum.evaluate`: its greedy
    legal move (:func:`~zerosum.nets.evaluator.greedy_moves`)."""
    from zerosum.nets import NetworkEvaluator

    evaluator = NetworkEvaluator(net, threads=None)

    def act(observation: dict[str, np.ndarray]) -> int:
        obs, mask = np.asarray(observation["observation"])[None], np.asarray(observation["action_mask"])[None]
        return int(greedy_moves(evaluator(obs, mask)[0], mask)[0])

    return act


def evaluate_network(net: Any, game: Game, cfg: EvalConfig, seed: int) -> dict[str, Any]:
    """The network alone against ``cfg.opponents`` (and, with ``cfg.exhaustive``, every opponent
    reply): ``rows`` (one per opponent), the total ``losses`` and ``games``, the mean ``score``,
    ``lines`` and ``lines_lost`` when exhaustive, and the ``seconds`` it took."""
    from zerosum.evaluation.evaluate import evaluate

    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    policy = greedy_policy(net, game)
    if cfg.games:
        report = evaluate(policy, game, opponents=list(cfg.opponents), games=cfg.games, seed=seed,
                          opening_plies=cfg.openings, name="alphazero")
        for r in report.results:
            t = r.total
            rows.append({"opponent": r.opponent, "games": t.games, "wins": t.wins, "draws": t.draws,
                         "losses": t.losses, "score": (t.wins + 0.5 * t.draws) / max(t.games, 1)})
    summary: dict[str, Any] = {"rows": rows}
    losses = sum(r["losses"] for r in rows)
    games = sum(r["games"] for r in rows)
    summary.update(losses=losses, games=games,
                   score=float(np.mean([r["score"] for r in rows])) if rows else float("nan"))
    if cfg.exhaustive:
        from zerosum.agents.policies import as_policy
        from zerosum.evaluation.exhaustive import worst_case

        _, agent = as_policy(policy, game, name="alphazero")
        walks = [worst_case(agent, game, seat) for seat in (0, 1)]
        summary["lines"] = sum(w.lines for w in walks)
        summary["lines_lost"] = sum(w.losses for w in walks)
    summary["seconds"] = time.perf_counter() - start
    return summary


def better(new: dict[str, Any], old: dict[str, Any] | None) -> bool:
    """Whether evaluation ``new`` picks best.pt over ``old``: fewer lost lines (exhaustive), then a
    higher mean score; ties go to the newer."""
    if old is None:
        return True
    key_new = (-new.get("lines_lost", 0), new["score"])
    key_old = (-old.get("lines_lost", 0), old["score"])
    return key_new >= key_old


__all__ = ["better", "evaluate_network", "greedy_policy"]
