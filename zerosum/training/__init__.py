"""Training: one package per method behind one registry, and the gymnasium / SB3 wrappers PPO trains on.

* :mod:`~zerosum.training.methods`: the registry (``METHODS``): ``ppo`` and ``alphazero``, each a
  package with the same surface: ``Config`` (settings by stage, flat names, each one's docstring
  its ``--help``), ``run(cfg, resume=..., overwrite=...) -> Result``, ``RECIPES`` and ``recipe``,
  ``ALGOS``, ``AGENT``; ``zerosum train`` builds its flags from the configs.
* :mod:`~zerosum.training.ppo`: stable-baselines3's MaskablePPO (PPO, DQN) against search
  opponents; checkpoints ``model.zip`` play as ``ppo(path=...)``.
* :mod:`~zerosum.training.alphazero`: self-play on the batched search, alpha-beta labels
  (expert iteration), a learner; networks ``best.pt`` play as ``alphazero(path=...)``. It
  imports nothing of stable-baselines3.
* :mod:`~zerosum.training.rundir`: the one run-directory check (a run already there is resumed
  with the same settings and method, or overwritten); :mod:`~zerosum.training.options`: a
  config's settings as command-line options.
* :class:`~zerosum.training.single_agent.SingleAgentEnv`: one seat of any zerosum game as a
  gymnasium env, the opponent replying inside ``reset``/``step``; ``action_masks()`` for
  MaskablePPO. :mod:`~zerosum.training.opponents`: a fixed agent, a :class:`Curriculum`, a
  :class:`PrioritizedOpponents` mixture, a :class:`SelfPlayPool` of frozen snapshots;
  :mod:`~zerosum.training.vector_sources`: those inside the compiled vector env.
* :mod:`~zerosum.training.symmetry`: the board's symmetries, one per episode with
  ``SingleAgentEnv(..., symmetry=True)``.

Importing this package loads neither torch nor stable-baselines3; training does.
"""

from zerosum.training.opponents import Curriculum, FixedOpponent, OpponentSource, PrioritizedOpponents, SelfPlayPool
from zerosum.training.single_agent import SingleAgentEnv

__all__ = ["Curriculum", "FixedOpponent", "OpponentSource", "PrioritizedOpponents", "SelfPlayPool", "SingleAgentEnv"]
