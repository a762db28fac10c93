"""PPO (and DQN) with stable-baselines3: a learner against search opponents, one seat of the game
as a single-agent env with the opponent replying inside (the ``train`` extra).

>>> from zerosum.training.ppo import TrainConfig, run
>>> result = run(TrainConfig(game="tictactoe", opponent="random", steps=50_000, out="runs/ttt"))  # doctest: +SKIP

The method's surface (:mod:`zerosum.training.methods`): :class:`TrainConfig` (``Config``),
:func:`run` (:func:`~zerosum.training.ppo.train.train`), :class:`TrainResult` (``Result``),
the recipes (:data:`RECIPES`, :func:`recipe`). A module per idea:

* :mod:`~zerosum.training.ppo.config`: the settings and what a run produced;
* :mod:`~zerosum.training.ppo.recipes`: named settings, and the checkpoints ``make run`` trains on first use;
* :mod:`~zerosum.training.ppo.callbacks`: evaluation, snapshots, outcomes and progress during ``learn``;
* :mod:`~zerosum.training.ppo.train`: the run itself, top to bottom.

Checkpoints (``model.zip`` + ``model.json``) play as ``ppo(path=...)``. Importing this package
loads neither torch nor stable-baselines3; a run does.
"""

from zerosum.training.ppo.config import AGENT, ALGOS, DQN_DEFAULTS, PPO_DEFAULTS, RESUMABLE, TrainConfig, TrainResult
from zerosum.training.ppo.recipes import RECIPE_NOTES, RECIPES, recipe
from zerosum.training.ppo.train import train

LABEL = "PPO"
"""The method's name in messages."""
Config = TrainConfig
"""The method's config (:mod:`zerosum.training.methods`)."""
Result = TrainResult
"""What a run produced."""
run = train
"""Run (or resume) one training: :func:`~zerosum.training.ppo.train.train`."""

__all__ = ["AGENT", "ALGOS", "DQN_DEFAULTS", "LABEL", "PPO_DEFAULTS", "RECIPES", "RECIPE_NOTES", "RESUMABLE", "Config",
           "Result", "TrainConfig", "TrainResult", "recipe", "run", "train"]
