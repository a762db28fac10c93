"""AlphaZero training (reads top to bottom): self-play on the batched search, a learner, checkpoints.

>>> from zerosum.training.alphazero import az_recipe, train_alphazero
>>> result = train_alphazero(az_recipe("az_tictactoe", out="runs/az_ttt"))   # doctest: +SKIP

One run, two processes (each one torch thread, so both cores work):

* the **self-play worker** (:class:`~zerosum.training.selfplay.SelfPlayWorker`: a subprocess,
  or Ray actors with ``backend="ray"``) plays ``games_per_iteration`` games at once on the
  batched search with the latest weights it was sent;
* the **learner** (this process) adds the finished games to a replay buffer of the last
  ``buffer_size`` positions and takes ``train_steps`` minibatch steps on it (cross-entropy
  to the search's policy over legal moves, squared error to the result, Adam with weight
  decay; each sample under a random board symmetry with ``symmetry``).

The two overlap: while the learner trains on iteration i's games, the worker already plays
iteration i+1's with the weights of the end of iteration i-1 (one iteration stale). With
``labels`` > 0 the worker first labels that many positions with alpha-beta at
``label_depth`` (expert iteration, :mod:`zerosum.training.labeller`), the learner trains
``label_steps`` steps on them, and they stay in the buffer until self-play pushes them out.

Every ``eval_every`` iterations the network alone (``sims=0``: the greedy legal move) plays
``eval_games`` games per opponent against the alpha-beta ladder (``eval_opponents``, seats
alternating, paired random openings); with ``eval_exhaustive`` (tic-tac-toe) it is also
walked against every opponent reply in both seats. ``best.pt`` is the evaluation with the
fewest lost lines, then the highest mean score.

Output (every file written atomically, every iteration)::

    run.json                 the settings (``algo: alphazero``), written before training starts
    model.pt, model.json     the latest network and its sidecar (zerosum.nets format)
    best.pt, best.json       the network the periodic evaluation picked (``best`` in the sidecar)
    state.pt                 what --resume needs: network, optimizer, replay buffer, counters
    labels.npz               the alpha-beta labels (kept so a resumed run does not redo them)
    progress.csv, eval.csv   per iteration; per evaluation and opponent
    score.png                evaluation score against wall-clock time
    tb/                      TensorBoard curves (when tensorboard is installed)

**Resuming** (``resume=True``) after a crash or SIGKILL starts from the last finished
iteration: ``state.pt`` holds the network, the optimizer and the replay buffer itself, so
the buffer is kept, not rebuilt; only the iteration in progress is lost.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.rundir import TrainingSetupError, check_out
from zerosum.training.selfplay import Games

RULES = ("puct", "gumbel")
"""The root rules of the batched search."""
BACKENDS = ("local", "ray")
"""Where self-play runs: a local subprocess, or Ray actors."""
RESUMABLE_AZ = ("iterations", "max_seconds", "verbose", "out", "tensorboard", "log_every", "backend", "workers")
"""Settings that may differ between a run and its resumption (they do not change what is learned)."""


@dataclass
class AlphaZeroConfig:
    """Everything an AlphaZero run depends on (``run.json`` stores it; ``--resume`` compares it)."""

    game: str = "tictactoe"
    """Game name (an env name such as ``connect_four_v0`` is read as its game)."""
    variant: dict[str, Any] = field(default_factory=dict)
    """The game's rule variant."""
    net: dict[str, Any] = field(default_factory=lambda: {"kind": "mlp", "hidden": [64, 64]})
    """The network: the fields of :class:`zerosum.nets.NetConfig`."""
    rule: str = "puct"
    """The search's root rule: ``puct`` or ``gumbel``."""
    sims: int = 32
    """Simulations per recorded move."""
    lanes: int = 64
    """Games played at once (one search tree each)."""
    games_per_iteration: int = 64
    """Self-play games per iteration."""
    c_puct: float = 1.25
    """PUCT's exploration constant."""
    dirichlet_alpha: float = 0.3
    """PUCT's root noise concentration."""
    dirichlet_fraction: float = 0.25
    """PUCT's root noise weight (0: none)."""
    gumbel_k: int = 16
    """Gumbel: actions sampled at the root."""
    temperature_moves: int = 4
    """Plies at the start of each game drawn in proportion to the search (then its move)."""
    full_search_prob: float = 1.0
    """Playout-cap randomisation: the chance of a full, recorded search (1: every move)."""
    cheap_sims: int = 8
    """Playout-cap randomisation: simulations of the other, unrecorded moves."""
    symmetry: bool = False
    """Train each sample under a random board symmetry."""
    buffer_size: int = 50_000
    """Replay buffer: the last this many positions."""
    batch_size: int = 256
    """Learner minibatch."""
    train_steps: int = 50
    """Learner steps per iteration."""
    lr: float = 1e-3
    """Adam's learning rate."""
    weight_decay: float = 1e-4
    """Adam's (decoupled) weight decay."""
    value_weight: float = 1.0
    """The value loss's weight against the policy loss."""
    labels: int = 0
    """Positions labelled by alpha-beta before self-play (0: none)."""
    label_depth: int = 8
    """The labels' alpha-beta depth."""
    label_steps: int = 0
    """Learner steps on the labels before self-play."""
    iterations: int = 100
    """Iterations (self-play + learning) to run (0: train on the alpha-beta labels alone)."""
    max_seconds: float | None = None
    """Stop after this much wall time (the run's total, across resumptions)."""
    eval_every: int = 5
    """Iterations between evaluations (0: only at the end)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["alphabeta(depth=2)"])
    """The ladder the network alone is evaluated against."""
    eval_games: int = 20
    """Evaluation games per opponent (seats alternating)."""
    eval_openings: int = 2
    """Random plies opening each evaluation pair."""
    eval_exhaustive: bool = False
    """Also walk every opponent reply in both seats (small games): lines lost."""
    seed: int = 0
    """Seeds torch, the worker's search and the buffer's sampling."""
    backend: str = "local"
    """``local`` (a subprocess) or ``ray`` (Ray actors, the learner local)."""
    workers: int = 1
    """Self-play workers (each plays games_per_iteration / workers games)."""
    out: str | None = "runs/alphazero"
    """The run directory."""
    tensorboard: bool = True
    """Write TensorBoard curves when tensorboard is installed."""
    log_every: float = 0.0
    """Unused by the loop (a progress line per iteration with verbose); kept for the CLI."""
    verbose: int = 0
    """1: a progress line per iteration."""
    algo: str = "alphazero"
    """Always ``alphazero`` (what tells this run from a PPO run in run.json)."""

    def __post_init__(self) -> None:
        if self.algo != "alphazero":
            raise ValueError(f"algo={self.algo!r}: an AlphaZeroConfig is for algo 'alphazero'")
        if self.rule not in RULES:
            raise ValueError(f"rule={self.rule!r} is not allowed: one of {', '.join(RULES)}")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend={self.backend!r} is not allowed: one of {', '.join(BACKENDS)}")
        for name in ("sims", "lanes", "games_per_iteration", "buffer_size", "batch_size", "workers",
                     "label_depth", "cheap_sims", "gumbel_k"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name}={v!r} is not allowed: an int >= 1")
        for name in ("iterations", "train_steps", "labels", "label_steps", "eval_every", "eval_games", "eval_openings",
                     "temperature_moves"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name}={v!r} is not allowed: an int >= 0")
        if not 0.0 < self.full_search_prob <= 1.0:
            raise ValueError(f"full_search_prob={self.full_search_prob!r} is not allowed: a probability in (0, 1]")
        if not self.lr > 0:
            raise ValueError(f"lr={self.lr!r} is not allowed: a positive number")
        if self.max_seconds is not None and not self.max_seconds > 0:
            raise ValueError(f"max_seconds={self.max_seconds!r} is not allowed: a positive number of seconds")
        if self.label_steps and not self.labels:
            raise ValueError("label_steps > 0 needs labels > 0 (positions to train on)")
        if not self.iterations and not self.label_steps:
            raise ValueError("iterations=0 trains only on alpha-beta labels: give labels and label_steps > 0")

    def settings(self) -> dict[str, Any]:
        """The settings that define what a run learns (compared when a directory is reused)."""
        fields = json.loads(json.dumps(dataclasses.asdict(self), default=list))
        return {k: v for k, v in fields.items() if k not in RESUMABLE_AZ}

    def search_options(self) -> dict[str, Any]:
        """What the self-play worker's search needs."""
        return {k: getattr(self, k) for k in ("rule", "sims", "lanes", "c_puct", "dirichlet_alpha",
                                              "dirichlet_fraction", "gumbel_k", "temperature_moves",
                                              "full_search_prob", "cheap_sims")}


