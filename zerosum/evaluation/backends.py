"""Where games are played: in this process, in local worker processes, or on Ray.

Tournaments, :func:`zerosum.evaluate` and matches hand a backend the same two things: a
payload (the game, the agents' names, and each agent as a spec string or as an Agent
object held in memory) and :class:`GameTask` s. Every backend runs the same pure function,
:func:`play_task`, on each task and yields the finished games back to the caller, which
alone writes any store. A game depends only on its task (the agents are built fresh from
their specs, or copied from the objects, and seeded from the game's seed), so every
backend and any number of workers give the same games for the same seeds.

Worker processes (and Ray's) first import what this process imported to register games
and agents (``zerosum --import MODULE``, :func:`zerosum.games.registry.import_modules`)
and the module that defines the game (:mod:`zerosum.evaluation.worker_imports`): a fresh process knows
only the games zerosum ships. A worker that still cannot find the game says which
module it was missing.

Worker processes use the ``forkserver`` start method where the platform has it (else
``spawn``): no forked copies of the parent's threads or locks; the server imports zerosum
once, and numba loads the compiled kernels from its on-disk cache. Agents held in memory
(a lambda, a function typed into a notebook, a model never saved) cannot be re-imported
in a fresh process: running them is a capability a backend declares with ``in_memory``.
The inline backend has it; the process backend has it where the platform can fork (its
workers are then forked and inherit the objects, torch held to one thread in each, as
PyTorch's own DataLoader workers are); Ray has not. :func:`make_backend` picks what can
run a payload.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import pickle
import signal
import sys
import time
import traceback
import warnings
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Mapping
from multiprocessing.connection import Connection, wait
from typing import Any, cast

import numpy as np

from zerosum.agents.base import Agent
from zerosum.evaluation.match import MatchResult, forfeit, play_match
from zerosum.evaluation.store import GameTask
from zerosum.evaluation.worker_imports import WorkerImportError, imports_done, unknown_game, worker_payload
from zerosum.games.kit import Game, ZerosumError

__all__ = ["InlineBackend", "ProcessBackend", "RayBackend", "WorkerError", "WorkerImportError", "make_backend",
           "play_task"]

Payload = Mapping[str, Any]
"""{"game": name or Game, "variant": {...}, "names": [agent names], "specs": [agent specs or Agents]}."""

_GAMES: dict[str, Game] = {}


def _game(payload: Payload) -> Game:
    imports_done(payload)
    if isinstance(payload["game"], Game):
        return payload["game"]
    from zerosum.games import GAMES, make_game

    key = repr((payload["game"], sorted(payload["variant"].items())))
    g = _GAMES.get(key)
    if g is None:
        if payload["game"] not in GAMES:
            from zerosum.games.registry import load_plugins

            load_plugins()
        if payload["game"] not in GAMES:
            raise unknown_game(payload)
        g = _GAMES[key] = make_game(payload["game"], **payload["variant"])
    return g


def holds_objects(payload: Payload) -> bool:
    """True when some agent of the payload is an object held in memory rather than a spec string."""
    return any(not isinstance(spec, str) for spec in payload["specs"])


def agent_rng(seed: int, seat: int) -> np.random.Generator:
    """The random generator of the agent in ``seat`` of the game with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence([seed, seat]))


_PROTOTYPES: dict[str, Agent] = {}


def fresh_agent(spec: str | Agent, rng: np.random.Generator) -> Agent:
    """A new agent for one game, as ``make_agent(spec, rng)`` builds it, or a copy of an Agent.

    It is a copy (``Agent.spawn``) of an unused agent built once per process (loading a checkpoint
    once, not per game); nothing a previous game left in an agent (a transposition table,
    say) reaches the next one, so a game does not depend on which worker plays it. An
    Agent object that cannot be copied is reseeded and reused (``play_match`` resets it).
    """
    if not isinstance(spec, str):
        try:
            return spec.spawn(rng)
        except Exception:  # noqa: BLE001 - an agent that cannot be copied is reused
            spec.seed(rng)
            return spec
    from zerosum.agents import make_agent

    proto = _PROTOTYPES.get(spec)
    if proto is None:
        proto = _PROTOTYPES[spec] = make_agent(spec, rng=0)
    try:
        return proto.spawn(rng)
    except Exception:  # noqa: BLE001 - an agent that cannot be copied is built again
        return make_agent(spec, rng=rng)


