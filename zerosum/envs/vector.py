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

Any other opponent (an agent spec such as ``mcts(sims=100)`` or ``ppo(path=...)``, or an
:class:`~zerosum.agents.Agent` object) plays through Python: once per step, one call for all
lanes waiting on it (``agent.act_batch(game, states)`` where the agent has one, else its
``act`` per lane), then the compiled step goes on. One instance per opponent serves every
lane, seeded from the env's generator at ``reset(seed=...)``.

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
this step): 1 win, 0 draw, -1 loss, -2 an illegal action; ``info["seat"]``: each lane's
seat in the episode that just finished or goes on. ``reset()``'s info holds ``seat``.

``reset(seed=s)`` reseeds everything random (seats, mixture draws, random and noisy
moves, alpha-beta's tie-breaking, Python opponents' generators): a seeded run replays
exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from numba.typed import List as TypedList

from zerosum.agents.base import Agent, RandomAgent
from zerosum.agents.noisy import NoisyAgent
from zerosum.agents.search import AlphaBetaAgent
from zerosum.agents.spec import make_agent
from zerosum.games import Game
from zerosum.games.kit import IllegalActionError, ZerosumError
from zerosum.games.kit.specialize import specialize
from zerosum.games.registry import ENVS, env_game
from zerosum.search._arrays import NegamaxArrays, tt_arrays
from zerosum.search._flags import C_EPOCH, C_FLAGS, C_GEN, C_HIST_MODE, C_QS_PLIES, N_CFG, N_STATS
from zerosum.search.alphabeta import MIN_TT_SLOTS
from zerosum.search.functions import heuristic_ref, resolve_heuristic

VECTOR_TEMPLATE = Path(__file__).with_name("_vector_template.py")
AUTORESET_MODES = ("next_step", "same_step", "disabled")
LEARNER_SEATS = (0, 1, "random", "alternate")
ILLEGAL_RULES = ("penalty", "raise")
OUTCOMES = {1: 1, 2: 0, 3: -1, 4: -2}
"""The template's outcome codes as ``info["outcome"]`` gives them: win 1, draw 0, loss -1, illegal -2."""
_LOG = 16  # opponent moves logged per lane and step (tests replay them)


class VectorEnvError(ZerosumError, ValueError):
    """Bad input to a vector env: the message names the lane, the value and what is allowed."""


def vector_kernels(game: Game) -> ModuleType:
    """The compiled vector step for ``game``'s rules (the template specialised and cached)."""
    return specialize(VECTOR_TEMPLATE, game.kernels)


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


def _mixture(opponent: Any, weights: Sequence[float] | None) -> tuple[list[Any], np.ndarray]:
    if isinstance(opponent, Mapping):
        if weights is not None:
            raise VectorEnvError("give the mixture's weights either in the dict or as opponent_weights, not both")
        items, weights = list(opponent), list(opponent.values())
    elif isinstance(opponent, (str, Agent)):
        items = [opponent]
    elif isinstance(opponent, Sequence) and opponent:
        items = list(opponent)
    else:
        raise VectorEnvError(f"opponent={opponent!r}: an agent spec, an Agent, a list of them or a dict "
                             "{spec: weight} is allowed")
    w = np.ones(len(items)) if weights is None else np.asarray(list(weights), dtype=np.float64)
    if w.shape != (len(items),) or not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise VectorEnvError(f"opponent_weights={weights!r}: {len(items)} non-negative numbers, not all 0")
    return items, w