# ---- recipes --------------------------------------------------------------------------------
AZ_RECIPES: dict[str, dict[str, Any]] = {
    # Tic-tac-toe: exact labels first (alpha-beta to the end: depth 9), then PUCT self-play
    # with 32 simulations and the 8 symmetries; every 2 iterations the network alone is walked
    # against every opponent reply in both seats (best.pt: the fewest lines lost).
    "az_tictactoe": {
        "game": "tictactoe", "net": {"kind": "mlp", "hidden": [128, 128]}, "rule": "puct", "sims": 32,
        "lanes": 64, "games_per_iteration": 64, "temperature_moves": 3, "symmetry": True, "buffer_size": 20_000,
        "batch_size": 256, "train_steps": 40, "lr": 2e-3, "labels": 4000, "label_depth": 9, "label_steps": 800,
        "iterations": 40, "max_seconds": 300.0, "eval_every": 2, "eval_opponents": ["alphabeta(depth=9)", "random"],
        "eval_games": 20, "eval_openings": 1, "eval_exhaustive": True,
    },
    # Connect Four: depth-8 alpha-beta labels first (expert iteration), then Gumbel self-play
    # with 16-32 simulations, playout-cap randomisation and the mirror symmetry.
    "az_connect_four": {
        "game": "connect_four", "net": {"kind": "resnet", "blocks": 2, "channels": 32}, "rule": "gumbel",
        "sims": 32, "gumbel_k": 8, "lanes": 128, "games_per_iteration": 128, "temperature_moves": 6,
        "full_search_prob": 0.5, "cheap_sims": 8, "symmetry": True, "buffer_size": 100_000, "batch_size": 256,
        "train_steps": 200, "lr": 1e-3, "labels": 40_000, "label_depth": 8, "label_steps": 3000,
        "iterations": 1000, "max_seconds": 3600.0, "eval_every": 5,
        "eval_opponents": ["alphabeta(depth=2)", "alphabeta(depth=4)"], "eval_games": 40, "eval_openings": 2,
    },
    # Pentago: depth-3 labels, Gumbel self-play with 16 simulations, the 8 symmetries.
    "az_pentago": {
        "game": "pentago", "net": {"kind": "resnet", "blocks": 2, "channels": 32}, "rule": "gumbel", "sims": 16,
        "gumbel_k": 8, "lanes": 128, "games_per_iteration": 128, "temperature_moves": 8, "full_search_prob": 0.5,
        "cheap_sims": 4, "symmetry": True, "buffer_size": 150_000, "batch_size": 256, "train_steps": 100,
        "lr": 1e-3, "labels": 10_000, "label_depth": 3, "label_steps": 1000, "iterations": 1000,
        "max_seconds": 7200.0, "eval_every": 5, "eval_opponents": ["alphabeta(depth=2)", "alphabeta(depth=3)"],
        "eval_games": 20, "eval_openings": 2,
    },
}
"""Named AlphaZero settings (``zerosum train --algo alphazero --recipe NAME``)."""

