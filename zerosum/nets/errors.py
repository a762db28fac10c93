"""The errors of the networks and their checkpoints (no torch needed to raise or catch them)."""

from __future__ import annotations

import re
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


def check_device_name(device: Any) -> str:
    """``device`` when it is a string naming ``cpu``, ``cuda`` or ``cuda:N``, else NetConfigError
    naming what is allowed. No torch needed: the training configs check their ``device`` with it
    when made, and :func:`~zerosum.nets.resolve_device` before it asks torch for the GPU."""
    if not isinstance(device, str) or not re.fullmatch(r"(cpu|cuda)(:\d+)?", device):
        raise NetConfigError(f"device={device!r} is not allowed: 'cpu', 'cuda' or 'cuda:N'")
    return device


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
