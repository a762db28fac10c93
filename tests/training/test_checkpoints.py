"""Checkpoints and the learned agent: loading, playing, refusing the wrong game, clear errors; tiny runs."""

from __future__ import annotations

import csv
import json
import shutil
import sys
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from zerosum.agents import AgentSpecError, RandomAgent, make_agent
from zerosum.agents.learned import (
    CheckpointError, LearnedAgent, MissingExtraError, require_train_extra,
)
from zerosum.games import make_game
from zerosum.evaluation.evaluate import evaluate
from zerosum.training.ppo.train import TrainConfig, train

TINY = {"n_steps": 64, "batch_size": 64, "n_epochs": 1}


def tiny(tmp, **kw):
    fields = {"steps": 256, "n_envs": 2, "algo_kwargs": TINY, "eval_games": 2, "out": str(tmp), **kw}
    return train(TrainConfig(**fields))


@pytest.fixture(scope="module")
def ttt(tmp_path_factory):
    out = tmp_path_factory.mktemp("ttt")
    return tiny(out, eval_every=128, save_every=128, eval_opponents=["random", "alphabeta(depth=1)"])


def test_checkpoint_files_and_metadata(ttt):
    out = ttt.checkpoint.parent
    assert ttt.checkpoint.name == "model.zip" and (out / "model.json").is_file()
    meta = json.loads((out / "model.json").read_text())
    for key, value in {"game": "tictactoe", "variant": {}, "env": "tictactoe_v0", "env_version": "v0",
                       "observation_shape": [3, 3, 3], "num_actions": 9, "algo": "maskable_ppo",
                       "obs_format": "flat", "training_steps": 256, "seed": 0, "seat": "alternate"}.items():
        assert meta[key] == value, key
    assert meta["opponents"] == {"kind": "fixed", "opponent": "random"}
    assert meta["zerosum_version"] and meta["versions"]["torch"]
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [
        "step_128.json", "step_128.zip", "step_256.json", "step_256.zip"]
    rows = list(csv.DictReader((out / "eval.csv").open()))
    assert [(r["steps"], r["opponent"], r["seat"]) for r in rows][:4] == [
        ("128", "random", "0"), ("128", "random", "1"), ("128", "alphabeta(depth=1)", "0"),
        ("128", "alphabeta(depth=1)", "1")]
    assert all(int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == 2 for r in rows)
    assert (out / "progress.csv").is_file()


@pytest.mark.parametrize("spec", ["ppo(path={})", "ppo(path={}, deterministic=off)", "ppo(path={}, masked=off)"])
def test_learned_agent_plays_legal_moves(ttt, spec):
    game = make_game("tictactoe")
    agent = make_agent(spec.format(ttt.checkpoint), rng=1)
    assert isinstance(agent, LearnedAgent)
    report = evaluate(agent, game, RandomAgent(), games=20, seed=0)
    assert report.total.games == 20 and report["random"].first.games == 10
    assert not report.faults or "masked=off" in spec
    if "masked=off" not in spec:  # masked play never picks an illegal move
        for _ in range(5):
            state = game.initial_state()
            while not game.is_terminal(state):
                state = game.apply(state, agent.act(game, state))


def test_sampled_play_uses_the_agents_rng(ttt):
    game = make_game("tictactoe")
    a = make_agent(f"ppo(path={ttt.checkpoint}, deterministic=off)", rng=5)
    moves = [a.act(game, game.initial_state()) for _ in range(30)]
    a.seed(5)
    assert moves == [a.act(game, game.initial_state()) for _ in range(30)]


