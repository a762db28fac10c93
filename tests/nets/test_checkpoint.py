"""Network checkpoints: the round trip, the sidecar, atomic writes, and every refusal naming what was given."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from zerosum.games.registry import make_game  # noqa: E402
from zerosum.nets import (  # noqa: E402
    FORMAT, CheckpointError, NetConfig, NetConfigError, NetworkEvaluator, build_network, load_network, read_sidecar,
    save_network,
)

TINY = NetConfig(kind="resnet", blocks=1, channels=8)


def _trained_a_little(net):
    """Weights and batch-norm statistics away from their initial values, so a round trip can fail."""
    torch.manual_seed(0)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.1)
        for name, b in net.named_buffers():
            if name.endswith("running_mean"):
                b.add_(torch.rand_like(b))
    return net


def _positions(game, n=12, seed=0):
    rng = np.random.default_rng(seed)
    states, s = [], game.initial_state()
    while len(states) < n:
        if game.is_terminal(s):
            s = game.initial_state()
        states.append(s)
        legal = game.legal_actions(s)
        s = game.apply(s, int(legal[rng.integers(len(legal))]))
    obs = np.stack([game.observation(s, game.current_player(s)) for s in states])
    return obs, np.stack([game.legal_mask(s) for s in states])


@pytest.mark.parametrize("config", [TINY, NetConfig(kind="resnet", blocks=1, channels=8, lines=3),
                                    NetConfig(kind="mlp", hidden=(16, 8))], ids=["resnet", "resnet-lines", "mlp"])
def test_a_checkpoint_round_trips_with_identical_outputs(tmp_path, config):
    game = make_game("connect_four", rows=5, columns=4, x_in_row=3)
    net = _trained_a_little(build_network(game, config))
    path = save_network(tmp_path / "c4.pt", net, game, config,
                        metadata={"train_steps": 123, "command": "zerosum train ...", "evaluation": {"random": 1.0},
                                  "seed": 7})
    assert path == tmp_path / "c4.pt" and sorted(p.name for p in tmp_path.iterdir()) == ["c4.json", "c4.pt"]
    loaded, meta = load_network(path, game)
    obs, mask = _positions(game)
    for a, b in zip(NetworkEvaluator(net)(obs, mask), NetworkEvaluator(loaded)(obs, mask)):
        np.testing.assert_array_equal(a, b)
    assert meta["format"] == FORMAT and meta["format_version"] == 1
    assert (meta["game"], meta["variant"]) == ("connect_four", {"rows": 5, "columns": 4, "x_in_row": 3})
    assert meta["observation_shape"] == [5, 4, 3] and meta["num_actions"] == 4 and meta["env"] == "connect_four_v0"
    assert meta["net"] == config.to_dict() and NetConfig.from_dict(meta["net"]) == config
    assert (meta["train_steps"], meta["command"], meta["evaluation"], meta["seed"]) == \
        (123, "zerosum train ...", {"random": 1.0}, 7)
    assert json.loads((tmp_path / "c4.json").read_text()) == meta
    # the stem, the sidecar and no game all name the same checkpoint
    for other in (tmp_path / "c4", tmp_path / "c4.json"):
        assert load_network(other)[1] == meta


def test_saving_again_replaces_both_files_and_leaves_no_temporaries(tmp_path):
    game = make_game("tictactoe")
    save_network(tmp_path / "n.pt", build_network(game, TINY), game, TINY, metadata={"train_steps": 1})
    save_network(tmp_path / "n.pt", build_network(game, TINY), game, TINY, metadata={"train_steps": 2})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.json", "n.pt"]
    assert read_sidecar(tmp_path / "n.pt")["train_steps"] == 2


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(CheckpointError, match=r"no network checkpoint at '.*nowhere.pt'.*does not exist"):
        load_network(tmp_path / "nowhere.pt")
    game = make_game("tictactoe")
    save_network(tmp_path / "n.pt", build_network(game, TINY), game, TINY)
    (tmp_path / "n.json").unlink()
    with pytest.raises(CheckpointError, match=r"has no sidecar n.json next to it"):
        load_network(tmp_path / "n.pt")


def test_an_unknown_zoo_name_lists_the_zoo():
    with pytest.raises(CheckpointError, match=r"no network 'no_such_net' in the zoo .*; available: "):
        load_network("zoo:no_such_net")


@pytest.mark.parametrize(("other", "message"), [
    (("nim", {}), r"made for tictactoe \{\} and cannot play nim .*: game 'tictactoe', not 'nim'"),
    (("connect_four", {}), r"game 'tictactoe', not 'connect_four'"),
])
def test_a_checkpoint_for_another_game_is_refused(tmp_path, other, message):
    game = make_game("tictactoe")
    save_network(tmp_path / "n.pt", build_network(game, TINY), game, TINY)
    with pytest.raises(CheckpointError, match=message):
        load_network(tmp_path / "n.pt", make_game(other[0], **other[1]))


def test_a_checkpoint_for_another_variant_or_shape_is_refused(tmp_path):
    game = make_game("connect_four", rows=5, columns=4, x_in_row=3)
    save_network(tmp_path / "n.pt", build_network(game, TINY), game, TINY)
    with pytest.raises(CheckpointError, match=r"variant \{'rows': 5, 'columns': 4, 'x_in_row': 3\}, not "
                                              r"\{'rows': 6, 'columns': 7, 'x_in_row': 4\}; observation shape "
                                              r"\(5, 4, 3\), not \(6, 7, 3\); 4 actions, not 7"):
        load_network(tmp_path / "n.pt", make_game("connect_four"))
    same_variant = make_game("connect_four", rows=5, columns=4, x_in_row=3)
    meta = json.loads((tmp_path / "n.json").read_text())
    meta["observation_shape"] = [5, 4, 2]  # e.g. an older observation format of the same game
    (tmp_path / "n.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match=r"observation shape \(5, 4, 2\), not \(5, 4, 3\)"):
        load_network(tmp_path / "n.pt", same_variant)


def test_a_checkpoint_for_another_env_version_is_refused(tmp_path):
    game = make_game("tictactoe")
    save_network(tmp_path / "n.pt", build_network(game, TINY), game, TINY)
    meta = json.loads((tmp_path / "n.json").read_text())
    meta["env"] = "tictactoe_v9"  # made when the env showed other observations
    (tmp_path / "n.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match=r"env tictactoe_v9, but this zerosum serves tictactoe as "
                                              r"tictactoe_v0 \(the observations may differ: retrain\)"):
        load_network(tmp_path / "n.pt", game)


def test_a_network_whose_output_is_not_the_number_of_actions_is_refused(tmp_path):
    ttt, c4 = make_game("tictactoe"), make_game("connect_four")
    with pytest.raises(CheckpointError, match=r"policy head does not give the 7 actions of the game: shapes "
                                              r"policy_head.4.weight \(9, 18\) instead of \(7, 84\)"):
        save_network(tmp_path / "n.pt", build_network(ttt, TINY), c4, TINY)
    with pytest.raises(CheckpointError, match=r"shapes .*stem.0.weight \(16, 3, 3, 3\) instead of \(8, 3, 3, 3\)"):
        save_network(tmp_path / "n.pt", build_network(ttt, NetConfig(blocks=1, channels=16)), ttt, TINY)
    # a sidecar that claims another number of actions than the weights hold
    save_network(tmp_path / "n.pt", build_network(ttt, TINY), ttt, TINY)
    meta = json.loads((tmp_path / "n.json").read_text())
    meta["num_actions"] = 10
    (tmp_path / "n.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match=r"policy head does not give the 10 actions.*\(9, 18\) instead of "
                                              r"\(10, 18\)"):
        load_network(tmp_path / "n.pt")
    with pytest.raises(CheckpointError, match=r"9 actions, not 10|10 actions, not 9"):
        load_network(tmp_path / "n.pt", ttt)


def test_corrupt_files_and_bad_metadata(tmp_path):
    game = make_game("tictactoe")
    net = build_network(game, TINY)
    with pytest.raises(CheckpointError, match=r"metadata may not set game, net"):
        save_network(tmp_path / "n.pt", net, game, TINY, metadata={"game": "nim", "net": {}})
    with pytest.raises(CheckpointError, match=r"metadata may not set env"):
        save_network(tmp_path / "n.pt", net, game, TINY, metadata={"env": "x_v0"})
    with pytest.raises(NetConfigError, match=r"config is the NetConfig the network was built with"):
        save_network(tmp_path / "n.pt", net, game, {"kind": "resnet"})
    save_network(tmp_path / "n.pt", net, game, TINY)
    (tmp_path / "n.pt").write_bytes(b"not a state dict")
    with pytest.raises(CheckpointError, match=r"corrupt network checkpoint .*n.pt: cannot read it"):
        load_network(tmp_path / "n.pt")
    (tmp_path / "n.json").write_text(json.dumps({"format": "zerosum-checkpoint"}))
    with pytest.raises(CheckpointError, match=r"format 'zerosum-checkpoint', expected 'zerosum-alphazero'"):
        load_network(tmp_path / "n.pt")
    (tmp_path / "n.json").write_text(json.dumps({"format": FORMAT, "format_version": 99}))
    with pytest.raises(CheckpointError, match=r"format version 99; this zerosum reads 1 to 1"):
        load_network(tmp_path / "n.pt")
