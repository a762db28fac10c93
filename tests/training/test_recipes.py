"""Recipes, best.zip, refusing bad input before training, resuming: tiny runs (wiring, not strength)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from zerosum.agents import make_agent
from zerosum.games import make_game
from zerosum.training.methods import describe_recipes
from zerosum.training.ppo.recipes import RECIPES, recipe
from zerosum.training.single_agent import SingleAgentEnv
from zerosum.training.ppo.train import TrainConfig, TrainingSetupError, train
from tests.inprocess import zerosum_train

TINY = {"n_steps": 64, "batch_size": 64, "n_epochs": 1}


def tiny_cfg(out, **kw):
    fields = {"steps": 256, "n_envs": 2, "algo_kwargs": TINY, "eval_games": 2, "eval_every": 128, "out": str(out),
              "tensorboard": False, **kw}
    return TrainConfig(**fields)


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_every_recipe_builds_and_its_opponents_play_its_game(name):
    cfg = recipe(name)
    game = make_game(cfg.game)
    for spec in [*([cfg.opponent] if isinstance(cfg.opponent, str) else cfg.opponent), *(cfg.curriculum or []),
                 *cfg.eval_opponents]:
        make_agent(spec).prepare(game)
    assert name in describe_recipes()


def test_best_checkpoint_and_the_evaluation_that_picked_it(tmp_path):
    res = train(tiny_cfg(tmp_path, eval_opponents=["random", "solved"], eval_openings=[0, 1]))
    meta = json.loads((tmp_path / "model.json").read_text())
    best = json.loads((tmp_path / "best.json").read_text())["best"]
    assert (tmp_path / "best.zip").is_file() and meta["best"] == best
    assert best["path"] == "best.zip" and best["steps"] in (128, 256) and best["openings"] == [0, 1]
    assert best["games"] == 2 * 2 * 2 * 2  # opponents x openings x seats x games per seat
    rows = [r for r in res.eval_rows if r["steps"] == best["steps"]]
    assert best["losses"] == sum(r["losses"] for r in rows)
    assert {r["openings"] for r in res.eval_rows} == {0, 1}
    make_agent(f"ppo(path={tmp_path / 'best.zip'})").prepare(make_game("tictactoe"))
    assert "lines_lost" not in best
    assert json.loads((tmp_path / "run.json").read_text())["settings"]["eval_openings"] == [0, 1]


def test_exhaustive_evaluation_ranks_by_lines_lost(tmp_path):
    res = train(tiny_cfg(tmp_path, eval_exhaustive=True, eval_openings=[0, 1]))
    every = [r for r in res.eval_rows if r["opponent"] == "every line"]
    assert {(r["seat"], r["openings"]) for r in every} == {(0, 1), (1, 1)}
    best = json.loads((tmp_path / "best.json").read_text())["best"]
    at_best = [r for r in every if r["steps"] == best["steps"]]
    assert best["lines_lost"] == sum(r["losses"] for r in at_best) and best["lines"] == sum(r["games"] for r in at_best)
    assert min(sum(r["losses"] for r in every if r["steps"] == s) for s in (128, 256)) == best["lines_lost"]


def test_a_directory_holding_a_run_is_refused_then_resumed_or_overwritten(tmp_path):
    train(tiny_cfg(tmp_path))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    with pytest.raises(TrainingSetupError, match=r"already holds a run with different settings \(seed 0 -> 1\)"):
        train(tiny_cfg(tmp_path, seed=1))
    with pytest.raises(TrainingSetupError, match="already holds a run with the same settings.*--resume"):
        train(tiny_cfg(tmp_path))
    with pytest.raises(TrainingSetupError, match="cannot resume .*settings differ in net_arch"):
        train(tiny_cfg(tmp_path, net_arch=(8,)), resume=True)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before  # nothing lost
    resumed = train(tiny_cfg(tmp_path, steps=512), resume=True)
    assert resumed.steps >= 512 and json.loads((tmp_path / "model.json").read_text())["training_steps"] >= 512
    again = train(tiny_cfg(tmp_path, seed=1), overwrite=True)
    assert again.metadata["seed"] == 1
    with pytest.raises(TrainingSetupError, match="nothing to resume"):
        train(tiny_cfg(tmp_path / "empty"), resume=True)


def test_an_opponent_that_cannot_play_the_game_fails_before_anything_is_written(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(TrainingSetupError, match="opponent 'perfect_nim' cannot play tictactoe: perfect_nim plays Nim"):
        train(tiny_cfg(out, opponent=["random", "perfect_nim"]))
    with pytest.raises(TrainingSetupError, match="opponent 'solved\\(max_states=10\\)' cannot play tictactoe"):
        train(tiny_cfg(out, eval_opponents=["solved(max_states=10)"]))
    assert not out.exists()


def test_cli_bad_input(tmp_path):
    proc = zerosum_train("--recipe", "chess", "--out", str(tmp_path / "a"), cwd=tmp_path)
    assert proc.returncode == 2 and "unknown recipe 'chess'; available: az_connect_four" in proc.stderr
    assert ", connect_four, pentago" in proc.stderr
    proc = zerosum_train("--recipe", "tictactoe", "--game", "pentago", "--out", str(tmp_path / "a"), cwd=tmp_path)
    assert proc.returncode == 2 and "recipe 'tictactoe' trains tictactoe, not pentago" in proc.stderr
    proc = zerosum_train("--game", "tictactoe", "--opponent", "perfect_nim", "--out", str(tmp_path / "a"),
                         cwd=tmp_path)
    assert proc.returncode == 2 and "opponent 'perfect_nim' cannot play tictactoe" in proc.stderr
    assert not (tmp_path / "a").exists()
    proc = zerosum_train("--help", cwd=tmp_path)
    assert proc.returncode == 0
    lines = proc.stdout.split("recipes (--recipe NAME):")[1].strip().splitlines()
    from zerosum.training.alphazero import AZ_RECIPES

    assert [line.split()[0] for line in lines] == sorted([*RECIPES, *AZ_RECIPES])


def test_cli_progress_lines_and_refusal(tmp_path):
    out = tmp_path / "ttt"
    args = ["--game", "tictactoe", "--opponent", "random; solved", "--steps", "512", "--n-envs", "2", "--n-steps",
            "64", "--batch-size", "64", "--n-epochs", "1", "--eval-games", "2", "--eval-every", "256",
            "--log-every", "0", "--no-tensorboard", "--out", str(out), "-v"]
    proc = zerosum_train(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    progress = [line for line in proc.stdout.splitlines() if line.startswith("[") and "steps/s" in line]
    assert progress and "games vs" in progress[-1] and "won-drawn-lost seat0" in progress[-1]
    assert "| eval @" in progress[-1] and "random/seat0" in progress[-1]
    assert "best: " in proc.stdout
    proc = zerosum_train(*args[:-3], "--seed", "5", "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 2 and "already holds a run with different settings (seed 0 -> 5)" in proc.stderr


def test_random_opening_plays_one_ply_for_whoever_moves():
    env = SingleAgentEnv("tictactoe", "random", seat=0, random_opening=1.0)
    stones = set()
    for i in range(20):
        obs, _ = env.reset(seed=i)
        stones.add(int(np.asarray(obs[:27]).reshape(3, 3, 3)[:, :, :2].sum()))
    assert stones == {2}  # seat 0: the random ply is its own, then the opponent's reply
    with pytest.raises(ValueError, match="random_opening=1.5 is not allowed"):
        SingleAgentEnv("tictactoe", "random", random_opening=1.5)


def test_make_runs_hook_trains_the_recipe_and_copies_its_best(tmp_path, monkeypatch, capsys):
    from zerosum.training.ppo import recipes

    small = {**RECIPES["tictactoe"], "steps": 256, "n_envs": 2, "algo_kwargs": TINY, "eval_games": 2,
             "eval_every": 128, "tensorboard": False}
    monkeypatch.setitem(recipes.RECIPES, "tictactoe", small)
    path = recipes.ensure_never_losing_tictactoe(tmp_path / "ck" / "ttt.zip")
    assert path.is_file() and (tmp_path / "ck" / "ttt.json").is_file()
    assert json.loads((tmp_path / "ck" / "ttt.json").read_text())["best"]["path"] == "best.zip"
    assert "the never-losing tic-tac-toe agent (recipe tictactoe, best.zip" in capsys.readouterr().out
    assert recipes.ensure_never_losing_tictactoe(path) == path  # present: returned as is


def test_the_exploiter_aims_at_the_lines_the_last_walk_found_lost(tmp_path):
    res = train(tiny_cfg(tmp_path, eval_exhaustive=True, eval_openings=[0, 1], exploiter=0.5, steps=384))
    mix = res.metadata["opponents"]
    assert mix["kind"] == "mixture" and mix["opponents"][-1] == "exploiter(fallback=solved)"
    assert mix["weights"][-1] == 0.5
    with pytest.raises(ValueError, match="exploiter needs eval_exhaustive"):
        TrainConfig(exploiter=0.5)


def test_worst_case_names_the_opponent_moves_into_lost_lines():
    from zerosum.agents.exploiter import ExploiterAgent
    from zerosum.evaluation.exhaustive import worst_case

    game = make_game("tictactoe")
    weak = "alphabeta(depth=1, tie_break=off)"
    wc = worst_case(weak, game, 1)
    assert wc.losses > 0 and wc.losing_moves
    exploiter = ExploiterAgent(rng=0)
    exploiter.update(wc.losing_moves)
    learner = make_agent(weak)
    for _ in range(5):  # the exploiter (first) beats the policy every game
        state = game.initial_state()
        while not game.is_terminal(state):
            mover = exploiter if game.current_player(state) == 0 else learner
            state = game.apply(state, mover.act(game, state))
        assert game.returns(state)[1] == -1


def test_training_logs_only_into_its_run_directory(tmp_path):
    """SB3's logger writes progress.csv into the run's directory, and nothing into the temporary
    directory (SB3's configure() without a folder makes /tmp/SB3-<date>), with or without one."""
    tmp, run = tmp_path / "tmp", tmp_path / "run"
    tmp.mkdir()
    code = ("from zerosum.training.ppo.train import TrainConfig, train\n"
            "tiny = dict(steps=128, n_envs=2, algo_kwargs={'n_steps': 64, 'batch_size': 64, 'n_epochs': 1}, "
            "eval_games=0, tensorboard=False)\n"
            f"train(TrainConfig(out=None, **tiny))\ntrain(TrainConfig(out={str(run)!r}, verbose=2, **tiny))\n")
    env = {**{k: v for k, v in os.environ.items() if k != "SB3_LOGDIR"}, "TMPDIR": str(tmp)}  # conftest sets it
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp.iterdir() if p.name.startswith("SB3-")] == []
    assert (run / "progress.csv").is_file() and "total_timesteps" in done.stdout


def test_a_run_recorded_before_an_option_existed_resumes_with_that_option_at_its_default(tmp_path):
    from zerosum.training.rundir import check_out

    cfg = tiny_cfg(tmp_path)
    older = {k: v for k, v in cfg.settings().items() if k not in ("symmetry", "opponent_priority")}
    (tmp_path / "run.json").write_text(json.dumps({"settings": older, "steps": cfg.steps}))
    (tmp_path / "model.zip").write_bytes(b"")
    assert check_out(cfg, tmp_path, resume=True, overwrite=False)
    with pytest.raises(TrainingSetupError, match="settings differ in symmetry False -> True"):
        check_out(tiny_cfg(tmp_path, symmetry=True), tmp_path, resume=True, overwrite=False)
