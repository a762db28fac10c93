"""A zerosum game as a single-agent gymnasium env: the learner's seat, the opponent replying inside.

>>> from zerosum.training.single_agent import SingleAgentEnv
>>> env = SingleAgentEnv("tictactoe", opponent="random", seat="alternate")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))

Every observation and every reward is the learner's: the opponent (any Agent, or an
:class:`~zerosum.training.opponents.OpponentSource` that picks one per episode: a
curriculum, a self-play pool) moves inside ``reset()`` (when the learner is not first)
and inside ``step()`` until the learner is to move again or the game is over. The reward
is the learner's return at the end (+1, 0, -1; no shaping) and 0 before. PettingZoo's
own SB3 self-play tutorial trains one network on both sides' turns and never shows the
loser its -1 (PettingZoo issue #1147); here that cannot happen.

**Observation.** The PettingZoo env's observation for the learner's seat, built with
``game.observation(state, learner)`` and ``game.legal_mask(state)`` exactly as
:class:`zerosum.envs.ZerosumEnv` builds it (a test checks it move by move). With
``obs_format="flat"`` (default: MaskablePPO's plain ``MlpPolicy`` handles a flat Box
fastest) it is one ``float32`` vector, the planes flattened then the mask; with
``obs_format="dict"`` it is the dict itself (``MultiInputPolicy``). At the end of an
episode the mask is all zeros, as PettingZoo's for a finished agent.

**Actions.** ``Discrete(num_actions)``; ``action_masks()`` gives the legal ones for
sb3-contrib's MaskablePPO. An illegal action (PPO or DQN without masks) ends the episode
with ``illegal_penalty`` (default -1, the same as PettingZoo's safe env) and
``info["illegal_action"]``.

**Seat.** ``0`` or ``1`` (fixed), ``"alternate"`` (switches every episode, starting from
``first_seat``; ``reset(seed=...)`` restarts the alternation) or ``"random"`` (drawn per
episode from the env's seeded generator).

**Opponents.** A spec string is built into a new agent every episode
(``fresh_opponents=True``), so the opponent carries nothing from one game to the next:
under a node or time budget an alpha-beta agent reused across games reads its
transposition table from earlier games and searches deeper than a fresh one would.
``fresh_opponents=False`` keeps one instance per spec: under a depth budget a reused
alpha-beta agent (and MCTS, minimax, random) plays exactly the games fresh ones play
with the same seeds (tests/training/test_single_agent.py), only cheaper (its table
answers the openings of earlier games). Agent objects are used as given, reseeded from
the env's generator before each move.

**Openings.** ``random_opening=p`` starts an episode, with probability ``p``, by one
uniformly random ply for whoever is to move (the learner's seat included), as
:func:`zerosum.evaluate` does with ``opening_plies=1``: the learner then also meets the
positions a fixed opponent never leads to (default 0: always the empty board).

**Symmetries.** ``symmetry=True`` (tic-tac-toe, Connect Four, Pentago: see
:mod:`zerosum.training.symmetry`) draws one of the board's symmetries per episode from the
env's generator and shows the learner the board and the mask under it; the learner's
action is mapped back before it is played. The game, the opponent and the reward are
untouched; the learner meets every position in all its orientations (8 in Pentago).

``reset(seed=s)`` reseeds the seat choice and the opponent's generator, so a seeded run
replays exactly. The episode's end ``info`` says ``outcome`` (win/draw/loss/illegal),
``seat`` and ``opponent``.
"""

from __future__ import annotations

from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from zerosum.agents.base import Agent
from zerosum.agents.learned import OBS_FORMATS, policy_input
from zerosum.games import Game, make_game
from zerosum.games.kit import ONGOING, IllegalActionError, State, ZerosumError, moves_buffer

from zerosum.games.registry import ENVS, env_game, env_name
from zerosum.training.opponents import OpponentSource, as_source
from zerosum.envs.symmetry import board_symmetries

SEATS = (0, 1, "alternate", "random")
"""The learner's seat: 0, 1, alternating by episode, or random."""


class EpisodeOverError(ZerosumError, RuntimeError):
    """step() was called after the episode ended (or before the first reset)."""


def resolve_game(game: str | Game, variant: dict[str, Any] | None = None) -> Game:
    """A Game from a Game, a game name (``tictactoe``) or an env name (``tictactoe_v0``)."""
    if isinstance(game, Game):
        if variant:
            raise ValueError("give the variant either in the Game or as variant=..., not both")
        return game
    name = env_game(game) if game in ENVS else game
    return make_game(name, **(variant or {}))


