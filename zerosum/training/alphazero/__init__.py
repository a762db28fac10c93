"""AlphaZero training: self-play on the batched search, alpha-beta labels, a learner, checkpoints.

>>> from zerosum.training.alphazero import AlphaZeroConfig, train_alphazero
>>> cfg = AlphaZeroConfig(game="tictactoe", iterations=2, out="runs/az_tiny")
>>> result = train_alphazero(cfg)                                    # doctest: +SKIP

``zerosum train --algo alphazero`` runs one from the command line (``--recipe az_tictactoe``:
a named one). A module per idea, in the order a run uses them:

* :mod:`~zerosum.training.alphazero.config`: the settings, grouped by stage;
* :mod:`~zerosum.training.alphazero.recipes`: named settings;
* :mod:`~zerosum.training.alphazero.data`: the data passed around (positions, the replay
  buffer, labels files, the workers' jobs);
* :mod:`~zerosum.training.alphazero.network`: the network built, sent and played;
* :mod:`~zerosum.training.alphazero.labels`: alpha-beta labels and the ladder rounds;
* :mod:`~zerosum.training.alphazero.selfplay`: self-play games on the batched search;
* :mod:`~zerosum.training.alphazero.workers`: the processes (or Ray actors) that play them;
* :mod:`~zerosum.training.alphazero.learner`: the minibatch steps;
* :mod:`~zerosum.training.alphazero.evaluation`: the network alone against a ladder;
* :mod:`~zerosum.training.alphazero.rundir`: the run's files and the state that resumes it;
* :mod:`~zerosum.training.alphazero.loop`: :func:`train_alphazero`, the loop itself.
"""

from zerosum.training.alphazero.config import (
    AGENT,
    BACKENDS, FLAT, RESUMABLE_AZ, RULES, AlphaZeroConfig, EvalConfig, FinalConfig, LadderConfig, LearnerConfig,
    RunConfig, SelfPlayConfig, TeacherConfig,
)
from zerosum.training.alphazero.data import (
    DatasetError, Positions, ReplayBuffer, load_dataset, read_labels, save_dataset,
)
from zerosum.training.alphazero.evaluation import evaluate_network, greedy_policy
from zerosum.training.alphazero.labels import Label, LabelCache, Labeller, label_dataset, ladder
from zerosum.training.alphazero.learner import Learner
from zerosum.training.alphazero.loop import AlphaZeroResult, fits, train_alphazero
from zerosum.training.alphazero.network import build_net
from zerosum.training.alphazero.rundir import EVAL_FIELDS, PROGRESS_FIELDS, STATE_VERSION, RunState
from zerosum.training.alphazero.workers import SelfPlayWorker
from zerosum.training.alphazero.recipes import AZ_RECIPE_NOTES, AZ_RECIPES, az_recipe

LABEL = "AlphaZero"
"""The method's name in messages."""
ALGOS = AlphaZeroConfig.ALGOS
"""The ``--algo`` values of its runs."""
RESUMABLE = RESUMABLE_AZ
"""The settings a resumed run may change."""
Config = AlphaZeroConfig
"""The method's config (:mod:`zerosum.training.methods`)."""
Result = AlphaZeroResult
"""What a run produced."""
RECIPES = AZ_RECIPES
"""The named settings."""
RECIPE_NOTES = AZ_RECIPE_NOTES
"""A line per recipe."""
recipe = az_recipe
"""The config of a named recipe."""
run = train_alphazero
"""Run (or resume) one training: :func:`~zerosum.training.alphazero.loop.train_alphazero`."""

__all__ = [
    "AGENT",
    "ALGOS",
    "AZ_RECIPES",
    "AZ_RECIPE_NOTES",
    "BACKENDS",
    "EVAL_FIELDS",
    "FLAT",
    "LABEL",
    "PROGRESS_FIELDS",
    "RECIPES",
    "RECIPE_NOTES",
    "RESUMABLE",
    "RESUMABLE_AZ",
    "RULES",
    "STATE_VERSION",
    "AlphaZeroConfig",
    "AlphaZeroResult",
    "Config",
    "DatasetError",
    "EvalConfig",
    "FinalConfig",
    "Label",
    "LabelCache",
    "Labeller",
    "LadderConfig",
    "Learner",
    "LearnerConfig",
    "Positions",
    "ReplayBuffer",
    "Result",
    "RunConfig",
    "RunState",
    "SelfPlayConfig",
    "SelfPlayWorker",
    "TeacherConfig",
    "az_recipe",
    "build_net",
    "evaluate_network",
    "fits",
    "greedy_policy",
    "label_dataset",
    "ladder",
    "load_dataset",
    "read_labels",
    "recipe",
    "run",
    "save_dataset",
    "train_alphazero",
]
