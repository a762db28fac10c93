"""One PettingZoo AEC environment class that serves every zerosum game.

The rules live in the Game; this class only keeps the AEC bookkeeping (agents, rewards,
terminations, the turn) and asks the game who is to move after every action, so a game
that gives the same player two turns in a row (Nine Men's Morris removals) just works.

``safe=True`` (what each env module's ``env()`` returns) gives PettingZoo's standard
safety behaviour without its wrapper stack: an action outside the action space raises,
an in-range illegal action ends the game with -1 to the offender (the info says which
action and why), and using the env before ``reset()`` raises. ``safe=False``
(``raw_env()``) raises IllegalActionError for an illegal action instead.

When a game ends the turn passes to the other agent, as in PettingZoo's classic envs (after
a mate, the loser is selected first and ``last()`` gives it its -1). An observer
(:mod:`zerosum.envs.observers`) decides the observation's space and planes (the game's own
int8 planes by default), and ``agents`` the two names (``player_0``, ``player_1`` by default).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from zerosum.envs.drawing import text_image
from zerosum.envs.observers import Observer
from zerosum.games.kit import Game, IllegalActionError, State, ZerosumError, check_action

AGENTS = ("player_0", "player_1")
"""The PettingZoo agent names, in seat order."""
G = TypeVar("G", bound=Game)
Drawer = Callable[[G, State], np.ndarray]
"""A game's rgb_array drawing: ``draw(game, state)``, an HxWx3 uint8 image."""


class EnvOrderError(ZerosumError, RuntimeError):
    """The environment was used out of order (e.g. step before reset); a RuntimeError too."""


class ZerosumEnv(AECEnv, Generic[G]):  # type: ignore[misc]  # pettingzoo is untyped: AECEnv is Any
    """A zerosum Game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "zerosum",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game: G, *, name: str, draw: Drawer[G] | None = None, render_mode: str | None = None,
                 safe: bool = False, observer: Observer | None = None,
                 agents: tuple[str, str] = AGENTS) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not allowed: "
                             f"one of {self.metadata['render_modes']} or None")
        self.metadata = {**type(self).metadata, "name": name}
        """PettingZoo metadata: render modes, render fps, the env's name."""
        self.game = game
        """The game (rules and variant) the env plays."""
        self.render_mode = render_mode
        """``"ansi"``, ``"human"``, ``"rgb_array"`` or None."""
        self.safe = safe
        """True (``env()``): PettingZoo's safety behaviour, an in-range illegal action ends the game with -1 to the
        offender; False (``raw_env()``): it raises IllegalActionError."""
        self._draw = draw or text_image
        if len(agents) != 2 or len(set(agents)) != 2 or not all(isinstance(a, str) for a in agents):
            raise ValueError(f"agents are two different names, player 0's first; got {agents!r}")
        self.observer = observer or Observer()
        """What the env shows: the ``observation`` space and planes (the game's int8 planes by default)."""
        self.possible_agents = list(agents)
        """The two agents' names, player 0's first (``["player_0", "player_1"]`` by default)."""
        obs_space = spaces.Dict({
            "observation": self.observer.space(game),
            "action_mask": spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        """Each agent's observation space: a Dict of ``observation`` and ``action_mask``."""
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        """Each agent's action space: ``Discrete(num_actions)``."""
        self._zero_mask = np.zeros(game.num_actions, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self.state: State | None = None
        """The current state vector (None before ``reset``)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space: a Dict of ``observation`` (the board planes from its side) and
        ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s action space: ``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    # ---- AEC API ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. The rules are deterministic, so every reset gives the same start
        (``seed``, an int or None, is accepted for the API; seed the action spaces yourself to sample from them)."""
        if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"reset(seed={seed!r}): a seed is an int or None; got {type(seed).__name__}")
        self.state = self.game.initial_state()
        names = self.possible_agents
        self.agents = list(names)
        self.rewards = dict.fromkeys(names, 0.0)
        self._cumulative_rewards = dict.fromkeys(names, 0.0)
        self.terminations = dict.fromkeys(names, False)
        self.truncations = dict.fromkeys(names, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in names}
        self.num_moves = 0
        self._mask_cache: np.ndarray | None = None
        self.observer.reset(self.game, self.state)
        self.agent_selection = names[self.game.current_player(self.state)]
        if self.render_mode == "human":
            self.render()

    def _mask(self) -> np.ndarray:
        """The legal-action mask of the current position, computed once per position."""
        if self._mask_cache is None:
            self._mask_cache = self.game.legal_mask(cast(State, self.state))  # observe and step check reset()
        return self._mask_cache

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: ``observation`` (planes from its point of view, as the observer makes them) and
        ``action_mask`` (1 for each legal action when it is to move)."""
        if self.state is None:
            raise EnvOrderError("observe() before reset(): call env.reset() first")
        player = self.possible_agents.index(agent)
        obs = self.observer.observe(self.game, self.state, player)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask = self._mask().copy()
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (None for an agent whose game is over). An in-range illegal action
        ends the game with -1 to the mover under ``env()`` and raises IllegalActionError under ``raw_env()``."""
        if self.state is None:
            raise EnvOrderError("step() before reset(): call env.reset() first")
        if not self.agents:
            raise EnvOrderError("step() after every agent is done: call env.reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done; the only valid action is None, got {action!r}")
            self._was_dead_step(action)
            return
        a = check_action(action, self.game.num_actions)
        if not self._mask()[a]:
            why = self.game.illegal_reason(a, self.state)  # the rules' reason, as apply and zerosum play give it
            reason = (f"action {a} ({self.game.action_to_string(a, self.state)}) is not legal"
                      f"{': ' + why if why else ''}; legal: "
                      f"{self.game.describe_actions(np.flatnonzero(self._mask()), self.state)}")
            if not self.safe:
                raise IllegalActionError(reason)
            self._end_game({agent: -1.0, self._other(agent): 0.0})
            self.infos[agent] = {"illegal_action": a, "reason": reason}
            self.agent_selection = agent
            return
        self._cumulative_rewards[agent] = 0.0
        g = self.game
        child = g.apply_unchecked(self.state, a)  # the mask said it is legal
        self.state = child
        self._mask_cache = None
        self.num_moves += 1
        names = self.possible_agents
        self.observer.record(g, child, names.index(agent))
        if g.is_terminal(child):
            r0, r1 = g.returns(child)
            self._end_game({names[0]: r0, names[1]: r1})
            self.agent_selection = self._other(agent)  # PettingZoo's classic envs: the turn passes at the end too
        elif self.num_moves >= g.max_game_length:  # rules that never end the game: say so, do not run for ever
            raise g.length_error(f"{self.metadata.get('name', 'the environment')}'s step")
        else:
            self.agent_selection = names[g.current_player(child)]
        if self.render_mode == "human":
            self.render()

    def _other(self, agent: str) -> str:
        return self.possible_agents[1 - self.possible_agents.index(agent)]

    def _end_game(self, rewards: dict[str, float]) -> None:
        self.rewards = dict(rewards)
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._mask_cache = np.zeros(self.game.num_actions, dtype=np.int8)

    # ---- rendering --------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """The position: text (``ansi``), an RGB array (``rgb_array``), printed to the terminal (``human``, returns
        None), or None without a render mode."""
        if self.state is None:
            raise EnvOrderError("render() before reset(): call env.reset() first")
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self._draw(self.game, self.state)
        text = self.game.render(self.state)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        """Nothing to release (no window is ever opened)."""
