"""The data an AlphaZero run passes around, and its files.

* :class:`Positions`: positions with their targets, the one type for them all: self-play
  games, ladder games, labels, a labels file, the replay buffer's content. What every worker
  job returns, the buffer takes and gives back, and a labels file holds; with what they cost
  (games, simulations, seconds) and, for a labels file, its metadata.
* :class:`ReplayBuffer`: the last ``capacity`` positions, which the learner samples.
* Labels files: one compressed ``.npz`` each (:func:`save_dataset`, :func:`load_dataset`): ``obs``
  int8 (the env's planes from the side to move), ``mask`` int8, ``policy`` float32, ``value``
  float32 and ``meta`` (a JSON string: game, variant, depth, temperature, value scale,
  positions). :func:`read_labels` also reads the replay buffer of a run's ``state.pt``.
* The jobs a self-play worker is sent (:class:`PlayJob`, :class:`LabelJob`, :class:`LadderJob`)
  and what it is made from (:class:`WorkerSpec`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.games import Game, make_game
from zerosum.games.kit import ZerosumError
from zerosum.training.alphazero.config import SelfPlayConfig
from zerosum.training.alphazero.rundir import atomic_bytes

DATASET_FORMAT = "zerosum-labels"
"""The ``format`` in a dataset's metadata."""


@dataclass
class Positions:
    """Positions with their targets (of self-play games, ladder games, labels or a labels file) and
    what they cost."""

    obs: np.ndarray
    """int8 [n, *observation_shape]: planes from the side to move."""
    mask: np.ndarray
    """int8 [n, num_actions]."""
    policy: np.ndarray
    """float32 [n, num_actions]: the policy target (the search's, or a label's)."""
    value: np.ndarray
    """float32 [n]: the game's result from the side to move (+1, 0, -1), or a label's value."""
    games: int = 0
    """Games finished."""
    moves: int = 0
    """Moves played (recorded or not)."""
    simulations: int = 0
    """Search simulations run."""
    seconds: float = 0.0
    """Wall time the worker spent."""
    outcomes: tuple[int, int, int] = (0, 0, 0)
    """Games won by the first player, drawn, won by the second (ladder games: won by the
    network, drawn, lost)."""
    kept: int = 0
    """Ladder games: positions whose label came from the labeller's cache, not a new search."""
    meta: dict[str, Any] = field(default_factory=dict)
    """A labels file's metadata: the game, variant, depth, temperature and value scale the labels
    were made with (what :func:`save_dataset` writes; empty for positions that are not a file's)."""

    def __len__(self) -> int:
        return int(self.value.shape[0])

    @classmethod
    def stack(cls, game: Game, obs: list[Any], masks: list[Any], policies: list[Any], values: list[Any],
              **costs: Any) -> Positions:
        """Positions of ``game`` from one list per target, an entry a position (empty lists: none),
        with their ``costs`` (``games=``, ``seconds=``, ...)."""
        shape, n = tuple(game.observation_shape), game.num_actions
        return cls(np.asarray(obs, np.int8).reshape((-1, *shape)), np.asarray(masks, np.int8).reshape(-1, n),
                   np.asarray(policies, np.float32).reshape(-1, n), np.asarray(values, np.float32).reshape(-1),
                   **costs)

    def head(self, n: int) -> Positions:
        """The first ``n`` positions (their targets and metadata; no costs)."""
        return Positions(self.obs[:n], self.mask[:n], self.policy[:n], self.value[:n], meta=dict(self.meta))

    def labelled(self, meta: dict[str, Any]) -> Positions:
        """The same positions with a labels file's metadata ``meta``."""
        return replace(self, meta=dict(meta))


def concat(parts: list[Positions]) -> Positions:
    """Several workers' :class:`Positions` as one (their seconds: the slowest's, as they ran at once)."""
    return Positions(np.concatenate([p.obs for p in parts]), np.concatenate([p.mask for p in parts]),
                     np.concatenate([p.policy for p in parts]), np.concatenate([p.value for p in parts]),
                     games=sum(p.games for p in parts), moves=sum(p.moves for p in parts),
                     simulations=sum(p.simulations for p in parts), seconds=max(p.seconds for p in parts),
                     outcomes=(sum(p.outcomes[0] for p in parts), sum(p.outcomes[1] for p in parts),
                               sum(p.outcomes[2] for p in parts)),
                     kept=sum(p.kept for p in parts))