def test_checkpoint_for_another_game_or_variant(ttt, tmp_path):
    agent = make_agent(f"ppo(path={ttt.checkpoint})")
    with pytest.raises(CheckpointError, match="trained for tictactoe.*cannot play nim.*game 'tictactoe', not 'nim'"):
        agent.prepare(make_game("nim"))
    with pytest.raises(CheckpointError, match="cannot play nim"):
        evaluate(agent, "nim", "random", games=2)

    def edited(**changes):
        d = tmp_path / f"edit{len(list(tmp_path.iterdir()))}"
        d.mkdir()
        shutil.copy(ttt.checkpoint, d / "model.zip")
        meta = json.loads(ttt.checkpoint.with_suffix(".json").read_text())
        meta.update(changes)
        (d / "model.json").write_text(json.dumps(meta))
        return make_agent(f"ppo(path={d})")  # a run directory works as a path

    with pytest.raises(CheckpointError, match=r"variant \{'size': 4\}, not \{\}"):
        edited(variant={"size": 4}).prepare(make_game("tictactoe"))
    with pytest.raises(CheckpointError, match="env tictactoe_v9, but this zerosum serves tictactoe as tictactoe_v0"):
        edited(env="tictactoe_v9").prepare(make_game("tictactoe"))
    with pytest.raises(CheckpointError, match="10 actions, not 9"):
        edited(num_actions=10).prepare(make_game("tictactoe"))


def test_nim_variant_mismatch(tmp_path):
    res = tiny(tmp_path, game="nim", variant={"piles": (2, 3)}, algo_kwargs={**TINY}, eval_games=0)
    agent = make_agent(f"ppo(path={res.checkpoint})")
    agent.prepare(make_game("nim", piles=(2, 3)))
    with pytest.raises(CheckpointError, match=r"variant \{'piles': \[2, 3\], 'misere': False\}, not"):
        agent.prepare(make_game("nim"))


