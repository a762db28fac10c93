"""The lanes of a vector env: their numpy arrays and the compiled calls over them, what both
vector APIs (:mod:`zerosum.envs.vector`, :mod:`zerosum.envs.vector_sb3`) step."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from zerosum.envs._vector_codes import CALL_RESET, CALL_RESUME, CALL_STEP
from zerosum.envs.symmetry import lane_tables
from zerosum.envs.vector_opponents import Opponents, VectorEnvError
from zerosum.games import Game
from zerosum.games.kit import IllegalActionError, moves_buffer
from zerosum.games.kit.specialize import specialize
from zerosum.search import compiled

VECTOR_TEMPLATE = Path(__file__).with_name("_vector_template.py")
"""The vector step's template (:mod:`zerosum.envs._vector_template`), specialised per game by :func:`vector_kernels`."""
AUTORESET_MODES = ("next_step", "same_step", "disabled")
"""The ``autoreset_mode`` names allowed (``gymnasium.vector.AutoresetMode`` is also taken); a mode's index
here is its code in the compiled step (``cfg[1]``)."""
LEARNER_SEATS = (0, 1, "random", "alternate")
"""The ``learner_seat`` values allowed: a fixed seat (0 or 1), ``"random"`` (drawn per lane and
episode) or ``"alternate"`` (each lane switches seat every episode)."""
ILLEGAL_RULES = ("penalty", "raise")
"""The ``illegal`` rules allowed for an in-range illegal learner action: ``"penalty"`` ends that lane's
episode with reward ``illegal_penalty``; ``"raise"`` raises IllegalActionError before any lane moves."""
_LOG = 16  # opponent moves logged per lane and step (tests replay them)


def vector_kernels(game: Game) -> ModuleType:
    """The compiled vector step for ``game``'s rules (the template specialised and cached)."""
    return specialize(VECTOR_TEMPLATE, game.kernels)


def autoreset_name(mode: Any) -> str:
    """The name of an autoreset mode given as a name (any case, ``-`` or ``_``) or a gymnasium
    ``AutoresetMode``; VectorEnvError for another."""
    if isinstance(mode, AutoresetMode):
        return {AutoresetMode.NEXT_STEP: "next_step", AutoresetMode.SAME_STEP: "same_step",
                AutoresetMode.DISABLED: "disabled"}[mode]
    if isinstance(mode, str) and mode.lower().replace("-", "_") in AUTORESET_MODES:
        return mode.lower().replace("-", "_")
    if isinstance(mode, str) and mode.lower() in ("nextstep", "samestep"):
        return {"nextstep": "next_step", "samestep": "same_step"}[mode.lower()]
    raise VectorEnvError(f"autoreset_mode={mode!r} is not allowed: one of {', '.join(AUTORESET_MODES)} "
                         "(or gymnasium.vector.AutoresetMode)")


def single_spaces(lanes: Lanes) -> tuple[spaces.Space[Any], spaces.Discrete]:
    """One lane's observation and action spaces (the vector envs' ``single_observation_space`` and
    ``single_action_space``): with ``obs_format="flat"`` a float32 Box ``(n_obs + num_actions,)`` in
    [0, 1] (the planes flattened, then the mask); with ``"dict"`` a Dict of ``observation`` (int8 Box
    ``observation_shape``) and ``action_mask`` (int8 Box ``(num_actions,)``); ``Discrete(num_actions)``."""
    g = lanes.game
    single: spaces.Space[Any]
    if lanes.obs_format == "flat":
        single = spaces.Box(0.0, 1.0, shape=(lanes.n_obs + g.num_actions,), dtype=np.float32)
    else:
        single = spaces.Dict({"observation": spaces.Box(0, 1, shape=g.observation_shape, dtype=np.int8),
                              "action_mask": spaces.Box(0, 1, shape=(g.num_actions,), dtype=np.int8)})
    return single, spaces.Discrete(g.num_actions)


