"""The learner's device (``device``, ``--device``): the steps run there and the network rests on the
CPU; a resumed optimizer continues as if never stopped; a device that is not allowed, or that torch
does not see, is refused before anything is written (for AlphaZero and PPO runs alike)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.training.alphazero import AlphaZeroConfig, Learner, ReplayBuffer
from zerosum.training.ppo.config import TrainConfig
from tests.inprocess import zerosum_train
from zerosum.training.alphazero import Positions

torch = pytest.importorskip("torch")


def _buffer(game, n=64, seed=0):
    rng = np.random.default_rng(seed)
    obs = rng.integers(0, 2, (n, *game.observation_shape)).astype(np.int8)
    mask = rng.integers(0, 2, (n, game.num_actions)).astype(np.int8)
    mask[:, 0] = 1
    policy = mask / mask.sum(axis=1, keepdims=True)
    buf = ReplayBuffer(n, tuple(game.observation_shape), game.num_actions)
    buf.add(Positions(obs, mask, policy.astype(np.float32), rng.uniform(-1, 1, n).astype(np.float32)))
    return buf


def _learner(game, device="cpu", seed=0):
    from zerosum.nets import NetConfig, build_network

    torch.manual_seed(seed)
    cfg = AlphaZeroConfig(game=game.name, batch_size=16, iterations=1, device=device)
    return Learner(game, cfg, build_network(game, NetConfig(kind="resnet", blocks=1, channels=8)))


def _saved(state):
    """``state`` through torch.save and torch.load, as a run's state.pt keeps it."""
    buf = io.BytesIO()
    torch.save(state, buf)
    buf.seek(0)
    return torch.load(buf, map_location="cpu", weights_only=False)


def _weights(learner):
    return {k: v.detach().clone() for k, v in learner.net.state_dict().items()}


def test_a_resumed_optimizer_continues_as_if_never_stopped():
    game = make_game("connect_four")
    buf = _buffer(game)
    a = _learner(game)
    a.train(buf, 3, np.random.default_rng(1))
    b = _learner(game, seed=9)  # other weights and a new optimizer, then the saved ones
    b.net.load_state_dict(_weights(a))
    b.load_optimizer(_saved(a.opt.state_dict()))
    a.train(buf, 2, np.random.default_rng(2))
    b.train(buf, 2, np.random.default_rng(2))
    wa, wb = _weights(a), _weights(b)
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    assert all(p.device.type == "cpu" for p in b.net.parameters()) and not b.net.training


def test_a_device_not_allowed_is_refused_by_both_kinds_of_run():
    for bad in ("tpu", "cuda:x", "", 0):
        with pytest.raises(ValueError, match="is not allowed: 'cpu', 'cuda' or 'cuda:N'"):
            AlphaZeroConfig(device=bad)
        with pytest.raises(ValueError, match="is not allowed: 'cpu', 'cuda' or 'cuda:N'"):
            TrainConfig(device=bad)
    assert AlphaZeroConfig(device="cuda:1").learner.device == "cuda:1"


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
@pytest.mark.parametrize("args", [["--algo", "alphazero", "--recipe", "az_connect_four"], ["--recipe", "tictactoe"]])
def test_cuda_without_a_gpu_is_refused_before_anything_is_written(tmp_path, args):
    r = zerosum_train(*args, "--device", "cuda", "--out", "run", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "device='cuda': torch" in r.stderr and "sees no GPU here" in r.stderr and "use device='cpu'" in r.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_steps_follow_the_cpu_steps_and_leave_the_network_on_the_cpu():
    game = make_game("connect_four")
    buf = _buffer(game)
    cpu, gpu = _learner(game), _learner(game, "cuda")
    w0 = _weights(cpu)
    lc = cpu.train(buf, 5, np.random.default_rng(3))
    lg = gpu.train(buf, 5, np.random.default_rng(3))
    assert lg["policy_loss"] == pytest.approx(lc["policy_loss"], rel=1e-3)
    assert lg["value_loss"] == pytest.approx(lc["value_loss"], rel=1e-3, abs=1e-5)
    wc, wg = _weights(cpu), _weights(gpu)
    assert all(v.device.type == "cpu" for v in wg.values())
    # The GPU's convolutions round differently (TF32), and Adam scales each tiny gradient up to a
    # full step, so weights differ by up to a step; the two networks must have moved alike.
    dc, dg = (torch.cat([(w[k] - w0[k]).float().ravel() for k in w0 if w0[k].is_floating_point()]) for w in (wc, wg))
    assert float(torch.nn.functional.cosine_similarity(dc, dg, dim=0)) > 0.95
    again = _learner(game, "cuda", seed=9)
    again.net.load_state_dict(wg)
    again.load_optimizer(_saved(gpu.opt.state_dict()))  # a run saved on the GPU, resumed on it
    again.train(buf, 2, np.random.default_rng(4))
    assert all(p.device.type == "cpu" for p in again.net.parameters())