AZ_RECIPE_NOTES: dict[str, str] = {
    "az_tictactoe": "AlphaZero tic-tac-toe: exact alpha-beta labels, then PUCT 32 sims, symmetries; never loses",
    "az_connect_four": "AlphaZero Connect Four: depth-8 alpha-beta labels, then Gumbel self-play (<= 60 min)",
    "az_pentago": "AlphaZero Pentago: depth-3 alpha-beta labels, then Gumbel self-play (<= 2 h)",
}
"""One line per recipe for ``zerosum train --help``."""


def az_recipe(name: str, **overrides: Any) -> AlphaZeroConfig:
    """The AlphaZeroConfig of a named recipe, with overrides (a ``game`` must be the recipe's)."""
    try:
        base = AZ_RECIPES[name]
    except KeyError:
        raise ValueError(f"unknown AlphaZero recipe {name!r}; available: {', '.join(sorted(AZ_RECIPES))}") from None
    if "game" in overrides and overrides["game"] != base["game"]:
        raise ValueError(f"recipe {name!r} trains {base['game']}, not {overrides['game']}")
    return AlphaZeroConfig(**{**base, **overrides})


# ---- setup checks (before anything is written) ----------------------------------------------
def _resolve(cfg: AlphaZeroConfig) -> Game:
    from zerosum.training.single_agent import resolve_game

    try:
        return resolve_game(cfg.game, cfg.variant)
    except (ValueError, KeyError) as exc:
        raise TrainingSetupError(str(exc)) from None


def _build_net(game: Game, net: dict[str, Any]) -> Any:
    """The network for ``game``; TrainingSetupError when the config does not fit the game."""
    from zerosum.nets import NetConfig, build_network

    try:
        return build_network(game, NetConfig.from_dict(dict(net)))
    except (TypeError, ValueError) as exc:
        raise TrainingSetupError(f"network {net!r} does not fit {game.name} "
                                 f"(observation {tuple(game.observation_shape)}): {exc}") from None


def _check_eval(cfg: AlphaZeroConfig, game: Game) -> None:
    from zerosum.agents import make_agent

    for spec in cfg.eval_opponents:
        try:
            make_agent(spec).prepare(game)
        except (ValueError, TypeError) as exc:
            raise TrainingSetupError(f"evaluation opponent {spec!r} cannot play {game.name}: {exc}") from None
    if cfg.symmetry:
        from zerosum.training.symmetry import board_symmetries

        try:
            board_symmetries(game)
        except ValueError as exc:
            raise TrainingSetupError(str(exc)) from None