class Opponents:
    """An opponent mixture compiled for the vector step: a table row per component, the
    alpha-beta components' search records, the Python agents."""

    def __init__(self, game: Game, opponent: Any, weights: Sequence[float] | None = None) -> None:
        items, w = _mixture(opponent, weights)
        self.game = game
        """The game the opponents play."""
        self.names: list[str] = []
        """Each component's name (its spec, or the agent's name)."""
        self.table = np.zeros((len(items), 8), np.int64)
        """Per component: kind, record, depth, iterative, aspiration, tie_break, follow_tt, tt_slots."""
        self.eps = np.zeros(len(items), np.float64)
        """Per component: the chance of a uniformly random move instead of its own."""
        self.cum = np.cumsum(w / w.sum())
        """The mixture's cumulative weights (each lane draws a component per episode)."""
        self.agents: dict[int, Agent] = {}
        """The components that play through Python, by component index."""
        self.records: list[NegamaxArrays] = []
        """The alpha-beta components' search records (tables), one per component."""
        for k, item in enumerate(items):
            self._add(k, item)
        if not self.records:  # the compiled step takes a list of records: one unused
            self.records.append(self._record(AlphaBetaAgent(depth=1), 1))
        self.typed_records = TypedList(self.records)

    def _add(self, k: int, item: Any) -> None:
        if isinstance(item, Agent):
            agent, name, compiled = item, item.name, False
        elif isinstance(item, str):
            try:
                agent = make_agent(item)
            except ValueError as exc:
                raise VectorEnvError(f"opponent {item!r}: {exc}") from None
            name, compiled = item, True
        else:
            raise VectorEnvError(f"opponent {item!r}: an agent spec string or an Agent is allowed")
        try:
            agent.prepare(self.game)
        except (ValueError, TypeError) as exc:
            raise VectorEnvError(f"opponent {name!r} cannot play {self.game.name}: {exc}") from None
        self.names.append(name)
        inner, eps = agent, 0.0
        if isinstance(agent, NoisyAgent) and compiled:
            inner, eps = agent.inner, agent.epsilon
        kind = 2
        if compiled and type(inner) is RandomAgent:
            kind = 0
        elif compiled and type(inner) is AlphaBetaAgent and inner.time is None and inner.nodes is None:
            kind = 1
        self.table[k, 0] = kind
        if kind == 2:
            self.agents[k] = agent
            return
        self.eps[k] = eps
        if kind == 1:
            ab: AlphaBetaAgent = inner  # type: ignore[assignment]
            depth = int(ab.depth or 1)
            try:
                ab.config.check(self.game, depth)
            except ValueError as exc:
                raise VectorEnvError(f"opponent {name!r} cannot play {self.game.name}: {exc}") from None
            self.table[k, 1] = len(self.records)
            self.records.append(self._record(ab, depth))
            cfg = ab.config
            slots = min(int(self.records[-1].tt.shape[0]),
                        max(MIN_TT_SLOTS, 1 << (4 * int(self.game.max_moves) ** (depth - 1) - 1).bit_length()))
            self.table[k, 2:] = (depth, cfg.iterative, cfg.aspiration, 1 if ab.tie_break else 0, cfg.tt, slots)

    def _record(self, ab: AlphaBetaAgent, depth: int) -> NegamaxArrays:
        """A search record of the agent's options: as AlphaBeta builds one, a table of its own."""
        g, cfg = self.game, ab.config
        heur = heuristic_ref(resolve_heuristic(g, ab.heuristic))
        kept = {**tt_arrays(cfg.tt_size if cfg.tt else 1), "history": np.zeros(g.num_actions, np.float64),
                "noise": np.zeros(g.num_actions, np.float64), "root_values": np.zeros(g.num_actions, np.float64),
                "cfg": np.zeros(N_CFG, np.int64), "stats": np.zeros(N_STATS, np.int64)}
        w = NegamaxArrays.sized(g.state_size, g.max_moves, g.num_actions, depth + cfg.quiescence_plies, heur, **kept)
        w.cfg[C_FLAGS] = cfg.search_flags(g, depth, None, None)
        w.cfg[C_QS_PLIES] = cfg.quiescence_plies
        w.cfg[C_HIST_MODE] = 0 if cfg.history_increment == "pow2" else 1
        w.cfg[C_GEN], w.cfg[C_EPOCH] = 0, 1
        return w

    def seed(self, rng: np.random.Generator) -> None:
        """Give each Python opponent a generator drawn from ``rng``."""
        for agent in self.agents.values():
            agent.seed(np.random.default_rng(int(rng.integers(2**63))))

    def moves(self, k: int, states: np.ndarray) -> np.ndarray:
        """Python opponent ``k``'s moves in ``states`` (one row each): one batched call."""
        agent = self.agents[k]
        batch = getattr(agent, "act_batch", None)
        if batch is not None:
            return np.asarray(batch(self.game, states), dtype=np.int64)
        return np.array([agent.act(self.game, s) for s in states], dtype=np.int64)


def _autoreset(mode: Any) -> str:
    if isinstance(mode, AutoresetMode):
        return {AutoresetMode.NEXT_STEP: "next_step", AutoresetMode.SAME_STEP: "same_step",
                AutoresetMode.DISABLED: "disabled"}[mode]
    if isinstance(mode, str) and mode.lower().replace("-", "_") in AUTORESET_MODES:
        return mode.lower().replace("-", "_")
    if isinstance(mode, str) and mode.lower() in ("nextstep", "samestep"):
        return {"nextstep": "next_step", "samestep": "same_step"}[mode.lower()]
    raise VectorEnvError(f"autoreset_mode={mode!r} is not allowed: one of {', '.join(AUTORESET_MODES)} "
                         "(or gymnasium.vector.AutoresetMode)")


