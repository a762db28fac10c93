"""AlphaZero self-play: many games at once on the batched search, one lane per game.

A :class:`SelfPlayWorker` holds a network (one torch thread) and a
:class:`~zerosum.search.BatchedSearch` with ``lanes`` trees; :meth:`SelfPlayWorker.play`
plays ``games`` games with the weights it is given and returns their positions as arrays
(:class:`Games`): the observation planes from the mover's side, the mask, the search's
policy target, and the final result from the mover's side as the value target.

Per move, each lane's search runs ``sims`` simulations (PUCT or Gumbel as the config says;
root noise in PUCT). With playout-cap randomisation (``full_search_prob`` < 1, KataGo) a
move gets the full search with that probability and is recorded; the others get
``cheap_sims`` simulations and are played but not recorded. The first
``temperature_moves`` plies of a game are drawn in proportion to the root visits (PUCT) or
from the improved policy (Gumbel); later plies take the search's own move.

The worker runs in the process it is created in: :mod:`zerosum.training.alphazero` puts one
in a subprocess (``backend="local"``) or in Ray actors (``backend="ray"``). Labelling
positions with alpha-beta (:mod:`zerosum.training.labeller`) is the worker's other job.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.games import Game, make_game


@dataclass
class Games:
    """The recorded positions of some self-play games (or labelled positions) and what they cost."""

    obs: np.ndarray
    """int8 [n, *observation_shape]: planes from the side to move."""
    mask: np.ndarray
    """int8 [n, num_actions]."""
    policy: np.ndarray
    """float32 [n, num_actions]: the search's policy target."""
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

    def __len__(self) -> int:
        return int(self.value.shape[0])


def state_bytes(state_dict: dict[str, Any]) -> bytes:
    """A network's weights as bytes (what crosses a pipe or goes to a Ray actor)."""
    import torch

    buf = io.BytesIO()
    torch.save(state_dict, buf)
    return buf.getvalue()


