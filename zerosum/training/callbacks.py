"""SB3 callbacks: periodic evaluation (CSV + SB3 logger), self-play snapshots, training outcomes.

Imported only by :mod:`zerosum.training.train` (it needs stable-baselines3).
"""

from __future__ import annotations

import copy
import csv
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from zerosum.agents import make_agent
from zerosum.agents.checkpoints import save_checkpoint
from zerosum.agents.learned import PolicyAgent
from zerosum.evaluation.evaluate import EvaluationReport, evaluate
from zerosum.games.kit import Game
from zerosum.training.opponents import Curriculum, OpponentSource, SelfPlayPool

EVAL_COLUMNS = ["steps", "seconds", "opponent", "seat", "games", "wins", "draws", "losses", "score"]


def policy_agent(model: Any, algo: str, obs_format: str, *, deterministic: bool = True, frozen: bool = False,
                 name: str = "learner") -> PolicyAgent:
    """The model's current policy as an agent (a deep copy when ``frozen``)."""
    policy = copy.deepcopy(model.policy) if frozen else model.policy
    policy.set_training_mode(False)
    return PolicyAgent(policy, algo=algo, obs_format=obs_format, deterministic=deterministic, name=name)


class EvalCallback(BaseCallback):
    """Every ``every`` steps (and at the end), evaluate the policy with :func:`zerosum.evaluate`.

    Each opponent plays ``2 * games_per_seat`` games, the policy in each seat in turn.

    Rows go to ``csv_path`` (one per opponent and seat: wins, draws, losses, score) and to
    the SB3 logger as ``eval/<opponent>/seat<k>_{win,draw,loss}`` (TensorBoard when the
    logger has it). ``history`` keeps every row, ``last_report`` the last EvaluationReport.
    """

    def __init__(self, game: Game, opponents: list[str], *, every: int, games_per_seat: int, algo: str,
                 obs_format: str, csv_path: str | Path | None = None, seed: int = 0, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.game, self.opponent_specs, self.every = game, list(opponents), int(every)
        self.games_per_seat, self.algo, self.obs_format = int(games_per_seat), algo, obs_format
        self.csv_path = Path(csv_path) if csv_path else None
        self.seed = seed
        self.history: list[dict[str, Any]] = []
        self.last_report: EvaluationReport | None = None
        self._next = self.every
        self._start = time.perf_counter()
        self._eval_seconds = 0.0
        for spec in self.opponent_specs:  # a bad spec fails now, not after the first rollout
            make_agent(spec).prepare(game)

    def _on_training_start(self) -> None:
        self._start = time.perf_counter()
        if self.csv_path and not self.csv_path.exists():
            self.csv_path.parent.mkdir(parents=True, exist_ok=True)
            with self.csv_path.open("w", newline="") as f:
                csv.writer(f).writerow(EVAL_COLUMNS)

    def _on_step(self) -> bool:
        if self.every > 0 and self.num_timesteps >= self._next:
            self._next += self.every
            self.run()
        return True

    def _on_training_end(self) -> None:
        if not self.history or self.history[-1]["steps"] != self.num_timesteps:
            self.run()

    def run(self) -> list[dict[str, Any]]:
        """Evaluate now with :func:`zerosum.evaluate`; returns this evaluation's rows."""
        t0 = time.perf_counter()
        agent = policy_agent(self.model, self.algo, self.obs_format)
        # the same seed every time: each evaluation plays the same games, only the policy changes
        report = evaluate(agent, self.game, self.opponent_specs, games=2 * self.games_per_seat, seed=self.seed)
        self.last_report = report
        rows = []
        for r in report.results:
            for seat, rec in enumerate((r.first, r.second)):
                row: dict[str, Any] = {
                    "steps": self.num_timesteps, "seconds": round(t0 - self._start - self._eval_seconds, 2),
                    "opponent": r.opponent, "seat": seat, "games": rec.games, "wins": rec.wins,
                    "draws": rec.draws, "losses": rec.losses, "score": rec.score}
                rows.append(row)
                for column, name in (("wins", "win"), ("draws", "draw"), ("losses", "loss")):
                    self.logger.record(f"eval/{r.opponent}/seat{seat}_{name}", row[column] / max(rec.games, 1))
            if r.faults:
                self.logger.record(f"eval/{r.opponent}/faults", len(r.faults))
        self.model.policy.set_training_mode(False)
        if self.csv_path:
            with self.csv_path.open("a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=EVAL_COLUMNS)
                for row in rows:
                    w.writerow(row)
        self.history.extend(rows)
        self._eval_seconds += time.perf_counter() - t0
        if self.verbose:
            text = "  ".join(f"{r['opponent']}/seat{r['seat']}: {r['wins']}-{r['draws']}-{r['losses']}" for r in rows)
            print(f"[eval @ {self.num_timesteps} steps] {text}", flush=True)
        return rows

    @property
    def eval_seconds(self) -> float:
        """Wall time spent evaluating (excluded from training speed)."""
        return self._eval_seconds


class SelfPlayCallback(BaseCallback):
    """Every ``every`` steps, freeze a copy of the learner into the self-play pool."""

    def __init__(self, pool: SelfPlayPool, *, every: int, algo: str, obs_format: str,
                 deterministic: bool = False, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.pool, self.every, self.algo, self.obs_format = pool, int(every), algo, obs_format
        self.deterministic = deterministic
        self._next = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            self.pool.add(policy_agent(self.model, self.algo, self.obs_format, deterministic=self.deterministic,
                                       frozen=True, name=f"snapshot@{self.num_timesteps}"))
            self.model.policy.set_training_mode(False)
            if self.verbose:
                print(f"[self-play] snapshot {self.pool.added} at {self.num_timesteps} steps", flush=True)
        return True


class OutcomeCallback(BaseCallback):
    """Count training episodes' outcomes per seat and log the opponent schedule."""

    def __init__(self, source: OpponentSource, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.source = source
        self.counts = np.zeros((2, 4), dtype=np.int64)  # seat x (win, draw, loss, illegal)
        self._window = np.zeros((2, 4), dtype=np.int64)
        self._stage = getattr(source, "stage", None)

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if done and "outcome" in info:
                k = ("win", "draw", "loss", "illegal").index(info["outcome"])
                self.counts[info["seat"], k] += 1
                self._window[info["seat"], k] += 1
        if isinstance(self.source, Curriculum) and self.source.stage != self._stage:
            self._stage = self.source.stage
            if self.verbose:
                print(f"[curriculum] {self.num_timesteps} steps: now against {self.source.current}", flush=True)
        return True

    def _on_rollout_end(self) -> None:
        for seat in (0, 1):
            n = self._window[seat].sum()
            if n:
                for k, name in enumerate(("win", "draw", "loss", "illegal")):
                    self.logger.record(f"train/seat{seat}_{name}", self._window[seat, k] / n)
        self._window[:] = 0
        if isinstance(self.source, Curriculum):
            self.logger.record("train/curriculum_stage", self.source.stage)
            self.logger.record("train/curriculum_rate", self.source.rate())


class TimeLimitCallback(BaseCallback):
    """Stop training after ``seconds`` of wall time spent in ``learn`` (evaluation excluded)."""

    def __init__(self, seconds: float, evaluator: EvalCallback | None = None) -> None:
        super().__init__()
        self.seconds, self.evaluator = float(seconds), evaluator
        self._start = time.perf_counter()
        self.stopped = False

    def _on_training_start(self) -> None:
        self._start = time.perf_counter()

    def _on_step(self) -> bool:
        spent = time.perf_counter() - self._start - (self.evaluator.eval_seconds if self.evaluator else 0.0)
        self.stopped = spent >= self.seconds
        return not self.stopped


class PeriodicSaveCallback(BaseCallback):
    """Save ``folder/step_N.zip`` with its metadata (``metadata(steps)``) every ``every`` steps."""

    def __init__(self, folder: str | Path, *, every: int, metadata: Callable[[int], dict[str, Any]]) -> None:
        super().__init__()
        self.folder, self.every, self.metadata = Path(folder), int(every), metadata
        self._next = self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            save_checkpoint(self.model, self.folder / f"step_{self.num_timesteps}.zip",
                            self.metadata(self.num_timesteps))
        return True


__all__ = ["EVAL_COLUMNS", "EvalCallback", "OutcomeCallback", "PeriodicSaveCallback", "SelfPlayCallback",
           "TimeLimitCallback", "policy_agent"]