# ---- atomic files ---------------------------------------------------------------------------
def _atomic_bytes(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _atomic_json(path: Path, data: Any) -> None:
    _atomic_bytes(path, (json.dumps(data, indent=2, default=list) + "\n").encode())


# ---- the replay buffer ----------------------------------------------------------------------
class ReplayBuffer:
    """The last ``capacity`` positions (a ring of arrays)."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], num_actions: int) -> None:
        self.capacity = capacity
        self.obs = np.zeros((capacity, *obs_shape), np.int8)
        self.mask = np.zeros((capacity, num_actions), np.int8)
        self.policy = np.zeros((capacity, num_actions), np.float32)
        self.value = np.zeros(capacity, np.float32)
        self.size = 0
        self.next = 0

    def add(self, g: Games) -> None:
        """Append positions, overwriting the oldest."""
        n = len(g)
        if n >= self.capacity:
            sl = slice(n - self.capacity, n)
            self.obs[:], self.mask[:], self.policy[:], self.value[:] = g.obs[sl], g.mask[sl], g.policy[sl], g.value[sl]
            self.size, self.next = self.capacity, 0
            return
        idx = (self.next + np.arange(n)) % self.capacity
        self.obs[idx], self.mask[idx], self.policy[idx], self.value[idx] = g.obs, g.mask, g.policy, g.value
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        """``n`` positions drawn uniformly (with replacement)."""
        idx = rng.integers(0, self.size, n)
        return self.obs[idx], self.mask[idx], self.policy[idx], self.value[idx]

    def state(self) -> dict[str, Any]:
        """The buffer as plain arrays (only the filled part)."""
        return {"obs": self.obs[: self.size].copy(), "mask": self.mask[: self.size].copy(),
                "policy": self.policy[: self.size].copy(), "value": self.value[: self.size].copy(),
                "next": self.next, "size": self.size}

    def restore(self, st: dict[str, Any]) -> None:
        """Undo :meth:`state`."""
        n = int(st["size"])
        self.obs[:n], self.mask[:n], self.policy[:n], self.value[:n] = st["obs"], st["mask"], st["policy"], st["value"]
        self.size, self.next = n, int(st["next"])


# ---- the learner ----------------------------------------------------------------------------
class Learner:
    """The network, its optimizer and one training step (policy cross-entropy + value MSE)."""

    def __init__(self, game: Game, cfg: AlphaZeroConfig, net: Any) -> None:
        import torch

        self.game, self.cfg, self.net = game, cfg, net
        self.opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.sym = None
        if cfg.symmetry:
            from zerosum.training.symmetry import board_symmetries

            self.sym = board_symmetries(game)
        self.steps = 0

    def _augment(self, rng: np.random.Generator, obs: np.ndarray, mask: np.ndarray,
                 policy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each sample under a random symmetry: planes, mask and policy mapped alike."""
        sym = self.sym
        if sym is None or len(obs.shape) != 4:
            return obs, mask, policy
        ks = rng.integers(0, len(sym), obs.shape[0])
        n, rows, cols, planes = obs.shape
        cell_idx = sym.inverse_cells[ks]  # [n, rows*cols]
        obs = np.take_along_axis(obs.reshape(n, rows * cols, planes), cell_idx[:, :, None], axis=1).reshape(obs.shape)
        act_idx = sym.inverse_actions[ks]
        return obs, np.take_along_axis(mask, act_idx, axis=1), np.take_along_axis(policy, act_idx, axis=1)

    def train(self, buffer: ReplayBuffer, steps: int, rng: np.random.Generator) -> dict[str, float]:
        """``steps`` minibatch steps; the mean policy and value losses."""
        import torch

        if buffer.size == 0 or steps == 0:
            return {"policy_loss": float("nan"), "value_loss": float("nan")}
        self.net.train()
        pl = vl = 0.0
        for _ in range(steps):
            obs, mask, pol, val = buffer.sample(rng, self.cfg.batch_size)
            obs, mask, pol = self._augment(rng, obs, mask, pol)
            x = torch.from_numpy(obs.astype(np.float32))
            logits, value = self.net(x)
            legal = torch.from_numpy(mask.astype(bool))
            logits = logits.masked_fill(~legal, -1e9)
            target = torch.from_numpy(pol)
            p_loss = -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            v_loss = torch.mean((value.reshape(-1) - torch.from_numpy(val)) ** 2)
            loss = p_loss + self.cfg.value_weight * v_loss
            self.opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            self.opt.step()
            pl += p_loss.item()
            vl += v_loss.item()
            self.steps += 1
        self.net.eval()
        return {"policy_loss": pl / steps, "value_loss": vl / steps}


def greedy_policy(net: Any, game: Game) -> Any:
    """The network alone (``sims=0``) as a policy callable for :func:`zerosum.evaluate`: the
    legal move with the highest logit."""
    import torch

    def act(observation: dict[str, np.ndarray]) -> int:
        x = torch.from_numpy(np.asarray(observation["observation"], np.float32)[None])
        with torch.no_grad():
            logits, _ = net(x)
        logits = logits[0].numpy().astype(np.float64)
        mask = np.asarray(observation["action_mask"]) > 0
        logits[~mask] = -np.inf
        return int(np.argmax(logits))

    return act


def _wrap(policy: Any, game: Game) -> Any:
    from zerosum.agents.policies import as_policy

    _, agent = as_policy(policy, game, name="alphazero")
    return agent


# ---- evaluation -----------------------------------------------------------------------------
def evaluate_network(net: Any, game: Game, cfg: AlphaZeroConfig, seed: int) -> dict[str, Any]:
    """The network alone against the ladder (and, with ``eval_exhaustive``, every opponent reply)."""
    from zerosum.evaluation.evaluate import evaluate

    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    policy = greedy_policy(net, game)
    if cfg.eval_games:
        report = evaluate(policy, game, opponents=list(cfg.eval_opponents), games=cfg.eval_games, seed=seed,
                          opening_plies=cfg.eval_openings, name="alphazero")
        for r in report.results:
            t = r.total
            rows.append({"opponent": r.opponent, "games": t.games, "wins": t.wins, "draws": t.draws,
                         "losses": t.losses, "score": (t.wins + 0.5 * t.draws) / max(t.games, 1)})
    summary: dict[str, Any] = {"rows": rows}
    losses = sum(r["losses"] for r in rows)
    games = sum(r["games"] for r in rows)
    summary.update(losses=losses, games=games,
                   score=float(np.mean([r["score"] for r in rows])) if rows else float("nan"))
    if cfg.eval_exhaustive:
        from zerosum.evaluation.exhaustive import worst_case

        agent = _wrap(policy, game)
        walks = [worst_case(agent, game, seat) for seat in (0, 1)]
        summary["lines"] = sum(w.lines for w in walks)
        summary["lines_lost"] = sum(w.losses for w in walks)
    summary["seconds"] = time.perf_counter() - start
    return summary


def _better(new: dict[str, Any], old: dict[str, Any] | None) -> bool:
    """Fewer lost lines (exhaustive), then a higher mean score; ties go to the newer."""
    if old is None:
        return True
    key_new = (-new.get("lines_lost", 0), new["score"])
    key_old = (-old.get("lines_lost", 0), old["score"])
    return key_new >= key_old


# ---- the self-play backends -----------------------------------------------------------------
class LocalWorkers:
    """Self-play workers in subprocesses (spawned: a clean torch, one thread each)."""

    def __init__(self, args: list[tuple[Any, ...]]) -> None:
        import multiprocessing as mp

        from zerosum.training.selfplay import serve

        ctx = mp.get_context("spawn")
        self.conns = []
        self.procs = []
        for a in args:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=serve, args=(child, a), daemon=True)
            p.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(p)
        for c in self.conns:
            self._answer(c)

    def _answer(self, conn: Any) -> Any:
        try:
            kind, value = conn.recv()
        except EOFError:
            raise RuntimeError("a self-play worker died (see its error output above)") from None
        if kind == "error":
            raise RuntimeError(f"self-play worker failed: {value}")
        return value

    def submit(self, i: int, msg: tuple[Any, ...]) -> None:
        """Send worker ``i`` a job."""
        self.conns[i].send(msg)

    def result(self, i: int) -> Games:
        """Worker ``i``'s answer to its last job."""
        out: Games = self._answer(self.conns[i])
        return out

    def close(self) -> None:
        """Stop the workers."""
        for c in self.conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                c.send(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()


class RayWorkers:
    """Self-play workers as Ray actors (a local Ray instance unless one is running)."""

    def __init__(self, args: list[tuple[Any, ...]]) -> None:
        from zerosum.evaluation.backends import import_ray
        from zerosum.training.selfplay import SelfPlayWorker

        ray = import_ray()
        if not ray.is_initialized():
            ray.init(num_cpus=max(2, len(args) + 1), include_dashboard=False, log_to_driver=False)
        actor = ray.remote(num_cpus=1)(SelfPlayWorker)
        self.ray = ray
        self.actors = [actor.remote(*a) for a in args]
        self.pending: list[Any] = [None] * len(args)

    def submit(self, i: int, msg: tuple[Any, ...]) -> None:
        """Send actor ``i`` a job."""
        a = self.actors[i]
        self.pending[i] = a.play.remote(msg[1], msg[2]) if msg[0] == "play" else a.label.remote(*msg[1:])

    def result(self, i: int) -> Games:
        """Actor ``i``'s answer to its last job."""
        out: Games = self.ray.get(self.pending[i])
        return out

    def close(self) -> None:
        """Stop the actors."""
        for a in self.actors:
            self.ray.kill(a)


def _concat(parts: list[Games]) -> Games:
    return Games(np.concatenate([p.obs for p in parts]), np.concatenate([p.mask for p in parts]),
                 np.concatenate([p.policy for p in parts]), np.concatenate([p.value for p in parts]),
                 games=sum(p.games for p in parts), moves=sum(p.moves for p in parts),
                 simulations=sum(p.simulations for p in parts), seconds=max(p.seconds for p in parts),
                 outcomes=tuple(int(sum(p.outcomes[k] for p in parts)) for k in range(3)))  # type: ignore[arg-type]


# ---- the run --------------------------------------------------------------------------------
@dataclass
class AlphaZeroResult:
    """What a run produced."""

    out: Path | None
    """The run directory."""
    iterations: int
    """Iterations finished (over every resumption)."""
    games: int
    """Self-play games played."""
    seconds: float
    """Wall time of the run (over every resumption)."""
    best: dict[str, Any] | None
    """The evaluation that picked best.pt."""
    last_eval: dict[str, Any] | None
    """The latest evaluation."""
    net: Any = None
    """The trained network (torch module)."""


PROGRESS_FIELDS = ("iteration", "seconds", "games", "positions", "games_per_s", "sims_per_s", "policy_loss",
                   "value_loss", "buffer", "learner_steps", "selfplay_seconds", "learn_seconds")
"""The columns of progress.csv (one row per iteration)."""
EVAL_FIELDS = ("iteration", "seconds", "opponent", "games", "wins", "draws", "losses", "score")
"""The columns of eval.csv (one row per evaluation and opponent)."""


def _append_csv(path: Path, fields: tuple[str, ...], row: dict[str, Any]) -> None:
    new = not path.is_file()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerow(row)
        fh.flush()
        os.fsync(fh.fileno())


def _truncate_csv(path: Path, iteration: int) -> None:
    """Drop rows past ``iteration`` (written by an iteration that a kill cut short)."""
    if not path.is_file():
        return
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
        fields = rows[0].keys() if rows else None
    if fields is None:
        return
    keep = [r for r in rows if int(r["iteration"]) <= iteration]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(fields))
    w.writeheader()
    w.writerows(keep)
    _atomic_bytes(path, buf.getvalue().encode())


