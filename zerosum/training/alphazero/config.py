"""AlphaZero's settings: one :class:`AlphaZeroConfig`, grouped by the stage of a run that reads them.

>>> cfg = AlphaZeroConfig(game="connect_four", sims=64, ladder_rounds=3, iterations=0)
>>> cfg.selfplay.sims, cfg.ladder.rounds, cfg.run.iterations
(64, 3, 0)
>>> cfg.settings()["sims"]  # run.json, the recipes and the CLI name each setting by its flat name
64

A run goes through its stages in this order (:mod:`zerosum.training.alphazero.loop`):

=====================  =============================================================================
group                  what it holds
=====================  =============================================================================
``teacher``            the alpha-beta teacher: its depth and options, the labels before self-play
``ladder``             ladder rounds: the network's own games against a ladder, every position labelled
``selfplay``           self-play games on the batched search (PUCT or Gumbel, playout caps)
``learner``            the replay buffer and the minibatch steps (every stage trains through it)
``final``              the annealed steps at the end
``evaluation``         the network alone against a ladder of opponents, every ``every`` iterations
``run``                how long, where the workers run, where the files go
=====================  =============================================================================

Each setting also has a flat name, the one the CLI's flags (``--label-depth``), the recipes
(:data:`~zerosum.training.alphazero.recipes.AZ_RECIPES`) and run.json use: ``label_depth`` is
``teacher.depth`` (:data:`FLAT`). ``AlphaZeroConfig(**flat)`` builds a config from them and
:meth:`AlphaZeroConfig.settings` writes them back, so a run directory written before the groups
existed reads the same.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from zerosum.games.registry import ENVS, env_game
from zerosum.nets.errors import check_device_name
from zerosum.training.options import Option, field_option

AGENT = "alphazero"
"""The agent kind a run's networks play as: ``alphazero(path=OUT/best.pt)``."""
RULES = ("puct", "gumbel")
"""The root rules of the batched search."""
BACKENDS = ("local", "ray")
"""Where self-play runs: a local subprocess, or Ray actors."""


@dataclass
class TeacherConfig:
    """The alpha-beta teacher (expert iteration): the labels before self-play, and the settings of
    every label, the ladder rounds' too (:class:`~zerosum.training.alphazero.labels.Labeller`)."""

    depth: int = 8
    """The labels' alpha-beta depth (``label_depth``)."""
    quiescence: bool = False
    """Labels follow the game's forcing moves past ``depth`` (the engine's quiescence search;
    ``label_quiescence``)."""
    fast_wins: bool = False
    """Labels prefer the nearest proven win (and the farthest loss) instead of sharing the policy among
    every winning move (``label_fast_wins``; :meth:`~zerosum.training.alphazero.labels.Labeller.score`)."""
    positions: int = 0
    """Positions labelled before self-play (0: none; ``labels``)."""
    steps: int = 0
    """Learner steps on those labels before self-play (``label_steps``)."""
    files: list[str] = field(default_factory=list, metadata={"kind": "files"})
    """Labels files (``zerosum-labels`` .npz, or a run's state.pt whose buffer is read) to train on
    before everything else, every position once (``labels_from``; ``--labels-from FILE ...``)."""

    def options(self) -> dict[str, Any]:
        """The labeller's keyword arguments besides its depth: what every labeller of the run (the
        learner's and each worker's) is made with."""
        return {"quiescence": self.quiescence, "fast_wins": self.fast_wins}


@dataclass
class LadderConfig:
    """Ladder rounds before self-play (expert iteration on the network's own games, DAgger's rule):
    the network alone plays ``games`` games against ``opponents``, the teacher labels every
    position met, the learner takes ``steps`` steps."""

    rounds: int = 0
    """Rounds (0: none; ``ladder_rounds``)."""
    games: int = 200
    """Games of one round, split between the workers and the learner (``ladder_games``)."""
    opponents: list[str] = field(default_factory=list)
    """The opponents, in turn (empty: the evaluation's; ``ladder_opponents``)."""
    steps: int = 1000
    """Learner steps after each round (``ladder_steps``)."""


@dataclass
class SelfPlayConfig:
    """Self-play on the batched search: what each worker's search and games need."""

    rule: str = field(default="puct", metadata={"choices": RULES})
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