def test_missing_and_corrupt_checkpoints(ttt, tmp_path):
    with pytest.raises(AgentSpecError, match="no checkpoint at .*nothing.zip does not exist"):
        make_agent(f"ppo(path={tmp_path / 'nothing.zip'})")
    with pytest.raises(AgentSpecError, match="needs path="):
        make_agent("ppo")
    # the archive without its sidecar
    lone = tmp_path / "lone.zip"
    shutil.copy(ttt.checkpoint, lone)
    with pytest.raises(CheckpointError, match="no metadata file lone.json"):
        LearnedAgent(str(lone))
    # garbage in the archive
    (tmp_path / "bad.zip").write_bytes(b"not a zip at all")
    shutil.copy(ttt.checkpoint.with_suffix(".json"), tmp_path / "bad.json")
    with pytest.raises(CheckpointError, match="corrupt checkpoint .*bad.zip: not a zip archive"):
        LearnedAgent(str(tmp_path / "bad.zip"))
    # a zip that is not an SB3 model
    with zipfile.ZipFile(tmp_path / "odd.zip", "w") as z:
        z.writestr("hello.txt", "hi")
    shutil.copy(ttt.checkpoint.with_suffix(".json"), tmp_path / "odd.json")
    with pytest.raises(CheckpointError, match="corrupt checkpoint .*odd.zip: cannot load it as maskable_ppo"):
        LearnedAgent(str(tmp_path / "odd.zip"))
    # a truncated archive
    data = ttt.checkpoint.read_bytes()
    (tmp_path / "cut.zip").write_bytes(data[: len(data) // 2])
    shutil.copy(ttt.checkpoint.with_suffix(".json"), tmp_path / "cut.json")
    with pytest.raises(CheckpointError, match="corrupt checkpoint"):
        LearnedAgent(str(tmp_path / "cut.zip"))
    # broken metadata
    shutil.copy(ttt.checkpoint, tmp_path / "meta.zip")
    (tmp_path / "meta.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="corrupt checkpoint metadata"):
        LearnedAgent(str(tmp_path / "meta.zip"))
    (tmp_path / "meta.json").write_text(json.dumps({"format": "zerosum-checkpoint", "format_version": 1}))
    with pytest.raises(CheckpointError, match="missing game, variant"):
        LearnedAgent(str(tmp_path / "meta.zip"))
    (tmp_path / "meta.json").write_text("[1, 2]")
    with pytest.raises(CheckpointError, match="not zerosum checkpoint metadata"):
        LearnedAgent(str(tmp_path / "meta.zip"))


def test_missing_extra_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'zerosum\[train\]'"):
        require_train_extra()


def test_same_seed_same_run(tmp_path):
    def weights(seed):
        res = train(TrainConfig(steps=512, n_envs=2, algo_kwargs=TINY, eval_games=0, out=None, seed=seed))
        return [p.detach().numpy().copy() for p in res.model.policy.parameters()], res.outcomes

    (a, oa), (b, ob), (c, _) = weights(3), weights(3), weights(4)
    assert oa == ob and all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


@pytest.mark.parametrize("kw", [
    {"algo": "ppo"},
    {"algo": "dqn", "algo_kwargs": {"learning_starts": 64, "buffer_size": 1000, "target_update_interval": 100}},
    {"algo": "maskable_dqn", "algo_kwargs": {"learning_starts": 64, "buffer_size": 1000, "exploration_fraction": 1.0}},
    {"obs_format": "dict"},
    {"self_play": True, "snapshot_every": 128, "opponent": "random"},
    {"curriculum": ["random", "alphabeta(depth=1)"], "window": 5, "threshold": 0.2, "opponent": "random"},
    {"opponent": ["random", "alphabeta(depth=1)"], "opponent_weights": [1, 1], "max_seconds": 0.5, "steps": 10**6},
])
def test_other_algorithms_and_opponents(tmp_path, kw, monkeypatch):
    kw = dict(kw)
    algo_kwargs = kw.pop("algo_kwargs", TINY)
    res = tiny(tmp_path, algo_kwargs=algo_kwargs, **kw)
    meta = res.metadata
    if kw.get("algo") == "maskable_dqn":  # exploring and greedy, it never plays an illegal action
        assert res.outcomes["seat0"]["illegal"] == res.outcomes["seat1"]["illegal"] == 0
        # the policy class is given by name on loading, not unpickled from where the archive says it
        # lived (zerosum 0.1 wrote zerosum.training.maskable_dqn, a module that is gone)
        import zerosum.agents.maskable_dqn as mdqn

        monkeypatch.delattr(mdqn, "MaskedDQNPolicy")
        assert make_agent(f"ppo(path={res.checkpoint})").algo == "maskable_dqn"
        monkeypatch.undo()
    assert meta["algo"] == kw.get("algo", "maskable_ppo")
    if kw.get("self_play"):
        assert meta["opponents"]["kind"] == "self_play" and meta["opponents"]["snapshots_added"] >= 2
    if "max_seconds" in kw:
        assert meta["opponents"]["kind"] == "mixture" and res.steps < 10**6
    if kw.get("curriculum"):
        assert meta["opponents"]["kind"] == "curriculum" and meta["opponents"]["stage"] == 1
    agent = make_agent(f"ppo(path={res.checkpoint})")
    game = make_game("tictactoe")
    assert evaluate(agent, game, RandomAgent(), games=6, seed=0).total.games == 6


def test_bad_configs():
    with pytest.raises(ValueError, match="algo='a2c' is not allowed"):
        TrainConfig(algo="a2c")
    with pytest.raises(ValueError, match="seat=2 is not allowed"):
        TrainConfig(seat=2)
    with pytest.raises(ValueError, match="steps=0 is not allowed"):
        TrainConfig(steps=0)
    with pytest.raises(ValueError, match="use vec='dummy'"):
        TrainConfig(vec="subproc", self_play=True)


def test_ensure_tictactoe_checkpoint(ttt, tmp_path):
    from zerosum.training.ppo.recipes import RECIPES, ensure_tictactoe_checkpoint, recipe

    assert ensure_tictactoe_checkpoint(ttt.checkpoint) == ttt.checkpoint  # present: returned as is
    (tmp_path / "junk.zip").write_bytes(b"junk")
    with pytest.raises(CheckpointError):  # never overwritten
        ensure_tictactoe_checkpoint(tmp_path / "junk.zip")
    assert (tmp_path / "junk.zip").read_bytes() == b"junk"
    path = ensure_tictactoe_checkpoint(tmp_path / "new" / "ttt.zip", steps=256)
    assert path == tmp_path / "new" / "ttt.zip" and (tmp_path / "new" / "ttt.json").is_file()
    assert make_agent(f"ppo(path={path})").metadata["training_steps"] >= 256
    for name in RECIPES:
        recipe(name)  # every recipe is a valid config
    with pytest.raises(ValueError, match="unknown recipe 'nope'"):
        recipe("nope")
