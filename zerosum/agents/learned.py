"""Learned agents: a trained policy (stable-baselines3 checkpoint) behind the Agent interface.

>>> from zerosum.agents import make_agent
>>> agent = make_agent("ppo(path=runs/ttt/model.zip)")        # doctest: +SKIP
>>> agent.act(game, state)                                      # doctest: +SKIP

A checkpoint is the SB3 ``.zip`` plus a sidecar JSON of the same stem (``model.zip`` and
``model.json``) holding the metadata: game, variant, env and env version, observation
shape and format, action count, algorithm, training steps, opponents, seed and the
zerosum version. The agent refuses (with :class:`CheckpointError`) a missing or corrupt
checkpoint and a game whose name, variant, env version, observation shape or action count
differ from the checkpoint's.

The policy sees exactly what the PettingZoo env shows the player to move: the
``observation`` planes from its side and the ``action_mask``; the agent builds them with
``game.observation(state, player)`` and ``game.legal_mask(state)``. Two input formats
(:data:`OBS_FORMATS`):

* ``flat`` (the training default): ``float32`` vector, the observation planes flattened
  (C order) followed by the action mask, which is what SB3's ``MultiInputPolicy`` would
  build from the dict anyway, without its per-key overhead;
* ``dict``: the PettingZoo dict itself (``{"observation", "action_mask"}``, int8).

Torch and stable-baselines3 are imported only when a checkpoint is loaded or a policy
acts, so ``import zerosum.agents`` stays light; without them the error names
``pip install 'zerosum[train]'``.
"""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.agents.base import Agent
from zerosum.games.base import Action, Game, State, ZerosumError

FORMAT = "zerosum-checkpoint"
FORMAT_VERSION = 1
OBS_FORMATS = ("flat", "dict")
ALGOS = ("maskable_ppo", "ppo", "maskable_dqn", "dqn")
Q_ALGOS = ("maskable_dqn", "dqn")  # value-based: the network gives Q-values, play is greedy
TRAIN_EXTRA = "pip install 'zerosum[train]'"


class CheckpointError(ZerosumError, ValueError):
    """A checkpoint that is missing, corrupt, or made for another game, variant or env version."""


class MissingExtraError(ZerosumError, ImportError):
    """An optional dependency (torch, stable-baselines3, sb3-contrib) is not installed."""


def require_train_extra() -> None:
    """Import torch, stable-baselines3 and sb3-contrib, or say which pip install fixes it."""
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError(
            f"learned agents and training need torch, stable-baselines3 and sb3-contrib ({exc}); "
            f"install them with: {TRAIN_EXTRA}"
        ) from None


# ---- the policy's input --------------------------------------------------------------
def policy_input(observation: np.ndarray, mask: np.ndarray, obs_format: str) -> Any:
    """The policy's input from the PettingZoo observation planes and action mask."""
    if obs_format == "flat":
        n = observation.size
        out = np.empty(n + mask.size, dtype=np.float32)
        out[:n] = observation.reshape(-1)
        out[n:] = mask
        return out
    if obs_format == "dict":
        return {"observation": observation, "action_mask": mask}
    raise ValueError(f"obs_format={obs_format!r} is not allowed: one of {OBS_FORMATS}")


def env_name_for(game_name: str) -> str | None:
    """The PettingZoo env name serving ``game_name`` (e.g. ``tictactoe_v0``), None if none."""
    from zerosum.envs import ENVS

    names = sorted(n for n, (_, g) in ENVS.items() if g == game_name)
    return names[-1] if names else None


def jsonable_variant(variant: Any) -> dict[str, Any]:
    """A game's variant as plain JSON values (tuples become lists), for storing and comparing."""
    return json.loads(json.dumps(dict(variant), default=lambda v: v.tolist() if hasattr(v, "tolist") else list(v)))


