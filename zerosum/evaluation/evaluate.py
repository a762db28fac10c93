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
``{"observation": planes from its side, "action_mask": int8 legal-action mask}``.

Each opponent plays ``games`` games against the policy, the policy in the first seat in
even-numbered games and in the second in odd ones; games ``2j`` and ``2j + 1`` start from
the same opening (``opening_plies`` random plies). Every game's agents are built afresh
and seeded from (seed, opponent, game), so the results do not depend on ``workers``. A
policy that raises or returns an illegal action loses that game; the reason is recorded
and reported, and the evaluation goes on.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import pickle
import signal
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from zerosum.agents.base import Agent
from zerosum.evaluation.backends import agent_rng, drain, fresh_agent
from zerosum.evaluation.match import MatchResult, forfeit, play_match, random_opening
from zerosum.evaluation.stats import Cost, Record, search_cost
from zerosum.games.base import Action, Game, State, ZerosumError


class EvaluationError(ZerosumError, ValueError):
    """A policy, env, opponent or option that :func:`evaluate` cannot use; the message says why."""


POLICY_KINDS = ("an Agent", "an agent spec string such as 'alphabeta(depth=3)'", "a checkpoint path (.zip)",
                "a stable-baselines3 / sb3-contrib model", "a callable (observation dict) -> action")


# ---- the game -------------------------------------------------------------------------------------
def resolve_game(env: Any, variant: Mapping[str, Any] | None = None) -> tuple[str, Game]:
    """(env name, Game) from an env name (``pentago_v0``), a game name, a Game or a zerosum env."""
    from zerosum.envs import ENVS
    from zerosum.games import GAMES, make_game

    variant = dict(variant or {})
    if isinstance(env, Game):
        if variant:
            raise EvaluationError("variant= is for an env or game given by name; this Game already has "
                                  f"its variant {dict(env.variant)}")
        return _env_name(env.name), env
    inner = getattr(getattr(env, "unwrapped", env), "game", None)
    if isinstance(inner, Game):  # a zerosum PettingZoo env object
        return resolve_game(inner, variant)
    if not isinstance(env, str):
        raise EvaluationError(f"env must be an env name such as 'pentago_v0', a game name, a Game or a zerosum "
                              f"env; got {env!r}")
    if env in ENVS:
        name = ENVS[env][1]
    elif env in GAMES:
        name = env
    else:
        raise EvaluationError(f"unknown env {env!r}; available: {', '.join(sorted(ENVS))} "
                              f"(or a game name: {', '.join(sorted(GAMES))})")
    return (env if env in ENVS else _env_name(name)), make_game(name, **variant)


def _env_name(game_name: str) -> str:
    from zerosum.games.registry import env_name

    return env_name(game_name) or game_name


# ---- the policy -----------------------------------------------------------------------------------
class CallableAgent(Agent):
    """A plain function of the PettingZoo observation dict as an agent."""

    def __init__(self, fn: Callable[[dict[str, np.ndarray]], Action], name: str | None = None, rng=None) -> None:
        super().__init__(rng)
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or type(fn).__name__
        if self.name == "<lambda>":
            self.name = "lambda"

    def act(self, game: Game, state: State) -> Action:
        player = game.current_player(state)
        return self.fn({"observation": game.observation(state, player), "action_mask": game.legal_mask(state)})


def _is_sb3_model(obj: Any) -> bool:
    return hasattr(obj, "policy") and hasattr(obj, "predict") and hasattr(obj, "observation_space")