def plot_scores(out: Path) -> Path | None:
    """``out/score.png``: each opponent's evaluation score against wall-clock minutes (None without
    matplotlib or evaluations)."""
    path = out / "eval.csv"
    if not path.is_file():
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    for opp in dict.fromkeys(r["opponent"] for r in rows):
        pts = [(float(r["seconds"]) / 60, float(r["score"])) for r in rows if r["opponent"] == opp]
        ax.plot(*zip(*pts), marker="o", label=opp)
    ax.set_xlabel("wall-clock minutes")
    ax.set_ylabel("score of the network alone (sims=0)")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    png = out / "score.png"
    tmp = out / "score.tmp.png"
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, png)
    return png


def _tensorboard(out: Path | None, cfg: AlphaZeroConfig) -> Any:
    import importlib.util

    if out is None or not cfg.tensorboard or importlib.util.find_spec("tensorboard") is None:
        return None
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(str(out / "tb"))


def check_az_out(cfg: AlphaZeroConfig, out: Path, *, resume: bool, overwrite: bool) -> bool:
    """The run directory check of PPO runs (:func:`~zerosum.training.rundir.check_out`), plus: a PPO
    run is never resumed as AlphaZero. True when resuming."""
    from zerosum.training.rundir import existing_settings

    old = existing_settings(out) if out.is_dir() else None
    if old is not None and old.get("algo", "maskable_ppo") != "alphazero" and not overwrite:
        raise TrainingSetupError(f"{out} holds a {old.get('algo', 'maskable_ppo')} run, not an AlphaZero run; "
                                 "nothing was written. Give another --out"
                                 + (" (--resume continues a run with its own --algo)" if resume else ""))
    return check_out(cfg, out, resume=resume, overwrite=overwrite, checkpoint="state.pt")  # type: ignore[arg-type]


