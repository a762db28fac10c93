"""Training: learners against search opponents with stable-baselines3 (the ``train`` extra).

* :class:`~zerosum.training.single_agent.SingleAgentEnv`: one seat of any zerosum game as a
  gymnasium env, the opponent replying inside ``reset``/``step``; ``action_masks()`` for
  MaskablePPO.
* :mod:`~zerosum.training.opponents`: a fixed agent, a :class:`Curriculum`, a
  :class:`PrioritizedOpponents` mixture (weights by the learner's scores), a
  :class:`SelfPlayPool` of frozen snapshots.
* :mod:`~zerosum.training.symmetry`: the board's symmetries, one per episode with
  ``SingleAgentEnv(..., symmetry=True)``.
* :func:`~zerosum.training.train.train` with :class:`~zerosum.training.config.TrainConfig`;
  named settings in :mod:`~zerosum.training.recipes`; the CLI ``zerosum train``.
* AlphaZero: the package :mod:`~zerosum.training.alphazero` (``zerosum train --algo alphazero``,
  the ``az_*`` recipes): self-play on the batched search, alpha-beta labels (expert iteration),
  a learner, one module per idea.
* Checkpoints (``model.zip`` + ``model.json`` metadata, read and written by
  :mod:`zerosum.agents.checkpoints`) play as agents: ``make_agent("ppo(path=runs/ttt/model.zip)")``.

Importing this package loads neither torch nor stable-baselines3; training does.
"""

from zerosum.training.opponents import Curriculum, FixedOpponent, OpponentSource, PrioritizedOpponents, SelfPlayPool
from zerosum.training.single_agent import SingleAgentEnv

__all__ = ["Curriculum", "FixedOpponent", "OpponentSource", "PrioritizedOpponents", "SelfPlayPool", "SingleAgentEnv"]
