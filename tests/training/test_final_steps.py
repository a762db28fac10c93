"""The final annealed steps (``final_steps``): the learning rate falls from ``lr`` to 0 along a
cosine and comes back after; a run takes them once at its end, and again only after new rounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.training.alphazero import AlphaZeroConfig, Learner, ReplayBuffer
from zerosum.training.alphazero import Positions
from tests.inprocess import zerosum_train

pytest.importorskip("torch")


def test_anneal_lowers_the_rate_along_a_cosine_and_restores_it():
    from zerosum.nets import NetConfig, build_network

    game = make_game("tictactoe")
    cfg = AlphaZeroConfig(game="tictactoe", lr=0.01, batch_size=4, iterations=1)
    learner = Learner(game, cfg, build_network(game, NetConfig(kind="mlp", hidden=(8,))))
    buf = ReplayBuffer(16, tuple(game.observation_shape), 9)
    obs = np.zeros((16, *game.observation_shape), np.int8)
    buf.add(Positions(obs, np.ones((16, 9), np.int8), np.full((16, 9), 1 / 9, np.float32), np.zeros(16, np.float32)))
    seen: list[tuple[int, float]] = []
    plain = learner.train

    def train(buffer, steps, rng):
        seen.append((steps, learner.opt.param_groups[0]["lr"]))
        return plain(buffer, steps, rng)

    learner.train = train  # type: ignore[method-assign]
    losses = learner.anneal(buf, 120, np.random.default_rng(0), chunk=50)
    assert [n for n, _ in seen] == [50, 50, 20] and learner.steps == 120
    expected = [0.01 * 0.5 * (1 + math.cos(math.pi * mid / 120)) for mid in (25, 75, 110)]
    assert [lr for _, lr in seen] == pytest.approx(expected)
    assert seen[0][1] > seen[1][1] > seen[2][1] > 0  # falling, never below 0
    assert learner.opt.param_groups[0]["lr"] == 0.01  # back to cfg.lr for any later round
    assert math.isfinite(losses["policy_loss"]) and math.isfinite(losses["value_loss"])


def test_a_run_anneals_once_at_its_end_and_again_only_after_new_rounds(tmp_path):
    import torch

    args = ["--algo", "alphazero", "--game", "connect_four", "--net", "kind=mlp", "hidden=16", "--label-depth", "2",
            "--ladder-games", "2", "--ladder-steps", "2", "--final-steps", "3", "--eval-every", "1",
            "--eval-games", "2", "--eval-opponents", "random", "--no-tensorboard", "--iterations", "0",
            "--out", "run", "-v"]
    r = zerosum_train(*args, "--ladder-rounds", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "final: 3 learner steps, the learning rate annealed to 0" in r.stdout
    assert r.stdout.index("ladder   1") < r.stdout.index("final: 3")
    st = torch.load(tmp_path / "run" / "state.pt", weights_only=False)
    assert st["annealed"] is True and st["learner_steps"] == 2 + 3
    from zerosum.nets import load_network

    _, meta = load_network(tmp_path / "run" / "best.pt")  # the annealed network, whatever its score
    assert meta["train_steps"] == 5 and meta["evaluation"]["annealed"] is True
    assert "(ladder round 1, annealed, score" in r.stdout
    r = zerosum_train(*args, "--ladder-rounds", "1", "--resume", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "final:" not in r.stdout  # nothing new to anneal
    assert torch.load(tmp_path / "run" / "state.pt", weights_only=False)["learner_steps"] == 5
    r = zerosum_train(*args, "--ladder-rounds", "2", "--resume", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ladder   2" in r.stdout and "final: 3" in r.stdout
    st = torch.load(tmp_path / "run" / "state.pt", weights_only=False)
    assert st["annealed"] is True and st["learner_steps"] == 5 + 2 + 3
    assert st["opt"]["param_groups"][0]["lr"] == pytest.approx(1e-3)  # the rate of the next round, if any


def test_final_fresh_trains_the_runs_initial_weights_on_the_whole_buffer_on_the_learner_threads(tmp_path,
                                                                                                 monkeypatch):
    import torch

    from zerosum.training import alphazero
    from zerosum.training.alphazero import train_alphazero

    cfg = AlphaZeroConfig(game="connect_four", net={"kind": "mlp", "hidden": [16]}, label_depth=2, ladder_rounds=1,
                          ladder_games=2, ladder_steps=2, final_steps=3, final_fresh=True, learner_threads=2,
                          iterations=0,
                          eval_every=1, eval_games=2, eval_opponents=["random"], tensorboard=False, seed=5,
                          out=str(tmp_path / "run"))
    torch.manual_seed(5)
    initial = {k: v.clone() for k, v in alphazero.build_net(make_game("connect_four"), cfg.net).state_dict().items()}
    seen = []
    plain = Learner.anneal

    def anneal(self, buffer, steps, rng, chunk=50):
        seen.append(({k: v.clone() for k, v in self.net.state_dict().items()}, dict(self.opt.state), buffer.size,
                     torch.get_num_threads()))
        return plain(self, buffer, steps, rng, chunk)

    monkeypatch.setattr(Learner, "anneal", anneal)
    result = train_alphazero(cfg)
    (weights, opt_state, size, threads), = seen
    assert threads == 2 and torch.get_num_threads() == 1  # the learner's threads while the workers wait, then one
    assert all(torch.equal(weights[k], initial[k]) for k in initial)  # the seed's weights, not round 1's
    assert opt_state == {} and size > 0  # a new optimizer, the whole buffer
    final = result.net.state_dict()
    assert not all(torch.equal(final[k], initial[k]) for k in initial)  # and the steps trained them
    with pytest.raises(ValueError, match="final_fresh needs final_steps > 0"):
        AlphaZeroConfig(final_fresh=True)
    with pytest.raises(ValueError, match="learner_threads=0 is not allowed: an int >= 1"):
        AlphaZeroConfig(learner_threads=0)
