"""Networks built from a game's spec: configs, shapes, the evaluator, and torch kept out of plain imports."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from zerosum.games.registry import make_game  # noqa: E402
from zerosum.nets import (  # noqa: E402
    NetConfig, NetConfigError, NetworkEvaluator, board_shape, build_network, network_for,
)

TINY = NetConfig(kind="resnet", blocks=1, channels=8)


def test_importing_zerosum_and_nets_loads_no_torch():
    code = ("import sys, zerosum, zerosum.nets, zerosum.nets.modules, zerosum.agents, zerosum.agents.alphazero; "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_config_defaults_per_kind_and_dict_round_trip():
    assert NetConfig().to_dict() == {"kind": "resnet", "blocks": 4, "channels": 64, "policy_channels": 2,
                                     "value_hidden": 64}
    mlp = NetConfig(kind="mlp")
    assert mlp.hidden == (256, 256) and mlp.blocks is None
    for cfg in (NetConfig(kind="resnet", blocks=0, channels=3), NetConfig(kind="mlp", hidden=[7, 5]),
                NetConfig(kind="mlp", hidden=())):
        assert NetConfig.from_dict(cfg.to_dict()) == cfg


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"kind": "transformer"}, r"kind='transformer' is not allowed: one of \('resnet', 'mlp'\)"),
    ({"kind": "resnet", "blocks": -1}, r"blocks=-1 is not allowed: blocks is an int >= 0"),
    ({"kind": "resnet", "channels": 0}, r"channels=0 is not allowed"),
    ({"kind": "resnet", "channels": 2.5}, r"channels=2.5 is not allowed"),
    ({"kind": "resnet", "blocks": True}, r"blocks=True is not allowed"),
    ({"kind": "mlp", "hidden": (64, 0)}, r"hidden=\(64, 0\) is not allowed: a hidden size is an int >= 1"),
    ({"kind": "mlp", "hidden": 64}, r"hidden=64 is not allowed: a list of layer sizes"),
    ({"kind": "mlp", "blocks": 4}, r"blocks=4 does not apply to kind='mlp'; its options are hidden"),
    ({"kind": "resnet", "hidden": (8,)}, r"hidden=\(8,\) does not apply to kind='resnet'"),
    ({"kind": "resnet", "lines": 1}, r"lines=1 is not allowed: 0 \(no line features\) or the length of a winning"),
    ({"kind": "resnet", "lines": -2}, r"lines=-2 is not allowed: lines is an int >= 0"),
    ({"kind": "mlp", "lines": 4}, r"lines=4 does not apply to kind='mlp'"),
])
def test_bad_configs_say_what_is_allowed(kwargs, message):
    with pytest.raises(NetConfigError, match=message):
        NetConfig(**kwargs)


def test_line_features_are_an_option_old_configs_do_not_show():
    assert NetConfig().lines == 0 and "lines" not in NetConfig().to_dict()
    cfg = NetConfig(kind="resnet", blocks=1, channels=8, lines=4)
    assert cfg.to_dict()["lines"] == 4 and NetConfig.from_dict(cfg.to_dict()) == cfg


@pytest.mark.parametrize(("shape", "lines", "message"), [
    ((6, 7, 3), 8, r"lines=8 does not fit a 6x7 board: a line is at most 7 cells"),
    ((10,), 3, r"lines=3 needs a board observation \(H, W, C\) whose first two planes are the two sides' stones; "
               r"this game's observation shape is \(10,\)"),
    ((5, 4), 3, r"lines=3 needs a board observation"),
    ((5, 4, 1), 3, r"lines=3 needs a board observation"),
])
def test_line_features_that_do_not_fit_the_observation_are_refused(shape, lines, message):
    with pytest.raises(NetConfigError, match=message):
        network_for(shape, 4, NetConfig(kind="resnet", blocks=0, channels=4, lines=lines))


def _line_planes_by_hand(mine, theirs, k):
    """Each side's threat cells and open (k - 2) windows per empty cell, window by window in Python."""
    h, w = mine.shape
    out = np.zeros((4, h, w))
    empty = (mine == 0) & (theirs == 0)
    for side, (own, other) in enumerate(((mine, theirs), (theirs, mine))):
        for r in range(h):
            for c in range(w):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(k)]
                    if not all(0 <= y < h and 0 <= x < w for y, x in cells):
                        continue
                    stones = sum(own[y, x] for y, x in cells)
                    if any(other[y, x] for y, x in cells):
                        continue
                    for y, x in cells:
                        if empty[y, x] and stones == k - 1:
                            out[2 * side, y, x] = 1
                        if empty[y, x] and stones == k - 2:
                            out[2 * side + 1, y, x] += 0.25
    out[1::2] = np.minimum(out[1::2], 1.0)
    return out


