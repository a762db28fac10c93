"""A torch network as the search's evaluator: ``ev(obs, mask) -> (logits, values)``.

The batched search (:mod:`zerosum.search.guided`) hands its leaves over as int8 arrays and
takes back numbers; :class:`NetworkEvaluator` is the one place they meet a network.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.nets.errors import NetConfigError, check_device_name, import_torch


def resolve_device(device: Any) -> Any:
    """A ``torch.device`` for ``"cpu"``, ``"cuda"`` or ``"cuda:N"``; NetConfigError naming what
    is allowed, or saying that torch sees no GPU."""
    torch = import_torch()
    dev = torch.device(check_device_name(str(device) if isinstance(device, torch.device) else device))
    if dev.type == "cpu":
        return dev
    if not torch.cuda.is_available():
        raise NetConfigError(f"device={device!r}: torch {torch.__version__} sees no GPU here "
                             "(torch.cuda.is_available() is False); use device='cpu'")
    if dev.index is not None and dev.index >= torch.cuda.device_count():
        raise NetConfigError(f"device={device!r}: torch sees {torch.cuda.device_count()} GPU(s), "
                             f"cuda:0 to cuda:{torch.cuda.device_count() - 1}")
    return dev


def legal_logits(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``logits`` as float64 with every illegal action (``masks`` 0) at -inf: one row or many."""
    scores = np.array(logits, dtype=np.float64)
    scores[np.asarray(masks) <= 0] = -np.inf
    return scores


def greedy_moves(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The network's greedy legal move, a row each: the legal action (``masks`` 1) with the highest
    logit, int64 ``[n]`` for ``logits`` and ``masks`` ``[n, num_actions]``. How a network plays
    alone (``sims=0``): the ``alphazero`` agent, a run's evaluation and its ladder games."""
    out: np.ndarray = np.argmax(legal_logits(logits, masks), axis=-1).astype(np.int64)
    return out


class NetworkEvaluator:
    """Evaluates leaves with ``net``: ``ev(obs, mask) -> (logits, values)``.

    ``obs`` is int8 ``[n, *observation_shape]`` (the env's planes from the mover's side),
    ``mask`` int8 ``[n, A]``; the answer is float32 ``logits [n, A]`` (illegal entries left
    as the network gives them: the search ignores them) and float32 ``values [n]`` in
    [-1, 1] for the player to move. The network runs in evaluation mode (a network left in
    training mode by a learner is evaluated in evaluation mode and left as it was) under
    ``torch.inference_mode`` in float32 on ``device`` (``"cpu"``, or ``"cuda"`` where torch
    sees a GPU; the network is moved there). ``threads`` sets torch's threads for this
    process (one by default: on a shared CPU, two threads were 5-100x slower than one);
    None leaves the setting alone.
    """

    def __init__(self, net: Any, device: str = "cpu", threads: int | None = 1) -> None:
        torch = import_torch()
        if not isinstance(net, torch.nn.Module):
            raise NetConfigError(f"net is a torch.nn.Module (from build_network or load_network); "
                                 f"got {type(net).__name__}")
        if threads is not None:
            if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
                raise NetConfigError(f"threads={threads!r} is not allowed: an int >= 1, or None")
            torch.set_num_threads(threads)
        self.device = resolve_device(device)
        """The ``torch.device`` the network runs on."""
        self.net = net.to(device=self.device, dtype=torch.float32).eval()
        """The network, in evaluation mode on ``device``."""
        self.calls = 0
        """Calls so far (batches evaluated)."""
        self.positions = 0
        """Positions evaluated so far."""

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits float32 ``[n, A]`` and values float32 ``[n]`` for ``n`` leaves."""
        import torch

        obs, mask = np.asarray(obs), np.asarray(mask)
        if obs.ndim < 2 or mask.ndim != 2 or obs.shape[0] != mask.shape[0]:
            raise NetConfigError(f"the evaluator takes obs [n, *observation_shape] and mask [n, num_actions] "
                                 f"with the same n; got obs {obs.shape} and mask {mask.shape}")
        n = obs.shape[0]
        self.calls += 1
        self.positions += n
        training = self.net.training  # a learner sharing the network may have left it in training mode
        if training:
            self.net.eval()
        try:
            with torch.inference_mode():
                x = torch.from_numpy(np.ascontiguousarray(obs)).to(self.device, torch.float32)
                logits, values = self.net(x)
                logits = logits.to("cpu", torch.float32).numpy()
                values = values.to("cpu", torch.float32).numpy().reshape(-1)
        finally:
            if training:
                self.net.train()
        if logits.shape != mask.shape or values.shape != (n,):
            raise NetConfigError(f"the network answered logits {logits.shape} and values {values.shape} for "
                                 f"{n} positions with {mask.shape[1]} actions; expected logits {mask.shape} "
                                 f"and values ({n},): was it built for this game?")
        return logits, values