def model_agent(model: Any, game: Game, *, masked: bool | None = None, deterministic: bool = True,
                name: str | None = None) -> Agent:
    """A stable-baselines3 / sb3-contrib model object as an agent for ``game``.

    Its input format (flat vector or dict) is read from the model's observation space;
    ``masked=None`` passes the action mask when the model was trained with masks
    (MaskablePPO, MaskableDQN) and lets an unmasked model choose freely otherwise.
    """
    from gymnasium import spaces

    from zerosum.agents.learned import PolicyAgent

    space = model.observation_space
    planes, n = int(np.prod(game.observation_shape)), game.num_actions
    if isinstance(space, spaces.Dict):
        obs_format = "dict"
        shape = tuple(space["observation"].shape) if "observation" in space.spaces else None
        ok = shape == tuple(game.observation_shape)
    else:
        obs_format = "flat"
        shape = tuple(getattr(space, "shape", ()) or ())
        ok = shape == (planes + n,)
    if not ok:
        raise EvaluationError(f"{type(model).__name__}'s observation space {space} does not fit {game.name} "
                              f"{dict(game.variant)}: expected a Dict with observation {tuple(game.observation_shape)} "
                              f"or a flat Box of {planes + n} (planes then mask); was it trained on another game or variant?")
    cls = type(model).__name__
    q = hasattr(model.policy, "q_net")
    algo = ("maskable_dqn" if cls.startswith("Maskable") else "dqn") if q else (
        "maskable_ppo" if cls.startswith("Maskable") else "ppo")
    if masked is None:
        masked = cls.startswith("Maskable")
    model.policy.set_training_mode(False)
    return PolicyAgent(model.policy, algo=algo, obs_format=obs_format, deterministic=deterministic,
                       masked=masked, name=name or cls)


def _checkpoint_agent(path: str | os.PathLike[str], masked: bool | None, deterministic: bool) -> Agent:
    from zerosum.agents.learned import LearnedAgent, read_metadata

    meta = read_metadata(path)
    if masked is None:
        masked = str(meta["algo"]).startswith("maskable")
    return LearnedAgent(str(path), deterministic=deterministic, masked=masked)


def _looks_like_checkpoint(text: str) -> bool:
    from zerosum.agents.learned import checkpoint_paths

    return text.endswith((".zip", ".json")) or "/" in text or os.sep in text or checkpoint_paths(text)[0].is_file()


def as_policy(policy: Any, game: Game, *, masked: bool | None = None, deterministic: bool = True,
              name: str | None = None) -> tuple[str | None, Agent]:
    """(spec or None, agent) for anything :func:`evaluate` accepts as a policy.

    A spec string is kept as the spec (workers build the agent from it); everything else
    becomes an agent object here, so a bad policy fails before any game is played.
    """
    from zerosum.agents import AGENTS, make_agent, parse_spec

    if isinstance(policy, Agent):
        agent = policy
    elif isinstance(policy, os.PathLike):
        agent = _checkpoint_agent(policy, masked, deterministic)
    elif isinstance(policy, str):
        try:
            spec_name, _ = parse_spec(policy)
        except ValueError:
            spec_name = None
        if spec_name in AGENTS:
            agent = make_agent(policy, rng=0)
            agent.prepare(game)
            return policy, agent
        if not _looks_like_checkpoint(policy):
            raise EvaluationError(f"policy {policy!r} is neither an agent spec (agents: {', '.join(sorted(AGENTS))}) "
                                  f"nor a checkpoint path (no file {policy}.zip)")
        agent = _checkpoint_agent(policy, masked, deterministic)
    elif _is_sb3_model(policy):
        agent = model_agent(policy, game, masked=masked, deterministic=deterministic)
    elif callable(policy):
        agent = CallableAgent(policy)
    else:
        raise EvaluationError(f"cannot evaluate {policy!r} of type {type(policy).__name__}: a policy is "
                              + ", ".join(POLICY_KINDS[:-1]) + f" or {POLICY_KINDS[-1]}")
    if name:
        agent.name = name
    agent.prepare(game)
    return None, agent