class SingleAgentEnv(gym.Env):
    """One seat of a two-player zerosum game as a gymnasium env; the opponent replies inside."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}
    """gymnasium metadata: the render modes and fps."""

    def __init__(self, game: str | Game = "tictactoe", opponent: str | Agent | OpponentSource = "random", *,
                 seat: int | str = "alternate", first_seat: int = 0, obs_format: str = "flat",
                 illegal_penalty: float = -1.0, variant: dict[str, Any] | None = None,
                 fresh_opponents: bool = True, random_opening: float = 0.0, symmetry: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if seat not in SEATS or isinstance(seat, bool):
            raise ValueError(f"seat={seat!r} is not allowed: one of {SEATS}")
        if first_seat not in (0, 1):
            raise ValueError(f"first_seat={first_seat!r} is not allowed: 0 or 1")
        if obs_format not in OBS_FORMATS:
            raise ValueError(f"obs_format={obs_format!r} is not allowed: one of {OBS_FORMATS}")
        if isinstance(random_opening, bool) or not 0.0 <= float(random_opening) <= 1.0:
            raise ValueError(f"random_opening={random_opening!r} is not allowed: a probability in [0, 1]")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not allowed: "
                             f"one of {self.metadata['render_modes']} or None")
        self.game = resolve_game(game, variant)
        """The game (and variant) played."""
        self.symmetries = board_symmetries(self.game) if symmetry else None
        """The board's symmetries when ``symmetry=True`` (one is drawn per episode), else None."""
        self.symmetry = 0
        """This episode's (0: the identity)"""
        self.env_name = env_name(self.game.name)
        """The PettingZoo env of the game (recorded in checkpoints)."""
        self.source = as_source(opponent)
        """Where each episode's opponent comes from."""
        self.seat_mode, self.first_seat = seat, first_seat
        self.obs_format, self.illegal_penalty = obs_format, float(illegal_penalty)
        self.render_mode = render_mode
        """``"ansi"``, ``"rgb_array"`` or None."""
        g = self.game
        n_obs = int(np.prod(g.observation_shape))
        if obs_format == "flat":
            self.observation_space = spaces.Box(0.0, 1.0, shape=(n_obs + g.num_actions,), dtype=np.float32)
            """``flat``: the observation planes and the action mask in one Box; ``dict``: both as entries of a Dict."""
        else:
            self.observation_space = spaces.Dict({
                "observation": spaces.Box(0, 1, shape=g.observation_shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, shape=(g.num_actions,), dtype=np.int8),
            })
        self.action_space = spaces.Discrete(g.num_actions)
        """``Discrete(num_actions)``."""
        self._moves = moves_buffer(g.max_moves, g.num_actions)  # room for a game that lists too many
        self.fresh_opponents = bool(fresh_opponents)
        """A new opponent instance every episode (True), or one kept per spec."""
        self.random_opening = float(random_opening)
        """The chance that an episode starts with one random ply."""
        self._agents: dict[str, Agent] = {}  # this env's own opponent instances, by spec (when reused)
        self._opp_rng = np.random.default_rng()
        self._episode = 0
        self.state: np.ndarray | None = None
        """The current state (None before ``reset``)."""
        self.learner = first_seat if seat == "alternate" else (seat if seat in (0, 1) else 0)
        """The learner's seat in the current episode."""
        self.opponent: Agent | None = None
        """The current episode's opponent."""
        self.opponent_key = ""
        """The current opponent's name, as its source records results."""
        self._mask = np.zeros(g.num_actions, dtype=np.int8)
        self._done = True

    # ---- helpers ------------------------------------------------------------------------
    def _legal_mask(self) -> np.ndarray:
        g = self.game
        mask = np.zeros(g.num_actions, dtype=np.int8)
        n = g.kernels.legal(g.params, self.state, self._moves)
        if n > g.max_moves:
            raise g.moves_error("legal", n, "SingleAgentEnv")
        mask[self._moves[:n]] = 1
        return mask

    def _obs(self) -> Any:
        state = cast(State, self.state)  # reset() set it
        planes = self.game.observation(state, self.learner)
        if self.symmetries is None:
            return policy_input(planes, self._mask, self.obs_format)
        return policy_input(self.symmetries.observation(planes, self.symmetry),
                            self.symmetries.mask(self._mask, self.symmetry), self.obs_format)

    def _agent(self, choice: str | Agent) -> Agent:
        if isinstance(choice, Agent):
            return choice
        from zerosum.agents import make_agent

        if not self.fresh_opponents:
            agent = self._agents.get(choice)
            if agent is not None:
                return agent
        agent = make_agent(choice, rng=self._opp_rng)
        agent.prepare(self.game)
        if not self.fresh_opponents:
            self._agents[choice] = agent
        return agent

    def _opponent_moves(self) -> None:
        """Let the opponent play until the learner is to move or the game is over."""
        g, opp = self.game, cast(Agent, self.opponent)  # reset() set it
        k = g.kernels
        while k.status(g.params, self.state) == ONGOING and k.player(g.params, self.state) != self.learner:
            opp.seed(self._opp_rng)  # shared agents (self-play snapshots) draw from this env's generator
            state = cast(State, self.state)
            a = opp.act(g, state)
            try:
                self.state = g.apply(state, a)
            except IllegalActionError as exc:
                raise IllegalActionError(f"opponent {opp.name} played an illegal action: {exc}") from None

    def _finish(self, reward: float, outcome: str) -> dict[str, Any]:
        self._done = True
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self.source.record(self.opponent_key, reward, self.learner)
        return {"outcome": outcome, "seat": self.learner, "opponent": self.opponent_key}

    # ---- gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a game; the opponent moves first when the learner's seat is not first to move."""
        super().reset(seed=seed)
        if seed is not None:
            self._episode = 0
            self._opp_rng = np.random.default_rng(int(self.np_random.integers(2**63)))
        if self.seat_mode == "alternate":
            self.learner = (self.first_seat + self._episode) % 2
        elif self.seat_mode == "random":
            self.learner = int(self.np_random.integers(2))
        self._episode += 1
        choice = self.source.sample(self._opp_rng)
        self.opponent_key = choice if isinstance(choice, str) else choice.name
        self.opponent = self._agent(choice)
        self.opponent.reset()
        self.state = self.game.initial_state()
        if self.random_opening and self.np_random.random() < self.random_opening:
            self._mask = self._legal_mask()
            self.state = self.game.apply(self.state, int(self.np_random.choice(np.flatnonzero(self._mask))))
        self._opponent_moves()
        if self.symmetries is not None:
            self.symmetry = int(self.np_random.integers(len(self.symmetries)))
        if self.game.is_terminal(self.state):
            raise ValueError(f"the game ended before the learner's first move (seat {self.learner}); "
                             f"{self.game!r} cannot be learned from this seat")
        self._done = False
        self._mask = self._legal_mask()
        return self._obs(), {"seat": self.learner, "opponent": self.opponent_key}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponent's replies; the reward is the learner's."""
        if self._done:
            raise EpisodeOverError("step() before reset() or after the episode ended: call reset()")
        g = self.game
        a = int(action)
        if self.symmetries is not None and 0 <= a < g.num_actions:
            a = int(self.symmetries.inverse_actions[self.symmetry, a])  # the action on the real board
        if not (0 <= a < g.num_actions) or not self._mask[a]:
            info = self._finish(self.illegal_penalty, "illegal")
            info["illegal_action"] = int(action)
            return self._obs(), self.illegal_penalty, True, False, info
        child = np.empty_like(self.state)
        g.kernels.apply(g.params, self.state, a, child)
        self.state = child
        self._opponent_moves()
        status = g.kernels.status(g.params, self.state)
        if status == ONGOING:
            self._mask = self._legal_mask()
            return self._obs(), 0.0, False, False, {}
        reward = g.returns(self.state)[self.learner]
        info = self._finish(reward, "win" if reward > 0 else "loss" if reward < 0 else "draw")
        return self._obs(), reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (all False once the episode is over), as the learner
        sees them (under this episode's symmetry, with ``symmetry=True``)."""
        if self.symmetries is not None:
            return self.symmetries.mask(self._mask, self.symmetry).astype(bool)
        return self._mask.astype(bool)

    def render(self) -> str | np.ndarray | None:
        """The current position: text (``ansi``), an RGB array (``rgb_array``), or None."""
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.game.render(self.state)
        from zerosum.envs import env_module

        image: np.ndarray = env_module(cast(str, self.env_name)).draw(self.game, self.state)
        return image


__all__ = ["SEATS", "EpisodeOverError", "SingleAgentEnv", "resolve_game"]