def play_task(payload: Payload, task: GameTask) -> tuple[GameTask, MatchResult]:
    """Play one game from its task: fresh agents in the task's seats, seeded from the task."""
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
    """The backend's name, as warnings and errors show it."""
    in_memory = True
    """Whether agents held in memory (objects, not specs) can be run: always, in this process."""

    def run(self, payload: Payload, tasks: Iterable[GameTask]) -> Generator[tuple[GameTask, MatchResult], None, None]:
        """Yield each finished game."""
        for task in tasks:
            yield play_task(payload, task)


# ---- local worker processes -------------------------------------------------------------
class WorkerError(ZerosumError, RuntimeError):
    """A worker process died, or failed with an error that could not be sent back."""


def _worker(conn: Connection, payload: Payload) -> None:
    """A worker process: play each batch of tasks it is sent, send back (seconds, games), until None or EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the workers
    if "torch" in sys.modules:  # one thread per worker: the workers are the parallelism
        sys.modules["torch"].set_num_threads(1)
    while True:
        try:
            batch = conn.recv()
        except EOFError:  # the parent is gone
            return
        if batch is None:
            return
        start = time.perf_counter()
        try:
            played = [play_task(payload, task) for task in batch]
        except Exception as exc:  # noqa: BLE001 - a bug outside play_task's guard: the parent raises it
            exc.add_note(f"raised in a worker process:\n{traceback.format_exc()}")
            try:
                conn.send(exc)
            except Exception:  # noqa: BLE001 - an exception that does not pickle
                conn.send(WorkerError(f"a worker process failed: {type(exc).__name__}: {exc}"))
            continue
        conn.send((time.perf_counter() - start, played))


def _context(fork: bool) -> mp.context.ForkContext | mp.context.ForkServerContext | mp.context.SpawnContext:
    methods = mp.get_all_start_methods()
    if fork and "fork" in methods:
        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["zerosum.evaluation.backends", "zerosum.agents"])
        return ctx
    return mp.get_context("spawn")


class ProcessBackend:
    """Local worker processes, each fed batches of games through its own pipe.

    Games go out in batches of about :data:`BATCH_SECONDS` of play (:func:`batch_size`), so
    that games of a millisecond do not spend their time in messages, while long games
    still go one at a time. (multiprocessing.Pool is not used: its worker-handler thread
    wakes whenever a result waits unread and competes with the workers for the cores.)
    """

    name = "process"
    """The backend's name, as :func:`make_backend` takes it and warnings show it."""
    in_memory = "fork" in mp.get_all_start_methods()
    """Whether agents held in memory can be run: where workers fork and so inherit the objects."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        """How many worker processes to start (fewer when there are fewer games)."""

    def run(self, payload: Payload, tasks: Iterable[GameTask]) -> Generator[tuple[GameTask, MatchResult], None, None]:
        """Yield each finished game as soon as its batch returns; the workers stop at the end."""
        tasks = list(tasks)
        if not tasks:
            return
        payload = {**payload, **worker_payload(payload)}
        ctx = _context(fork=holds_objects(payload))
        # forked workers: their collector leaves the inherited objects (and so their pages) alone
        freeze = ctx.get_start_method() == "fork" and gc.get_freeze_count() == 0
        procs, conns = [], []
        try:
            if freeze:
                gc.freeze()
            try:
                for _ in range(max(1, min(self.workers, len(tasks)))):
                    here, there = ctx.Pipe()
                    proc = ctx.Process(target=_worker, args=(there, dict(payload)), daemon=True)
                    proc.start()
                    there.close()
                    procs.append(proc)
                    conns.append(here)
            finally:
                if freeze:
                    gc.unfreeze()
            yield from drain(conns, tasks)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.join()
            for conn in conns:
                conn.close()


WORKER_DIED = ("a worker process died (killed, or out of memory?). Workers that start by forkserver import the "
               "calling script again: a script that runs games at its top level must do so under "
               "`if __name__ == \"__main__\":`")
"""What a worker that disappears is reported as (it can tell nothing itself)."""
BATCH_SECONDS = 0.05
"""The playing time a worker process is sent at once."""
MAX_BATCH = 200
"""The most games in one batch (the pipes' buffers hold two batches of tasks)."""


def batch_size(per_game: float | None, left: int, workers: int) -> int:
    """How many games to send a worker: one until a batch has been timed (``per_game`` seconds a
    game in the last one), then :data:`BATCH_SECONDS` worth, at most :data:`MAX_BATCH`, and at
    most a share of the ``left`` games still to send, so that the workers finish together."""
    if per_game is None:
        return 1
    return max(1, min(int(BATCH_SECONDS / max(per_game, 1e-6)), MAX_BATCH, left // (2 * workers)))


def drain(conns: list[Connection], tasks: list[GameTask]) -> Iterator[tuple[GameTask, MatchResult]]:
    """Yield every task's game from the workers behind ``conns`` as each batch comes back.

    Each worker holds two batches, one it plays and one waiting, so it never waits for the
    parent. A worker's error is raised here, with the worker's traceback as a note; a worker
    that dies raises :class:`WorkerError`.
    """
    todo = deque(tasks)
    busy = dict.fromkeys(conns, 0)
    per_game: float | None = None

    def send(conn: Connection) -> None:
        try:
            conn.send([todo.popleft() for _ in range(min(batch_size(per_game, len(todo), len(conns)), len(todo)))])
        except OSError:  # a broken pipe
            raise WorkerError(WORKER_DIED) from None
        busy[conn] += 1

    for conn in conns * 2:
        if todo:
            send(conn)
    while any(busy.values()):
        for conn in cast(list[Connection], wait([c for c in conns if busy[c]])):
            try:
                item = conn.recv()
            except (EOFError, OSError):
                raise WorkerError(WORKER_DIED) from None
            busy[conn] -= 1
            if isinstance(item, BaseException):
                raise item
            seconds, played = item
            per_game = seconds / len(played)
            if todo:
                send(conn)
            yield from played


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
    """The backend's name, as :func:`make_backend` takes it and warnings show it."""
    in_memory = False
    """Never: the payload travels by pickle to the cluster's processes."""

    def __init__(self, workers: int, address: str | None = None) -> None:
        self.workers, self.address = workers, address

    def run(self, payload: Payload, tasks: Iterable[GameTask]) -> Generator[tuple[GameTask, MatchResult], None, None]:
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
            payload_ref = ray.put({**payload, **worker_payload(payload)})
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


def _pickles(payload: Payload) -> bool:
    try:
        pickle.dumps(dict(payload))
    except Exception:  # noqa: BLE001 - lambdas, closures, live handles
        return False
    return True


def make_backend(name: str, workers: int, address: str | None = None, *,
                 payload: Payload | None = None) -> InlineBackend | ProcessBackend | RayBackend:
    """The backend by name: ``process`` (inline for one worker) or ``ray``.

    Given the ``payload``, agents held in memory go to a backend without the ``in_memory``
    capability only if they pickle; otherwise the games are played in this process (with
    a RuntimeWarning saying why).
    """
    if name == "ray":
        backend: InlineBackend | ProcessBackend | RayBackend = RayBackend(workers, address)
    elif name == "process":
        backend = InlineBackend() if workers <= 1 else ProcessBackend(workers)
    else:
        raise ValueError(f"unknown backend {name!r}; allowed: process, ray")
    if payload is not None and holds_objects(payload) and not backend.in_memory and not _pickles(payload):
        warnings.warn(f"the {backend.name} backend cannot run agents held in memory here and these do not pickle "
                      "(a lambda, a closure, a live handle); playing in this process", RuntimeWarning, stacklevel=2)
        return InlineBackend()
    return backend