class Lanes:
    """The lanes' arrays and the compiled calls over them: what both vector APIs step."""

    def __init__(self, game: Game, num_envs: int, opponent: Any = "random", *,
                 opponent_weights: Sequence[float] | None = None, learner_seat: int | str = "random",
                 autoreset_mode: Any = "next_step", obs_format: str = "flat", illegal: str = "penalty",
                 illegal_penalty: float = -1.0) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise VectorEnvError(f"num_envs={num_envs!r}: a positive int (the number of lanes) is required")
        if learner_seat not in LEARNER_SEATS or isinstance(learner_seat, bool):
            raise VectorEnvError(f"learner_seat={learner_seat!r} is not allowed: one of {LEARNER_SEATS}")
        if obs_format not in ("flat", "dict"):
            raise VectorEnvError(f"obs_format={obs_format!r} is not allowed: 'flat' or 'dict'")
        if illegal not in ILLEGAL_RULES:
            raise VectorEnvError(f"illegal={illegal!r} is not allowed: one of {ILLEGAL_RULES}")
        self.game, self.n, self.mode = game, int(num_envs), _autoreset(autoreset_mode)
        self.seat_rule, self.obs_format, self.illegal = learner_seat, obs_format, illegal
        self.penalty = float(illegal_penalty)
        self.opponents = Opponents(game, opponent, opponent_weights)
        self.k = vector_kernels(game)
        n, g = self.n, game
        self.n_obs = int(np.prod(g.observation_shape))
        self.num_actions = g.num_actions
        flat = obs_format == "flat"
        self.states = np.zeros((n, g.state_size), np.int64)
        self.learner = np.arange(n, dtype=np.int64) % 2 if learner_seat == "alternate" else np.zeros(n, np.int64)
        if learner_seat == "alternate":
            self.learner ^= 1  # each episode switches: lane i's first episode is seat i % 2
        self.comp = np.zeros(n, np.int64)
        self.episode_seat = np.zeros(n, np.int64)
        self.episode_comp = np.zeros(n, np.int64)
        self.done, self.pending, self.restart, self.opening, self.ended, self.terminated = (
            np.zeros(n, np.bool_) for _ in range(6))
        self.masks = np.zeros((n, g.num_actions), np.int8)
        self.flat = np.zeros((n, self.n_obs + g.num_actions) if flat else (1, 1), np.float32)
        self.planes = np.zeros((1, 1) if flat else (n, self.n_obs), np.int8)
        self.final_flat = np.zeros_like(self.flat)
        self.final_planes = np.zeros((1, 1) if flat else (n, self.n_obs + g.num_actions), np.int8)
        self.rewards = np.zeros(n, np.float64)
        self.outcome = np.zeros(n, np.int64)
        self.cfg = np.zeros(5, np.int64)
        seat_code = {"random": 2, "alternate": 3}.get(learner_seat, learner_seat)  # type: ignore[arg-type]
        self.cfg[:] = (seat_code, AUTORESET_MODES.index(self.mode), illegal == "raise", self.n_obs, flat)
        self.moves = np.zeros(g.max_moves, np.int64)
        self.buf = np.zeros(self.n_obs, np.int8)
        self.child = np.zeros(g.state_size, np.int64)
        self.log = np.zeros((n, _LOG), np.int64)
        self.count = np.zeros(n, np.int64)
        self.err = np.zeros(3, np.int64)
        self.rng = np.random.default_rng()
        self.started = False

    # ---- the compiled calls ----------------------------------------------------------------
    def _seed(self) -> int:
        return int(self.rng.integers(2**63))

    def _check(self) -> None:
        code, lane, value = (int(x) for x in self.err)
        if code == 0:
            return
        if code == 1:
            legal = np.flatnonzero(self.masks[lane]).tolist()
            raise IllegalActionError(f"lane {lane}: action {value} "
                                     f"({self.game.action_to_string(value, self.states[lane])}) is not legal there "
                                     f"(illegal='raise'); legal: {legal}")
        if code == 2:
            raise VectorEnvError(f"lane {lane} finished and autoreset_mode='disabled': restart it with "
                                 "reset(options={'reset_mask': mask}) before stepping it")
        if code == 3:
            raise VectorEnvError(f"lane {lane}: the game ended before the learner's first move (seat {value}); "
                                 f"{self.game!r} cannot be learned from this seat")
        raise IllegalActionError(f"lane {lane}: opponent {self.opponents.names[self.comp[lane]]} played the illegal "
                                 f"action {value}")

    def _python_replies(self) -> None:
        """Ask the Python opponents for every pending lane (one call per opponent), until none waits."""
        o, g = self.opponents, self.game
        while self.pending.any():
            lanes = np.flatnonzero(self.pending)
            replies = np.empty(lanes.shape[0], np.int64)
            for k in np.unique(self.comp[lanes]).tolist():
                sel = self.comp[lanes] == k
                replies[sel] = o.moves(k, self.states[lanes[sel]])
            self.k.vec_resume(g.params, g.initial, lanes, replies, self.states, self.learner, self.comp, self.done,
                              self.pending, self.restart, self.opening, self.ended, self.masks, self.flat,
                              self.planes, self.final_flat, self.final_planes, self.rewards, self.terminated,
                              self.outcome, o.table, o.eps, o.cum, o.typed_records, self.cfg, self.moves, self.buf,
                              self.child, self.log, self.count, self.err, self._seed())
            self._check()

    def reset(self, seed: int | None, mask: np.ndarray | None = None) -> None:
        """Start a game in every lane (or in the lanes of ``mask``)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise VectorEnvError(f"seed={seed!r}: an int or None is allowed (one seed for all lanes)")
            self.rng = np.random.default_rng(int(seed))
            self.opponents.seed(self.rng)
        lanes = np.arange(self.n, dtype=np.int64) if mask is None else np.flatnonzero(mask).astype(np.int64)
        g, o = self.game, self.opponents
        for agent in o.agents.values():
            agent.reset()
        self.k.vec_reset(g.params, g.initial, lanes, self.states, self.learner, self.comp, self.done, self.pending,
                         self.restart, self.opening, self.ended, self.masks, self.flat, self.planes, self.rewards,
                         self.terminated, self.outcome, o.table, o.eps, o.cum, o.typed_records, self.cfg, self.moves,
                         self.buf, self.child, self.log, self.count, self.err, self._seed())
        self._check()
        self._python_replies()
        self.started = True

    def actions(self, actions: Any) -> np.ndarray:
        """The actions as a contiguous int64 vector, or the error naming the first bad lane."""
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.shape != (self.n,):
            if a.ndim == 2 and a.shape[1] == 1 and a.shape[0] == self.n:
                a = a[:, 0]
            else:
                raise VectorEnvError(f"actions must have shape ({self.n},), one per lane; got shape {a.shape}")
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.array_equal(a, np.floor(a)) and np.isfinite(a).all():
                a = a.astype(np.int64)
            else:
                bad = int(np.flatnonzero(a != np.floor(a))[0]) if a.dtype.kind == "f" else 0
                raise VectorEnvError(f"actions must be integers; got dtype {a.dtype} (lane {bad}: {a[bad]!r})")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            a = np.ascontiguousarray(a, dtype=np.int64)
        out = (a < 0) | (a >= self.num_actions)
        if out.any():
            lane = int(np.flatnonzero(out)[0])
            raise VectorEnvError(f"lane {lane}: action {int(a[lane])} is out of range: "
                                 f"0 to {self.num_actions - 1} is allowed")
        return a

    def step(self, actions: Any) -> None:
        """Every lane's learner action, the opponents' replies, the rewards and restarts."""
        if not self.started:
            raise VectorEnvError("step() before reset(): call reset() first")
        a = self.actions(actions)
        g, o = self.game, self.opponents
        self.episode_seat[:] = self.learner  # what a lane that finishes in this step played
        self.episode_comp[:] = self.comp
        self.k.vec_step(g.params, g.initial, a, self.states, self.learner, self.comp, self.done, self.pending,
                        self.restart, self.opening, self.ended, self.masks, self.flat, self.planes, self.final_flat,
                        self.final_planes, self.rewards, self.terminated, self.outcome, o.table, o.eps, o.cum,
                        o.typed_records, self.cfg, self.penalty, self.moves, self.buf, self.child, self.log,
                        self.count, self.err, self._seed())
        self._check()
        self._python_replies()

    # ---- what the APIs return -----------------------------------------------------------------
    def observations(self) -> Any:
        """Every lane's current observation (a new array, or a dict of new arrays)."""
        if self.obs_format == "flat":
            return self.flat.copy()
        return {"observation": self.planes.reshape((self.n, *self.game.observation_shape)).copy(),
                "action_mask": self.masks.copy()}

    def final_observation(self, i: int) -> Any:
        """Lane i's final observation of the episode that ended this step (same-step mode)."""
        if self.obs_format == "flat":
            return self.final_flat[i].copy()
        row = self.final_planes[i]
        return {"observation": row[: self.n_obs].reshape(self.game.observation_shape).copy(),
                "action_mask": row[self.n_obs:].copy()}

    def opponent_moves(self) -> list[list[int]]:
        """Per lane, the opponent's moves in the last step or reset, in order; -1 marks where a
        new episode began (tests replay them in the single-agent env)."""
        return [self.log[i, : min(int(self.count[i]), _LOG)].tolist() for i in range(self.n)]


