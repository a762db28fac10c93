"""AlphaZero's learner: the replay buffer, the training step, and the evaluation of the network alone."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.azconfig import AlphaZeroConfig
from zerosum.training.selfplay import Games

class ReplayBuffer:
    """The last ``capacity`` positions (a ring of arrays)."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], num_actions: int) -> None:
        self.capacity = capacity
        """How many positions the buffer holds at most; older ones are overwritten."""
        self.obs = np.zeros((capacity, *obs_shape), np.int8)
        """The observation planes, ``[capacity, *obs_shape]`` int8."""
        self.mask = np.zeros((capacity, num_actions), np.int8)
        """The legal-move masks, ``[capacity, num_actions]`` int8 (1 legal)."""
        self.policy = np.zeros((capacity, num_actions), np.float32)
        """The search's visit distributions (the policy targets), ``[capacity, num_actions]``."""
        self.value = np.zeros(capacity, np.float32)
        """The value targets (the result from the side to move, or a label's value), ``[capacity]``."""
        self.size = 0
        """How many rows are filled (grows to ``capacity``); :meth:`sample` draws from these."""
        self.next = 0
        """The row the next position goes to (the oldest once the ring is full)."""

    def add(self, g: Games) -> None:
        """Append positions, overwriting the oldest."""
        n = len(g)
        if n >= self.capacity:
            sl = slice(n - self.capacity, n)
            self.obs[:], self.mask[:], self.policy[:], self.value[:] = g.obs[sl], g.mask[sl], g.policy[sl], g.value[sl]
            self.size, self.next = self.capacity, 0
            return
        idx = (self.next + np.arange(n)) % self.capacity
        self.obs[idx], self.mask[idx], self.policy[idx], self.value[idx] = g.obs, g.mask, g.policy, g.value
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        """``n`` positions drawn uniformly (with replacement)."""
        idx = rng.integers(0, self.size, n)
        return self.obs[idx], self.mask[idx], self.policy[idx], self.value[idx]

    def oldest_first(self) -> Games:
        """The positions held, oldest first (a full ring starts at :attr:`next`)."""
        start = self.next % self.capacity if self.size and self.size == self.capacity else 0
        order = (start + np.arange(self.size)) % max(self.capacity, 1)
        return Games(self.obs[order], self.mask[order], self.policy[order], self.value[order])

    def state(self) -> dict[str, Any]:
        """The buffer as plain arrays (only the filled part)."""
        return {"obs": self.obs[: self.size].copy(), "mask": self.mask[: self.size].copy(),
                "policy": self.policy[: self.size].copy(), "value": self.value[: self.size].copy(),
                "next": self.next, "size": self.size}

    def restore(self, st: dict[str, Any]) -> None:
        """Undo :meth:`state`."""
        n = int(st["size"])
        self.obs[:n], self.mask[:n], self.policy[:n], self.value[:n] = st["obs"], st["mask"], st["policy"], st["value"]
        self.size, self.next = n, int(st["next"])


class Learner:
    """The network, its optimizer and one training step (policy cross-entropy + value MSE)."""

    def __init__(self, game: Game, cfg: AlphaZeroConfig, net: Any) -> None:
        from zerosum.nets import resolve_device

        self.game, self.cfg, self.net = game, cfg, net
        self.device = resolve_device(cfg.device)
        """The ``torch.device`` of the steps: the network goes there for :meth:`train` and back to the CPU after."""
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
        """While no worker runs: torch takes ``cfg.learner_threads`` threads, and its own count after."""
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self.cfg.learner_threads)
        try:
            yield
        finally:
            torch.set_num_threads(before)

    def load_optimizer(self, state: dict[str, Any]) -> None:
        """Restore the optimizer's state (a resumed run), its moments on :attr:`device` beside the steps."""
        self.net.to(self.device)
        try:
            self.opt.load_state_dict(state)  # torch puts each moment on its parameter's device
        finally:
            self.net.to("cpu")

    def restart(self, weights: dict[str, Any]) -> None:
        """Train afresh: the network's weights become ``weights`` and the optimizer starts anew
        (its moments cleared); :attr:`steps` keeps counting."""
        self.net.load_state_dict(weights)
        self.opt = self._optimizer()

    def _optimizer(self) -> Any:
        """A new AdamW over the network's parameters, ``lr`` and ``weight_decay`` from ``cfg``."""
        import torch

        return torch.optim.AdamW(self.net.parameters(), lr=self.cfg.lr, weight_decay=self.cfg.weight_decay)

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
        dev = self.device
        self.net.to(dev).train()
        pl = torch.zeros((), device=dev)
        vl = torch.zeros((), device=dev)
        try:
            for _ in range(steps):
                obs, mask, pol, val = buffer.sample(rng, self.cfg.batch_size)
                obs, mask, pol = self._augment(rng, obs, mask, pol)
                x = torch.from_numpy(np.ascontiguousarray(obs)).to(dev).float()  # int8 travels, float on the device
                logits, value = self.net(x)
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
            self.net.to("cpu").eval()  # the network rests on the CPU, where the games play it
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


def greedy_policy(net: Any, game: Game) -> Any:
    """The network alone (``sims=0``) as a policy callable for :func:`zerosum.evaluate`: the
    legal move with the highest logit."""
    from zerosum.training.selfplay import network_logits

    forward = network_logits(net)

    def act(observation: dict[str, np.ndarray]) -> int:
        mask = np.asarray(observation["action_mask"]) > 0
        logits = forward(observation["observation"], mask)
        logits[~mask] = -np.inf
        return int(np.argmax(logits))

    return act


def _wrap(policy: Any, game: Game) -> Any:
    from zerosum.agents.policies import as_policy

    _, agent = as_policy(policy, game, name="alphazero")
    return agent


def evaluate_network(net: Any, game: Game, cfg: AlphaZeroConfig, seed: int) -> dict[str, Any]:
    """The network alone against the ladder (and, with ``eval_exhaustive``, every opponent reply)."""
    from zerosum.evaluation.evaluate import evaluate

    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    policy = greedy_policy(net, game)
    if cfg.eval_games:
        report = evaluate(policy, game, opponents=list(cfg.eval_opponents), games=cfg.eval_games, seed=seed,
                          opening_plies=cfg.eval_openings, name="alphazero")
        for r in report.results:
            t = r.total
            rows.append({"opponent": r.opponent, "games": t.games, "wins": t.wins, "draws": t.draws,
                         "losses": t.losses, "score": (t.wins + 0.5 * t.draws) / max(t.games, 1)})
    summary: dict[str, Any] = {"rows": rows}
    losses = sum(r["losses"] for r in rows)
    games = sum(r["games"] for r in rows)
    summary.update(losses=losses, games=games,
                   score=float(np.mean([r["score"] for r in rows])) if rows else float("nan"))
    if cfg.eval_exhaustive:
        from zerosum.evaluation.exhaustive import worst_case

        agent = _wrap(policy, game)
        walks = [worst_case(agent, game, seat) for seat in (0, 1)]
        summary["lines"] = sum(w.lines for w in walks)
        summary["lines_lost"] = sum(w.losses for w in walks)
    summary["seconds"] = time.perf_counter() - start
    return summary


def _better(new: dict[str, Any], old: dict[str, Any] | None) -> bool:
    """Fewer lost lines (exhaustive), then a higher mean score; ties go to the newer."""
    if old is None:
        return True
    key_new = (-new.get("lines_lost", 0), new["score"])
    key_old = (-old.get("lines_lost", 0), old["score"])
    return key_new >= key_old



__all__ = ["Learner", "ReplayBuffer", "evaluate_network", "greedy_policy"]