@dataclass
class LearnerConfig:
    """The replay buffer and the learner's minibatch steps."""

    symmetry: bool = False
    """Train each sample under a random board symmetry."""
    buffer_size: int = 50_000
    """Replay buffer: the last this many positions."""
    batch_size: int = 256
    """Minibatch."""
    train_steps: int = 50
    """Steps per self-play iteration."""
    lr: float = 1e-3
    """Adam's learning rate."""
    weight_decay: float = 1e-4
    """Adam's (decoupled) weight decay."""
    value_weight: float = 1.0
    """The value loss's weight against the policy loss."""
    threads: int = 1
    """Torch threads of the steps taken while no worker runs: on the labels, after each ladder round
    and the final steps (self-play's steps always take one, a worker playing beside them; a second
    thread on a core a worker uses only slows both; ``learner_threads``)."""
    device: str = "cpu"
    """The torch device of the steps: ``"cpu"``, ``"cuda"`` or ``"cuda:N"``. The network rests on
    the CPU, where the games play it one position at a time; only the minibatch steps run on the
    device (checked before anything is written)."""


@dataclass
class FinalConfig:
    """Learner steps after the last ladder round and iteration, the learning rate lowered from
    ``lr`` to 0 along a cosine (:meth:`~zerosum.training.alphazero.learner.Learner.anneal`), then an
    evaluation; the network is ``best.pt`` whatever that evaluation's few games say (annealed, a
    network's strength settles where at a constant rate it swings from one round to the next)."""

    steps: int = 0
    """The annealed steps (0: none; ``final_steps``); ``max_seconds`` keeps the time they take."""
    fresh: bool = False
    """The steps train the network the run began with (its seed's weights, a new optimizer) on the
    whole buffer, not the run's network: the rounds' networks then only choose the positions
    labelled (``final_fresh``)."""


@dataclass
class EvalConfig:
    """The periodic evaluation of the network alone (``sims=0``: its greedy legal move)."""

    every: int = 5
    """Iterations between evaluations (0: only at the end; ``eval_every``)."""
    opponents: list[str] = field(default_factory=lambda: ["alphabeta(depth=2)"])
    """The ladder it plays (``eval_opponents``)."""
    games: int = 20
    """Games per opponent, seats alternating (``eval_games``)."""
    openings: int = 2
    """Random plies opening each pair of games (``eval_openings``)."""
    exhaustive: bool = False
    """Also walk every opponent reply in both seats (small games): lines lost (``eval_exhaustive``)."""


@dataclass
class RunConfig:
    """How long a run goes, where its workers run and where its files go (none of it changes what is
    learned, so a run may be resumed with other values)."""

    iterations: int = 100
    """Self-play iterations (0: train on the teacher's labels alone)."""
    max_seconds: float | None = None
    """The run's wall time (its total, across resumptions): a ladder round or iteration is started
    only if one as long as the last would end within it (the first after a start or a resumption is
    started whenever time is left)."""
    backend: str = field(default="local", metadata={"choices": BACKENDS})
    """``local`` (subprocesses) or ``ray`` (Ray actors, the learner local)."""
    workers: int = 1
    """Self-play workers (each plays games_per_iteration / workers games)."""
    out: str | None = "runs/alphazero"
    """The run directory (None: nothing written)."""
    tensorboard: bool = True
    """Write TensorBoard curves when tensorboard is installed."""
    verbose: int = field(default=0, metadata={"kind": "count"})
    """1: a progress line per ladder round and iteration."""
    log_every: float = 0.0
    """Seconds at least between two self-play iterations' progress lines with verbose (0: a line
    every iteration; ladder rounds and evaluations print theirs always)."""


GROUPS: dict[str, type] = {"teacher": TeacherConfig, "ladder": LadderConfig, "selfplay": SelfPlayConfig,
                           "learner": LearnerConfig, "final": FinalConfig, "evaluation": EvalConfig,
                           "run": RunConfig}
"""The groups of an :class:`AlphaZeroConfig`, in the order a run reaches them."""

_RENAMED = {"labels": ("teacher", "positions"), "label_depth": ("teacher", "depth"),
            "label_steps": ("teacher", "steps"), "label_quiescence": ("teacher", "quiescence"),
            "label_fast_wins": ("teacher", "fast_wins"), "labels_from": ("teacher", "files"),
            "learner_threads": ("learner", "threads"), "final_steps": ("final", "steps"),
            "final_fresh": ("final", "fresh")}