@pytest.mark.parametrize(("name", "k"), [("connect_four", 4), ("tictactoe", 3), ("pentago", 5)])
def test_line_features_match_a_window_by_window_count_and_the_rules(name, k):
    """The planes equal a count over every window, and on Connect Four and tic-tac-toe a legal move
    wins exactly when it fills one of the mover's threat cells (the rules' own verdict)."""
    game = make_game(name)
    net = build_network(game, NetConfig(kind="resnet", blocks=0, channels=4, lines=k))
    rng = np.random.default_rng(3)
    h, w = game.observation_shape[:2]
    wins_seen = 0
    for _ in range(150):
        s = game.initial_state()
        for _ in range(int(rng.integers(0, h * w))):
            if game.is_terminal(s):
                break
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
        if game.is_terminal(s):
            continue
        me = game.current_player(s)
        obs = np.asarray(game.observation(s, me), np.float32)
        board = torch.from_numpy(obs)[None].permute(0, 3, 1, 2)
        planes = net.lines(board)[0].numpy()
        np.testing.assert_array_equal(planes[:3], obs.transpose(2, 0, 1))
        np.testing.assert_array_equal(planes[3:], _line_planes_by_hand(obs[..., 0], obs[..., 1], k))
        if name == "pentago":  # a move there also turns a quarter
            continue
        for a in game.legal_actions(s).tolist():
            after = np.asarray(game.observation(game.apply(s, a), me), np.float32)[..., 0]
            (y,), (x,) = np.nonzero(after - obs[..., 0])
            wins = game.is_terminal(game.apply(s, a)) and game.returns(game.apply(s, a))[me] > 0
            assert bool(planes[3, y, x]) == wins
            wins_seen += wins
    assert name == "pentago" or wins_seen > 10


def test_from_dict_names_unknown_options():
    with pytest.raises(NetConfigError, match=r"unknown network option\(s\) depth; allowed: kind, blocks"):
        NetConfig.from_dict({"kind": "resnet", "depth": 3})


@pytest.mark.parametrize(("shape", "board"), [
    ((6, 7, 3), (3, 6, 7)), ((5, 4), (1, 5, 4)), ((10,), (10, 1, 1)), ((3, 3, 2, 4), (8, 3, 3)),
])
def test_board_shape_of_each_rank(shape, board):
    assert board_shape(shape) == board


@pytest.mark.parametrize("shape", [(10,), (5, 4), (6, 7, 3), (3, 3, 2, 2)])
@pytest.mark.parametrize("config", [TINY, NetConfig(kind="mlp", hidden=(16,))], ids=["resnet", "mlp"])
def test_any_observation_rank_gets_a_network(shape, config):
    net = network_for(shape, 11, config)
    x = torch.randint(-1, 2, (5, *shape)).float()
    logits, value = net(x)
    assert logits.shape == (5, 11) and value.shape == (5,)
    assert bool(((value >= -1) & (value <= 1)).all())


def test_networks_pickle_by_reference():
    import pickle

    from zerosum.nets import modules

    for config in (TINY, NetConfig(kind="mlp", hidden=(4,))):
        net = network_for((3, 3, 3), 9, config)
        copy = pickle.loads(pickle.dumps(net))
        assert type(copy) is type(net) and type(net) in (modules.ResNet, modules.MLP)
        x = torch.rand(2, 3, 3, 3)
        torch.testing.assert_close(copy(x), net(x))