class SelfPlayWorker:
    """Plays self-play games (and labels positions) for one game with one network."""

    def __init__(self, game_name: str, variant: dict[str, Any], net: dict[str, Any], search: dict[str, Any],
                 seed: int = 0) -> None:
        import torch

        torch.set_num_threads(1)
        from zerosum.nets import NetConfig, NetworkEvaluator, build_network

        self.game: Game = make_game(game_name, **variant)
        """The game played, made from ``game_name`` and ``variant``."""
        self.net = build_network(self.game, NetConfig.from_dict(dict(net)))
        """The network (built from the ``net`` config, in eval mode; :meth:`load` replaces its weights)."""
        self.net.eval()
        self.evaluator = NetworkEvaluator(self.net, device="cpu")
        """The network as the search's evaluator, on the CPU."""
        self.opts = dict(search)
        """The search options (``AlphaZeroConfig.search_options``: rule, sims, lanes, temperature moves, ...)."""
        self.rng = np.random.default_rng(seed)
        """Draws the moves of the first ``temperature_moves`` plies, and which positions get the full search."""
        self.seed = seed
        """The seed of :attr:`rng` and of the batched search."""
        self._search: Any = None
        self._labeller: Any = None
        self._labeller_key: Any = None

    def _batched(self) -> Any:
        from zerosum.search import BatchedSearch, GuidedConfig

        if self._search is None:
            o = self.opts
            cfg = GuidedConfig(rule=o["rule"], c_puct=o["c_puct"], dirichlet_alpha=o["dirichlet_alpha"],
                               dirichlet_fraction=o["dirichlet_fraction"] if o["rule"] == "puct" else 0.0,
                               temperature=0.0, gumbel_k=o["gumbel_k"], leaves=1)
            self._search = BatchedSearch(self.game, lanes=o["lanes"], config=cfg, seed=self.seed)
        return self._search

    def load(self, weights: bytes) -> None:
        """Take the learner's weights (``state_bytes`` of its state dict)."""
        import torch

        self.net.load_state_dict(torch.load(io.BytesIO(weights), weights_only=True))
        self.net.eval()

    def play(self, weights: bytes | None, games: int) -> Games:
        """Play ``games`` self-play games with ``weights`` (None: the weights held) and return them."""
        if weights is not None:
            self.load(weights)
        g, o, rng = self.game, self.opts, self.rng
        bs = self._batched()
        lanes = int(o["lanes"])
        start = time.perf_counter()
        obs: list[np.ndarray] = []
        masks: list[np.ndarray] = []
        pols: list[np.ndarray] = []
        movers: list[int] = []
        game_of: list[int] = []
        results: list[float] = []  # per game: player 0's return
        states: list[Any] = [None] * lanes
        lane_game = [-1] * lanes
        plies = [0] * lanes
        started = 0
        for lane in range(min(lanes, games)):
            states[lane] = g.initial_state()
            bs.set_root(lane, states[lane])
            lane_game[lane] = started
            results.append(0.0)
            started += 1
        sims_total = moves = 0
        outcomes = [0, 0, 0]
        while True:
            active = [i for i in range(lanes) if lane_game[i] >= 0]
            if not active:
                break
            full_prob = float(o["full_search_prob"])
            full = [i for i in active if full_prob >= 1.0 or rng.random() < full_prob]
            cheap = [i for i in active if i not in set(full)]
            chosen: dict[int, int] = {}
            for group, sims, record in ((full, int(o["sims"]), True), (cheap, int(o["cheap_sims"]), False)):
                if not group:
                    continue
                res = bs.run(self.evaluator, sims=sims, lanes=np.asarray(group, dtype=np.int64))
                sims_total += sims * len(group)
                for row, lane in enumerate(group):  # the results' rows follow the lanes given
                    s = states[lane]
                    policy = np.asarray(res.policy[row], np.float64)
                    if record:
                        obs.append(np.asarray(g.observation(s, g.current_player(s)), np.int8))
                        masks.append(np.asarray(g.legal_mask(s), np.int8))
                        pols.append(policy.astype(np.float32))
                        movers.append(g.current_player(s))
                        game_of.append(lane_game[lane])
                    if plies[lane] < int(o["temperature_moves"]):
                        weights_ = np.asarray(res.visits[row], np.float64) if o["rule"] == "puct" else policy
                        weights_ = weights_ * np.asarray(g.legal_mask(s), np.float64)
                        if weights_.sum() <= 0:
                            weights_ = np.asarray(g.legal_mask(s), np.float64)
                        chosen[lane] = int(rng.choice(g.num_actions, p=weights_ / weights_.sum()))
                    else:
                        chosen[lane] = int(res.action[row])
            for lane, a in chosen.items():
                s = g.apply(states[lane], a)
                moves += 1
                plies[lane] += 1
                if g.is_terminal(s):
                    r0 = float(g.returns(s)[0])
                    results[lane_game[lane]] = r0
                    outcomes[0 if r0 > 0 else 2 if r0 < 0 else 1] += 1
                    if started < games:
                        states[lane] = g.initial_state()
                        bs.set_root(lane, states[lane])
                        lane_game[lane] = started
                        results.append(0.0)
                        plies[lane] = 0
                        started += 1
                    else:
                        lane_game[lane] = -1
                else:
                    states[lane] = s
                    bs.advance(lane, a)
        res0 = np.asarray(results, np.float32)
        mover = np.asarray(movers, np.int64)
        z = res0[np.asarray(game_of, np.int64)] if game_of else np.zeros(0, np.float32)
        z = np.where(mover == 0, z, -z).astype(np.float32)
        shape = tuple(g.observation_shape)
        return Games(np.asarray(obs, np.int8).reshape((-1, *shape)),
                     np.asarray(masks, np.int8).reshape(-1, g.num_actions),
                     np.asarray(pols, np.float32).reshape(-1, g.num_actions), z,
                     games=games, moves=moves, simulations=sims_total, seconds=time.perf_counter() - start,
                     outcomes=(outcomes[0], outcomes[1], outcomes[2]))

    def label(self, positions: int, depth: int, seed: int, options: dict[str, Any] | None = None) -> Games:
        """``positions`` positions labelled by alpha-beta at ``depth``, the labeller made with
        ``options`` (its other keyword arguments: ``AlphaZeroConfig.label_options()``)."""
        from zerosum.training.labeller import label_dataset

        start = time.perf_counter()
        data = label_dataset(self.game, positions, depth=depth, seed=seed, **(options or {}))
        return Games(data.obs, data.mask, data.policy, data.value, seconds=time.perf_counter() - start)


    def ladder(self, weights: bytes | None, games: int, opponents: list[str], depth: int, seed: int,
               options: dict[str, Any] | None = None) -> Games:
        """``games`` games of the network alone against ``opponents``, every position labelled by
        alpha-beta at ``depth`` with ``options`` (as :meth:`label`; :func:`ladder_games`; one labeller,
        its table and its cache of labels for every round with the same depth and options)."""
        if weights is not None:
            self.load(weights)
        key = (depth, dict(options or {}))
        if self._labeller_key != key:  # None before the first round
            self._labeller, self._labeller_key = ladder_labeller(self.game, depth, key[1]), key
        return ladder_games(self.game, self.net, self._labeller, games, opponents, seed)


