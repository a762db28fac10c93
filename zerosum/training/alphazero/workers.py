"""Where AlphaZero's games are played: self-play workers in subprocesses, or Ray actors.

A :class:`SelfPlayWorker` holds a network (one torch thread), a batched search and a labeller;
it is made from a :class:`~zerosum.training.alphazero.data.WorkerSpec` and answers jobs
(:class:`~zerosum.training.alphazero.data.PlayJob`, ``LabelJob``, ``LadderJob``) with
:class:`~zerosum.training.alphazero.data.Positions`. :class:`LocalWorkers` runs each in a spawned
subprocess (``backend="local"``; it exits with its parent), :class:`RayWorkers` as Ray actors
(``backend="ray"``); both are sent a job with ``submit(i, job)`` and answer with ``result(i)``.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import numpy as np

from zerosum.games import Game, make_game
from zerosum.training.alphazero.data import Job, LabelJob, LadderJob, PlayJob, Positions, WorkerSpec
from zerosum.training.alphazero.labels import LabelCache, label_dataset, ladder_games, ladder_labeller
from zerosum.training.alphazero.network import build_net, load_weights
from zerosum.training.alphazero.selfplay import batched_search, play_games


class SelfPlayWorker:
    """Plays self-play games, labels positions and plays ladder games, for one game with one network."""

    def __init__(self, spec: WorkerSpec) -> None:
        import torch

        torch.set_num_threads(1)
        from zerosum.nets import NetworkEvaluator

        self.spec = spec
        """What the worker was made from."""
        self.game: Game = make_game(spec.game, **spec.variant)
        """The game played."""
        self.net = build_net(self.game, spec.net)
        """The network (in eval mode; each job with weights replaces them)."""
        self.net.eval()
        self.evaluator = NetworkEvaluator(self.net, device="cpu")
        """The network as the search's evaluator, on the CPU."""
        self.rng = np.random.default_rng(spec.seed)
        """Draws the moves of the first ``temperature_moves`` plies, and which positions get the full search."""
        self.search: Any = None
        """The batched search, made at the first self-play job."""
        self.labeller: LabelCache | None = None
        """The ladder's labeller (its table and cache kept for every round with the same depth and options)."""
        self.labeller_key: Any = None
        """The depth and options :attr:`labeller` was made with."""

    def run(self, job: Job) -> Positions:
        """Do ``job`` and return what it made."""
        if isinstance(job, PlayJob):
            return self.play(job)
        if isinstance(job, LabelJob):
            return self.label(job)
        if isinstance(job, LadderJob):
            return self.ladder(job)
        raise TypeError(f"unknown job {job!r}: a PlayJob, LabelJob or LadderJob")

    def play(self, job: PlayJob) -> Positions:
        """Self-play games with the job's weights."""
        if job.weights is not None:
            load_weights(self.net, job.weights)
        if self.search is None:
            self.search = batched_search(self.game, self.spec.search, self.spec.seed)
        return play_games(self.game, self.search, self.evaluator, self.spec.search, self.rng, job.games)

    def label(self, job: LabelJob) -> Positions:
        """Positions labelled by alpha-beta (:func:`~zerosum.training.alphazero.labels.label_dataset`)."""
        start = time.perf_counter()
        data = label_dataset(self.game, job.positions, depth=job.depth, seed=job.seed, **job.options)
        data.seconds = time.perf_counter() - start
        return data

    def ladder(self, job: LadderJob) -> Positions:
        """Ladder games of the network alone with the job's weights, every position labelled
        (:func:`~zerosum.training.alphazero.labels.ladder_games`)."""
        if job.weights is not None:
            load_weights(self.net, job.weights)
        key = (job.depth, dict(job.options))
        if self.labeller is None or self.labeller_key != key:
            self.labeller, self.labeller_key = ladder_labeller(self.game, job.depth, key[1]), key
        return ladder_games(self.game, self.net, self.labeller, job.games, job.opponents, job.seed)


def exit_with_parent() -> None:
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


def serve(conn: Any, spec: WorkerSpec) -> None:
    """A worker process's loop: build a :class:`SelfPlayWorker` from ``spec``, then answer each job
    received with ``("ok", games)`` (or ``("error", text)``) until ``None`` arrives or the learner's
    process is gone."""
    exit_with_parent()
    try:
        worker = SelfPlayWorker(spec)
        conn.send(("ready", None))
    except BaseException as exc:  # noqa: BLE001 - reported to the learner, which raises it
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
        return
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            conn.send(("ok", worker.run(job)))
        except BaseException as exc:  # noqa: BLE001
            import traceback

            conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))


class LocalWorkers:
    """Self-play workers in subprocesses (spawned: a clean torch, one thread each)."""

    def __init__(self, specs: list[WorkerSpec]) -> None:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        self.conns: list[Any] = []
        """Each worker's end of its pipe, by worker index: jobs go out and answers come back here."""
        self.procs: list[Any] = []
        """The worker processes, by index (joined, or killed if they hang, by :meth:`close`)."""
        for spec in specs:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=serve, args=(child, spec), daemon=True)
            p.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(p)
        for c in self.conns:
            self.answer(c)

    @staticmethod
    def answer(conn: Any) -> Any:
        """The next answer on ``conn``; RuntimeError when the worker failed or died."""
        try:
            kind, value = conn.recv()
        except EOFError:
            raise RuntimeError("a self-play worker died (see its error output above)") from None
        if kind == "error":
            raise RuntimeError(f"self-play worker failed: {value}")
        return value

    def __len__(self) -> int:
        return len(self.conns)

    def submit(self, i: int, job: Job) -> None:
        """Send worker ``i`` a job."""
        self.conns[i].send(job)

    def result(self, i: int) -> Positions:
        """Worker ``i``'s answer to its last job."""
        out: Positions = self.answer(self.conns[i])
        return out

    def close(self) -> None:
        """Stop the workers."""
        for c in self.conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                c.send(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()


class RayWorkers:
    """Self-play workers as Ray actors (a local Ray instance unless one is running)."""

    def __init__(self, specs: list[WorkerSpec]) -> None:
        from zerosum.evaluation.backends import import_ray

        ray = import_ray()
        if not ray.is_initialized():
            ray.init(num_cpus=max(2, len(specs) + 1), include_dashboard=False, log_to_driver=False)
        actor = ray.remote(num_cpus=1)(SelfPlayWorker)
        self.ray = ray
        """The imported ray module (imported here, not when this module is)."""
        self.actors = [actor.remote(spec) for spec in specs]
        """The :class:`SelfPlayWorker` actors, one per spec, by index."""
        self.pending: list[Any] = [None] * len(specs)
        """Each actor's object reference for its last job (None before the first), read by :meth:`result`."""

    def __len__(self) -> int:
        return len(self.actors)

    def submit(self, i: int, job: Job) -> None:
        """Send actor ``i`` a job."""
        self.pending[i] = self.actors[i].run.remote(job)

    def result(self, i: int) -> Positions:
        """Actor ``i``'s answer to its last job."""
        out: Positions = self.ray.get(self.pending[i])
        return out

    def close(self) -> None:
        """Stop the actors."""
        for a in self.actors:
            self.ray.kill(a)


__all__ = ["LocalWorkers", "RayWorkers", "SelfPlayWorker", "exit_with_parent", "serve"]