# ---- checkpoint files ----------------------------------------------------------------
def checkpoint_paths(path: str | Path) -> tuple[Path, Path]:
    """The model .zip and its sidecar .json for a path (a .zip, a stem, or a run directory)."""
    p = Path(path)
    if p.is_dir():
        p = p / "model.zip"
    if p.suffix == ".json":
        p = p.with_suffix(".zip")
    elif p.suffix != ".zip":
        p = p.with_name(p.name + ".zip")
    return p, p.with_suffix(".json")


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The checkpoint's metadata; CheckpointError if either file is missing or unreadable."""
    model, sidecar = checkpoint_paths(path)
    if not model.is_file():
        raise CheckpointError(f"no checkpoint at {str(path)!r}: {model} does not exist "
                              "(train one with `zerosum train ... --out DIR`)")
    if not sidecar.is_file():
        raise CheckpointError(f"checkpoint {model} has no metadata file {sidecar.name} next to it; "
                              "zerosum checkpoints are the .zip plus a .json of the same name")
    try:
        meta = json.loads(sidecar.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"corrupt checkpoint metadata {sidecar}: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{sidecar} is not zerosum checkpoint metadata (no \"format\": \"{FORMAT}\")")
    if meta.get("format_version", 0) > FORMAT_VERSION:
        raise CheckpointError(f"{sidecar} has format version {meta.get('format_version')}; this zerosum "
                              f"reads up to {FORMAT_VERSION}: upgrade zerosum")
    missing = [k for k in ("game", "variant", "env", "observation_shape", "num_actions", "algo", "obs_format")
               if k not in meta]
    if missing:
        raise CheckpointError(f"corrupt checkpoint metadata {sidecar}: missing {', '.join(missing)}")
    if meta["algo"] not in ALGOS:
        raise CheckpointError(f"{sidecar}: algo {meta['algo']!r} is not one of {ALGOS}")
    if not zipfile.is_zipfile(model):
        raise CheckpointError(f"corrupt checkpoint {model}: not a zip archive (an SB3 model is a .zip)")
    return meta


def check_compatible(meta: dict[str, Any], game: Game, where: str = "checkpoint") -> None:
    """Raise CheckpointError unless the checkpoint was trained on this game, variant and env version."""
    problems = []
    if meta["game"] != game.name:
        problems.append(f"game {meta['game']!r}, not {game.name!r}")
    else:
        variant = jsonable_variant(game.variant)
        if meta["variant"] != variant:
            problems.append(f"variant {meta['variant']}, not {variant}")
        env = env_name_for(game.name)
        if env is not None and meta["env"] is not None and meta["env"] != env:
            problems.append(f"env {meta['env']}, but this zerosum serves {game.name} as {env} "
                            "(the observations may differ: retrain)")
        if tuple(meta["observation_shape"]) != tuple(game.observation_shape):
            problems.append(f"observation shape {tuple(meta['observation_shape'])}, not {tuple(game.observation_shape)}")
        if meta["num_actions"] != game.num_actions:
            problems.append(f"{meta['num_actions']} actions, not {game.num_actions}")
    if problems:
        raise CheckpointError(f"{where} was trained for {meta['game']} {meta['variant']} and cannot play "
                              f"{game.name} {jsonable_variant(game.variant)}: " + "; ".join(problems))


def algo_class(algo: str) -> Any:
    """The SB3 class for an algorithm name (imports torch and SB3)."""
    require_train_extra()
    if algo == "maskable_ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    if algo == "ppo":
        from stable_baselines3 import PPO

        return PPO
    if algo == "dqn":
        from stable_baselines3 import DQN

        return DQN
    if algo == "maskable_dqn":
        from zerosum.training.maskable_dqn import MaskableDQN  # the one class training defines

        return MaskableDQN
    raise ValueError(f"algo={algo!r} is not allowed: one of {ALGOS}")


def load_checkpoint(path: str | Path, device: str = "cpu") -> tuple[Any, dict[str, Any]]:
    """The SB3 model and its metadata; CheckpointError for a missing or corrupt checkpoint."""
    meta = read_metadata(path)
    model_path, _ = checkpoint_paths(path)
    cls = algo_class(meta["algo"])
    # schedules are pickled closures; playing needs none of them
    custom = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0,
              "exploration_schedule": lambda _: 0.0}
    try:
        model = cls.load(str(model_path), device=device, custom_objects=custom)
    except Exception as exc:  # SB3 raises many kinds for a damaged archive
        raise CheckpointError(f"corrupt checkpoint {model_path}: cannot load it as {meta['algo']} "
                              f"({type(exc).__name__}: {exc})") from None
    return model, meta


