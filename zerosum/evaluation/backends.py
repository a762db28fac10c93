"""Where tournament games are played: in this process, in local worker processes, or on Ray.

Every backend runs the same pure function, :func:`play_task`, on plain data (the game,
its variant, the agent specs and one :class:`GameTask`), and hands the finished games
back to the caller, which alone writes the store. A game depends only on its task (the
agents are built fresh from their specs and seeded from the game's seed), so every
backend and any number of workers give the same games for the same seeds.

Worker processes use the ``forkserver`` start method where the platform has it (else
``spawn``): no forked copies of the parent's threads or locks; the server imports zerosum
once, and numba loads the compiled kernels from its on-disk cache.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import traceback
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from zerosum.evaluation.match import MatchResult, forfeit, play_match
from zerosum.evaluation.store import GameTask

Payload = Mapping[str, Any]
"""{"game": name, "variant": {...}, "names": [agent names], "specs": [agent specs]}."""

_GAMES: dict[str, Any] = {}


def _game(payload: Payload):
    from zerosum.games import make_game

    key = repr((payload["game"], sorted(payload["variant"].items())))
    g = _GAMES.get(key)
    if g is None:
        g = _GAMES[key] = make_game(payload["game"], **payload["variant"])
    return g


def agent_rng(seed: int, seat: int) -> np.random.Generator:
    """The random generator of the agent in ``seat`` of the game with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence([seed, seat]))


_PROTOTYPES: dict[str, Any] = {}


def fresh_agent(spec: str, rng: np.random.Generator) -> Any:
    """A new agent for one game, as ``make_agent(spec, rng)`` builds it.

    It is a copy (``Agent.spawn``) of an unused agent built once per process (loading a checkpoint
    once, not per game); nothing a previous game left in an agent (a transposition table,
    say) reaches the next one, so a game does not depend on which worker plays it.
    """
    from zerosum.agents import make_agent

    proto = _PROTOTYPES.get(spec)
    if proto is None:
        proto = _PROTOTYPES[spec] = make_agent(spec, rng=0)
    try:
        return proto.spawn(rng)
    except Exception:  # noqa: BLE001 - an agent that cannot be copied is built again
        return make_agent(spec, rng=rng)


def play_task(payload: Payload, task: GameTask) -> tuple[GameTask, MatchResult]:
    """Play one tournament game from plain data: fresh agents, seeded from the task."""
    game = _game(payload)
    names = tuple(payload["names"][i] for i in task.seats)
    agents = []
    for seat, idx in enumerate(task.seats):
        try:
            agent = fresh_agent(payload["specs"][idx], agent_rng(task.seed, seat))
            agent.name = payload["names"][idx]
            agent.prepare(game)
        except Exception as exc:  # noqa: BLE001 - an agent that cannot start loses the game
            return task, forfeit(names, task.opening, seat,
                                 f"{names[seat]} could not start: {type(exc).__name__}: {exc}", traceback.format_exc())
        agents.append(agent)
    return task, play_match(game, agents, task.opening)


# ---- in this process --------------------------------------------------------------------
class InlineBackend:
    """Plays the games one after another in this process (one worker)."""

    name = "inline"

    def run(self, payload: Payload, tasks: Iterable[GameTask]) -> Iterator[tuple[GameTask, MatchResult]]:
        """Yield each finished game."""
        for task in tasks:
            yield play_task(payload, task)


# ---- local worker processes -------------------------------------------------------------
_WORKER_PAYLOAD: Payload | None = None


def _init_worker(payload: Payload) -> None:
    global _WORKER_PAYLOAD
    _WORKER_PAYLOAD = payload
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the pool


def _play_in_worker(task: GameTask) -> tuple[GameTask, MatchResult]:
    if _WORKER_PAYLOAD is None:
        raise RuntimeError("worker started without a tournament payload")
    return play_task(_WORKER_PAYLOAD, task)


def _context() -> mp.context.BaseContext:
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["zerosum.evaluation.backends", "zerosum.agents"])
        return ctx
    return mp.get_context("spawn")


class ProcessBackend:
    """Local worker processes (a multiprocessing pool); results come back to the parent."""

    name = "process"

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, payload: Payload, tasks: Iterable[GameTask]) -> Iterator[tuple[GameTask, MatchResult]]:
        """Yield each finished game as soon as a worker returns it."""
        tasks = list(tasks)
        if not tasks:
            return
        n = max(1, min(self.workers, len(tasks)))
        pool = _context().Pool(n, initializer=_init_worker, initargs=(dict(payload),))
        yield from drain(pool, _play_in_worker, tasks)


def drain(pool: Any, fn: Any, tasks: list[Any]) -> Iterator[Any]:
    """Yield ``fn(task)`` from the pool's workers as each finishes; the pool is always shut down."""
    try:
        yield from pool.imap_unordered(fn, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


# ---- Ray ------------------------------------------------------------------------------------
def _play_remote(payload: Payload, task: GameTask) -> tuple[GameTask, MatchResult]:
    return play_task(payload, task)


def import_ray() -> Any:
    """Ray, or an ImportError naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'zerosum[distributed]'") from None
    return ray


class RayBackend:
    """Games as Ray tasks on a cluster (``address``) or on a local instance.

    An instance already initialised in this process (``ray.init(...)`` by the caller) is
    used as it is; otherwise ``ray.init(address)`` joins a cluster, or a local instance
    with ``workers`` CPUs is started and shut down again at the end. Only this process
    (the driver) writes the store. The cluster's nodes need zerosum installed.
    """

    name = "ray"

    def __init__(self, workers: int, address: str | None = None) -> None:
        self.workers, self.address = workers, address

    def run(self, payload: Payload, tasks: Iterable[GameTask]) -> Iterator[tuple[GameTask, MatchResult]]:
        """Yield each finished game as soon as Ray returns it (at most 2 per CPU in flight)."""
        tasks = list(tasks)
        if not tasks:
            return
        ray = import_ray()
        started = False
        if not ray.is_initialized():
            os.environ.setdefault("RAY_DEDUP_LOGS", "0")
            if self.address:
                ray.init(address=self.address, log_to_driver=False)
            else:
                ray.init(num_cpus=self.workers, include_dashboard=False, log_to_driver=False)
            started = True
        try:
            remote = ray.remote(num_cpus=1)(_play_remote)
            payload_ref = ray.put(dict(payload))
            cpus = int(ray.cluster_resources().get("CPU", self.workers)) or 1
            limit = max(2, 2 * cpus)
            pending: list[Any] = []
            queue = iter(tasks)
            for task in queue:
                pending.append(remote.remote(payload_ref, task))
                if len(pending) >= limit:
                    break
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield ray.get(ref)
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending.append(remote.remote(payload_ref, nxt))
        finally:
            if started:
                ray.shutdown()


def make_backend(name: str, workers: int, address: str | None = None) -> InlineBackend | ProcessBackend | RayBackend:
    """The backend by name: ``process`` (inline for one worker) or ``ray``."""
    if name == "ray":
        return RayBackend(workers, address)
    if name == "process":
        return InlineBackend() if workers <= 1 else ProcessBackend(workers)
    raise ValueError(f"unknown backend {name!r}; allowed: process, ray")