class ReplayBuffer:
    """The last ``capacity`` positions (a ring of arrays)."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], num_actions: int) -> None:
        self.capacity = capacity
        """How many positions the buffer holds at most; older ones are overwritten."""
        self.obs = np.zeros((capacity, *obs_shape), np.int8)
        """The observation planes, ``[capacity, *obs_shape]`` int8."""
        self.mask = np.zeros((capacity, num_actions), np.int8)
        """The legal-move masks, ``[capacity, num_actions]`` int8 (1 legal)."""
        self.policy = np.zeros((capacity, num_actions), np.float32)
        """The policy targets, ``[capacity, num_actions]``."""
        self.value = np.zeros(capacity, np.float32)
        """The value targets (the result from the side to move, or a label's value), ``[capacity]``."""
        self.size = 0
        """How many rows are filled (grows to ``capacity``); :meth:`sample` draws from these."""
        self.next = 0
        """The row the next position goes to (the oldest once the ring is full)."""

    def add(self, g: Positions) -> None:
        """Append positions, overwriting the oldest."""
        n = len(g)
        if n >= self.capacity:
            sl = slice(n - self.capacity, n)
            self.obs[:], self.mask[:], self.policy[:], self.value[:] = g.obs[sl], g.mask[sl], g.policy[sl], g.value[sl]
            self.size, self.next = self.capacity, 0
            return
        idx = (self.next + np.arange(n)) % self.capacity
        self.obs[idx], self.mask[idx], self.policy[idx], self.value[idx] = g.obs, g.mask, g.policy, g.value
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)

    def rows(self, idx: np.ndarray) -> Positions:
        """The positions in rows ``idx``."""
        return Positions(self.obs[idx], self.mask[idx], self.policy[idx], self.value[idx])

    def sample(self, rng: np.random.Generator, n: int) -> Positions:
        """``n`` positions drawn uniformly (with replacement)."""
        return self.rows(rng.integers(0, self.size, n))

    def oldest_first(self) -> Positions:
        """The positions held, oldest first (a full ring starts at :attr:`next`)."""
        start = self.next % self.capacity if self.size and self.size == self.capacity else 0
        return self.rows((start + np.arange(self.size)) % max(self.capacity, 1))

    def state(self) -> dict[str, Any]:
        """The buffer as plain arrays (only the filled part)."""
        return {"obs": self.obs[: self.size].copy(), "mask": self.mask[: self.size].copy(),
                "policy": self.policy[: self.size].copy(), "value": self.value[: self.size].copy(),
                "next": self.next, "size": self.size}

    def restore(self, st: dict[str, Any]) -> None:
        """Undo :meth:`state`."""
        n = int(st["size"])
        self.obs[:n], self.mask[:n], self.policy[:n], self.value[:n] = st["obs"], st["mask"], st["policy"], st["value"]
        self.size, self.next = n, int(st["next"])


# ---- labels files ---------------------------------------------------------------------------
class DatasetError(ZerosumError, ValueError):
    """A labels file that is missing, unreadable, or for another game."""


def save_dataset(path: str | Path, data: Positions) -> Path:
    """Write ``data`` (positions with a labels file's ``meta``) to ``path`` (.npz, compressed)
    atomically; returns the path."""
    import io

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    np.savez_compressed(buf, obs=data.obs, mask=data.mask, policy=data.policy, value=data.value,
                        meta=np.array(json.dumps(data.meta, default=list)))
    atomic_bytes(path, buf.getvalue())
    return path


def _check_game(path: Path, data: Positions, game: Game | None) -> Positions:
    if game is not None:
        meta = data.meta
        want = (game.name, dict(game.variant))
        if (meta.get("game"), meta.get("variant")) != want or data.obs.shape[1:] != tuple(game.observation_shape):
            raise DatasetError(f"{path}: labels for {meta.get('game')} {meta.get('variant')}, not {want[0]} {want[1]}")
    return data