def ladder_labeller(game: Game, depth: int, options: dict[str, Any]) -> Any:
    """The labeller of a process's ladder rounds: a :class:`~zerosum.training.labeller.Labeller`
    behind a :class:`~zerosum.training.label_cache.LabelCache` that keeps its labels from round to
    round (positions come back, the openings most: ``bench/label_cache.py``)."""
    from zerosum.training.label_cache import LabelCache, ladder_cache_size
    from zerosum.training.labeller import Labeller

    return LabelCache(Labeller(game, depth, **options), ladder_cache_size(game.num_actions))


def network_logits(net: Any) -> Any:
    """``logits(obs, mask)``: the network's policy logits (float64, every action) for one position's
    planes, no gradient; the mask is not applied."""
    import torch

    def logits(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out, _ = net(torch.from_numpy(np.asarray(obs, np.float32)[None]))
        return np.asarray(out[0].numpy(), np.float64)

    return logits


def ladder_games(game: Game, net: Any, labeller: Any, games: int, opponents: list[str], seed: int) -> Games:
    """``games`` games of ``net`` alone (its greedy legal move; see :func:`zerosum.training.labeller.ladder`)
    against ``opponents``, every position labelled by ``labeller``; ``outcomes`` is the network's W/D/L."""
    from zerosum.training.labeller import ladder

    start, hits = time.perf_counter(), getattr(labeller, "hits", 0)
    was_training = net.training
    net.eval()
    try:
        rows, wdl = ladder(game, network_logits(net), list(opponents), games, labeller=labeller, seed=seed)
    finally:
        net.train(was_training)
    shape = tuple(game.observation_shape)
    return Games(np.asarray([r.obs for r in rows], np.int8).reshape((-1, *shape)),
                 np.asarray([r.mask for r in rows], np.int8).reshape(-1, game.num_actions),
                 np.asarray([r.label.policy for r in rows], np.float32).reshape(-1, game.num_actions),
                 np.asarray([r.label.value for r in rows], np.float32), games=games, moves=len(rows),
                 seconds=time.perf_counter() - start, outcomes=wdl, kept=getattr(labeller, "hits", 0) - hits)


def _exit_with_parent() -> None:
    """End this process when the learner that started it is gone (a SIGKILL leaves no one to
    say stop, and a job in progress may run for minutes)."""
    import os
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


JOBS = ("play", "label", "ladder")
"""What a worker does: its methods of these names, called with a job's other items."""


def serve(conn: Any, args: tuple[Any, ...]) -> None:
    """A worker process's loop: build a :class:`SelfPlayWorker` from ``args``, then answer
    ``("play", weights, games)``, ``("label", positions, depth, seed, options)`` and
    ``("ladder", weights, games, opponents, depth, seed, options)`` until ``None``
    (or until the learner's process is gone)."""
    _exit_with_parent()
    try:
        worker = SelfPlayWorker(*args)
        conn.send(("ready", None))
    except BaseException as exc:  # noqa: BLE001 - reported to the learner, which raises it
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
        return
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        try:
            if msg[0] not in JOBS:
                raise ValueError(f"unknown job {msg[0]!r}: one of {', '.join(JOBS)}")
            conn.send(("ok", getattr(worker, msg[0])(*msg[1:])))
        except BaseException as exc:  # noqa: BLE001
            import traceback

            conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))


__all__ = ["JOBS", "Games", "SelfPlayWorker", "ladder_games", "ladder_labeller", "network_logits", "serve",
           "state_bytes"]