class ZerosumVectorEnv(VectorEnv):
    """A Gymnasium 1.x ``VectorEnv`` over one zerosum game, the opponent inside (see the module)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, lanes: Lanes) -> None:
        self.lanes = lanes
        """The lanes' arrays and compiled calls."""
        g = lanes.game
        self.game = g
        """The game every lane plays."""
        self.num_envs = lanes.n
        mode = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
                "disabled": AutoresetMode.DISABLED}[lanes.mode]
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.render_mode = None
        if lanes.obs_format == "flat":
            self.single_observation_space = spaces.Box(0.0, 1.0, shape=(lanes.n_obs + g.num_actions,),
                                                       dtype=np.float32)
        else:
            self.single_observation_space = spaces.Dict({
                "observation": spaces.Box(0, 1, shape=g.observation_shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, shape=(g.num_actions,), dtype=np.int8)})
        self.single_action_space = spaces.Discrete(g.num_actions)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, lanes.n)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, lanes.n)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a game in every lane (``options={"reset_mask": mask}``: in those lanes only)."""
        mask = None
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise VectorEnvError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},); "
                                     f"got {mask.dtype} {mask.shape}")
        self.lanes.reset(seed, mask)
        return self.lanes.observations(), {"seat": self.lanes.learner.copy()}

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
                info["illegal_action"] = np.where(illegal, actions, 0).astype(np.int64)
                info["_illegal_action"] = illegal
            if lanes.mode == "same_step":
                final = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(ended).tolist():
                    final[i] = lanes.final_observation(i)
                info["final_obs"], info["_final_obs"] = final, ended.copy()
                info["final_info"] = {"outcome": outcome, "_outcome": ended.copy(),
                                      "seat": lanes.episode_seat.copy(), "_seat": ended.copy()}
                info["_final_info"] = ended.copy()
        info["seat"] = lanes.learner.copy()
        terminated = lanes.terminated.copy()
        return (lanes.observations(), lanes.rewards.copy(),
                terminated, np.zeros(self.num_envs, np.bool_), info)

    def action_masks(self) -> np.ndarray:
        """Every lane's legal actions (bool, (num_envs, num_actions)); all False where a lane finished."""
        return self.lanes.masks.astype(bool)

    def opponent_moves(self) -> list[list[int]]:
        """Per lane, the opponent's moves in the last step (see :meth:`Lanes.opponent_moves`)."""
        return self.lanes.opponent_moves()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the lanes live in this process."""


def make_vec(env_id: str | Game, num_envs: int = 8, opponent: Any = "random", *, learner_seat: int | str = "random",
             seed: int | None = None, autoreset_mode: Any = "next_step", api: str = "gymnasium",
             opponent_weights: Sequence[float] | None = None, obs_format: str = "flat", illegal: str = "penalty",
             illegal_penalty: float = -1.0, **variant: Any) -> Any:
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
    mode = _autoreset(autoreset_mode)
    if api == "sb3":
        if mode != "same_step" and autoreset_mode != "next_step":
            raise VectorEnvError(f"autoreset_mode={autoreset_mode!r} with api='sb3': SB3's VecEnv resets in the "
                                 "same step (infos[i]['terminal_observation']); leave autoreset_mode unset")
        from zerosum.envs.vector_sb3 import ZerosumSB3VecEnv

        lanes = Lanes(game, num_envs, opponent, opponent_weights=opponent_weights, learner_seat=learner_seat,
                      autoreset_mode="same_step", obs_format=obs_format, illegal=illegal,
                      illegal_penalty=illegal_penalty)
        sb3 = ZerosumSB3VecEnv(lanes)
        if seed is not None:
            sb3.seed(seed)
        return sb3
    lanes = Lanes(game, num_envs, opponent, opponent_weights=opponent_weights, learner_seat=learner_seat,
                  autoreset_mode=mode, obs_format=obs_format, illegal=illegal, illegal_penalty=illegal_penalty)
    env = ZerosumVectorEnv(lanes)
    if seed is not None:
        lanes.rng = np.random.default_rng(int(seed))
        lanes.opponents.seed(lanes.rng)
    return env


__all__ = ["AUTORESET_MODES", "ILLEGAL_RULES", "LEARNER_SEATS", "OUTCOMES", "Lanes", "Opponents", "VectorEnvError",
           "ZerosumVectorEnv", "make_vec", "vector_kernels"]