class Lanes:
    """The lanes' arrays and the compiled calls over them: what both vector APIs step."""

    def _compiled(self, game: Game) -> tuple[ModuleType, np.ndarray]:
        """The vector step in the tier zerosum.search.compiled chooses. The generic tier's
        params carry one heuristic for every search record, so a mixture of alpha-beta
        opponents with different heuristics takes the step with the rules inlined."""
        heuristics = {id(h.fn): h for h in self.opponents.heuristics}
        if len(heuristics) != 1:
            return vector_kernels(game), game.params
        tiered = compiled.searcher(game, VECTOR_TEMPLATE, next(iter(heuristics.values())))
        if tiered.generic:
            for record in self.opponents.records:
                record.set_heuristic(tiered.heuristic)
        return tiered.module, tiered.params

    def __init__(self, game: Game, num_envs: int, opponent: Any = "random", *,
                 opponent_weights: Sequence[float] | None = None, learner_seat: int | str = "random",
                 autoreset_mode: Any = "next_step", obs_format: str = "flat", illegal: str = "penalty",
                 illegal_penalty: float = -1.0, random_opening: float = 0.0, symmetry: bool = False) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise VectorEnvError(f"num_envs={num_envs!r}: a positive int (the number of lanes) is required")
        if learner_seat not in LEARNER_SEATS or isinstance(learner_seat, bool):
            raise VectorEnvError(f"learner_seat={learner_seat!r} is not allowed: one of {LEARNER_SEATS}")
        if obs_format not in ("flat", "dict"):
            raise VectorEnvError(f"obs_format={obs_format!r} is not allowed: 'flat' or 'dict'")
        if illegal not in ILLEGAL_RULES:
            raise VectorEnvError(f"illegal={illegal!r} is not allowed: one of {ILLEGAL_RULES}")
        if isinstance(random_opening, bool) or not isinstance(random_opening, (int, float)) \
                or not 0.0 <= float(random_opening) <= 1.0:
            raise VectorEnvError(f"random_opening={random_opening!r} is not allowed: a probability in [0, 1]")
        if not isinstance(symmetry, bool):
            raise VectorEnvError(f"symmetry={symmetry!r} is not allowed: True or False")
        self.game, self.n, self.mode = game, int(num_envs), autoreset_name(autoreset_mode)
        self.seat_rule, self.obs_format, self.illegal = learner_seat, obs_format, illegal
        self.penalty = float(illegal_penalty)
        """The learner's reward for an in-range illegal action under ``illegal="penalty"`` (``illegal_penalty``)."""
        self.opponents = Opponents(game, opponent, opponent_weights)
        """The opponent mixture compiled for the step: its table, search records and Python agents."""
        self.k, self.params = self._compiled(game)
        """The compiled vector step for this game: its ``vec_reset``, ``vec_step`` and
        ``vec_resume`` run over these arrays, and take ``params`` (the game's own, or the
        generic tier's vector: :mod:`zerosum.search.compiled`)."""
        n, g = self.n, game
        self.n_obs = int(np.prod(g.observation_shape))
        """The size of one observation's planes flattened (the product of ``observation_shape``; the mask excluded)."""
        self.num_actions = g.num_actions
        """The game's number of actions: an action is an int in ``0 .. num_actions - 1``."""
        flat = obs_format == "flat"
        self.states = np.zeros((n, g.state_size), np.int64)
        """int64 ``(num_envs, state_size)``: each lane's position, one row a lane."""
        self.learner = np.arange(n, dtype=np.int64) % 2 if learner_seat == "alternate" else np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: the learner's seat (0 or 1) in each lane's current episode (set when an
        episode starts)."""
        if learner_seat == "alternate":
            self.learner ^= 1  # each episode switches: lane i's first episode is seat i % 2
        self.comp = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: each lane's opponent in its current episode, an index into the mixture
        (a row of ``opponents.table``, an entry of ``opponents.names``), drawn when an episode starts."""
        self.episode_seat = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: ``learner`` as it was before the last ``step()``: the seat a lane that
        finished in that step played (``learner`` already holds the next episode's after a same-step restart)."""
        self.episode_comp = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: ``comp`` as it was before the last ``step()``: the opponent a lane that
        finished in that step played (``comp`` already holds the next episode's after a same-step restart)."""
        self.done, self.pending, self.restart, self.opening, self.ended, self.terminated = (
            np.zeros(n, np.bool_) for _ in range(6))
        self.masks = np.zeros((n, g.num_actions), np.int8)
        """int8 ``(num_envs, num_actions)``: 1 at the learner's legal actions in each lane; all 0 where the
        lane finished."""
        self.flat = np.zeros((n, self.n_obs + g.num_actions) if flat else (1, 1), np.float32)
        """float32 ``(num_envs, n_obs + num_actions)`` with ``obs_format="flat"``: each lane's observation,
        the planes from the learner's side flattened, then the mask; ``(1, 1)`` and unused with ``"dict"``."""
        self.planes = np.zeros((1, 1) if flat else (n, self.n_obs), np.int8)
        """int8 ``(num_envs, n_obs)`` with ``obs_format="dict"``: each lane's observation planes from the
        learner's side, flattened (the mask is ``masks``); ``(1, 1)`` and unused with ``"flat"``."""
        self.final_flat = np.zeros_like(self.flat)
        """As ``flat``: in same-step mode, the final observation of each lane that finished and restarted in
        the last call (rows of other lanes are stale)."""
        self.final_planes = np.zeros((1, 1) if flat else (n, self.n_obs + g.num_actions), np.int8)
        """int8 ``(num_envs, n_obs + num_actions)`` with ``obs_format="dict"``: in same-step mode, the final
        planes then mask of each lane that finished and restarted in the last call; ``(1, 1)`` and
        unused with ``"flat"``."""
        self.rewards = np.zeros(n, np.float64)
        """float64 ``(num_envs,)``: the learner's reward in the last step: +1, 0 or -1 where the game ended,
        ``penalty`` after an illegal action, 0 otherwise."""
        self.outcome = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: how each lane's episode ended in the last call, from the learner's side:
        0 not ended, 1 win, 2 draw, 3 loss, 4 illegal action (``zerosum.envs.vector.OUTCOMES`` maps them)."""
        identity = (np.arange(self.n_obs, dtype=np.int64)[None], np.arange(g.num_actions, dtype=np.int64)[None])
        try:
            found = lane_tables(g) if symmetry else (*identity, identity[1])
        except ValueError as exc:
            raise VectorEnvError(str(exc)) from None
        # writable copies: numba types a read-only array apart, and a second type is a second compile
        tables = [np.array(t, np.int64, order="C") for t in found]
        self.sym_obs = tables[0]
        """int64 ``(symmetries, n_obs)``: under symmetry ``k`` the learner sees the planes
        ``planes.reshape(-1)[sym_obs[k]]`` (:func:`zerosum.envs.symmetry.lane_tables`; one identity
        row without ``symmetry=True``)."""
        self.sym_act = tables[1]
        """int64 ``(symmetries, num_actions)``: a legal action ``a`` shows as ``sym_act[k, a]`` in the mask."""
        self.sym_inv = tables[2]
        """int64 ``(symmetries, num_actions)``: the learner's action ``b`` is played as ``sym_inv[k, b]``."""
        self.sym = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: the board symmetry each lane's learner sees its current episode under
        (0, the identity, without ``symmetry=True``), drawn when an episode starts."""
        self.episode_sym = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: ``sym`` as it was before the last ``step()`` (see ``episode_seat``)."""
        self.opened = np.full(n, -1, np.int64)
        """int64 ``(num_envs,)``: the random opening ply of each lane's current episode, -1 where it has none."""
        self.random_opening = float(random_opening)
        """The chance that an episode starts with one uniformly random ply for whoever is to move."""
        self.cfg = np.zeros(6, np.int64)
        """int64 ``(6,)``: the settings the compiled step reads: the seat rule (0 or 1 fixed, 2 random,
        3 alternate), the autoreset mode's index in AUTORESET_MODES, 1 if ``illegal="raise"``, ``n_obs``,
        1 if observations are flat float32 rows, the number of board symmetries (1: none)."""
        seat_code = {"random": 2, "alternate": 3}.get(learner_seat, learner_seat)  # type: ignore[arg-type]
        self.cfg[:] = (seat_code, AUTORESET_MODES.index(self.mode), illegal == "raise", self.n_obs, flat,
                       self.sym_obs.shape[0])
        self.fcfg = np.array([self.penalty, self.random_opening], np.float64)
        """float64 ``(2,)``: the illegal action's penalty and the chance of a random opening ply."""
        self.moves = moves_buffer(g.max_moves, g.num_actions)
        """int64 ``(max_moves,)``: scratch for the compiled step's legal-move lists (with room past its
        end for a kernel that lists more: zerosum.games.kit.movebuf)."""
        self.buf = np.zeros(self.n_obs, np.int8)
        """int8 ``(n_obs,)``: scratch for one observation as the game writes it."""
        self.child = np.zeros(g.state_size, np.int64)
        """int64 ``(state_size,)``: scratch for a successor state."""
        self.log = np.zeros((n, _LOG), np.int64)
        """int64 ``(num_envs, 16)``: per lane, the opponent's moves in the last step or reset, in order,
        -1 where a new episode began; the first ``count[i]`` entries (at most 16) hold them."""
        self.count = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: per lane, how many entries of ``log`` hold the opponent's moves."""
        self.last_actions = np.zeros(n, np.int64)
        """int64 ``(num_envs,)``: the learner's actions of the last step, as the compiled step read them
        (whatever dtype or shape ``(num_envs, 1)`` they were given in)."""
        """int64 ``(num_envs,)``: how many entries each lane logged in the last call (``log`` keeps the first 16)."""
        self.err = np.zeros(4, np.int64)
        """int64 ``(4,)``: the last compiled call's error as code, lane, value, kernel (code 0 none, 1 an
        illegal learner action under ``"raise"``, 2 a finished lane stepped with autoreset disabled, 3 the
        game ended before the learner's first move, 4 a Python opponent's illegal move, 5 a moves kernel
        that listed ``value`` moves, more than max_moves); raised in Python."""
        self.rng = np.random.default_rng()
        """The generator everything random draws from: each compiled call's seed and the Python opponents'
        generators; ``reset(seed=...)`` replaces it."""
        self.started = False
        """Whether ``reset()`` has run: ``step()`` before it is an error."""
        self.no_values = np.zeros(0, np.int64)
        """The compiled step's ``values`` (or ``lanes``) where a call takes none."""

    # ---- the compiled calls ----------------------------------------------------------------
    def _call(self, call: int, lanes: np.ndarray, values: np.ndarray) -> None:
        """The compiled step's one entry (``vec_call`` of zerosum.envs._vector_template): a step
        (``values`` the actions), a reset of ``lanes``, or the Python opponents' ``values`` for ``lanes``."""
        o = self.opponents
        self.k.vec_call(call, self.params, self.game.initial, lanes, values, self.states, self.learner, self.comp,
                        self.done, self.pending, self.restart, self.opening, self.ended, self.masks, self.flat,
                        self.planes, self.final_flat, self.final_planes, self.rewards, self.terminated, self.outcome,
                        o.table, o.eps, o.cum, o.typed_records, self.cfg, self.fcfg, self.moves, self.buf,
                        self.child, self.log, self.count, self.err, self.sym, self.opened, self.sym_obs, self.sym_act,
                        self.sym_inv, self._seed())

    def _seed(self) -> int:
        return int(self.rng.integers(2**63))

    def _check(self) -> None:
        code, lane, value, kernel = (int(x) for x in self.err)
        if code == 0:
            return
        if code == 5:
            raise self.game.moves_error(kernel, value, f"the vector env's step, lane {lane}")
        if code == 1:
            legal = np.flatnonzero(self.masks[lane]).tolist()
            real = int(self.sym_inv[self.sym[lane], value])  # the move on the real board
            raise IllegalActionError(f"lane {lane}: action {value} "
                                     f"({self.game.action_to_string(real, self.states[lane])}) is not legal there "
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
        o = self.opponents
        while self.pending.any():
            lanes = np.flatnonzero(self.pending)
            replies = np.empty(lanes.shape[0], np.int64)
            for k in np.unique(self.comp[lanes]).tolist():
                sel = self.comp[lanes] == k
                replies[sel] = o.moves(k, self.states[lanes[sel]])
            self._call(CALL_RESUME, lanes, replies)
            self._check()

    def reset(self, seed: int | None, mask: np.ndarray | None = None) -> None:
        """Start a game in every lane (or in the lanes of ``mask``)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise VectorEnvError(f"seed={seed!r}: an int or None is allowed (one seed for all lanes)")
            self.rng = np.random.default_rng(int(seed))
            self.opponents.seed(self.rng)
        lanes = np.arange(self.n, dtype=np.int64) if mask is None else np.flatnonzero(mask).astype(np.int64)
        for agent in self.opponents.agents.values():
            agent.reset()
        self._call(CALL_RESET, lanes, self.no_values)
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
        if a.dtype.kind not in "iu" and not (a.dtype.kind == "f" and np.array_equal(a, np.floor(a))):
            bad = int(np.flatnonzero(a != np.floor(a))[0]) if a.dtype.kind == "f" else 0
            raise VectorEnvError(f"actions must be integers; got dtype {a.dtype} (lane {bad}: {a[bad]!r})")
        out = (a < 0) | (a >= self.num_actions)  # in the given dtype: a uint64 or a float would wrap in int64
        if out.any():
            lane = int(np.flatnonzero(out)[0])
            raise VectorEnvError(f"lane {lane}: action {a[lane].item()!r} is out of range: "
                                 f"0 to {self.num_actions - 1} is allowed")
        if a.dtype != np.int64 or not a.flags.c_contiguous or not a.flags.writeable:
            a = np.array(a, np.int64, order="C")  # one array type for the compiled step (read-only is another)
        return a

    def step(self, actions: Any) -> None:
        """Every lane's learner action, the opponents' replies, the rewards and restarts."""
        if not self.started:
            raise VectorEnvError("step() before reset(): call reset() first")
        a = self.last_actions = self.actions(actions)
        self.episode_seat[:] = self.learner  # what a lane that finishes in this step played
        self.episode_comp[:] = self.comp
        self.episode_sym[:] = self.sym
        self._call(CALL_STEP, self.no_values, a)
        self._check()
        self._python_replies()

    def set_opponent_weights(self, weights: Sequence[float]) -> None:
        """New weights for the opponent mixture: episodes that start from now on draw their
        opponent by them (a curriculum, or priorities that follow the learner's results)."""
        self.opponents.set_weights(weights)

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
