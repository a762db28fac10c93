"""AlphaZero's settings (:class:`AlphaZeroConfig`) and its named recipes (``az_*``).

``zerosum train --algo alphazero --recipe NAME`` runs one (:mod:`zerosum.training.alphazero`);
options on the command line override the recipe's values.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from zerosum.nets.errors import check_device_name

RULES = ("puct", "gumbel")
"""The root rules of the batched search."""
BACKENDS = ("local", "ray")
"""Where self-play runs: a local subprocess, or Ray actors."""
RESUMABLE_AZ = ("iterations", "ladder_rounds", "final_steps", "final_fresh", "max_seconds", "verbose", "out",
                "tensorboard", "log_every", "backend", "workers", "learner_threads", "device")
"""Settings that may differ between a run and its resumption (how long it learns, not what from)."""



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
    label_quiescence: bool = False
    """Labels follow the game's forcing moves past ``label_depth`` (the engine's quiescence search)."""
    label_fast_wins: bool = False
    """Labels prefer the nearest proven win (and the farthest loss) instead of sharing the policy among
    every winning move (:meth:`zerosum.training.labeller.Labeller._score`)."""
    ladder_rounds: int = 0
    """Rounds of ladder labels before self-play (expert iteration on the network's own games, DAgger's
    rule): the network alone plays ``ladder_games`` games against ``ladder_opponents``, alpha-beta at
    ``label_depth`` labels every position met, the learner takes ``ladder_steps`` steps (0: none)."""
    ladder_games: int = 200
    """Games of one ladder round (split between the workers and the learner)."""
    ladder_opponents: list[str] = field(default_factory=list)
    """The opponents of the ladder rounds, in turn (empty: ``eval_opponents``)."""
    ladder_steps: int = 1000
    """Learner steps after each ladder round."""
    final_steps: int = 0
    """Learner steps after the last ladder round and iteration, the learning rate lowered from ``lr``
    to 0 along a cosine (:meth:`~zerosum.training.learner.Learner.anneal`), then an evaluation,
    and the network is ``best.pt`` whatever that evaluation's few games say; ``max_seconds`` keeps
    the time they take (0: none). At a constant rate the network's strength swings from one round
    to the next; annealed, it settles (on Connect Four it beat the evaluations' pick in each of
    three runs, by 0.09-0.11 on the sum of its 400-game scores against depths 2 and 4)."""
    final_fresh: bool = False
    """The final steps train the network the run began with (its seed's weights, a new optimizer)
    on the whole buffer, not the run's network: the rounds' networks then serve only to choose
    the positions labelled. On Connect Four a network trained afresh on one hour's labels beat
    the run's own annealed network (0.630 against 0.475 alone against depth 4, 400 games)."""
    learner_threads: int = 1
    """Torch threads of the learner's steps while no worker runs: on the labels, after each ladder
    round and the final steps (self-play's steps always take one, the worker playing beside them).
    On two idle cores two threads took a Connect Four step in 56 ms against 89 ms
    (``bench/learner_steps.py``); on a core a worker uses, a second thread only slows both."""
    device: str = "cpu"
    """The torch device of the learner's steps: ``"cpu"``, ``"cuda"`` or ``"cuda:N"``. The network
    rests on the CPU, where the workers' games, the ladder's and the evaluations play it one position
    at a time; only the minibatch steps run on the device (checked before anything is written)."""
    iterations: int = 100
    """Iterations (self-play + learning) to run (0: train on the alpha-beta labels alone)."""
    max_seconds: float | None = None
    """The run's wall time (its total, across resumptions): a ladder round or iteration is started
    only if one as long as the last would end within it (the first after a start or a resumption
    is started whenever time is left)."""
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
                     "label_depth", "cheap_sims", "gumbel_k", "learner_threads"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name}={v!r} is not allowed: an int >= 1")
        for name in ("iterations", "train_steps", "labels", "label_steps", "eval_every", "eval_games", "eval_openings",
                     "temperature_moves", "ladder_rounds", "ladder_games", "ladder_steps", "final_steps"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name}={v!r} is not allowed: an int >= 0")
        if not 0.0 < self.full_search_prob <= 1.0:
            raise ValueError(f"full_search_prob={self.full_search_prob!r} is not allowed: a probability in (0, 1]")
        check_device_name(self.device)
        if not self.lr > 0:
            raise ValueError(f"lr={self.lr!r} is not allowed: a positive number")
        if self.max_seconds is not None and not self.max_seconds > 0:
            raise ValueError(f"max_seconds={self.max_seconds!r} is not allowed: a positive number of seconds")
        if self.final_fresh and not self.final_steps:
            raise ValueError("final_fresh needs final_steps > 0 (the steps that train the fresh network)")
        if self.label_steps and not self.labels:
            raise ValueError("label_steps > 0 needs labels > 0 (positions to train on)")
        if self.ladder_rounds and not (self.ladder_games and self.ladder_steps):
            raise ValueError("ladder_rounds > 0 needs ladder_games > 0 and ladder_steps > 0")
        if not self.iterations and not self.label_steps and not self.ladder_rounds:
            raise ValueError("iterations=0 trains only on alpha-beta labels: give labels and label_steps > 0, "
                             "or ladder_rounds > 0")

    def settings(self) -> dict[str, Any]:
        """The settings that define what a run learns (compared when a directory is reused)."""
        fields = json.loads(json.dumps(asdict(self), default=list))
        return {k: v for k, v in fields.items() if k not in RESUMABLE_AZ}

    def label_options(self) -> dict[str, Any]:
        """The labeller's keyword arguments besides its depth (:class:`~zerosum.training.labeller.Labeller`):
        what every labeller of the run (the learner's and each worker's) is made with."""
        return {"quiescence": self.label_quiescence, "fast_wins": self.label_fast_wins}

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
    # Connect Four: ladder rounds (expert iteration on the network's own games, DAgger's rule)
    # with depth-10 quiescence labels, and a 3 x 48 ResNet with line features (lines=4). The
    # rounds' networks only choose which positions get labelled: at the end, 12,000 steps with
    # the learning rate annealed to 0 train the run's initial weights afresh on the whole buffer
    # (final_fresh), with both cores (learner_threads=2, also for each round's learner steps
    # while the worker waits). Each process keeps its labels from round to round (the label
    # cache), so a round takes about 120-210 s; one is started only if it ends within the hour
    # with the final steps' time (about 13-15 minutes) kept. Its run (one seed, 19 rounds,
    # 211,823 labels, 59 minutes) scored alone 0.73/0.61/0.43 against depths 2/4/6 and with 64
    # simulations 0.79/0.73/0.58 and 0.76 against mcts at equal time (400 games each), level
    # with zoo:connect_four (the same fresh training on the labels of an earlier hour's 17
    # rounds). The same recipe without the cache played 12 rounds (0.75/0.57/0.30 alone,
    # 0.82/0.68/0.63 and 0.73 with 64 simulations); with 3,000 annealed steps on the run's own
    # network instead of the fresh ones, 0.65/0.48/0.34 alone. The self-play settings below
    # apply only with --iterations N after the rounds.
    "az_connect_four": {
        "game": "connect_four", "net": {"kind": "resnet", "blocks": 3, "channels": 48, "lines": 4},
        "rule": "puct", "sims": 32, "gumbel_k": 8, "lanes": 128, "games_per_iteration": 128, "temperature_moves": 6,
        "full_search_prob": 0.5, "cheap_sims": 8, "symmetry": True, "buffer_size": 200_000, "batch_size": 256,
        "train_steps": 200, "lr": 1e-3, "labels": 0, "label_depth": 10, "label_quiescence": True, "label_steps": 0,
        "ladder_rounds": 30, "ladder_games": 400, "ladder_steps": 1000, "final_steps": 12_000, "final_fresh": True,
        "learner_threads": 2, "iterations": 0,
        "max_seconds": 3600.0, "eval_every": 5, "eval_opponents": ["alphabeta(depth=2)", "alphabeta(depth=4)"],
        "eval_games": 40, "eval_openings": 2,
    },
    # Pentago: ladder rounds (as Connect Four's) with depth-3 labels (no quiescence: 6x cheaper,
    # and its best move scores 0.66 against depth 2 where depth 3 with quiescence scores 0.70)
    # and a 3 x 48 ResNet with line features (lines=5). The run of these settings (one seed, a
    # quiet machine, stopped after 16 rounds, about 49 minutes of running) gave best.pt at round 15:
    # alone 0.044/0.016 against depths 2/3 and with 64 simulations 0.18/0.09 (400 games each),
    # where the Gumbel self-play recipe that came before (6,000 depth-3 labels, then 13,000
    # self-play games) gave 0.009/0.000 alone and 0.045/0.015 with 64 simulations. The targets
    # (0.60 alone against depth 2, 0.50 with 64 simulations against depth 3) are far off. The
    # self-play settings below apply only with --iterations N after the rounds.
    "az_pentago": {
        "game": "pentago", "net": {"kind": "resnet", "blocks": 3, "channels": 48, "lines": 5}, "rule": "gumbel",
        "sims": 16, "gumbel_k": 8, "lanes": 128, "games_per_iteration": 128, "temperature_moves": 8,
        "full_search_prob": 0.5, "cheap_sims": 4, "symmetry": True, "buffer_size": 200_000, "batch_size": 256,
        "train_steps": 100, "lr": 1e-3, "labels": 0, "label_depth": 3, "label_quiescence": False, "label_steps": 0,
        "ladder_rounds": 40, "ladder_games": 400, "ladder_steps": 1000, "iterations": 0, "max_seconds": 3600.0,
        "eval_every": 5, "eval_opponents": ["alphabeta(depth=2)", "alphabeta(depth=3)"], "eval_games": 40,
        "eval_openings": 2,
    },
}
"""Named AlphaZero settings (``zerosum train --algo alphazero --recipe NAME``)."""

AZ_RECIPE_NOTES: dict[str, str] = {
    "az_tictactoe": "AlphaZero tic-tac-toe: exact alpha-beta labels, then PUCT 32 sims, symmetries; never loses",
    "az_connect_four": "AlphaZero Connect Four: ladder rounds on depth-10 quiescence labels, line features, "
                       "a network trained afresh at the end (<= 60 min)",
    "az_pentago": "AlphaZero Pentago: ladder rounds on depth-3 labels, line features (<= 60 min)",
}
"""One line per recipe for ``zerosum train --help``."""


def az_recipe(name: str, **overrides: Any) -> AlphaZeroConfig:
    """The AlphaZeroConfig of a named recipe, with overrides (a ``game`` must be the recipe's)."""
    from zerosum.training.recipes import recipe_base

    return AlphaZeroConfig(**{**recipe_base(AZ_RECIPES, name, overrides, "AlphaZero "), **overrides})



__all__ = ["AZ_RECIPES", "AZ_RECIPE_NOTES", "BACKENDS", "RESUMABLE_AZ", "RULES", "AlphaZeroConfig", "az_recipe"]