def test_the_resnet_reads_planes_as_height_width_channels():
    """Moving a piece moves the input to the convolution: the planes are (H, W, C), not (C, H, W)."""
    net = network_for((4, 5, 2), 3, NetConfig(kind="resnet", blocks=0, channels=1))
    seen = {}

    def keep_input(_module, inputs, _output):
        seen["x"] = inputs[0]

    net.stem.register_forward_hook(keep_input)
    x = torch.zeros(1, 4, 5, 2)
    x[0, 1, 3, 1] = 1.0
    net(x)
    assert seen["x"].shape == (1, 2, 4, 5) and seen["x"][0, 1, 1, 3] == 1.0 and seen["x"].sum() == 1.0


def test_build_network_for_a_game_and_bad_arguments():
    game = make_game("connect_four")
    net = build_network(game, TINY)
    assert not net.training
    with pytest.raises(NetConfigError, match="config is a NetConfig"):
        build_network(game, {"kind": "resnet"})


def test_the_evaluator_answers_float32_per_leaf_with_one_thread():
    game = make_game("tictactoe")
    ev = NetworkEvaluator(build_network(game, TINY))
    assert torch.get_num_threads() == 1
    s = game.initial_state()
    obs = np.stack([game.observation(s, 0), game.observation(game.apply(s, 4), 1)])
    mask = np.stack([game.legal_mask(s), game.legal_mask(game.apply(s, 4))])
    logits, values = ev(obs, mask)
    assert logits.dtype == np.float32 and values.dtype == np.float32
    assert logits.shape == (2, 9) and values.shape == (2,) and np.all(np.abs(values) <= 1)
    one, _ = ev(obs[1:], mask[1:])  # batch norm in evaluation mode: a leaf's answer does not depend on its batch
    np.testing.assert_allclose(one[0], logits[1], rtol=1e-5, atol=1e-6)
    assert (ev.calls, ev.positions) == (2, 3)
    ev.net.train()  # a learner sharing the network: the evaluator still uses the running statistics
    buffers = {k: v.clone() for k, v in ev.net.named_buffers()}
    again, _ = ev(obs, mask)
    np.testing.assert_array_equal(again, logits)
    assert ev.net.training and all(torch.equal(v, buffers[k]) for k, v in ev.net.named_buffers())


def test_the_evaluator_refuses_mismatched_shapes_and_devices():
    game = make_game("tictactoe")
    ev = NetworkEvaluator(build_network(game, TINY))
    s = game.initial_state()
    with pytest.raises(NetConfigError, match=r"same n; got obs \(1, 3, 3, 3\) and mask \(2, 9\)"):
        ev(game.observation(s, 0)[None], np.ones((2, 9), np.int8))
    with pytest.raises(NetConfigError, match=r"expected logits \(1, 7\).*built for this game"):
        ev(game.observation(s, 0)[None], np.ones((1, 7), np.int8))
    with pytest.raises(NetConfigError, match=r"device='tpu' is not allowed: 'cpu', 'cuda' or 'cuda:N'"):
        NetworkEvaluator(build_network(game, TINY), device="tpu")
    with pytest.raises(NetConfigError, match=r"threads=0 is not allowed"):
        NetworkEvaluator(build_network(game, TINY), threads=0)
    with pytest.raises(NetConfigError, match=r"net is a torch.nn.Module"):
        NetworkEvaluator(lambda obs, mask: (obs, mask))


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_cuda_without_a_gpu_says_so():
    with pytest.raises(NetConfigError, match=r"device='cuda': torch .* sees no GPU here"):
        NetworkEvaluator(build_network(make_game("tictactoe"), TINY), device="cuda")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_gives_the_cpu_answers():
    game = make_game("connect_four")
    net = build_network(game, TINY)
    s = game.initial_state()
    obs, mask = game.observation(s, 0)[None], game.legal_mask(s)[None]
    cpu = NetworkEvaluator(net)(obs, mask)
    gpu = NetworkEvaluator(net, device="cuda")(obs, mask)
    for a, b in zip(cpu, gpu):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
