"""The lanes of a vector env: their numpy arrays and the compiled calls over them, what both
vector APIs (:mod:`zerosum.envs.vector`, :mod:`zerosum.envs.vector_sb3`) step."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from zerosum.envs.vector_opponents import Opponents, VectorEnvError
from zerosum.games import Game
from zerosum.games.kit import IllegalActionError
from zerosum.games.kit.specialize import specialize

VECTOR_TEMPLATE = Path(__file__).with_name("_vector_template.py")
AUTORESET_MODES = ("next_step", "same_step", "disabled")
LEARNER_SEATS = (0, 1, "random", "alternate")
ILLEGAL_RULES = ("penalty", "raise")
_LOG = 16  # opponent moves logged per lane and step (tests replay them)


def vector_kernels(game: Game) -> ModuleType:
    """The compiled vector step for ``game``'s rules (the template specialised and cached)."""
    return specialize(VECTOR_TEMPLATE, game.kernels)


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


__all__ = ["AUTORESET_MODES", "ILLEGAL_RULES", "LEARNER_SEATS", "Lanes", "vector_kernels"]
