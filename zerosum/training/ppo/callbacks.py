"""SB3 callbacks: periodic evaluation (CSV + SB3 logger), self-play snapshots, training outcomes.

Used by :mod:`zerosum.training.ppo.train`. The callbacks subclass stable-baselines3's ``BaseCallback``,
imported when the first callback is made (the ``train`` extra), not when this module is.
"""

from __future__ import annotations

import copy
import csv
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from zerosum._lazybase import lazy_base

from zerosum.agents import make_agent
from zerosum.agents.checkpoints import save_checkpoint
from zerosum.agents.learned import PolicyAgent
from zerosum.evaluation.evaluate import EvaluationReport, evaluate
from zerosum.games.kit import Game
from zerosum.training.opponents import Curriculum, OpponentSource, SelfPlayPool

if TYPE_CHECKING:
    from stable_baselines3.common.callbacks import BaseCallback
else:
    BaseCallback = lazy_base("stable_baselines3.common.callbacks", "BaseCallback")

EVERY_LINE = "every line"
"""The opponent of exhaustive evaluation rows."""
EVAL_COLUMNS = ["steps", "seconds", "opponent", "openings", "seat", "games", "wins", "draws", "losses", "score"]
"""The columns of the run's ``eval.csv``."""


def policy_agent(model: Any, algo: str, obs_format: str, *, deterministic: bool = True, frozen: bool = False,
                 name: str = "learner") -> PolicyAgent:
    """The model's current policy as an agent (a deep copy when ``frozen``)."""
    policy = copy.deepcopy(model.policy) if frozen else model.policy
    policy.set_training_mode(False)
    return PolicyAgent(policy, algo=algo, obs_format=obs_format, deterministic=deterministic, name=name)


