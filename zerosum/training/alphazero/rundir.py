"""An AlphaZero run's directory: its files, each written atomically, and the run state that resumes it.

Files (every one written atomically, every iteration)::

    run.json                 the settings (``algo: alphazero``), written before training starts
    model.pt, model.json     the latest network and its sidecar (zerosum.nets format)
    best.pt, best.json       the network the periodic evaluation picked (``best`` in the sidecar)
    state.pt                 what --resume needs (:class:`RunState`)
    labels.npz               the alpha-beta labels (kept so a resumed run does not redo them)
    progress.csv, eval.csv   per iteration; per evaluation and opponent
    score.png                evaluation score against wall-clock time
    tb/                      TensorBoard curves (when tensorboard is installed)

A directory holding a run is refused unless the run is resumed (same settings) or overwritten,
before anything is written (:func:`zerosum.training.rundir.check_out`, the check of every method).
A resumed run's CSVs are cut back to the iteration its state.pt holds (:func:`truncate_csv`):
rows a killed iteration wrote go.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.training.alphazero.config import AlphaZeroConfig
from zerosum.training.rundir import TrainingSetupError


def atomic_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file beside it, synced, then renamed)."""
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


def atomic_json(path: Path, data: Any) -> None:
    """:func:`atomic_bytes` of ``data`` as indented JSON."""
    atomic_bytes(path, (json.dumps(data, indent=2, default=list) + "\n").encode())


# ---- the run state --------------------------------------------------------------------------
STATE_VERSION = 2
"""The version of state.pt this zerosum writes. 1: zerosum 0.2.0 (no ``version`` key; a run from
before ladder rounds lacks ``ladder_rounds`` and ``annealed``); 2: the same keys and ``version``."""


@dataclass
class RunState:
    """What ``--resume`` needs, saved as state.pt after every ladder round and iteration: a resumed run
    starts from the last one finished, its replay buffer kept, not rebuilt."""

    net: dict[str, Any]
    """The network's state dict."""
    opt: dict[str, Any]
    """The optimizer's state dict."""
    learner_steps: int
    """Minibatch steps taken."""
    buffer: dict[str, Any]
    """The replay buffer (:meth:`~zerosum.training.alphazero.data.ReplayBuffer.state`)."""
    rng: np.random.Generator
    """The learner's sampling generator."""
    iteration: int
    """Self-play iterations finished."""
    games: int
    """Self-play games played."""
    seconds: float
    """Wall time so far, over every resumption."""
    best: dict[str, Any] | None
    """The evaluation that picked best.pt."""
    last_eval: dict[str, Any] | None
    """The latest evaluation."""
    labelled: bool
    """Whether the labels before self-play were trained on."""
    ladder_rounds: int = 0
    """Ladder rounds finished."""
    annealed: bool = False
    """Whether the final steps were taken after the last round and iteration finished."""

    REQUIRED = ("net", "opt", "learner_steps", "buffer", "rng", "iteration", "games", "seconds", "best",
                "last_eval", "labelled")
    """The keys every version of state.pt holds."""

    def to_dict(self) -> dict[str, Any]:
        """What state.pt holds: every field by its name, and ``version``."""
        return {"version": STATE_VERSION, **{f.name: getattr(self, f.name) for f in dataclasses.fields(self)}}

    @classmethod
    def from_dict(cls, st: Any, path: Path) -> RunState:
        """The state read from ``path``; TrainingSetupError saying why when this zerosum cannot resume it."""
        if not isinstance(st, dict):
            raise TrainingSetupError(f"cannot resume from {path}: it holds a {type(st).__name__}, not a run state")
        version = st.get("version", 1)
        if not isinstance(version, int) or not 1 <= version <= STATE_VERSION:
            raise TrainingSetupError(f"cannot resume from {path}: its run state is version {version!r}, and this "
                                     f"zerosum reads versions 1 to {STATE_VERSION} (a newer zerosum wrote it?); "
                                     "resume it with the zerosum that wrote it, or start again with --overwrite")
        missing = [k for k in cls.REQUIRED if k not in st]
        if missing:
            raise TrainingSetupError(f"cannot resume from {path}: its run state (version {version}) lacks "
                                     f"{', '.join(missing)}; start again with --overwrite")
        return cls(net=st["net"], opt=st["opt"], learner_steps=int(st["learner_steps"]), buffer=st["buffer"],
                   rng=st["rng"], iteration=int(st["iteration"]), games=int(st["games"]),
                   seconds=float(st["seconds"]), best=st["best"], last_eval=st["last_eval"],
                   labelled=bool(st["labelled"]), ladder_rounds=int(st.get("ladder_rounds", 0)),
                   annealed=bool(st.get("annealed", False)))


def save_state(path: Path, state: RunState) -> None:
    """Write ``state`` to ``path`` (state.pt) atomically."""
    import torch

    buf = io.BytesIO()
    torch.save(state.to_dict(), buf)
    atomic_bytes(path, buf.getvalue())


def load_state(path: Path) -> RunState:
    """Read the state.pt at ``path`` (:meth:`RunState.from_dict` says why one cannot be resumed)."""
    import torch

    try:
        st = torch.load(path, weights_only=False, map_location="cpu")
    except (OSError, RuntimeError, EOFError, ValueError) as exc:
        raise TrainingSetupError(f"cannot resume from {path}: unreadable ({exc}); start again with --overwrite"
                                 ) from None
    return RunState.from_dict(st, path)


# ---- the curves -----------------------------------------------------------------------------
PROGRESS_FIELDS = ("iteration", "seconds", "games", "positions", "games_per_s", "sims_per_s", "policy_loss",
                   "value_loss", "buffer", "learner_steps", "selfplay_seconds", "learn_seconds")
"""The columns of progress.csv (one row per iteration)."""
EVAL_FIELDS = ("iteration", "seconds", "opponent", "games", "wins", "draws", "losses", "score")
"""The columns of eval.csv (one row per evaluation and opponent)."""


def append_csv(path: Path, fields: tuple[str, ...], row: dict[str, Any]) -> None:
    """Append ``row`` to the CSV at ``path`` (its header first when new), synced."""
    new = not path.is_file()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerow(row)
        fh.flush()
        os.fsync(fh.fileno())


def truncate_csv(path: Path, iteration: int) -> None:
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
    atomic_bytes(path, buf.getvalue().encode())


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


def tensorboard(out: Path | None, cfg: AlphaZeroConfig) -> Any:
    """A TensorBoard writer into ``out/tb`` (None without a directory, with ``tensorboard=False`` or
    without the tensorboard package)."""
    import importlib.util

    if out is None or not cfg.run.tensorboard or importlib.util.find_spec("tensorboard") is None:
        return None
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(str(out / "tb"))


def command_line() -> str:
    """The command line that started this run (``zerosum train ...`` when it came from the CLI)."""
    import shlex

    cli = sys.argv and (sys.argv[0].endswith("zerosum") or sys.argv[0].endswith(os.path.join("zerosum", "__main__.py")))
    return shlex.join(["zerosum", *sys.argv[1:]] if cli else sys.argv)


__all__ = ["EVAL_FIELDS", "PROGRESS_FIELDS", "STATE_VERSION", "RunState", "append_csv", "atomic_bytes", "atomic_json",
           "command_line", "load_state", "plot_scores", "save_state", "tensorboard", "truncate_csv"]