FLAT: dict[str, tuple[str, str]] = {
    **{f.name: (group, f.name) for group in ("selfplay", "learner", "run") for f in dataclasses.fields(GROUPS[group])
       if f.name != "threads"},
    **{f"ladder_{f.name}": ("ladder", f.name) for f in dataclasses.fields(LadderConfig)},
    **{f"eval_{f.name}": ("evaluation", f.name) for f in dataclasses.fields(EvalConfig)},
    **_RENAMED,
}
"""Flat setting name (the CLI's flag, the recipes' and run.json's key) -> (group, field)."""
TOP = ("game", "variant", "net", "seed", "algo")
"""The settings outside the groups: what is learned, from what seed."""
RESUMABLE_AZ = ("iterations", "ladder_rounds", "final_steps", "final_fresh", "max_seconds", "verbose", "out",
                "tensorboard", "backend", "workers", "learner_threads", "device", "log_every")
"""Flat settings that may differ between a run and its resumption (how long it learns, not what from)."""


@dataclass(init=False)
class AlphaZeroConfig:
    """Everything an AlphaZero run depends on (``run.json`` stores it; ``--resume`` compares it).

    Built from flat names (``AlphaZeroConfig(sims=64, label_depth=10)``, :data:`FLAT`) or whole
    groups (``AlphaZeroConfig(selfplay=SelfPlayConfig(sims=64))``); every value is checked here,
    so a bad one fails before a run starts.
    """

    game: str
    """Game name (an env name such as ``connect_four_v0`` is read as its game)."""
    variant: dict[str, Any]
    """The game's rule variant."""
    net: dict[str, Any]
    """The network: the fields of :class:`zerosum.nets.NetConfig`."""
    seed: int
    """Seeds torch, the workers' searches and the buffer's sampling."""
    teacher: TeacherConfig
    """The alpha-beta labels."""
    ladder: LadderConfig
    """The ladder rounds."""
    selfplay: SelfPlayConfig
    """The self-play games."""
    learner: LearnerConfig
    """The buffer and the steps."""
    final: FinalConfig
    """The annealed steps at the end."""
    evaluation: EvalConfig
    """The periodic evaluation."""
    run: RunConfig
    """Length, workers, files."""
    algo: str
    """Always ``alphazero`` (what tells this run from a PPO run in run.json)."""

    ALGOS: ClassVar[tuple[str, ...]] = ("alphazero",)
    """The ``algo`` values of this method's runs (:mod:`zerosum.training.methods`)."""
    RESUMABLE: ClassVar[tuple[str, ...]] = RESUMABLE_AZ
    """The settings a resumed run may change (:func:`zerosum.training.rundir.check_out`)."""
    CHECKPOINT: ClassVar[str] = "state.pt"
    """The file a run needs to be resumed."""

    def __init__(self, *, game: str = "tictactoe", variant: dict[str, Any] | None = None,
                 net: dict[str, Any] | None = None, seed: int = 0, algo: str = "alphazero",
                 teacher: TeacherConfig | None = None, ladder: LadderConfig | None = None,
                 selfplay: SelfPlayConfig | None = None, learner: LearnerConfig | None = None,
                 final: FinalConfig | None = None, evaluation: EvalConfig | None = None,
                 run: RunConfig | None = None, **flat: Any) -> None:
        given: dict[str, Any] = {"teacher": teacher, "ladder": ladder, "selfplay": selfplay, "learner": learner,
                                 "final": final, "evaluation": evaluation, "run": run}
        changes: dict[str, dict[str, Any]] = {name: {} for name in GROUPS}
        for name, value in flat.items():
            if name not in FLAT:
                raise TypeError(f"unknown AlphaZero setting {name!r}; the settings: "
                                f"{', '.join(sorted([*TOP, *FLAT]))}")
            group, key = FLAT[name]
            changes[group][key] = value
        self.game = env_game(game) if game in ENVS else game  # an env name is read as its game
        self.seed, self.algo = seed, algo
        self.variant = dict(variant or {})
        net = net if net is not None else {"kind": "mlp", "hidden": [64, 64]}
        self.net = {k: list(v) if isinstance(v, tuple) else v for k, v in net.items()}
        if isinstance(self.net.get("hidden"), int) and not isinstance(self.net["hidden"], bool):
            self.net["hidden"] = [self.net["hidden"]]  # hidden=64: one layer
        for name, cls in GROUPS.items():
            base = given[name] if given[name] is not None else cls()
            setattr(self, name, dataclasses.replace(base, **changes[name]))
        self.check()

    @classmethod
    def options(cls) -> list[Option]:
        """Every setting as a command-line option (:mod:`zerosum.training.options`), stage by stage."""
        top = [field_option(cls, name, name, "game") for name in TOP if name != "algo"]
        return top + [field_option(GROUPS[group], key, name, group)
                      for group in GROUPS for name, (g, key) in FLAT.items() if g == group]

    def get(self, name: str) -> Any:
        """The setting of flat name ``name`` (``get("label_depth")`` is ``teacher.depth``)."""
        if name in TOP:
            return getattr(self, name)
        group, key = FLAT[name]
        return getattr(getattr(self, group), key)

    def flat(self) -> dict[str, Any]:
        """Every setting by its flat name (JSON types: lists, not tuples)."""
        out = {name: self.get(name) for name in (*TOP, *FLAT)}
        flat: dict[str, Any] = json.loads(json.dumps(out, default=list))
        return flat

    def settings(self) -> dict[str, Any]:
        """The settings that define what a run learns (compared when a directory is reused)."""
        return {k: v for k, v in self.flat().items() if k not in RESUMABLE_AZ}

    def check(self) -> None:
        """ValueError naming the setting (by its flat name) and what it allows, for the first bad one."""
        if self.algo != "alphazero":
            raise ValueError(f"algo={self.algo!r}: an AlphaZeroConfig is for algo 'alphazero'")
        if self.selfplay.rule not in RULES:
            raise ValueError(f"rule={self.selfplay.rule!r} is not allowed: one of {', '.join(RULES)}")
        if self.run.backend not in BACKENDS:
            raise ValueError(f"backend={self.run.backend!r} is not allowed: one of {', '.join(BACKENDS)}")
        for name in ("sims", "lanes", "games_per_iteration", "buffer_size", "batch_size", "workers",
                     "label_depth", "cheap_sims", "gumbel_k", "learner_threads"):
            v = self.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name}={v!r} is not allowed: an int >= 1")
        for name in ("iterations", "train_steps", "labels", "label_steps", "eval_every", "eval_games", "eval_openings",
                     "temperature_moves", "ladder_rounds", "ladder_games", "ladder_steps", "final_steps"):
            v = self.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name}={v!r} is not allowed: an int >= 0")
        if not 0.0 < self.selfplay.full_search_prob <= 1.0:
            raise ValueError(f"full_search_prob={self.selfplay.full_search_prob!r} is not allowed: "
                             "a probability in (0, 1]")
        check_device_name(self.learner.device)
        if not self.learner.lr > 0:
            raise ValueError(f"lr={self.learner.lr!r} is not allowed: a positive number")
        seconds = self.run.max_seconds
        if seconds is not None and not seconds > 0:
            raise ValueError(f"max_seconds={seconds!r} is not allowed: a positive number of seconds")
        if self.final.fresh and not self.final.steps:
            raise ValueError("final_fresh needs final_steps > 0 (the steps that train the fresh network)")
        t = self.teacher
        if not isinstance(t.files, list) or not all(isinstance(p, str) and p for p in t.files):
            raise ValueError(f"labels_from={t.files!r} is not allowed: a list of labels files")
        if t.steps and not (t.positions or t.files):
            raise ValueError("label_steps > 0 needs labels > 0 (positions to train on) or labels_from")
        if t.files and not (t.steps or self.final.steps):
            raise ValueError("labels_from needs label_steps > 0 or final_steps > 0 (the steps that train on them)")
        if self.ladder.rounds and not (self.ladder.games and self.ladder.steps):
            raise ValueError("ladder_rounds > 0 needs ladder_games > 0 and ladder_steps > 0")
        if not self.run.iterations and not t.steps and not self.ladder.rounds and not (t.files and self.final.steps):
            raise ValueError("iterations=0 trains only on alpha-beta labels: give labels and label_steps > 0, "
                             "labels_from, or ladder_rounds > 0")


__all__ = ["AGENT", "BACKENDS", "FLAT", "GROUPS", "RESUMABLE_AZ", "RULES", "AlphaZeroConfig", "EvalConfig",
           "FinalConfig", "LadderConfig", "LearnerConfig", "RunConfig", "SelfPlayConfig", "TeacherConfig"]
