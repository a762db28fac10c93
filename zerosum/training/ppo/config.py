"""What a training run depends on (:class:`TrainConfig`) and what it produced (:class:`TrainResult`).

:func:`zerosum.training.ppo.train.train` runs one; both names are exported from :mod:`zerosum.training.ppo`
too. Importing this module loads neither torch nor stable-baselines3.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from zerosum.agents.checkpoints import ALGOS
from zerosum.agents.learned import OBS_FORMATS
from zerosum.nets.errors import check_device_name
from zerosum.training.opponents import PRIORITIES
from zerosum.training.options import Option, field_option
from zerosum.training.single_agent import SEATS

PPO_DEFAULTS: dict[str, Any] = {"n_steps": 128, "batch_size": 256, "n_epochs": 4, "learning_rate": 1e-3,
                                "gamma": 0.99, "gae_lambda": 0.95, "ent_coef": 0.01, "clip_range": 0.2}
"""PPO's defaults, overridable through TrainConfig.algo_kwargs."""
DQN_DEFAULTS: dict[str, Any] = {"learning_rate": 5e-4, "buffer_size": 50_000, "learning_starts": 1_000,
                                "batch_size": 64, "train_freq": 4, "target_update_interval": 1_000,
                                "exploration_fraction": 0.3, "exploration_final_eps": 0.05, "gamma": 0.99}
"""DQN's defaults, overridable through TrainConfig.algo_kwargs."""


AGENT = "ppo"
"""The agent kind a run's checkpoints play as: ``ppo(path=OUT/model.zip)``."""
RESUMABLE = ("steps", "max_seconds", "verbose", "out", "tensorboard", "threads", "device", "log_every")
"""Settings that may differ between a run and its resumption (they do not change what is learned)."""
ACTIVATIONS = ("tanh", "relu")
"""The hidden layers' activations TrainConfig.activation allows."""
LR_SCHEDULES = ("constant", "linear")
"""The learning-rate schedules TrainConfig.lr_schedule allows."""
VECS = ("dummy", "subproc", "zerosum")
"""How TrainConfig.vec steps the envs."""
CURRICULUM_METRICS = ("win", "score")
"""What a curriculum counts (TrainConfig.curriculum_metric)."""
STAGES: dict[str, tuple[str, ...]] = {
    "game": ("game", "variant"),
    "opponents": ("opponent", "opponent_weights", "opponent_priority", "curriculum", "threshold", "window",
                  "curriculum_metric", "self_play", "pool_size", "snapshot_every", "base_prob", "exploiter"),
    "envs": ("n_envs", "vec", "seat", "obs_format", "illegal_penalty", "random_opening", "symmetry"),
    "model": ("algo", "net_arch", "activation", "algo_kwargs", "lr_schedule"),
    "evaluation": ("eval_every", "eval_opponents", "eval_games", "eval_openings", "eval_exhaustive", "keep_best"),
    "run": ("steps", "max_seconds", "seed", "threads", "device", "save_every", "out", "tensorboard", "log_every",
            "verbose"),
}
"""TrainConfig's settings by the stage of a run that reads them (the groups of ``zerosum train --help``)."""
ALGO_OPTIONS: dict[str, tuple[str, str, str]] = {
    "lr": ("learning_rate", "float", "The learning rate."),
    "n_steps": ("n_steps", "int", "PPO: steps per env per rollout."),
    "batch_size": ("batch_size", "int", "Minibatch size."),
    "n_epochs": ("n_epochs", "int", "PPO: epochs per rollout."),
    "ent_coef": ("ent_coef", "float", "PPO: the entropy bonus."),
    "gamma": ("gamma", "float", "The discount."),
}
"""Options that set one key of TrainConfig.algo_kwargs: flat name -> (key, kind, help)."""


