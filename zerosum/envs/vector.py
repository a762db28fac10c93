"""Vector environments: many games stepped in one compiled call, the opponent inside.

>>> import numpy as np
>>> from zerosum.envs import make_vec
>>> envs = make_vec("connect_four_v0", num_envs=64, opponent="alphabeta(depth=2)", seed=0)
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, envs.action_masks().shape
((64, 133), (64, 7))
>>> actions = np.array([np.flatnonzero(m)[0] for m in envs.action_masks()])
>>> obs, rewards, terminated, truncated, info = envs.step(actions)

``make_vec(env_id, num_envs, opponent=..., learner_seat=..., seed=..., autoreset_mode=...)``
returns a Gymnasium 1.x ``VectorEnv``: ``num_envs`` games ("lanes") of one zerosum game,
each with the learner in one seat and the opponent replying inside ``step()``, so every
observation and reward is the learner's. One ``step(actions)`` is one compiled call over all
lanes (the kit's rules inlined, :mod:`zerosum.envs._vector_template`): the learner's move,
the opponent's replies (alpha-beta included) until the learner is to move again or the game
is over, the reward, the restart, the next observation and mask. ``api="sb3"`` returns a
stable-baselines3 ``VecEnv`` instead (:mod:`zerosum.envs.vector_sb3`).

**Observation.** As :class:`zerosum.training.single_agent.SingleAgentEnv` gives it (tests
check them equal lane by lane, and equal to the PettingZoo env's): with ``obs_format="flat"``
(default) one ``float32`` row per lane, the env's own observation planes from the learner's
side flattened, then the action mask; with ``obs_format="dict"`` a dict of ``observation``
(int8 planes, ``(num_envs, *observation_shape)``) and ``action_mask`` (int8). At the end of
an episode the mask is all zeros. ``action_masks()`` returns every lane's mask at once
(bool, ``(num_envs, num_actions)``), as sb3-contrib's MaskablePPO reads it.

**Rewards.** The learner's return at the end (+1 win, 0 draw, -1 loss), 0 before: never the
opponent's (PettingZoo issue #1147's trap cannot happen here). ``truncated`` is always False.

**Seats.** ``learner_seat="random"`` (default: drawn per lane and episode), ``0``, ``1``, or
``"alternate"`` (each lane switches every episode; lanes start alternately).

**Opponents**, compiled into the step:

* ``"random"``: a uniformly random legal move;
* ``"alphabeta(depth=k)"``, with the game's default heuristic or ``heuristic=NAME`` and any
  alpha-beta option of the agent spec under a depth budget: the compiled search that
  :class:`zerosum.search.alphabeta.AlphaBeta` runs, driven the same way (so it chooses the
  move the searcher chooses from the same noise; ties at the root broken at random unless
  ``tie_break=off``). One transposition table serves all lanes: under a depth budget a
  reused table never changes a move;
* ``"noisy(base=..., epsilon=e)"`` over either of them: a random move with probability ``e``;
* a mixture, ``opponent=["random", "alphabeta(depth=2)"]`` with ``opponent_weights``
  (or a dict ``{spec: weight}``): each lane draws one per episode.

Any other opponent (an agent spec such as ``mcts(sims=100)``, ``solved`` or ``ppo(path=...)``,
or an :class:`~zerosum.agents.Agent` object) plays through Python: once per step, one call for
all lanes waiting on it, ``agent.act_batch(game, states)`` (``states`` int64, one lane's
position a row; the answer one action a row), then the compiled step goes on.
:meth:`Agent.act_batch <zerosum.agents.Agent.act_batch>` calls ``act`` row by row unless the
agent overrides it: a PPO checkpoint (:class:`~zerosum.agents.learned.PolicyAgent`) and
``alphazero(sims=0)`` answer every lane from one forward pass of their network, choosing the
moves ``act`` would. One instance per opponent serves every lane, seeded from the env's
generator at ``reset(seed=...)``.

**Weights that change.** ``set_opponent_weights(weights)`` replaces the mixture's weights (one
per component, in order): episodes that start from then on draw by them. ``info["opponent"]``
says which component (an index into ``opponent_names``) each lane plays, as ``seat`` does, so
a trainer can score the learner per opponent and move the weights (a curriculum, or
priorities by score: :mod:`zerosum.training.vector_sources`).

**Random openings.** ``random_opening=p``: with probability ``p`` an episode starts with one
uniformly random ply for whoever is to move (the learner's seat included), then the
opponent moves if it is its turn: as :class:`~zerosum.training.single_agent.SingleAgentEnv`
does it. ``lanes.opened`` holds each lane's opening ply (-1: none).

**Symmetries.** ``symmetry=True`` (tic-tac-toe, Connect Four, Pentago:
:mod:`zerosum.envs.symmetry`): each episode draws one board symmetry per lane
(``lanes.sym``) and the learner sees its board and mask under it; its action is mapped back
before it is played. The maps are index tables applied inside the compiled step. The game,
the opponent and the reward are untouched.

**Autoreset.** ``autoreset_mode="next_step"`` (Gymnasium's default): a finished lane
returns its final observation, and the next ``step`` restarts it (that lane's action is
ignored, its reward 0). ``"same_step"``: the finished lane restarts at once; ``obs`` holds
the new episode's first observation and ``info["final_obs"]`` (with ``info["_final_obs"]``)
the final one. ``"disabled"``: restart lanes yourself with
``reset(options={"reset_mask": mask})``; stepping a finished lane is an error. Each mode
may also be given as Gymnasium's ``AutoresetMode``.

**Illegal actions.** A documented rule, the same as the single-agent env's and PettingZoo's
safe ``env()``: an action out of range, or of the wrong shape or dtype, is an error naming
the lane; an in-range illegal action (``illegal="penalty"``, default) ends that lane's
episode with reward ``illegal_penalty`` (-1), ``info["illegal_action"]`` set for that lane
(with ``info["_illegal_action"]``). ``illegal="raise"`` (the raw mode, as ``raw_env()``)
raises IllegalActionError naming the lane, the action and the legal ones instead, before
any lane moves.

**Info.** ``info["outcome"]`` (with ``info["_outcome"]``, set on the lanes that finished
this step): 1 win, 0 draw, -1 loss, -2 an illegal action; ``info["seat"]`` and
``info["opponent"]``: each lane's seat and opponent (an index into ``opponent_names``) in the
episode that just finished or goes on (same-step mode: ``final_info`` holds the finished
episode's). ``reset()``'s info holds ``seat`` and ``opponent``.

``reset(seed=s)`` reseeds everything random (seats, mixture draws, random and noisy
moves, alpha-beta's tie-breaking, Python opponents' generators): a seeded run replays
exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from zerosum.envs.lanes import (
    AUTORESET_MODES, ILLEGAL_RULES, LEARNER_SEATS, Lanes, autoreset_name, single_spaces,
    vector_kernels,
)
from zerosum.envs.vector_opponents import Opponents, VectorEnvError
from zerosum.games import Game
from zerosum.games.registry import ENVS, env_game

OUTCOMES = {1: 1, 2: 0, 3: -1, 4: -2}
"""The template's outcome codes as ``info["outcome"]`` gives them: win 1, draw 0, loss -1, illegal -2."""