def train_alphazero(cfg: AlphaZeroConfig, *, resume: bool = False, overwrite: bool = False) -> AlphaZeroResult:
    """Run (or resume) one AlphaZero training; see the module docstring."""
    game = _resolve(cfg)
    _check_eval(cfg, game)
    from zerosum.agents.checkpoints import require_train_extra

    require_train_extra()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    net = _build_net(game, cfg.net)  # a config that does not fit fails here, before anything is written
    if cfg.backend == "ray":
        from zerosum.evaluation.backends import import_ray

        import_ray()
    out = Path(cfg.out) if cfg.out else None
    resuming = check_az_out(cfg, out, resume=resume, overwrite=overwrite) if out else False
    from zerosum.nets import save_network

    learner = Learner(game, cfg, net)
    buffer = ReplayBuffer(cfg.buffer_size, tuple(game.observation_shape), game.num_actions)
    rng = np.random.default_rng(cfg.seed)
    it = games_done = 0
    elapsed = 0.0
    best: dict[str, Any] | None = None
    last_eval: dict[str, Any] | None = None
    labelled = False
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resuming:
            st = torch.load(out / "state.pt", weights_only=False)
            net.load_state_dict(st["net"])
            learner.opt.load_state_dict(st["opt"])
            learner.steps = int(st["learner_steps"])
            buffer.restore(st["buffer"])
            rng = st["rng"]
            it, games_done, elapsed = int(st["iteration"]), int(st["games"]), float(st["seconds"])
            best, last_eval, labelled = st["best"], st["last_eval"], bool(st["labelled"])
            for name in ("progress.csv", "eval.csv"):
                _truncate_csv(out / name, it)
        else:
            for name in ("progress.csv", "eval.csv", "best.pt", "best.json", "state.pt", "labels.npz",
                         "model.pt", "model.json", "score.png"):
                (out / name).unlink(missing_ok=True)
        _atomic_json(out / "run.json", {"settings": cfg.settings(), "algo": "alphazero",
                                        "iterations": cfg.iterations, "command": _command()})
    tb = _tensorboard(out, cfg)
    per = [cfg.games_per_iteration // cfg.workers + (1 if i < cfg.games_per_iteration % cfg.workers else 0)
           for i in range(cfg.workers)]
    args = [(game.name, dict(game.variant), dict(cfg.net), cfg.search_options(), cfg.seed * 1000 + it * 7 + i)
            for i in range(cfg.workers)]
    workers: LocalWorkers | RayWorkers = LocalWorkers(args) if cfg.backend == "local" else RayWorkers(args)
    log = print if cfg.verbose else (lambda *a, **k: None)
    start = time.perf_counter() - elapsed

    def weights() -> bytes:
        from zerosum.training.selfplay import state_bytes

        return state_bytes({k: v.detach().clone() for k, v in net.state_dict().items()})

    def metadata(kind: str) -> dict[str, Any]:
        return {"train_steps": learner.steps, "iteration": it, "games": games_done, "command": _command(),
                "recipe_settings": cfg.settings(), "evaluation": (best if kind == "best" else last_eval) or {},
                **({"best": best} if best else {})}

    def save_state() -> None:
        if out is None:
            return
        buf = io.BytesIO()
        torch.save({"net": net.state_dict(), "opt": learner.opt.state_dict(), "learner_steps": learner.steps,
                    "buffer": buffer.state(), "rng": rng, "iteration": it, "games": games_done,
                    "seconds": time.perf_counter() - start, "best": best, "last_eval": last_eval,
                    "labelled": labelled}, buf)
        _atomic_bytes(out / "state.pt", buf.getvalue())
        save_network(out / "model.pt", net, game, _net_config(cfg), metadata=metadata("model"))

    def evaluate_now() -> None:
        nonlocal best, last_eval
        summary = evaluate_network(net, game, cfg, seed=cfg.seed + it)
        summary["iteration"] = it
        summary["seconds_at"] = time.perf_counter() - start
        last_eval = summary
        for r in summary["rows"]:
            if out:
                _append_csv(out / "eval.csv", EVAL_FIELDS, {"iteration": it, "seconds": round(summary["seconds_at"], 1),
                                                            **r})
            if tb:
                tb.add_scalar(f"eval/{r['opponent']}", r["score"], it)
        if "lines_lost" in summary and tb:
            tb.add_scalar("eval/lines_lost", summary["lines_lost"], it)
        if _better(summary, best):
            best = dict(summary)
            if out:
                save_network(out / "best.pt", net, game, _net_config(cfg), metadata=metadata("best"))
        if out:
            plot_scores(out)
        text = ", ".join(f"{r['opponent']} {r['score']:.2f} ({r['wins']}/{r['draws']}/{r['losses']})"
                         for r in summary["rows"])
        lines = f"; lines lost {summary['lines_lost']} of {summary['lines']}" if "lines_lost" in summary else ""
        log(f"  eval @ it {it}: {text}{lines}  ({summary['seconds']:.1f} s)", flush=True)

    try:
        if cfg.labels and not labelled:
            labels_path = out / "labels.npz" if out else None
            data = _labels(workers, cfg, game, labels_path, log)
            buffer.add(data)
            t0 = time.perf_counter()
            losses = learner.train(buffer, cfg.label_steps, rng)
            log(f"labels: {len(data)} positions, {cfg.label_steps} learner steps in {time.perf_counter() - t0:.1f} s "
                f"(policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f})", flush=True)
            labelled = True
            if cfg.eval_every:
                evaluate_now()
            save_state()
        pending = False

        def submit() -> None:
            w = weights()
            for i in range(cfg.workers):
                workers.submit(i, ("play", w, per[i]))

        while it < cfg.iterations and (cfg.max_seconds is None or time.perf_counter() - start < cfg.max_seconds):
            if not pending:
                submit()
            played = _concat([workers.result(i) for i in range(cfg.workers)])
            pending = False
            if it + 1 < cfg.iterations:
                submit()  # the next iteration's games, played while this one's are learned from
                pending = True
            buffer.add(played)
            t0 = time.perf_counter()
            losses = learner.train(buffer, cfg.train_steps, rng)
            learn_s = time.perf_counter() - t0
            it += 1
            games_done += played.games
            row = {"iteration": it, "seconds": round(time.perf_counter() - start, 1), "games": games_done,
                   "positions": len(played), "games_per_s": round(played.games / max(played.seconds, 1e-9), 2),
                   "sims_per_s": round(played.simulations / max(played.seconds, 1e-9)),
                   "policy_loss": round(losses["policy_loss"], 4), "value_loss": round(losses["value_loss"], 4),
                   "buffer": buffer.size, "learner_steps": learner.steps,
                   "selfplay_seconds": round(played.seconds, 2), "learn_seconds": round(learn_s, 2)}
            if out:
                _append_csv(out / "progress.csv", PROGRESS_FIELDS, row)
            if tb:
                for k in ("games_per_s", "sims_per_s", "policy_loss", "value_loss", "buffer"):
                    tb.add_scalar(f"train/{k}", row[k], it)
            ev = last_eval["rows"] if last_eval else []
            log(f"it {it:4d}  {row['seconds']:7.1f} s  games {games_done:6d} ({row['games_per_s']:.1f}/s)  "
                f"sims/s {row['sims_per_s']:,}  loss p {row['policy_loss']:.3f} v {row['value_loss']:.3f}  "
                f"buffer {buffer.size:,}  W/D/L {played.outcomes[0]}/{played.outcomes[1]}/{played.outcomes[2]}"
                + ("  last eval: " + ", ".join(f"{r['opponent']} {r['score']:.2f}" for r in ev) if ev else ""),
                flush=True)
            if cfg.eval_every and it % cfg.eval_every == 0:
                evaluate_now()
            save_state()
        if pending:
            for i in range(cfg.workers):
                workers.result(i)  # let the workers finish before they are stopped
        if last_eval is None or last_eval.get("iteration") != it:
            evaluate_now()
            save_state()
    finally:
        workers.close()
        if tb:
            tb.close()
    return AlphaZeroResult(out, it, games_done, time.perf_counter() - start, best, last_eval, net)