@dataclass
class TrainConfig:
    """Everything a training run depends on (stored in the checkpoint's metadata)."""

    ALGOS: ClassVar[tuple[str, ...]] = ALGOS
    """The ``algo`` values of this method's runs (:mod:`zerosum.training.methods`)."""
    RESUMABLE: ClassVar[tuple[str, ...]] = RESUMABLE
    """The settings a resumed run may change (:func:`zerosum.training.rundir.check_out`)."""
    CHECKPOINT: ClassVar[str] = "model.zip"
    """The file a run needs to be resumed."""

    game: str = "tictactoe"
    """Game or env name."""
    variant: dict[str, Any] = field(default_factory=dict)
    """The game's rule variant, e.g. ``{"misere": True}``."""
    opponent: str | list[str] = "random"
    """Fixed opponent (agent spec), or a list: a mixture."""
    opponent_weights: list[float] | None = None
    """The mixture's weights (uniform by default)"""
    opponent_priority: str | None = field(default=None, metadata={"choices": PRIORITIES})
    """``"learnable"`` (s(1-s)) or ``"hard"`` ((1-s)^2): a mixture's (or self-play pool's) weights follow
    the learner's scores."""
    curriculum: list[str] | None = None
    """Opponents in order; overrides `opponent`."""
    threshold: float = 0.8
    """Curriculum: advance to the next opponent at this win rate over `window` episodes."""
    window: int = 500
    """Curriculum: the episodes the win rate is taken over (also opponent_priority's window)."""
    curriculum_metric: str = field(default="win", metadata={"choices": CURRICULUM_METRICS})
    """``"win"`` (wins only) or ``"score"`` (a draw counts half)."""
    random_opening: float = 0.0
    """Chance that an episode starts with one random ply."""
    symmetry: bool = False
    """Show each episode under a random board symmetry."""
    self_play: bool = False
    """Play a pool of frozen snapshots."""
    pool_size: int = 10
    """Self-play: snapshots kept."""
    snapshot_every: int = 20_000
    """Self-play: learner steps between snapshots."""
    base_prob: float = 0.2
    """Self-play: chance of a fixed opponent instead."""
    algo: str = field(default="maskable_ppo", metadata={"choices": ALGOS})
    """``maskable_ppo``, ``ppo``, ``maskable_dqn`` or ``dqn``."""
    steps: int = 50_000
    """Learner steps to train for."""
    max_seconds: float | None = None
    """Stop earlier after this much training time."""
    n_envs: int = 8
    """Environments stepped together."""
    vec: str = field(default="dummy", metadata={"choices": VECS})
    """How the envs are stepped: "dummy" (in-process single-agent envs), "subproc" (one process each), or
    "zerosum": one compiled vector env (:func:`zerosum.envs.make_vec`), the opponents (mixtures, priorities,
    curricula, the exploiter), random openings and symmetries inside its step; not with ``self_play``."""
    seat: int | str = field(default="alternate", metadata={"kind": "str", "choices": SEATS})
    """The learner's seat: 0, 1, ``"alternate"`` or ``"random"``."""
    obs_format: str = field(default="flat", metadata={"choices": OBS_FORMATS})
    """``"flat"`` (planes and mask in one vector) or ``"dict"``."""
    illegal_penalty: float = -1.0
    """The reward of an illegal action (unmasked algorithms; the episode ends)."""
    net_arch: tuple[int, ...] = (64, 64)
    """Hidden layer widths of the policy and value networks."""
    activation: str = field(default="tanh", metadata={"choices": ACTIVATIONS})
    """Hidden layers' activation: tanh (SB3's default) or relu."""
    algo_kwargs: dict[str, Any] = field(default_factory=dict, metadata={"flag": "--algo-kwarg"})
    """Any other arguments of the SB3 algorithm (over PPO_DEFAULTS or DQN_DEFAULTS)."""
    seed: int = 0
    """The run's seed (SB3, the envs and the opponents)."""
    threads: int = 1
    """torch threads (1 is fastest for these small networks)."""
    device: str = "cpu"
    """torch device, ``"cpu"``, ``"cuda"`` or ``"cuda:N"`` (one that torch does not see is refused
    before anything is written)."""
    eval_every: int = 0
    """0: evaluate only at the end."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random"])
    """Agent specs the periodic evaluation plays."""
    eval_games: int = 50
    """Per opponent and seat."""
    eval_openings: list[int] = field(default_factory=lambda: [0], metadata={"kind": "ints"})
    """Evaluate from these numbers of random plies."""
    eval_exhaustive: bool = False
    """Also walk every opponent move (small games: a proof)"""
    exploiter: float = 0.0
    """Mixture weight of an opponent aiming at the lines last found lost."""
    keep_best: bool = True
    """Save best.zip at the best periodic evaluation."""
    lr_schedule: str = field(default="constant", metadata={"choices": LR_SCHEDULES})
    """``"constant"``, or ``"linear"``: the learning rate decays to 0 at ``steps``."""
    log_every: float = 15.0
    """Seconds between progress lines (verbose >= 1)"""
    save_every: int = 0
    """Steps between periodic checkpoints (0: none)."""
    out: str | None = "runs/train"
    """The run's directory (None: write nothing)."""
    tensorboard: bool = True
    """When tensorboard is installed."""
    verbose: int = field(default=0, metadata={"kind": "count"})
    """0 quiet, 1 progress lines, 2 SB3's log too."""

    def __post_init__(self) -> None:
        check_device_name(self.device)
        if self.algo not in ALGOS:
            raise ValueError(f"algo={self.algo!r} is not allowed: one of {', '.join(ALGOS)}")
        if self.obs_format not in OBS_FORMATS:
            raise ValueError(f"obs_format={self.obs_format!r} is not allowed: one of {OBS_FORMATS}")
        if self.seat not in SEATS or isinstance(self.seat, bool):
            raise ValueError(f"seat={self.seat!r} is not allowed: one of {SEATS}")
        if self.vec not in VECS:
            raise ValueError(f"vec={self.vec!r} is not allowed: 'dummy', 'subproc' or 'zerosum'")
        if self.vec == "zerosum" and self.self_play:
            raise ValueError("vec='zerosum' (the compiled vector env) does not take self_play: its snapshots join "
                             "the opponents during training; the vector env takes a fixed opponent, a mixture, "
                             "opponent_priority, a curriculum, random_opening, symmetry and exploiter; "
                             "use vec='dummy' for self-play")
        if isinstance(self.opponent, (list, tuple)) and not self.opponent:
            raise ValueError("opponent=[] is not allowed: give at least one agent spec")
        if self.vec == "subproc" and (self.curriculum or self.self_play):
            raise ValueError("a curriculum or self-play pool is shared between envs: use vec='dummy'")
        for name in ("steps", "n_envs", "threads"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: at least 1")
        self.net_arch = tuple(int(n) for n in self.net_arch)
        if self.exploiter and not (self.eval_exhaustive and self.eval_every > 0 and self.eval_games > 0):
            raise ValueError("exploiter needs eval_exhaustive with periodic evaluation (eval_every, eval_games > 0): "
                             "its targets are the lines the last evaluation found lost")
        if isinstance(self.exploiter, bool) or not 0.0 <= float(self.exploiter) < 1.0:
            raise ValueError(f"exploiter={self.exploiter!r} is not allowed: a mixture weight in [0, 1)")
        if self.lr_schedule not in LR_SCHEDULES:
            raise ValueError(f"lr_schedule={self.lr_schedule!r} is not allowed: one of {', '.join(LR_SCHEDULES)}")
        if isinstance(self.random_opening, bool) or not 0.0 <= float(self.random_opening) <= 1.0:
            raise ValueError(f"random_opening={self.random_opening!r} is not allowed: a probability in [0, 1]")
        self.eval_openings = [int(k) for k in self.eval_openings] or [0]
        if min(self.eval_openings) < 0:
            raise ValueError(f"eval_openings={self.eval_openings!r} is not allowed: numbers of plies >= 0")
        if self.opponent_priority is not None and self.opponent_priority not in PRIORITIES:
            raise ValueError(f"opponent_priority={self.opponent_priority!r} is not allowed: "
                             f"one of {PRIORITIES} or None")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation={self.activation!r} is not allowed: one of {', '.join(ACTIVATIONS)}")

    @classmethod
    def options(cls) -> list[Option]:
        """Every setting as a command-line option (:mod:`zerosum.training.options`), stage by stage;
        ``lr``, ``n_steps``, ... set one key of ``algo_kwargs`` (:data:`ALGO_OPTIONS`)."""
        out = [field_option(cls, name, name, stage) for stage, names in STAGES.items() for name in names
               if name != "algo"]
        return out + [Option(name, "model", kind, text, into="algo_kwargs", key=key)
                      for name, (key, kind, text) in ALGO_OPTIONS.items()]

    def hyperparameters(self) -> dict[str, Any]:
        """The algorithm's settings in force (defaults plus overrides)."""
        base = DQN_DEFAULTS if self.algo in ("dqn", "maskable_dqn") else PPO_DEFAULTS
        return {**base, **self.algo_kwargs, "net_arch": list(self.net_arch), "activation": self.activation,
                "n_envs": self.n_envs, "lr_schedule": self.lr_schedule}

    def settings(self) -> dict[str, Any]:
        """The settings that define what a run learns (compared when a directory is reused)."""
        fields = json.loads(json.dumps(dataclasses.asdict(self), default=list))
        return {k: v for k, v in fields.items() if k not in RESUMABLE}


@dataclass
class TrainResult:
    """What a run produced and how fast."""

    checkpoint: Path | None
    """The final checkpoint's path (None when ``out`` is None)."""
    metadata: dict[str, Any]
    """The checkpoint's metadata."""
    steps: int
    """Learner steps taken."""
    seconds: float
    """Learn() wall time, evaluation excluded."""
    eval_seconds: float
    """Seconds spent in periodic evaluation."""
    eval_rows: list[dict[str, Any]]
    """Every evaluation row (as in ``eval.csv``)."""
    outcomes: dict[str, dict[str, int]]
    """Training episodes per seat."""
    model: Any = None
    """The trained SB3 model."""

    @property
    def steps_per_second(self) -> float:
        """Learner steps per second of training (rollouts and updates; evaluation excluded)."""
        return self.steps / self.seconds if self.seconds else 0.0

    def summary(self) -> dict[str, Any]:
        """The run in a JSON object (``zerosum train --json``)."""
        return {"checkpoint": str(self.checkpoint) if self.checkpoint else None, "steps": self.steps,
                "seconds": round(self.seconds, 2), "steps_per_second": round(self.steps_per_second),
                "eval_seconds": round(self.eval_seconds, 2), "training_outcomes": self.outcomes,
                "final_eval": self.metadata.get("eval", []), "best": self.metadata.get("best")}

    def report(self) -> list[str]:
        """The run in lines of text (what ``zerosum train`` prints)."""
        meta = self.metadata
        lines = [f"trained {meta.get('algo')} on {meta.get('game')} for {self.steps} steps in {self.seconds:.1f} s "
                 f"({self.steps_per_second:,.0f} steps/s; evaluation {self.eval_seconds:.1f} s more)"]
        lines += [f"  vs {row['opponent']:<24} seat {row['seat']}: {row['wins']} won, {row['draws']} drawn, "
                  f"{row['losses']} lost of {row['games']}" for row in meta.get("eval", [])]
        if self.checkpoint:
            lines.append(f"checkpoint: {self.checkpoint}  (play it as \"{AGENT}(path={self.checkpoint})\")")
            best = meta.get("best")
            if best:
                walked = (f"{best['lines_lost']} of {best['lines']} lines lost against every opponent move, "
                          if "lines_lost" in best else "")
                lines.append(f"best: {self.checkpoint.with_name('best.zip')}  (evaluation at {best['steps']:,} "
                             f"steps: {walked}{best['losses']} lost of {best['games']} games, mean score "
                             f"{best['score']:.3f})")
        return lines


__all__ = ["ACTIVATIONS", "AGENT", "ALGOS", "ALGO_OPTIONS", "CURRICULUM_METRICS", "DQN_DEFAULTS", "LR_SCHEDULES",
           "PPO_DEFAULTS", "RESUMABLE", "STAGES", "VECS", "TrainConfig", "TrainResult"]
