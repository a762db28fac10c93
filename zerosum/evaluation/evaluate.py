"""How good is this policy? One call from a script or a notebook: :func:`evaluate`.

>>> import zerosum
>>> def first_legal(obs):                       # the dict a PettingZoo env gives the mover
...     return int(obs["action_mask"].argmax())
>>> report = zerosum.evaluate(first_legal, "tictactoe_v0", opponents=["random", "alphabeta(depth=2)"],
...                           games=10, seed=0)
>>> [(r.opponent, r.total.games, r.first.games, r.second.games) for r in report.results]
[('random', 10, 5, 5), ('alphabeta(depth=2)', 10, 5, 5)]

``policy`` may be an :class:`~zerosum.agents.Agent`, an agent spec string
(``"alphabeta(depth=3)"``), a checkpoint path (``"runs/ttt/model.zip"``, ``Path``), a
stable-baselines3 / sb3-contrib model object, or any callable ``(observation dict) ->
action`` that receives exactly what the PettingZoo env shows the player to move:
``{"observation": planes from its side, "action_mask": int8 legal-action mask}``
(:func:`zerosum.agents.policies.as_policy` makes it an agent).

Each opponent plays ``games`` games against the policy, the policy in the first seat in
even-numbered games and in the second in odd ones; games ``2j`` and ``2j + 1`` start from
the same opening (``opening_plies`` random plies). The games are a tournament's
(:func:`~zerosum.evaluation.tournament.gauntlet` tasks, played by a backend of
:mod:`~zerosum.evaluation.backends`): every game's agents are built afresh and seeded from
(seed, opponent, game), so the results do not depend on ``workers``. A policy that raises
or returns an illegal action loses that game; the reason is recorded and reported, and
the evaluation goes on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.agents.base import Agent
from zerosum.agents.checkpoints import jsonable_variant
from zerosum.agents.policies import CallableAgent, PolicyError, as_policy, model_agent
from zerosum.evaluation import report as views
from zerosum.evaluation.backends import make_backend
from zerosum.evaluation.stats import EvaluatedGame, OpponentResult, Record, opponent_results
from zerosum.evaluation.tournament import gauntlet
from zerosum.games.kit import Game, ZerosumError
from zerosum.games.kit.cache import notice
from zerosum.games.kit.tiers import for_job, job_note


class EvaluationError(ZerosumError, ValueError):
    """A policy, env, opponent or option that :func:`evaluate` cannot use; the message says why."""


def resolve_game(env: Any, variant: Mapping[str, Any] | None = None) -> tuple[str, Game]:
    """(env name, Game) from an env name (``pentago_v0``), a game name, a Game or a zerosum env."""
    from zerosum.games import make_game
    from zerosum.games.registry import ENVS, GAMES, env_game, env_name

    variant = dict(variant or {})
    if isinstance(env, Game):
        if variant:
            raise EvaluationError("variant= is for an env or game given by name; this Game already has "
                                  f"its variant {dict(env.variant)}")
        return env_name(env.name) or env.name, env
    inner = getattr(getattr(env, "unwrapped", env), "game", None)
    if isinstance(inner, Game):  # a zerosum PettingZoo env object
        return resolve_game(inner, variant)
    if not isinstance(env, str):
        raise EvaluationError(f"env must be an env name such as 'pentago_v0', a game name, a Game or a zerosum "
                              f"env; got {env!r}")
    if env in ENVS:
        return env, make_game(env_game(env), **variant)
    if env in GAMES:
        return env_name(env) or env, make_game(env, **variant)
    raise EvaluationError(f"unknown env {env!r}; available: {', '.join(sorted(ENVS))} "
                          f"(or a game name: {', '.join(sorted(GAMES))})")


def _opponent(spec: Any, game: Game) -> tuple[str, str | Agent]:
    """(name, spec or Agent): an opponent, checked against the game."""
    from zerosum.agents import make_agent

    if isinstance(spec, Agent):
        spec.prepare(game)
        return spec.name, spec
    if not isinstance(spec, str):
        raise EvaluationError(f"an opponent is an agent spec string or an Agent; got {spec!r}")
    try:
        make_agent(spec, rng=0).prepare(game)
    except ImportError as exc:
        raise EvaluationError(f"opponent {spec!r} needs an extra: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - any failure to build is the caller's input
        raise EvaluationError(f"opponent {spec!r} cannot play {game.name}: {exc}") from None
    return spec.strip(), spec


@dataclass
class EvaluationReport:
    """What :func:`evaluate` returns: results per opponent, the games, and ways to look at them.

    ``results`` holds one :class:`~zerosum.evaluation.stats.OpponentResult` per opponent
    (``report["random"]`` finds one by name); ``games`` every
    :class:`~zerosum.evaluation.stats.EvaluatedGame` in (opponent, index) order.
    ``print(report)`` shows the compact table; ``to_markdown()``, ``to_dataframe()`` and
    ``plot()`` the usual other views (from :mod:`~zerosum.evaluation.report` and
    :mod:`~zerosum.evaluation.plots`, which tournaments use too).
    """

    policy: str
    """The evaluated policy's name."""
    env: str
    """The env name the games were played on."""
    game: str
    """The game's name."""
    variant: dict[str, Any]
    """The variant played."""
    seed: int
    """The seed of the openings and of every agent's generator."""
    games_per_opponent: int
    """Games against each opponent (seats alternating)."""
    opening_plies: int
    """Random plies played before the agents took over."""
    results: list[OpponentResult]
    """One result per opponent, in the order given."""
    games: list[EvaluatedGame]
    """Every game, in (opponent, index) order."""
    seconds: float
    """Wall time of the evaluation."""

    HEAD = tuple(views.EVALUATION_HEAD)
    """The columns of the report's table."""

    def __getitem__(self, opponent: str) -> OpponentResult:
        for r in self.results:
            if r.opponent == opponent:
                return r
        raise KeyError(f"no opponent {opponent!r}; opponents: {[r.opponent for r in self.results]}")

    @property
    def total(self) -> Record:
        """The policy's record over every game."""
        rec = Record()
        for r in self.results:
            rec.wins, rec.draws, rec.losses = (rec.wins + r.total.wins, rec.draws + r.total.draws,
                                               rec.losses + r.total.losses)
        return rec

    @property
    def faults(self) -> list[dict[str, Any]]:
        """Every game the policy lost by raising or by an illegal action, with the reason."""
        return [f for r in self.results for f in r.faults]

    def rows(self) -> list[list[str]]:
        """The table's cells, one row per opponent."""
        return views.evaluation_rows(self)

    def title(self) -> str:
        """One line: the policy, the env, the variant and how the games were played."""
        return views.evaluation_title(self)

    def __str__(self) -> str:
        return views.evaluation_text(self)

    def __repr__(self) -> str:
        t = self.total
        return (f"<EvaluationReport {self.policy} on {self.env}: {len(self.results)} opponent(s), {t.games} games, "
                f"score {t.score:.3f}>")

    def to_markdown(self) -> str:
        """The table (and any faults) as Markdown."""
        return views.evaluation_markdown(self)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def as_rows(self, level: str = "opponents") -> list[dict[str, Any]]:
        """Plain dict rows: ``opponents`` (one row each), ``games`` (one per game) or ``moves`` (one per move)."""
        return views.evaluation_records(self, level)

    def to_dataframe(self, level: str = "opponents") -> Any:
        """A pandas DataFrame: ``opponents`` (one row each), ``games`` or ``moves``."""
        return views.dataframe(self.as_rows(level))

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """A figure: the score by seat against each opponent with 95% intervals, and the
        opponents' nodes per move by move number (log scale). Saved to ``path`` if given."""
        from zerosum.evaluation.plots import plot_evaluation

        return plot_evaluation(self, path)

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain data (JSON-ready): the header and one row per opponent."""
        return {"policy": self.policy, "env": self.env, "game": self.game, "variant": self.variant,
                "seed": self.seed, "games_per_opponent": self.games_per_opponent,
                "opening_plies": self.opening_plies, "seconds": self.seconds,
                "results": self.as_rows("opponents"), "faults": self.faults}


def _count(value: Any, name: str, low: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise EvaluationError(f"{name} {what}; got {value!r}")
    return int(value)


def evaluate(policy: Any, env: Any = "tictactoe_v0", opponents: str | Agent | Sequence[str | Agent] = ("random",), *,
             games: int = 100, seed: int = 0, workers: int = 1, variant: Mapping[str, Any] | None = None,
             opening_plies: int = 0, masked: bool | None = None, deterministic: bool = True,
             name: str | None = None, progress: Callable[[int, int], None] | None = None) -> EvaluationReport:
    """Play ``policy`` against each opponent ``games`` times (seats alternating) and report.

    ``env`` is an env name (``"pentago_v0"``), a game name, a Game or a zerosum env, with
    ``variant`` keyword arguments for the rules. ``opponents`` are agent specs or Agents.
    ``masked`` (models and checkpoints only) passes the action mask to the network; None
    means "when the model was trained with masks". ``progress(done, total)`` is called
    after each game. See the module docstring for what ``policy`` may be.
    """
    games = _count(games, "games", 1, "is the number of games per opponent, an int >= 1")
    workers = _count(workers, "workers", 1, "is an int >= 1")
    opening_plies = _count(opening_plies, "opening_plies", 0, "is an int >= 0")
    env_name, game = resolve_game(env, variant)
    if isinstance(opponents, (str, Agent)):
        opponents = [opponents]
    if not opponents:
        raise EvaluationError("opponents is empty: give at least one agent spec, e.g. ['random']")
    opp = [_opponent(o, game) for o in opponents]
    names = [n for n, _ in opp]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise EvaluationError(f"opponent(s) {dup} given twice; give each once (or rename an Agent)")
    try:
        spec, agent = as_policy(policy, game, masked=masked, deterministic=deterministic, name=name)
    except PolicyError as exc:
        raise EvaluationError(str(exc)) from None
    except ZerosumError:
        raise
    except (ValueError, TypeError) as exc:
        raise EvaluationError(f"cannot evaluate this policy on {game.name}: {exc}") from None
    policy_name = name or agent.name
    payload: dict[str, Any] = {
        "game": game, "variant": jsonable_variant(game.variant), "names": [policy_name, *names],
        "specs": [agent if spec is None else spec, *(s for _, s in opp)]}
    tasks = gauntlet(game, len(opp), seed=int(seed), games=games, opening_plies=opening_plies)
    backend = make_backend("process", workers if len(tasks) > 1 else 1, payload=payload)
    start = time.perf_counter()
    done: dict[tuple[int, int], EvaluatedGame] = {}
    with for_job(len(tasks)) as own_copy:
        if own_copy:
            notice(f"evaluate-tier:{game.name}", job_note(len(tasks), game.name))
        for task, match in backend.run(payload, tasks):
            seat = 0 if task.seats[0] == 0 else 1
            done[(task.pairing, task.game_index)] = EvaluatedGame(names[task.pairing], task.game_index, seat,
                                                                  task.seed, match)
            if progress is not None:
                progress(len(done), len(tasks))
    ordered = [done[k] for k in sorted(done)]
    return EvaluationReport(policy_name, env_name, game.name, payload["variant"], int(seed), games, opening_plies,
                            opponent_results(names, ordered), ordered, time.perf_counter() - start)


__all__ = ["CallableAgent", "EvaluatedGame", "EvaluationError", "EvaluationReport", "OpponentResult", "as_policy",
           "evaluate", "model_agent", "resolve_game"]