class EvalCallback(BaseCallback):
    """Every ``every`` steps (and at the end), evaluate the policy with :func:`zerosum.evaluate`.

    Each opponent plays ``2 * games_per_seat`` games, the policy in each seat in turn, from
    the empty board and from each number of random opening plies in ``openings`` (default
    ``(0,)``: the empty board only).

    With ``exhaustive`` (small games only) each evaluation also walks every line against
    the policy in each seat (:func:`zerosum.evaluation.exhaustive.worst_case`, every move of
    the opponent and of the ``max(openings)`` opening plies): rows with opponent
    ``"every line"`` count lines, and 0 lines lost proves that no opponent beats the policy.

    **Best checkpoint.** With ``on_best`` given, each evaluation is ranked by the lines it
    loses (exhaustive), then its losses in sampled games (summed over opponents, openings
    and seats; fewer is better), then its mean score in them; a tie goes to the later one
    (it trained longer). ``on_best(steps, summary)`` is called
    when an evaluation ranks first so far (the trainer saves ``best.zip`` there);
    ``best`` holds that evaluation's summary.

    Rows go to ``csv_path`` (one per opponent and seat: wins, draws, losses, score) and to
    the SB3 logger as ``eval/<opponent>/seat<k>_{win,draw,loss}`` (TensorBoard when the
    logger has it). ``history`` keeps every row, ``last_report`` the last EvaluationReport.
    """

    def __init__(self, game: Game, opponents: list[str], *, every: int, games_per_seat: int, algo: str,
                 obs_format: str, csv_path: str | Path | None = None, seed: int = 0, verbose: int = 0,
                 openings: tuple[int, ...] | list[int] = (0,),
                 on_best: Callable[[int, dict[str, Any]], None] | None = None, exhaustive: bool = False,
                 exploiter: Any = None) -> None:
        super().__init__(verbose)
        self.exhaustive = bool(exhaustive)
        """Also walk every opponent move against the deterministic policy (small games)."""
        self.exploiter = exploiter
        """An ExploiterAgent aimed at the lines each exhaustive walk finds lost."""
        self.openings = tuple(int(k) for k in openings) or (0,)
        """The numbers of random opening plies evaluated from."""
        self.on_best = on_best
        """Called as ``on_best(steps, summary)`` when an evaluation ranks first so far."""
        self.best: dict[str, Any] | None = None
        """The summary of the best evaluation so far, or None."""
        self.game, self.opponent_specs, self.every = game, list(opponents), int(every)
        self.games_per_seat, self.algo, self.obs_format = int(games_per_seat), algo, obs_format
        self.csv_path = Path(csv_path) if csv_path else None
        """Where evaluation rows are appended (None: nowhere)."""
        self.seed = seed
        """The evaluations' seed (the same games each time)."""
        self.history: list[dict[str, Any]] = []
        """Every evaluation row so far."""
        self.last_report: EvaluationReport | None = None
        """The last evaluation's report, or None."""
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
        rows = []
        for plies in self.openings:
            # the same seed every time: each evaluation plays the same games, only the policy changes
            report = evaluate(agent, self.game, self.opponent_specs, games=2 * self.games_per_seat, seed=self.seed,
                              opening_plies=plies)
            self.last_report = report
            tag = "" if plies == 0 else f"/open{plies}"
            for r in report.results:
                for seat, rec in enumerate((r.first, r.second)):
                    row: dict[str, Any] = {
                           "steps": self.num_timesteps, "seconds": round(t0 - self._start - self._eval_seconds, 2),
                           "opponent": r.opponent, "openings": plies, "seat": seat, "games": rec.games,
                           "wins": rec.wins, "draws": rec.draws, "losses": rec.losses, "score": rec.score}
                    rows.append(row)
                    for column, name in (("wins", "win"), ("draws", "draw"), ("losses", "loss")):
                        self.logger.record(f"eval/{r.opponent}{tag}/seat{seat}_{name}", row[column] / max(rec.games, 1))
                if r.faults:
                    self.logger.record(f"eval/{r.opponent}{tag}/faults", len(r.faults))
        if self.exhaustive:
            rows += self._every_line(agent, t0)
        self.model.policy.set_training_mode(False)
        self._rank(rows)
        if self.csv_path:
            with self.csv_path.open("a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=EVAL_COLUMNS)
                for row in rows:
                    w.writerow(row)
        self.history.extend(rows)
        self._eval_seconds += time.perf_counter() - t0
        if self.verbose:
            best = " (best so far)" if self.best and self.best["steps"] == self.num_timesteps else ""
            print(f"[eval @ {self.num_timesteps:,} steps] won-drawn-lost: {self.latest()}{best}", flush=True)
        return rows

    def _every_line(self, agent: PolicyAgent, t0: float) -> list[dict[str, Any]]:
        from zerosum.evaluation.exhaustive import worst_case

        rows = []
        targets: dict[bytes, tuple[int, ...]] = {}
        for seat in (0, 1):
            wc = worst_case(agent, self.game, seat, opening_plies=max(self.openings))
            targets.update(wc.losing_moves)
            rows.append({"steps": self.num_timesteps, "seconds": round(t0 - self._start - self._eval_seconds, 2),
                         "opponent": EVERY_LINE, "openings": wc.opening_plies, "seat": seat, "games": wc.lines,
                         "wins": wc.wins, "draws": wc.draws, "losses": wc.losses,
                         "score": round((wc.wins + 0.5 * wc.draws) / max(wc.lines, 1), 4)})
            self.logger.record(f"eval/every_line/seat{seat}_lines_lost", wc.losses)
        if self.exploiter is not None:
            self.exploiter.update(targets)
        return rows

    def _rank(self, rows: list[dict[str, Any]]) -> None:
        sampled = [r for r in rows if r["opponent"] != EVERY_LINE]
        games = sum(r["games"] for r in sampled)
        summary = {"steps": self.num_timesteps, "games": games, "losses": sum(r["losses"] for r in sampled),
                   "score": round(sum(r["score"] * r["games"] for r in sampled) / max(games, 1), 4),
                   "opponents": list(self.opponent_specs), "openings": list(self.openings),
                   "games_per_seat": self.games_per_seat, "seed": self.seed,
                   "rule": "fewest losses, then highest mean score; ties go to the later evaluation"}
        if self.exhaustive:
            summary["lines_lost"] = sum(r["losses"] for r in rows if r["opponent"] == EVERY_LINE)
            summary["lines"] = sum(r["games"] for r in rows if r["opponent"] == EVERY_LINE)
            summary["rule"] = ("fewest lines lost against every opponent move (exhaustive), then fewest losses, "
                               "then highest mean score; ties go to the later evaluation")

        def key(s: dict[str, Any]) -> tuple[float, ...]:
            return (s.get("lines_lost", 0), s["losses"], -s["score"])

        if self.best is None or key(summary) <= key(self.best):
            self.best = summary
            if self.on_best is not None:
                self.on_best(self.num_timesteps, summary)

    def latest(self) -> str:
        """The last evaluation per opponent and seat, as ``opponent/seatK W-D-L`` (empty before the first)."""
        if not self.history:
            return ""
        last = [r for r in self.history if r["steps"] == self.history[-1]["steps"]]
        return "  ".join(f"{r['opponent']}{'/open' + str(r['openings']) if r['openings'] else ''}/seat{r['seat']} "
                         f"{r['wins']}-{r['draws']}-{r['losses']}" for r in last)

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
        """Whether snapshots play their best action (True) or sample."""
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
        """The opponent source told each finished episode's result."""
        self.counts = np.zeros((2, 4), dtype=np.int64)
        """Seat x (win, draw, loss, illegal)"""
        self._window = np.zeros((2, 4), dtype=np.int64)
        self._stage = getattr(source, "stage", None)
        self.mix: dict[str, int] = {}
        """Episodes per opponent since the last progress line."""
        self.recent = np.zeros((2, 4), dtype=np.int64)
        """Outcomes since the last progress line."""

    def take_recent(self) -> tuple[dict[str, int], np.ndarray]:
        """The opponent mix and the outcomes per seat since the last call (then cleared)."""
        mix, recent = self.mix, self.recent.copy()
        self.mix, self.recent[:] = {}, 0
        return mix, recent

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if done and "outcome" in info:
                k = ("win", "draw", "loss", "illegal").index(info["outcome"])
                self.counts[info["seat"], k] += 1
                self._window[info["seat"], k] += 1
                self.recent[info["seat"], k] += 1
                key = info["opponent"] if not info["opponent"].startswith("snapshot@") else "snapshot"
                self.mix[key] = self.mix.get(key, 0) + 1
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


class ProgressCallback(BaseCallback):
    """Every ``every`` seconds, one readable line: steps, steps/s, opponent mix, outcomes, latest evaluation."""

    def __init__(self, total: int, outcomes: OutcomeCallback, evaluator: EvalCallback | None,
                 every: float = 15.0, write: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.total, self.outcomes, self.evaluator, self.every = int(total), outcomes, evaluator, float(every)
        self.write = write or (lambda line: print(line, flush=True))
        """Where progress lines go (default: print)."""
        self._last_t, self._last_steps = time.perf_counter(), 0

    def _on_training_start(self) -> None:
        self._last_t, self._last_steps = time.perf_counter(), self.num_timesteps

    def _on_step(self) -> bool:
        if time.perf_counter() - self._last_t >= self.every:
            self.report()
        return True

    def report(self) -> None:
        """Write the progress line now."""
        now = time.perf_counter()
        rate = (self.num_timesteps - self._last_steps) / max(now - self._last_t, 1e-9)
        self._last_t, self._last_steps = now, self.num_timesteps
        mix, recent = self.outcomes.take_recent()
        n = sum(mix.values())
        mix_text = ", ".join(f"{k} {100 * v / n:.0f}%" for k, v in sorted(mix.items(), key=lambda kv: -kv[1])) or "-"
        seats = "  ".join(f"seat{s} {recent[s, 0]}-{recent[s, 1]}-{recent[s, 2]}" for s in (0, 1))
        line = (f"[{self.num_timesteps:,}/{self.total:,} steps] {rate:,.0f} steps/s | {n} games vs {mix_text} | "
                f"won-drawn-lost {seats}")
        if self.evaluator is not None and self.evaluator.history:
            line += f" | eval @{self.evaluator.history[-1]['steps']:,}: {self.evaluator.latest()}"
        self.write(line)


class TimeLimitCallback(BaseCallback):
    """Stop training after ``seconds`` of wall time spent in ``learn`` (evaluation excluded)."""

    def __init__(self, seconds: float, evaluator: EvalCallback | None = None) -> None:
        super().__init__()
        self.seconds, self.evaluator = float(seconds), evaluator
        self._start = time.perf_counter()
        self.stopped = False
        """Whether the time limit stopped training."""

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


__all__ = ["EVAL_COLUMNS", "EVERY_LINE", "EvalCallback", "OutcomeCallback", "PeriodicSaveCallback", "ProgressCallback",
           "SelfPlayCallback", "TimeLimitCallback", "policy_agent"]