def _opponent(spec: Any, game: Game) -> tuple[str, str | None, Agent | None]:
    """(name, spec, agent): an opponent from a spec string or an Agent, checked against the game."""
    from zerosum.agents import make_agent

    if isinstance(spec, Agent):
        spec.prepare(game)
        return spec.name, None, spec
    if not isinstance(spec, str):
        raise EvaluationError(f"an opponent is an agent spec string or an Agent; got {spec!r}")
    try:
        make_agent(spec, rng=0).prepare(game)
    except ImportError as exc:
        raise EvaluationError(f"opponent {spec!r} needs an extra: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - any failure to build is the caller's input
        raise EvaluationError(f"opponent {spec!r} cannot play {game.name}: {exc}") from None
    return spec.strip(), spec, None


# ---- one game -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """Game ``index`` against opponent ``opponent``; the policy sits in ``seat``."""

    opponent: int
    index: int
    seat: int
    seed: int
    opening: tuple[int, ...]


@dataclass
class _Plan:
    """Everything a worker needs: picklable, or inherited by a forked worker."""

    game: Game
    policy_spec: str | None
    policy: Agent | None
    opponent_specs: list[str | None]
    opponents: list[Agent | None]
    names: list[str]
    policy_name: str


def _fresh(spec: str | None, proto: Agent | None, rng: np.random.Generator) -> Agent:
    if spec is not None:
        return fresh_agent(spec, rng)
    try:
        return proto.spawn(rng)
    except Exception:  # noqa: BLE001 - an agent that cannot be copied is reused (play_match resets it)
        proto.seed(rng)
        return proto


def play_task(plan: _Plan, task: Task) -> tuple[Task, MatchResult]:
    """Play one game of the evaluation from its task alone."""
    game = plan.game
    me, opp = task.seat, 1 - task.seat
    names = [plan.policy_name, plan.names[task.opponent]]
    seat_names = (names[0], names[1]) if me == 0 else (names[1], names[0])
    agents: list[Agent | None] = [None, None]
    for seat, (spec, proto) in ((me, (plan.policy_spec, plan.policy)),
                                (opp, (plan.opponent_specs[task.opponent], plan.opponents[task.opponent]))):
        try:
            agent = _fresh(spec, proto, agent_rng(task.seed, seat))
            agent.name = seat_names[seat]
            agent.prepare(game)
        except Exception as exc:  # noqa: BLE001 - an agent that cannot start loses the game
            return task, forfeit(seat_names, task.opening, seat,
                                 f"{seat_names[seat]} could not start: {type(exc).__name__}: {exc}",
                                 traceback.format_exc())
        agents[seat] = agent
    return task, play_match(game, agents, task.opening)  # type: ignore[arg-type]


# ---- running games --------------------------------------------------------------------------------
_WORKER_PLAN: _Plan | None = None


def _init_worker(plan: _Plan | None) -> None:
    global _WORKER_PLAN
    if plan is not None:
        _WORKER_PLAN = plan
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import sys

    if "torch" in sys.modules:  # one thread per worker: the workers are the parallelism
        sys.modules["torch"].set_num_threads(1)


def _play_in_worker(task: Task) -> tuple[Task, MatchResult]:
    if _WORKER_PLAN is None:
        raise RuntimeError("evaluation worker started without a plan")
    return play_task(_WORKER_PLAN, task)


def _pool(plan: _Plan, workers: int) -> Any:
    """A process pool whose workers hold the plan, or None when there can be none.

    Workers are forked where the platform can (Linux): a policy is often an object that
    cannot be pickled or re-imported (a lambda, a function typed into a notebook, a model
    in memory), and a forked worker simply inherits it, with the kernels already loaded.
    Torch in a worker is held to one thread, as PyTorch's own DataLoader workers are, so a
    fork after the parent ran the network is safe. Elsewhere the plan is pickled for
    spawned workers, and None is returned when it cannot be.
    """
    global _WORKER_PLAN
    methods = mp.get_all_start_methods()
    if "fork" in methods:
        _WORKER_PLAN = plan
        return mp.get_context("fork").Pool(workers, initializer=_init_worker, initargs=(None,))
    try:
        pickle.loads(pickle.dumps(plan))
    except Exception:  # noqa: BLE001 - lambdas, closures, live handles
        return None
    return mp.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(plan,))


