"""Where AlphaZero's self-play runs: worker subprocesses, or Ray actors; the ladder rounds they
share with the learner; and the run's files (atomic writes, the CSV curves, score.png, TensorBoard)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from zerosum.training.selfplay import Games

if TYPE_CHECKING:
    from zerosum.games import Game
    from zerosum.training.azconfig import AlphaZeroConfig


def _atomic_bytes(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _atomic_json(path: Path, data: Any) -> None:
    _atomic_bytes(path, (json.dumps(data, indent=2, default=list) + "\n").encode())


class LocalWorkers:
    """Self-play workers in subprocesses (spawned: a clean torch, one thread each)."""

    def __init__(self, args: list[tuple[Any, ...]]) -> None:
        import multiprocessing as mp

        from zerosum.training.selfplay import serve

        ctx = mp.get_context("spawn")
        self.conns = []
        """Each worker's end of its pipe, by worker index: jobs go out and answers come back here."""
        self.procs = []
        """The worker processes, by index (joined, or killed if they hang, by :meth:`close`)."""
        for a in args:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=serve, args=(child, a), daemon=True)
            p.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(p)
        for c in self.conns:
            self._answer(c)

    def _answer(self, conn: Any) -> Any:
        try:
            kind, value = conn.recv()
        except EOFError:
            raise RuntimeError("a self-play worker died (see its error output above)") from None
        if kind == "error":
            raise RuntimeError(f"self-play worker failed: {value}")
        return value

    def __len__(self) -> int:
        return len(self.conns)

    def submit(self, i: int, msg: tuple[Any, ...]) -> None:
        """Send worker ``i`` a job."""
        self.conns[i].send(msg)

    def result(self, i: int) -> Games:
        """Worker ``i``'s answer to its last job."""
        out: Games = self._answer(self.conns[i])
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

    def __init__(self, args: list[tuple[Any, ...]]) -> None:
        from zerosum.evaluation.backends import import_ray
        from zerosum.training.selfplay import SelfPlayWorker

        ray = import_ray()
        if not ray.is_initialized():
            ray.init(num_cpus=max(2, len(args) + 1), include_dashboard=False, log_to_driver=False)
        actor = ray.remote(num_cpus=1)(SelfPlayWorker)
        self.ray = ray
        """The imported ray module (imported here, not when this module is)."""
        self.actors = [actor.remote(*a) for a in args]
        """The :class:`~zerosum.training.selfplay.SelfPlayWorker` actors, one per argument tuple, by index."""
        self.pending: list[Any] = [None] * len(args)
        """Each actor's object reference for its last job (None before the first), read by :meth:`result`."""

    def __len__(self) -> int:
        return len(self.actors)

    def submit(self, i: int, msg: tuple[Any, ...]) -> None:
        """Send actor ``i`` a job."""
        a = self.actors[i]
        self.pending[i] = getattr(a, msg[0]).remote(*msg[1:])  # one of selfplay.JOBS

    def result(self, i: int) -> Games:
        """Actor ``i``'s answer to its last job."""
        out: Games = self.ray.get(self.pending[i])
        return out

    def close(self) -> None:
        """Stop the actors."""
        for a in self.actors:
            self.ray.kill(a)


class LadderRounds:
    """Ladder rounds (``ladder_rounds``): the workers and the learner each play a share of the round's
    games with the latest weights, and alpha-beta labels every position met."""

    def __init__(self, workers: Any, cfg: AlphaZeroConfig, game: Game, net: Any) -> None:
        self.workers, self.cfg, self.game, self.net = workers, cfg, game, net
        self.opponents = list(cfg.ladder_opponents or cfg.eval_opponents)
        """The ladder played, in turn: ``ladder_opponents``, else ``eval_opponents``."""
        self.labeller: Any = None
        """The learner's own labeller (its table and cache kept between rounds), made at its first round."""

    def round(self, weights: bytes, index: int) -> Games:
        """Round ``index`` (it seeds the openings and the moves sampled) with ``weights``, the learner's."""
        from zerosum.training.selfplay import ladder_games, ladder_labeller

        cfg, n = self.cfg, len(self.workers)
        share = shares(cfg.ladder_games, n + 1)  # the learner plays the last share
        seed = cfg.seed * 7919 + 100_003 * (index + 1)
        for i in range(n):
            self.workers.submit(i, ("ladder", weights, share[i], self.opponents, cfg.label_depth, seed + i,
                                    cfg.label_options()))
        if self.labeller is None:
            self.labeller = ladder_labeller(self.game, cfg.label_depth, cfg.label_options())
        own = ladder_games(self.game, self.net, self.labeller, share[n], self.opponents, seed + n)
        return _concat([self.workers.result(i) for i in range(n)] + [own])


