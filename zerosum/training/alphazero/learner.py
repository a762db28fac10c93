"""AlphaZero's learner: the network's optimizer and its minibatch steps on the replay buffer
(cross-entropy to the policy targets over the legal moves, squared error to the value targets,
AdamW; each sample under a random board symmetry with ``symmetry``).

The network the games play (:attr:`Learner.net`) rests on the CPU. On a CPU learner the steps
train it in place; on a GPU they train a copy that stays on the GPU with the optimizer for the
whole run (:attr:`Learner.device_net`), and each call of :meth:`Learner.train` copies its
weights back into the CPU network: no module moves between devices, and the optimizer's
moments stay beside their parameters."""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.alphazero.config import AlphaZeroConfig
from zerosum.training.alphazero.data import ReplayBuffer


class Learner:
    """The network, its optimizer and one training step (policy cross-entropy + value MSE)."""

    def __init__(self, game: Game, config: AlphaZeroConfig, net: Any) -> None:
        from zerosum.nets import resolve_device

        self.game, self.net = game, net
        self.cfg = cfg = config.learner
        """The learner's settings (the run's ``learner`` group)."""
        self.device = resolve_device(cfg.device)
        """The ``torch.device`` of the steps."""
        self.device_net = net if self.device.type == "cpu" else copy.deepcopy(net).to(self.device)
        """The network the steps train: :attr:`net` itself on a CPU learner, else a copy kept on
        :attr:`device` for the whole run (its weights copied into :attr:`net` after each :meth:`train`)."""
        self.opt = self._optimizer()
        """The AdamW optimizer over the network's parameters (``lr`` and ``weight_decay`` from ``cfg``)."""
        self.sym = None
        """The game's board symmetries when ``cfg.symmetry`` (each sample trained under a random one), else None."""
        if cfg.symmetry:
            from zerosum.training.symmetry import board_symmetries

            self.sym = board_symmetries(game)
        self.steps = 0
        """Minibatch steps taken so far (restored from a checkpoint on resume)."""

    @contextmanager
    def alone(self) -> Iterator[None]:
        """While no worker runs: torch takes ``cfg.threads`` threads, and its own count after."""
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self.cfg.threads)
        try:
            yield
        finally:
            torch.set_num_threads(before)

    def load_weights(self, weights: dict[str, Any]) -> None:
        """Give the network (and its copy on the device) the weights ``weights`` (a state dict)."""
        self.net.load_state_dict(weights)
        if self.device_net is not self.net:
            self.device_net.load_state_dict(weights)

    def load_optimizer(self, state: dict[str, Any]) -> None:
        """Restore the optimizer's state (a resumed run), its moments on :attr:`device` beside the steps."""
        self.opt.load_state_dict(state)  # torch puts each moment on its parameter's device

    def restart(self, weights: dict[str, Any]) -> None:
        """Train afresh: the network's weights become ``weights`` and the optimizer starts anew
        (its moments cleared); :attr:`steps` keeps counting."""
        self.load_weights(weights)
        self.opt = self._optimizer()

    def _optimizer(self) -> Any:
        """A new AdamW over the trained network's parameters, ``lr`` and ``weight_decay`` from ``cfg``."""
        import torch

        return torch.optim.AdamW(self.device_net.parameters(), lr=self.cfg.lr, weight_decay=self.cfg.weight_decay)

    def _augment(self, rng: np.random.Generator, obs: np.ndarray, mask: np.ndarray,
                 policy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each sample under a random symmetry: planes, mask and policy mapped alike."""
        sym = self.sym
        if sym is None or len(obs.shape) != 4:
            return obs, mask, policy
        ks = rng.integers(0, len(sym), obs.shape[0])
        n, rows, cols, planes = obs.shape
        cell_idx = sym.inverse_cells[ks]  # [n, rows*cols]
        obs = np.take_along_axis(obs.reshape(n, rows * cols, planes), cell_idx[:, :, None], axis=1).reshape(obs.shape)
        act_idx = sym.inverse_actions[ks]
        return obs, np.take_along_axis(mask, act_idx, axis=1), np.take_along_axis(policy, act_idx, axis=1)

    def train(self, buffer: ReplayBuffer, steps: int, rng: np.random.Generator) -> dict[str, float]:
        """``steps`` minibatch steps; the mean policy and value losses."""
        import torch

        if buffer.size == 0 or steps == 0:
            return {"policy_loss": float("nan"), "value_loss": float("nan")}
        dev, net = self.device, self.device_net
        net.train()
        pl = torch.zeros((), device=dev)
        vl = torch.zeros((), device=dev)
        try:
            for _ in range(steps):
                batch = buffer.sample(rng, self.cfg.batch_size)
                obs, mask, pol = self._augment(rng, batch.obs, batch.mask, batch.policy)
                val = batch.value
                x = torch.from_numpy(np.ascontiguousarray(obs)).to(dev).float()  # int8 travels, float on the device
                logits, value = net(x)
                legal = torch.from_numpy(np.ascontiguousarray(mask)).to(dev).bool()
                logits = logits.masked_fill(~legal, -1e9)
                target = torch.from_numpy(np.ascontiguousarray(pol)).to(dev)
                p_loss = -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
                v_loss = torch.mean((value.reshape(-1) - torch.from_numpy(val).to(dev)) ** 2)
                loss = p_loss + self.cfg.value_weight * v_loss
                self.opt.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                self.opt.step()
                pl += p_loss.detach()
                vl += v_loss.detach()
                self.steps += 1
        finally:
            net.eval()
            if net is not self.net:  # the games play the CPU network: the trained weights go there
                self.net.load_state_dict(net.state_dict())
        return {"policy_loss": float(pl) / steps, "value_loss": float(vl) / steps}

    def anneal(self, buffer: ReplayBuffer, steps: int, rng: np.random.Generator, chunk: int = 50) -> dict[str, float]:
        """``steps`` minibatch steps with the learning rate lowered from ``cfg.lr`` to 0 along a
        cosine (set every ``chunk`` steps, at the chunk's middle); the rate is ``cfg.lr`` again after."""
        done, pl, vl = 0, 0.0, 0.0
        try:
            while done < steps:
                n = min(chunk, steps - done)
                for group in self.opt.param_groups:
                    group["lr"] = self.cfg.lr * 0.5 * (1.0 + math.cos(math.pi * (done + n / 2) / steps))
                losses = self.train(buffer, n, rng)
                pl, vl, done = pl + n * losses["policy_loss"], vl + n * losses["value_loss"], done + n
        finally:
            for group in self.opt.param_groups:
                group["lr"] = self.cfg.lr
        return {"policy_loss": pl / max(steps, 1), "value_loss": vl / max(steps, 1)}


__all__ = ["Learner"]