def run_tasks(plan: _Plan, tasks: Sequence[Task], workers: int) -> Iterator[tuple[Task, MatchResult]]:
    """Yield each finished game: in this process for one worker, else from a process pool."""
    pool = _pool(plan, min(workers, len(tasks))) if workers > 1 and len(tasks) > 1 else None
    if pool is None:
        if workers > 1 and len(tasks) > 1:
            warnings.warn("the policy cannot be sent to worker processes on this platform (it does not pickle); "
                          "playing in this process", RuntimeWarning, stacklevel=3)
        for task in tasks:
            yield play_task(plan, task)
        return
    global _WORKER_PLAN
    try:
        yield from drain(pool, _play_in_worker, list(tasks))
    finally:
        _WORKER_PLAN = None  # the forked workers have their copy; this process keeps no reference


def plan_tasks(game: Game, opponents: int, games: int, seed: int, opening_plies: int) -> list[Task]:
    """Every game: policy seat alternating, games 2j and 2j+1 sharing an opening."""
    tasks = []
    for o in range(opponents):
        opening: tuple[int, ...] = ()
        for k in range(games):
            if k % 2 == 0:
                rng = np.random.default_rng(np.random.SeedSequence([seed, 1, o, k // 2]))
                opening = tuple(random_opening(game, opening_plies, rng))
            words = np.random.SeedSequence([seed, 0, o, k]).generate_state(2, np.uint32)
            tasks.append(Task(o, k, k % 2, (int(words[0]) << 31) ^ int(words[1]), opening))
    return tasks


# ---- the report -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class EvaluatedGame:
    """One game of the evaluation: the opponent, the policy's seat, the seed and the match."""

    opponent: str
    index: int
    seat: int
    seed: int
    match: MatchResult

    @property
    def score(self) -> float:
        """The policy's score: 1 win, 0.5 draw, 0 loss."""
        s0 = self.match.score0
        return s0 if self.seat == 0 else 1.0 - s0

    @property
    def outcome(self) -> str:
        """``win``, ``draw`` or ``loss`` from the policy's side."""
        return "win" if self.score > 0.5 else ("loss" if self.score < 0.5 else "draw")

    @property
    def policy_fault(self) -> bool:
        """True when the policy lost this game by raising or by an illegal action."""
        return self.match.faulty_seat == self.seat


@dataclass
class OpponentResult:
    """The policy's results against one opponent, and that opponent's search cost."""

    opponent: str
    total: Record = field(default_factory=Record)
    first: Record = field(default_factory=Record)
    second: Record = field(default_factory=Record)
    faults: list[dict[str, Any]] = field(default_factory=list)
    opponent_faults: int = 0
    lengths: list[int] = field(default_factory=list)
    cost: Cost | None = None
    policy_time: float = float("nan")

    @property
    def mean_length(self) -> float:
        """Mean game length in plies (opening included)."""
        return float(np.mean(self.lengths)) if self.lengths else float("nan")

    def row(self) -> dict[str, Any]:
        """The result as one flat dict (a DataFrame row)."""
        lo, hi = self.total.interval
        c = self.cost
        nan = float("nan")
        return {"opponent": self.opponent, "games": self.total.games, "wins": self.total.wins,
                "draws": self.total.draws, "losses": self.total.losses, "score": self.total.score,
                "score_low": lo, "score_high": hi,
                "first_games": self.first.games, "first_score": self.first.score,
                "second_games": self.second.games, "second_score": self.second.score,
                "policy_faults": len(self.faults), "opponent_faults": self.opponent_faults,
                "mean_length": self.mean_length, "policy_ms_per_move": 1000 * self.policy_time,
                "opponent_nodes_mean": c.nodes["mean"] if c else nan,
                "opponent_nodes_median": c.nodes["median"] if c else nan,
                "opponent_nodes_p95": c.nodes["p95"] if c else nan,
                "opponent_ms_mean": 1000 * c.time["mean"] if c else nan,
                "opponent_ms_p95": 1000 * c.time["p95"] if c else nan,
                "opponent_depth_mean": c.depth["mean"] if c else nan}


def _fmt(x: float, spec: str) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def _score_text(r: Record) -> str:
    if not r.games:
        return "-"
    lo, hi = r.interval
    return f"{r.score:.3f} [{lo:.2f}, {hi:.2f}]"


@dataclass
class EvaluationReport:
    """What :func:`evaluate` returns: results per opponent, the games, and ways to look at them.

    ``results`` holds one :class:`OpponentResult` per opponent (``report["random"]`` finds
    one by name); ``games`` every :class:`EvaluatedGame` in (opponent, index) order.
    ``print(report)`` shows the compact table; ``to_markdown()``, ``to_dataframe()`` and
    ``plot()`` the usual other views.
    """

    policy: str
    env: str
    game: str
    variant: dict[str, Any]
    seed: int
    games_per_opponent: int
    opening_plies: int
    results: list[OpponentResult]
    games: list[EvaluatedGame]
    seconds: float

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
            rec.wins, rec.draws, rec.losses = rec.wins + r.total.wins, rec.draws + r.total.draws, rec.losses + r.total.losses
        return rec

    @property
    def faults(self) -> list[dict[str, Any]]:
        """Every game the policy lost by raising or by an illegal action, with the reason."""
        return [f for r in self.results for f in r.faults]

    # ---- views ------------------------------------------------------------------------------
    HEAD = ("opponent", "games", "W/D/L", "score [95% CI]", "as first", "as second", "faults", "len",
            "opp nodes/move", "opp ms/move", "opp depth")

    def rows(self) -> list[list[str]]:
        """The table's cells, one row per opponent."""
        out = []
        for r in self.results:
            c = r.cost
            out.append([r.opponent, str(r.total.games), r.total.wdl(), _score_text(r.total),
                        _fmt(r.first.score, ".3f"), _fmt(r.second.score, ".3f"), str(len(r.faults)),
                        _fmt(r.mean_length, ".1f"), _fmt(c.nodes["mean"], ",.0f") if c else "-",
                        _fmt(1000 * c.time["mean"], ".2f") if c else "-", _fmt(c.depth["mean"], ".1f") if c else "-"])
        return out

    def title(self) -> str:
        """One line: the policy, the env, the variant and how the games were played."""
        variant = ", ".join(f"{k}={v}" for k, v in self.variant.items())
        return (f"{self.policy} on {self.env}{f' ({variant})' if variant else ''}: {self.games_per_opponent} games "
                f"per opponent, seats alternating, seed {self.seed}, {self.seconds:.1f} s")

    def __str__(self) -> str:
        head, rows = list(self.HEAD), self.rows()
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
        line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
                                       for i, (c, w) in enumerate(zip(cells, widths)))
        out = [self.title(), line(head), line(["-" * w for w in widths])] + [line(r) for r in rows]
        t = self.total
        lo, hi = t.interval
        out.append(f"overall {t.wdl()}, score {t.score:.3f} [{lo:.2f}, {hi:.2f}]"
                   + (f"; {len(self.faults)} game(s) lost by the policy's faults, e.g. {self.faults[0]['error']}"
                      if self.faults else ""))
        return "\n".join(out)

    def __repr__(self) -> str:
        t = self.total
        return (f"<EvaluationReport {self.policy} on {self.env}: {len(self.results)} opponent(s), {t.games} games, "
                f"score {t.score:.3f}>")

    def to_markdown(self) -> str:
        """The table (and any faults) as Markdown."""
        from zerosum.evaluation.report import _md_table

        out = [f"**{self.title()}**", "", "Score = (wins + draws/2) / games, 95% Wilson interval; opponents' search "
               "cost per move (nodes, ms, depth reached).", "", _md_table(list(self.HEAD), self.rows())]
        if self.faults:
            out += ["", "Games the policy lost by a fault:", "",
                    _md_table(["opponent", "game", "seat", "how", "reason"],
                              [[f["opponent"], str(f["game"]), str(f["seat"]), f["termination"], f["error"][:200]]
                               for f in self.faults])]
        return "\n".join(out)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def to_dataframe(self, level: str = "opponents") -> Any:
        """A pandas DataFrame: ``opponents`` (one row each), ``games`` or ``moves``."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_dataframe() needs pandas: pip install 'zerosum[analysis]' (or use as_rows(), "
                              "plain dicts)") from None
        return pd.DataFrame(self.as_rows(level))

    def as_rows(self, level: str = "opponents") -> list[dict[str, Any]]:
        """Plain dict rows: ``opponents``, ``games`` (one per game) or ``moves`` (one per move)."""
        if level == "opponents":
            return [r.row() for r in self.results]
        if level == "games":
            return [{"opponent": g.opponent, "game": g.index, "seat": g.seat, "seed": g.seed, "score": g.score,
                     "outcome": g.outcome, "length": g.match.length, "termination": g.match.termination,
                     "policy_fault": g.policy_fault, "error": g.match.error, "opening": list(g.match.opening),
                     "actions": g.match.actions, "seconds": g.match.duration} for g in self.games]
        if level == "moves":
            rows = []
            for g in self.games:
                for m in g.match.moves:
                    st = m.stats or {}
                    rows.append({"opponent": g.opponent, "game": g.index, "ply": m.ply,
                                 "mover": "policy" if m.player == g.seat else "opponent", "action": m.action,
                                 "move": m.move, "time": m.time, "nodes": st.get("nodes"), "depth": st.get("depth"),
                                 "value": st.get("value")})
            return rows
        raise ValueError(f"level={level!r} is not allowed: one of opponents, games, moves")

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """A figure: the score by seat against each opponent with 95% intervals, and the
        opponents' nodes per move by move number (log scale). Saved to ``path`` if given."""
        from zerosum.evaluation.plots import _pyplot

        plt = _pyplot()
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
        x = np.arange(len(self.results))
        for shift, label, pick in ((-0.25, "both seats", "total"), (0.0, "as first", "first"),
                                   (0.25, "as second", "second")):
            recs = [getattr(r, pick) for r in self.results]
            score = np.array([rec.score if rec.games else np.nan for rec in recs])
            iv = np.array([rec.interval for rec in recs]).reshape(-1, 2)
            err = np.vstack([score - iv[:, 0], iv[:, 1] - score]).clip(min=0)
            ax.errorbar(x + shift, score, yerr=np.nan_to_num(err), fmt="o", capsize=4, label=label)
        ax.set_xticks(x, [r.opponent for r in self.results], rotation=20, ha="right", fontsize=8)
        ax.set_ylim(-0.02, 1.02)
        ax.set_ylabel("policy's score (95% Wilson interval)")
        ax.set_title(f"{self.policy} on {self.env}")
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        drawn = False
        for r in self.results:
            if r.cost and r.cost.by_ply:
                plies = sorted(r.cost.by_ply)
                ax2.plot(plies, [max(r.cost.by_ply[p]["mean"], 1.0) for p in plies], marker="o", ms=3, label=r.opponent)
                drawn = True
        if drawn:
            ax2.set_yscale("log")
            ax2.legend(fontsize=8)
        else:
            ax2.text(0.5, 0.5, "no opponent reports search statistics", ha="center", va="center",
                     transform=ax2.transAxes)
        ax2.set_xlabel("move number (ply)")
        ax2.set_ylabel("opponent's nodes per move (mean)")
        ax2.set_title("opponents' search cost")
        ax2.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=110)
        return fig

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain data (JSON-ready): the header and one row per opponent."""
        return {"policy": self.policy, "env": self.env, "game": self.game, "variant": self.variant,
                "seed": self.seed, "games_per_opponent": self.games_per_opponent,
                "opening_plies": self.opening_plies, "seconds": self.seconds,
                "results": self.as_rows("opponents"), "faults": self.faults}


def summarize(names: Sequence[str], games: Sequence[EvaluatedGame]) -> list[OpponentResult]:
    """Per-opponent records, faults, lengths and costs from the games."""
    results = {n: OpponentResult(n) for n in names}
    moves: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    policy_times: dict[str, list[float]] = {n: [] for n in names}
    for g in games:
        r = results[g.opponent]
        r.total.add(g.score)
        (r.first if g.seat == 0 else r.second).add(g.score)
        r.lengths.append(g.match.length)
        if g.policy_fault:
            r.faults.append({"opponent": g.opponent, "game": g.index, "seat": g.seat,
                             "termination": g.match.termination, "error": g.match.error or ""})
        elif g.match.faulty_seat is not None:
            r.opponent_faults += 1
        for m in g.match.moves:
            if m.player == g.seat:
                policy_times[g.opponent].append(m.time)
            else:
                st = m.stats or {}
                moves[g.opponent].append({"agent": 0, "ply": m.ply, "time": m.time, "nodes": st.get("nodes"),
                                          "depth": st.get("depth"), "ebf": st.get("ebf")})
    for n in names:
        results[n].cost = search_cost(moves[n], [n])[0]
        if policy_times[n]:
            results[n].policy_time = float(np.mean(policy_times[n]))
    return [results[n] for n in names]


# ---- the call -------------------------------------------------------------------------------------
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
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise EvaluationError(f"games is the number of games per opponent, an int >= 1; got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise EvaluationError(f"workers is an int >= 1; got {workers!r}")
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, (int, np.integer)) or opening_plies < 0:
        raise EvaluationError(f"opening_plies is an int >= 0; got {opening_plies!r}")
    env_name, game = resolve_game(env, variant)
    if isinstance(opponents, (str, Agent)):
        opponents = [opponents]
    if not opponents:
        raise EvaluationError("opponents is empty: give at least one agent spec, e.g. ['random']")
    opp = [_opponent(o, game) for o in opponents]
    names = [n for n, _, _ in opp]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise EvaluationError(f"opponent(s) {dup} given twice; give each once (or rename an Agent)")
    try:
        spec, agent = as_policy(policy, game, masked=masked, deterministic=deterministic, name=name)
    except ZerosumError:
        raise
    except (ValueError, TypeError) as exc:
        raise EvaluationError(f"cannot evaluate this policy on {game.name}: {exc}") from None
    plan = _Plan(game, spec, None if spec is not None else agent, [s for _, s, _ in opp], [a for _, _, a in opp],
                 names, name or agent.name)
    tasks = plan_tasks(game, len(opp), int(games), int(seed), int(opening_plies))
    start = time.perf_counter()
    done: dict[tuple[int, int], EvaluatedGame] = {}
    for task, match in run_tasks(plan, tasks, int(workers)):
        done[(task.opponent, task.index)] = EvaluatedGame(names[task.opponent], task.index, task.seat, task.seed, match)
        if progress is not None:
            progress(len(done), len(tasks))
    ordered = [done[k] for k in sorted(done)]
    return EvaluationReport(plan.policy_name, env_name, game.name, dict(_plain_variant(game)), int(seed), int(games),
                            int(opening_plies), summarize(names, ordered), ordered, time.perf_counter() - start)


def _plain_variant(game: Game) -> dict[str, Any]:
    from zerosum.agents.learned import jsonable_variant

    return jsonable_variant(game.variant)


__all__ = ["CallableAgent", "EvaluatedGame", "EvaluationError", "EvaluationReport", "OpponentResult", "as_policy",
           "evaluate", "model_agent", "resolve_game"]
