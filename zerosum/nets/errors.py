"""The errors of the networks and their checkpoints (no torch needed to raise or catch them)."""

from __future__ import annotations

from typing import Any

from zerosum.games.kit.errors import ZerosumError

TRAIN_EXTRA = "pip install 'zerosum[train]'"
"""The install that brings torch (and the rest of the training stack)."""


class CheckpointError(ZerosumError, ValueError):
    """A checkpoint that is missing, corrupt, or made for another game, variant, observation
    shape or number of actions (SB3 checkpoints and network checkpoints alike)."""


class MissingExtraError(ZerosumError, ImportError):
    """An optional dependency (torch, stable-baselines3, sb3-contrib) is not installed."""


class NetConfigError(ZerosumError, ValueError):
    """A network configuration, device or network that is not allowed; the message says what is."""


def import_torch() -> Any:
    """Import torch (one thread per process the first time), or say which pip install brings it."""
    global _THREADS_SET
    try:
        import torch
    except ImportError as exc:
        raise MissingExtraError(f"networks need torch ({exc}); install it with: {TRAIN_EXTRA}") from None
    if not _THREADS_SET:
        _THREADS_SET = True
        torch.set_num_threads(1)
    return torch


_THREADS_SET = False