def load_dataset(path: str | Path, game: Game | None = None) -> Positions:
    """Read a labels file; DatasetError when it is missing, not one, or (with ``game``) for another game."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            data = Positions(z["obs"], z["mask"], z["policy"], z["value"], meta=meta)
    except FileNotFoundError:
        raise DatasetError(f"{path}: no such labels file") from None
    except (OSError, KeyError, ValueError) as exc:
        raise DatasetError(f"{path}: not a zerosum labels file ({exc})") from None
    if meta.get("format") != DATASET_FORMAT:
        raise DatasetError(f"{path}: format {meta.get('format')!r}, expected {DATASET_FORMAT!r}")
    return _check_game(path, data, game)


def buffer_dataset(path: str | Path, game: Game | None = None) -> Positions:
    """The replay buffer of a run's ``state.pt``, oldest position first, with a labels file's metadata (its game
    and label settings from the ``run.json`` beside it): for a run of ladder rounds alone, every
    position is an alpha-beta label. DatasetError when it is not one."""
    import torch

    path = Path(path)
    try:
        state = torch.load(path, map_location="cpu", weights_only=False)
        settings = json.loads((path.parent / "run.json").read_text())["settings"]
        found = make_game(settings["game"], **settings["variant"])
        buf = ReplayBuffer(int(state["buffer"]["size"]), tuple(found.observation_shape), found.num_actions)
        buf.restore(state["buffer"])
    except FileNotFoundError as exc:
        raise DatasetError(f"{path}: no such file, or no run.json beside it ({exc})") from None
    except (OSError, KeyError, TypeError, ValueError, RuntimeError) as exc:
        raise DatasetError(f"{path}: not a run's state.pt with its run.json beside it ({exc})") from None
    g = buf.oldest_first()
    meta = {"format": DATASET_FORMAT, "game": found.name, "variant": dict(found.variant),
            "depth": settings.get("label_depth"), "quiescence": settings.get("label_quiescence", False),
            "fast_wins": settings.get("label_fast_wins", False), "positions": len(g), "source": str(path)}
    return _check_game(path, g.labelled(meta), game)


JOINED = ("game", "variant", "depth", "quiescence", "fast_wins")
"""What labels files must share to be trained on together."""


def read_labels(paths: list[str], game: Game) -> Positions:
    """The labels of ``paths`` for ``game``, joined in the order given: ``.pt`` files are runs'
    ``state.pt`` (:func:`buffer_dataset`), others labels files (:func:`load_dataset`). DatasetError
    for a file that is not one, is for another game, or was labelled unlike the first."""
    parts = [buffer_dataset(p, game) if str(p).endswith(".pt") else load_dataset(p, game) for p in paths]
    if not parts:
        raise DatasetError("no labels file given")
    for path, p in zip(paths[1:], parts[1:]):
        theirs, first = ({k: bool(d.meta.get(k)) if k in ("quiescence", "fast_wins") else d.meta.get(k)
                          for k in JOINED} for d in (p, parts[0]))
        if theirs != first:
            raise DatasetError(f"{path}: labelled with {theirs}, {paths[0]} with {first}; only labels made alike "
                               "are trained on together")
    meta = dict(parts[0].meta, positions=sum(len(p) for p in parts), source=[str(p) for p in paths])
    obs, mask, policy, value = (np.concatenate([getattr(p, f) for p in parts])
                                for f in ("obs", "mask", "policy", "value"))
    return Positions(obs, mask, policy, value, meta=meta)


# ---- worker jobs ----------------------------------------------------------------------------
def shares(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` whole shares that differ by at most one, the larger first."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


@dataclass
class WorkerSpec:
    """What a self-play worker is made from (it builds its own game, network and search)."""

    game: str
    """The game's name."""
    variant: dict[str, Any]
    """The game's rule variant."""
    net: dict[str, Any]
    """The network config (:class:`zerosum.nets.NetConfig` fields)."""
    search: SelfPlayConfig
    """The self-play search's settings."""
    seed: int = 0
    """Seeds the worker's search and its draws."""


@dataclass
class PlayJob:
    """Play ``games`` self-play games with ``weights`` (None: the weights the worker holds)."""

    weights: bytes | None
    """The learner's weights (:func:`~zerosum.training.alphazero.network.state_bytes`)."""
    games: int
    """How many games."""


@dataclass
class LabelJob:
    """Label ``positions`` positions with alpha-beta at ``depth``
    (:func:`~zerosum.training.alphazero.labels.label_dataset`)."""

    positions: int
    """How many positions."""
    depth: int
    """The labels' depth."""
    seed: int
    """Seeds the games that find the positions."""
    options: dict[str, Any] = field(default_factory=dict)
    """The labeller's other options (:meth:`~zerosum.training.alphazero.config.TeacherConfig.options`)."""


@dataclass
class LadderJob:
    """Play ``games`` ladder games of the network alone against ``opponents``, every position labelled."""

    weights: bytes | None
    """The learner's weights (None: the weights the worker holds)."""
    games: int
    """How many games."""
    opponents: list[str]
    """The ladder, in turn."""
    depth: int
    """The labels' depth."""
    seed: int
    """Seeds the openings and the moves sampled."""
    options: dict[str, Any] = field(default_factory=dict)
    """The labeller's other options."""


Job = PlayJob | LabelJob | LadderJob
"""What a worker is sent; each returns :class:`Positions`."""


__all__ = ["DATASET_FORMAT", "JOINED", "DatasetError", "Job", "LabelJob", "LadderJob", "PlayJob", "Positions",
           "ReplayBuffer", "WorkerSpec", "buffer_dataset", "concat", "load_dataset", "read_labels", "save_dataset",
           "shares"]
