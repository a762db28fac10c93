"""The PPO recipes on the compiled vector env (vec="zerosum"): their opponent sources told each
finished episode and their weights moved (priorities, curriculum, exploiter), tiny runs of each
recipe (wiring, not strength), and the old path still selectable (--vec dummy)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from zerosum.envs.vector import make_vec
from zerosum.training.opponents import Curriculum, MixedOpponent, PrioritizedOpponents
from zerosum.training.ppo.recipes import RECIPES, recipe
from zerosum.training.ppo.train import TrainConfig, train
from zerosum.training.vector_sources import SourceVecEnv, source_mixture, source_weights
from tests.inprocess import zerosum_train

TINY = {"n_steps": 32, "batch_size": 64, "n_epochs": 1}


def drive(venv, steps, seed=0):
    """Random legal moves in every lane for ``steps`` steps; every info of a finished lane."""
    rng = np.random.default_rng(seed)
    venv.reset()
    ended = []
    for _ in range(steps):
        masks = venv.env_method("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, dones, infos = venv.step(actions)
        ended += [infos[i] for i in np.flatnonzero(dones)]
    return ended


def test_prioritized_opponents_hear_every_episode_and_move_the_weights():
    opponents = ["random", "alphabeta(depth=1)", "alphabeta(depth=2)"]
    source = PrioritizedOpponents(opponents, priority="learnable", window=50)
    names, weights = source_mixture(source)
    venv = SourceVecEnv(make_vec("tictactoe_v0", 16, names, opponent_weights=weights, api="sb3", seed=0), source)
    ended = drive(venv, 40)
    assert len(ended) == venv.episodes > 20
    for name in opponents:  # each result recorded under the episode's opponent, as SingleAgentEnv records it
        games = [e for e in ended if e["opponent"] == name]
        assert len(source.results[name]) == min(len(games), 50)
        score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        assert list(source.results[name]) == [score[e["outcome"]] for e in games][-50:]
    lanes = venv.venv.lanes
    assert np.allclose(np.diff(lanes.opponents.cum, prepend=0.0), source.probabilities())
    assert not np.allclose(source.probabilities(), 1 / 3)


def test_a_curriculum_advances_and_the_lanes_follow_it():
    source = Curriculum(["random", "alphabeta(depth=1)"], threshold=0.01, window=4, metric="score")
    names, weights = source_mixture(source)
    assert weights == [1.0, 0.0]
    venv = SourceVecEnv(make_vec("tictactoe_v0", 8, names, opponent_weights=weights, api="sb3", seed=1), source)
    ended = drive(venv, 40, seed=1)
    assert source.stage == 1 and source_weights(source).tolist() == [0.0, 1.0]
    advanced = next(i for i, e in enumerate(ended) if e["opponent"] == "alphabeta(depth=1)")
    assert all(e["opponent"] == "alphabeta(depth=1)" for e in ended[advanced + 8:])  # lanes begun later


def test_sources_the_vector_env_cannot_draw_from_are_refused():
    from zerosum.training.opponents import SelfPlayPool

    with pytest.raises(ValueError, match="cannot draw opponents from a SelfPlayPool"):
        source_mixture(SelfPlayPool())
    with pytest.raises(ValueError, match="vec='zerosum' .* does not take self_play.*use vec='dummy'"):
        TrainConfig(vec="zerosum", self_play=True)
    venv = make_vec("tictactoe_v0", 2, ["random"], api="sb3")
    with pytest.raises(ValueError, match=r"opponents \['random'\] are not the source's \['solved'\]"):
        SourceVecEnv(venv, MixedOpponent(["solved"]))


def tiny(name, out, **kw):
    fields = {"steps": 256, "n_envs": 4, "algo_kwargs": TINY, "eval_games": 1, "eval_every": 128, "out": str(out),
              "tensorboard": False, "save_every": 0, **kw}
    return recipe(name, **fields)


@pytest.mark.parametrize("name", ["tictactoe", "pentago", "pentago_curriculum"])
def test_each_recipe_trains_on_the_vector_env(name, tmp_path):
    assert RECIPES[name]["vec"] == "zerosum"
    res = train(tiny(name, tmp_path))
    assert res.steps >= 256 and (tmp_path / "model.zip").is_file()
    assert json.loads((tmp_path / "run.json").read_text())["settings"]["vec"] == "zerosum"
    played = sum(sum(seat.values()) for seat in res.outcomes.values())
    assert played > 0
    mix = res.metadata["opponents"]
    if name == "tictactoe":  # the exploiter is a mixture component, aimed by the exhaustive walks
        assert mix["kind"] == "mixture" and mix["opponents"][-1] == "exploiter(fallback=solved)"
        assert any(r["opponent"] == "every line" for r in res.eval_rows)
    elif name == "pentago":  # the priorities heard the episodes: some score moved off 1/2
        assert mix["kind"] == "prioritized" and any(s != 0.5 for s in mix["scores"])
    else:
        assert mix["kind"] == "curriculum" and mix["stage"] == 0


def test_a_curriculum_run_on_the_vector_env_advances(tmp_path):
    cfg = TrainConfig(game="tictactoe", curriculum=["random", "alphabeta(depth=1)"], threshold=0.01, window=4,
                      curriculum_metric="score", vec="zerosum", steps=256, n_envs=4, algo_kwargs=TINY,
                      eval_games=0, out=None, tensorboard=False)
    res = train(cfg)
    assert res.metadata["opponents"]["stage"] == 1 and len(res.metadata["opponents"]["stage_log"]) == 2


def test_the_old_path_is_still_selectable_from_the_command_line(tmp_path):
    out = tmp_path / "ttt"
    args = ["--recipe", "tictactoe", "--vec", "dummy", "--steps", "256", "--n-envs", "2", "--n-steps", "64",
            "--batch-size", "64", "--n-epochs", "1", "--eval-games", "1", "--eval-every", "128",
            "--no-tensorboard", "--out", str(out)]
    proc = zerosum_train(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    settings = json.loads((out / "run.json").read_text())["settings"]
    assert settings["vec"] == "dummy" and settings["random_opening"] == 0.5 and settings["exploiter"] == 0.25