def shares(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` whole shares that differ by at most one, the larger first."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def _concat(parts: list[Games]) -> Games:
    return Games(np.concatenate([p.obs for p in parts]), np.concatenate([p.mask for p in parts]),
                 np.concatenate([p.policy for p in parts]), np.concatenate([p.value for p in parts]),
                 games=sum(p.games for p in parts), moves=sum(p.moves for p in parts),
                 simulations=sum(p.simulations for p in parts), seconds=max(p.seconds for p in parts),
                 outcomes=tuple(int(sum(p.outcomes[k] for p in parts)) for k in range(3)),  # type: ignore[arg-type]
                 kept=sum(p.kept for p in parts))


PROGRESS_FIELDS = ("iteration", "seconds", "games", "positions", "games_per_s", "sims_per_s", "policy_loss",
                   "value_loss", "buffer", "learner_steps", "selfplay_seconds", "learn_seconds")
"""The columns of progress.csv (one row per iteration)."""
EVAL_FIELDS = ("iteration", "seconds", "opponent", "games", "wins", "draws", "losses", "score")
"""The columns of eval.csv (one row per evaluation and opponent)."""


def _append_csv(path: Path, fields: tuple[str, ...], row: dict[str, Any]) -> None:
    new = not path.is_file()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerow(row)
        fh.flush()
        os.fsync(fh.fileno())


def _truncate_csv(path: Path, iteration: int) -> None:
    """Drop rows past ``iteration`` (written by an iteration that a kill cut short)."""
    if not path.is_file():
        return
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
        fields = rows[0].keys() if rows else None
    if fields is None:
        return
    keep = [r for r in rows if int(r["iteration"]) <= iteration]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(fields))
    w.writeheader()
    w.writerows(keep)
    _atomic_bytes(path, buf.getvalue().encode())


def plot_scores(out: Path) -> Path | None:
    """``out/score.png``: each opponent's evaluation score against wall-clock minutes (None without
    matplotlib or evaluations)."""
    path = out / "eval.csv"
    if not path.is_file():
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    for opp in dict.fromkeys(r["opponent"] for r in rows):
        pts = [(float(r["seconds"]) / 60, float(r["score"])) for r in rows if r["opponent"] == opp]
        ax.plot(*zip(*pts), marker="o", label=opp)
    ax.set_xlabel("wall-clock minutes")
    ax.set_ylabel("score of the network alone (sims=0)")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    png = out / "score.png"
    tmp = out / "score.tmp.png"
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, png)
    return png


def _tensorboard(out: Path | None, cfg: AlphaZeroConfig) -> Any:
    import importlib.util

    if out is None or not cfg.tensorboard or importlib.util.find_spec("tensorboard") is None:
        return None
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(str(out / "tb"))


def _labels(workers: Any, cfg: AlphaZeroConfig, game: Game, path: Path | None, log: Any) -> Games:
    """The run's alpha-beta labels: from ``path`` when an earlier start made them, else labelled
    by the workers (split between them) and saved there."""
    from zerosum.training.labeller import VALUE_SCALES, Dataset, DatasetError, label_dataset, load_dataset, save_dataset

    options = cfg.label_options()
    if path is not None and path.is_file():
        try:
            d = load_dataset(path, game)
            same = d.meta.get("depth") == cfg.label_depth and all(bool(d.meta.get(k)) == v for k, v in options.items())
            if len(d) >= cfg.labels and same:
                return Games(d.obs[: cfg.labels], d.mask[: cfg.labels], d.policy[: cfg.labels], d.value[: cfg.labels])
        except DatasetError:
            pass
    n = len(workers)
    t0 = time.perf_counter()
    share = shares(cfg.labels, n + 1)  # the learner labels the last share: it has nothing else to do yet
    for i in range(n):
        workers.submit(i, ("label", share[i], cfg.label_depth, cfg.seed * 7919 + i, options))
    own = label_dataset(game, share[n], depth=cfg.label_depth, seed=cfg.seed * 7919 + n, **options)
    data = _concat([workers.result(i) for i in range(n)] + [Games(own.obs, own.mask, own.policy, own.value)])
    log(f"labelled {len(data):,} positions at depth {cfg.label_depth} in {time.perf_counter() - t0:.1f} s "
        f"({n} worker(s) and the learner)", flush=True)
    if path is not None:
        save_dataset(path, Dataset(data.obs, data.mask, data.policy, data.value,
                                   {"format": "zerosum-labels", "game": game.name, "variant": dict(game.variant),
                                    "depth": cfg.label_depth, "value_scale": VALUE_SCALES.get(game.name, 10.0),
                                    "positions": len(data), "seed": cfg.seed, **options}))
    return data


__all__ = ["EVAL_FIELDS", "PROGRESS_FIELDS", "LadderRounds", "LocalWorkers", "RayWorkers", "plot_scores", "shares"]