# ---- agents --------------------------------------------------------------------------
class PolicyAgent(Agent):
    """Plays an SB3 policy (actor-critic or Q-network) held in memory.

    ``masked`` restricts the choice to legal actions (a policy trained without masks may
    otherwise pick an illegal one); ``deterministic`` takes the best action, otherwise one
    is sampled from the policy's distribution with this agent's rng (Q-networks are always
    greedy).
    """

    name = "policy"

    def __init__(self, policy: Any, *, algo: str, obs_format: str = "flat", deterministic: bool = True,
                 masked: bool = True, rng=None, name: str | None = None) -> None:
        super().__init__(rng)
        if obs_format not in OBS_FORMATS:
            raise ValueError(f"obs_format={obs_format!r} is not allowed: one of {OBS_FORMATS}")
        self.policy, self.algo, self.obs_format = policy, algo, obs_format
        self.deterministic, self.masked = bool(deterministic), bool(masked)
        if name:
            self.name = name

    def spawn(self, rng) -> "PolicyAgent":
        """A copy sharing the (read-only) network, with its own generator."""
        clone = copy.copy(self)
        clone.reset()
        clone.seed(rng)
        return clone

    def scores(self, game: Game, state: State) -> tuple[np.ndarray, np.ndarray]:
        """The policy's logits (or Q-values) for the player to move, and the legal mask."""
        import torch

        player = game.current_player(state)
        mask = game.legal_mask(state)
        x = policy_input(game.observation(state, player), mask, self.obs_format)
        with torch.no_grad():
            if self.obs_format == "dict":
                t = {k: torch.as_tensor(v[None]) for k, v in x.items()}
            else:
                t = torch.as_tensor(x[None])
            if self.algo in Q_ALGOS:
                out = self.policy.q_net(t)
            else:
                out = self.policy.get_distribution(t).distribution.logits
        return out[0].numpy().astype(np.float64), mask

    def act(self, game: Game, state: State) -> Action:
        logits, mask = self.scores(game, state)
        if self.masked:
            if not mask.any():
                raise ValueError("no legal action: the game is over")
            logits[mask == 0] = -np.inf
        if self.deterministic or self.algo in Q_ALGOS:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(len(p), p=p))


class LearnedAgent(PolicyAgent):
    """A trained checkpoint (``path`` to the .zip, its stem or its run directory) as an agent."""

    def __init__(self, path: str, deterministic: bool = True, masked: bool = True, device: str = "cpu",
                 rng=None) -> None:
        if not isinstance(path, (str, Path)) or not str(path):
            raise CheckpointError(f"a learned agent needs path=<checkpoint .zip>; got {path!r}")
        self.path = str(path)
        model, meta = load_checkpoint(path, device=device)
        model.policy.set_training_mode(False)
        super().__init__(model.policy, algo=meta["algo"], obs_format=meta["obs_format"],
                         deterministic=deterministic, masked=masked, rng=rng)
        self.metadata = meta
        self.model = model
        self._checked: set[int] = set()
        self.name = f"{meta['algo']}({Path(self.path).name})"

    def prepare(self, game: Game) -> None:
        """Refuse a game, variant or env version the checkpoint was not trained for."""
        check_compatible(self.metadata, game, where=f"checkpoint {self.path}")
        self._checked.add(id(game))

    def act(self, game: Game, state: State) -> Action:
        if id(game) not in self._checked:
            self.prepare(game)
        return super().act(game, state)


def learned_agent(path: str | None = None, deterministic: bool = True, masked: bool = True,
                  device: str = "cpu", rng=None) -> LearnedAgent:
    """A trained checkpoint as an agent: ``ppo(path=runs/ttt/model.zip, deterministic=on)``."""
    if path is None:
        raise CheckpointError("a learned agent needs path=<checkpoint .zip>, e.g. ppo(path=runs/ttt/model.zip)")
    return LearnedAgent(path, deterministic=deterministic, masked=masked, device=device, rng=rng)


__all__ = [
    "ALGOS", "CheckpointError", "LearnedAgent", "MissingExtraError", "OBS_FORMATS", "PolicyAgent",
    "check_compatible", "checkpoint_paths", "env_name_for", "jsonable_variant", "learned_agent",
    "load_checkpoint", "policy_input", "read_metadata", "require_train_extra",
]