def _resolve_game(env_id: str | Game, variant: Mapping[str, Any]) -> Game:
    from zerosum.games import make_game

    if isinstance(env_id, Game):
        if variant:
            raise VectorEnvError("give the variant either in the Game or as keyword arguments, not both")
        return env_id
    if not isinstance(env_id, str):
        raise VectorEnvError(f"env_id={env_id!r}: an env name such as 'connect_four_v0', a game name or a Game")
    name = env_game(env_id) if env_id in ENVS else env_id
    return make_game(name, **variant)


class ZerosumVectorEnv(VectorEnv):
    """A Gymnasium 1.x ``VectorEnv`` over one zerosum game, the opponent inside (see the module)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}
    """What Gymnasium reads of the env: ``autoreset_mode`` (here the class default; an instance holds its
    lanes' mode) and ``render_modes`` (none: the lanes are not rendered)."""

    def __init__(self, lanes: Lanes) -> None:
        self.lanes = lanes
        """The lanes' arrays and compiled calls."""
        g = lanes.game
        self.game = g
        """The game every lane plays."""
        self.num_envs = lanes.n
        """The number of lanes (games stepped together)."""
        mode = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
                "disabled": AutoresetMode.DISABLED}[lanes.mode]
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.render_mode = None
        """None: a vector env is not rendered (render each game with its PettingZoo env)."""
        single, action = single_spaces(lanes)
        self.single_observation_space = single
        """One lane's observation: with ``obs_format="flat"`` a float32 Box ``(n_obs + num_actions,)`` in
        [0, 1] (the planes flattened, then the mask); with ``"dict"`` a Dict of ``observation`` (int8 Box
        ``observation_shape``) and ``action_mask`` (int8 Box ``(num_actions,)``)."""
        self.single_action_space = action
        """One lane's action: ``Discrete(num_actions)``."""
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, lanes.n)
        """Every lane's observation: ``single_observation_space`` batched, ``num_envs`` first."""
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, lanes.n)
        """Every lane's action: ``MultiDiscrete`` of ``num_envs`` actions, each in ``0 .. num_actions - 1``."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a game in every lane (``options={"reset_mask": mask}``: in those lanes only)."""
        mask = None
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise VectorEnvError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},); "
                                     f"got {mask.dtype} {mask.shape}")
        self.lanes.reset(seed, mask)
        return self.lanes.observations(), {"seat": self.lanes.learner.copy(), "opponent": self.lanes.comp.copy()}

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One step of every lane (see the module for the autoreset modes and the info)."""
        lanes = self.lanes
        lanes.step(actions)
        info: dict[str, Any] = {}
        ended = lanes.ended
        if ended.any():
            outcome = np.zeros(self.num_envs, np.int64)
            outcome[ended] = [OUTCOMES[c] for c in lanes.outcome[ended].tolist()]
            info["outcome"], info["_outcome"] = outcome, ended.copy()
            illegal = lanes.outcome == 4
            if illegal.any():
                info["illegal_action"] = np.where(illegal, lanes.last_actions, 0)
                info["_illegal_action"] = illegal
            if lanes.mode == "same_step":
                final = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(ended).tolist():
                    final[i] = lanes.final_observation(i)
                info["final_obs"], info["_final_obs"] = final, ended.copy()
                info["final_info"] = {"outcome": outcome, "_outcome": ended.copy(),
                                      "seat": lanes.episode_seat.copy(), "_seat": ended.copy(),
                                      "opponent": lanes.episode_comp.copy(), "_opponent": ended.copy()}
                info["_final_info"] = ended.copy()
        info["seat"] = lanes.learner.copy()
        info["opponent"] = lanes.comp.copy()
        terminated = lanes.terminated.copy()
        return (lanes.observations(), lanes.rewards.copy(),
                terminated, np.zeros(self.num_envs, np.bool_), info)

    def action_masks(self) -> np.ndarray:
        """Every lane's legal actions (bool, (num_envs, num_actions)); all False where a lane finished."""
        return self.lanes.masks.astype(bool)

    def opponent_moves(self) -> list[list[int]]:
        """Per lane, the opponent's moves in the last step (see :meth:`Lanes.opponent_moves`)."""
        return self.lanes.opponent_moves()

    @property
    def opponent_names(self) -> list[str]:
        """The mixture's components in order (``info["opponent"]`` indexes them)."""
        return list(self.lanes.opponents.names)

    def set_opponent_weights(self, weights: Sequence[float]) -> None:
        """New mixture weights, one per component of ``opponent_names`` (non-negative, not all 0):
        the episodes that start from now on draw their opponent by them."""
        self.lanes.set_opponent_weights(weights)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the lanes live in this process."""


def make_vec(env_id: str | Game, num_envs: int = 8, opponent: Any = "random", *, learner_seat: int | str = "random",
             seed: int | None = None, autoreset_mode: Any = "next_step", api: str = "gymnasium",
             opponent_weights: Sequence[float] | None = None, obs_format: str = "flat", illegal: str = "penalty",
             illegal_penalty: float = -1.0, random_opening: float = 0.0, symmetry: bool = False,
             **variant: Any) -> Any:
    """A vector env of ``num_envs`` lanes of ``env_id`` (an env name such as ``"connect_four_v0"``,
    a game name, or a Game; variants as keyword arguments, as ``env()`` takes them), the
    learner in ``learner_seat`` and ``opponent`` replying inside the compiled step.

    ``api="gymnasium"`` (default) returns a Gymnasium ``VectorEnv`` (:class:`ZerosumVectorEnv`);
    ``api="sb3"`` a stable-baselines3 ``VecEnv`` (same-step reset, as SB3 expects; needs the
    ``train`` extra). ``seed`` seeds the first ``reset()``. The module's docstring says what
    each argument allows and what an illegal action does.
    """
    if api not in ("gymnasium", "sb3"):
        raise VectorEnvError(f"api={api!r} is not allowed: 'gymnasium' or 'sb3'")
    game = _resolve_game(env_id, variant)
    mode = autoreset_name(autoreset_mode)
    if api == "sb3":
        if mode != "same_step" and autoreset_mode != "next_step":
            raise VectorEnvError(f"autoreset_mode={autoreset_mode!r} with api='sb3': SB3's VecEnv resets in the "
                                 "same step (infos[i]['terminal_observation']); leave autoreset_mode unset")
        from zerosum.envs.vector_sb3 import ZerosumSB3VecEnv

        lanes = Lanes(game, num_envs, opponent, opponent_weights=opponent_weights, learner_seat=learner_seat,
                      autoreset_mode="same_step", obs_format=obs_format, illegal=illegal,
                      illegal_penalty=illegal_penalty, random_opening=random_opening, symmetry=symmetry)
        sb3 = ZerosumSB3VecEnv(lanes)
        if seed is not None:
            sb3.seed(seed)
        return sb3
    lanes = Lanes(game, num_envs, opponent, opponent_weights=opponent_weights, learner_seat=learner_seat,
                  autoreset_mode=mode, obs_format=obs_format, illegal=illegal, illegal_penalty=illegal_penalty,
                  random_opening=random_opening, symmetry=symmetry)
    env = ZerosumVectorEnv(lanes)
    if seed is not None:
        lanes.rng = np.random.default_rng(int(seed))
        lanes.opponents.seed(lanes.rng)
    return env


__all__ = ["AUTORESET_MODES", "ILLEGAL_RULES", "LEARNER_SEATS", "OUTCOMES", "Lanes", "Opponents", "VectorEnvError",
           "ZerosumVectorEnv", "make_vec", "vector_kernels"]
