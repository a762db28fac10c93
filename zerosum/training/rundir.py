"""A run's directory: what a run already there was trained with, and whether a new run may use it.

A directory holding a run is refused unless the run is resumed (with the same settings) or
overwritten, before anything is written. A setting that an older run's record lacks (an
option added since) compares as its default, which is what that run trained with.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Protocol

from zerosum.games.kit import ZerosumError


class TrainingSetupError(ZerosumError, ValueError):
    """Training refused before it starts: a bad opponent, or an output directory holding another run."""


class RunSettings(Protocol):
    """A method's config (:mod:`zerosum.training.methods`): made with no arguments, it holds the defaults."""

    algo: str
    """The run's algorithm (run.json's ``algo``: which method's run a directory holds)."""
    ALGOS: ClassVar[tuple[str, ...]]
    """The ``algo`` values of this config's method."""
    RESUMABLE: ClassVar[tuple[str, ...]]
    """The settings a resumed run may change (how long it learns, not what from)."""
    CHECKPOINT: ClassVar[str]
    """The file a run needs to be resumed (``model.zip``, ``state.pt``)."""

    def __init__(self) -> None: ...

    def settings(self) -> dict[str, Any]:
        """The settings that define what a run learns, as run.json writes them."""
        ...


def defaults(cfg: RunSettings) -> dict[str, Any]:
    """The default of every setting of ``cfg``'s class, as run.json writes it."""
    return {k: v for k, v in type(cfg)().settings().items() if k not in cfg.RESUMABLE}


def existing_settings(out: Path, resumable: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The settings of the run already in ``out`` (run.json, or model.json of an older run), those in
    ``resumable`` left out, or None."""
    for name, key in (("run.json", "settings"), ("model.json", "config")):
        path = out / name
        if path.is_file():
            try:
                data = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise TrainingSetupError(f"{out} holds an unreadable {name} ({exc}); give another --out, "
                                         "or --overwrite") from None
            found = data.get(key, {}) if isinstance(data, dict) else {}
            return {k: v for k, v in found.items() if k not in resumable}
    return None


def check_out(cfg: RunSettings, out: Path, *, resume: bool, overwrite: bool) -> bool:
    """Refuse an output directory holding a run, unless resuming it (same settings, same method) or
    overwriting; True when resuming. The method's config says which settings may change
    (``RESUMABLE``) and which file a resumed run needs (``CHECKPOINT``); a directory holding
    another method's run is never resumed."""
    if resume and overwrite:
        raise TrainingSetupError("give either resume or overwrite, not both")
    old = existing_settings(out, cfg.RESUMABLE) if out.is_dir() else None
    if old is None:
        if resume:
            raise TrainingSetupError(f"nothing to resume in {out}: no run.json or model.json there")
        return False
    if overwrite:
        return False
    new = cfg.settings()
    old_algo = old.get("algo", "maskable_ppo")  # a run from before algo was recorded: MaskablePPO's
    if old_algo not in cfg.ALGOS:
        raise TrainingSetupError(f"{out} holds a {old_algo} run, and this is a {cfg.algo} run"
                                 + (": --resume continues a run only with its own --algo" if resume else "")
                                 + "; nothing was written. Give another --out, or --overwrite to replace it")
    old = {**{k: v for k, v in defaults(cfg).items() if k in new}, **old}  # options added since: their defaults
    diff = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    if resume:
        if diff:
            raise TrainingSetupError(f"cannot resume the run in {out}: its settings differ in "
                                     + "; ".join(f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in diff))
        if not (out / cfg.CHECKPOINT).is_file():
            raise TrainingSetupError(f"cannot resume the run in {out}: it has no {cfg.CHECKPOINT} yet (it stopped "
                                     "before saving); start it again with overwrite")
        return True
    what = ("with different settings (" + "; ".join(f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in diff[:6])
            + (" ..." if len(diff) > 6 else "") + ")") if diff else "with the same settings"
    raise TrainingSetupError(f"{out} already holds a run {what}; nothing was written. Give another --out, "
                             "--resume to continue it (same settings), or --overwrite to replace it")


__all__ = ["RunSettings", "TrainingSetupError", "check_out", "defaults", "existing_settings"]