def _labels(workers: Any, cfg: AlphaZeroConfig, game: Game, path: Path | None, log: Any) -> Games:
    """The run's alpha-beta labels: from ``path`` when an earlier start made them, else labelled
    by the workers (split between them) and saved there."""
    from zerosum.training.labeller import Dataset, DatasetError, load_dataset, save_dataset

    if path is not None and path.is_file():
        try:
            d = load_dataset(path, game)
            if len(d) >= cfg.labels and d.meta.get("depth") == cfg.label_depth:
                return Games(d.obs[: cfg.labels], d.mask[: cfg.labels], d.policy[: cfg.labels], d.value[: cfg.labels])
        except DatasetError:
            pass
    from zerosum.training.labeller import label_dataset

    n = len(workers.conns) if isinstance(workers, LocalWorkers) else len(workers.actors)
    t0 = time.perf_counter()
    parts = n + 1  # the learner labels a share too: it has nothing else to do yet
    share = [cfg.labels // parts + (1 if i < cfg.labels % parts else 0) for i in range(parts)]
    for i in range(n):
        workers.submit(i, ("label", share[i], cfg.label_depth, cfg.seed * 7919 + i))
    own = label_dataset(game, share[n], depth=cfg.label_depth, seed=cfg.seed * 7919 + n)
    data = _concat([workers.result(i) for i in range(n)] + [Games(own.obs, own.mask, own.policy, own.value)])
    log(f"labelled {len(data):,} positions at depth {cfg.label_depth} in {time.perf_counter() - t0:.1f} s "
        f"({n} worker(s) and the learner)", flush=True)
    if path is not None:
        from zerosum.training.labeller import VALUE_SCALES

        save_dataset(path, Dataset(data.obs, data.mask, data.policy, data.value,
                                   {"format": "zerosum-labels", "game": game.name, "variant": dict(game.variant),
                                    "depth": cfg.label_depth, "value_scale": VALUE_SCALES.get(game.name, 10.0),
                                    "positions": len(data), "seed": cfg.seed}))
    return data


def _net_config(cfg: AlphaZeroConfig) -> Any:
    from zerosum.nets import NetConfig

    return NetConfig.from_dict(dict(cfg.net))


def _command() -> str:
    """The command line that started this run (``zerosum train ...`` when it came from the CLI)."""
    import shlex

    cli = sys.argv and (sys.argv[0].endswith("zerosum") or sys.argv[0].endswith(os.path.join("zerosum", "__main__.py")))
    return shlex.join(["zerosum", *sys.argv[1:]] if cli else sys.argv)


__all__ = ["AZ_RECIPES", "AZ_RECIPE_NOTES", "BACKENDS", "RULES", "AlphaZeroConfig", "AlphaZeroResult", "Learner",
           "ReplayBuffer", "az_recipe", "evaluate_network", "greedy_policy", "plot_scores", "train_alphazero"]
