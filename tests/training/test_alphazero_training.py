"""AlphaZero runs: refusals before training, the files a run writes, resuming after SIGKILL,
the Ray backend. Tiny runs (wiring, not strength), in this process but for the killed run and Ray's."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from zerosum.games import make_game
from zerosum.training.alphazero import AZ_RECIPES, AlphaZeroConfig, ReplayBuffer, az_recipe, fits
from zerosum.training.alphazero import Positions
from tests.inprocess import zerosum_train

# a run of a few seconds: 2 iterations of 8 tic-tac-toe games at 8 simulations
TINY = ["--net", "kind=mlp", "hidden=32,32", "--sims", "8", "--games-per-iteration", "8", "--train-steps", "5",
        "--eval-every", "1", "--eval-games", "4", "--eval-opponents", "random", "--no-tensorboard"]


def zerosum_train_subprocess(*args, cwd, timeout=300):
    return subprocess.run([sys.executable, "-m", "zerosum", "train", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, check=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("name", sorted(AZ_RECIPES))
def test_every_recipe_builds_and_names_its_game(name):
    cfg = az_recipe(name)
    assert cfg.algo == "alphazero" and make_game(cfg.game).name == cfg.game
    with pytest.raises(ValueError, match="trains"):
        az_recipe(name, game="nim")


def test_help_lists_the_alphazero_recipes(tmp_path):
    r = subprocess.run([sys.executable, "-m", "zerosum", "train", "--help"], capture_output=True, text=True,
                       check=False, cwd=tmp_path)
    for name in AZ_RECIPES:
        assert name in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--algo", "alphazero", "--recipe", "az_nope"], "unknown recipe 'az_nope'"),
    (["--algo", "alphazero", "--recipe", "az_tictactoe", "--game", "connect_four"],
     "trains tictactoe, not connect_four"),
    (["--algo", "alphazero", "--recipe", "tictactoe"], "not an AlphaZero one"),
    (["--algo", "maskable_ppo", "--recipe", "az_tictactoe"], "give --algo alphazero"),
    (["--algo", "alphazero", "--net", "kind=resnet", "channels=0"], "does not fit tictactoe"),
    (["--algo", "alphazero", "--net", "kind=mlp", "blocks=2"], "does not apply to kind='mlp'"),
    (["--algo", "alphazero", "--net", "kind=transformer"], "kind"),
    (["--algo", "alphazero", "--steps", "100"], "--steps: PPO options"),
    (["--game", "tictactoe", "--sims", "8"], "--sims: AlphaZero options"),
    (["--algo", "alphazero", "--rule", "uct"], "invalid choice"),
    (["--algo", "alphazero", "--iterations", "0", "--ladder-rounds", "1", "--ladder-opponents", "alphabeta(depth=-1)"],
     "ladder opponent 'alphabeta(depth=-1)'"),
])
def test_bad_input_is_refused_before_anything_is_written(tmp_path, args, message):
    r = zerosum_train(*args, "--out", "run", cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr
    assert not (tmp_path / "run").exists()


def _tiny_run(tmp_path, out="run", *extra):
    return zerosum_train("--algo", "alphazero", "--game", "tictactoe", *TINY, "--out", out, *extra, cwd=tmp_path)


def test_labels_only_run_writes_its_files_and_a_loadable_network(tmp_path):
    r = zerosum_train("--algo", "alphazero", "--game", "tictactoe", "--net", "kind=mlp", "hidden=32,32",
                      "--labels", "300", "--label-depth", "4", "--label-steps", "20", "--iterations", "0",
                      "--eval-games", "4", "--eval-opponents", "random", "--no-tensorboard", "--out", "run",
                      cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "run"
    for name in ("run.json", "model.pt", "model.json", "best.pt", "best.json", "state.pt", "labels.npz", "eval.csv"):
        assert (out / name).is_file(), name
    from zerosum.nets import load_network

    _, meta = load_network(out / "best.pt")
    assert meta["game"] == "tictactoe" and meta["evaluation"]["rows"][0]["opponent"] == "random"
    assert json.loads((out / "run.json").read_text())["settings"]["algo"] == "alphazero"


def test_a_directory_holding_a_run_is_refused_and_kept(tmp_path):
    r = zerosum_train("--algo", "alphazero", "--game", "tictactoe", "--net", "kind=mlp", "hidden=16",
                      "--labels", "50", "--label-depth", "2", "--label-steps", "2", "--iterations", "0",
                      "--eval-games", "2", "--eval-opponents", "random", "--no-tensorboard", "--out", "run",
                      cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = snapshot(tmp_path / "run")
    again = zerosum_train("--algo", "alphazero", "--game", "tictactoe", "--net", "kind=mlp", "hidden=16",
                          "--labels", "50", "--label-depth", "2", "--label-steps", "3", "--iterations", "0",
                          "--out", "run", cwd=tmp_path)
    assert again.returncode == 2 and "already holds a run" in again.stderr
    resumed = zerosum_train("--algo", "alphazero", "--game", "tictactoe", "--net", "kind=mlp", "hidden=16",
                            "--labels", "50", "--label-depth", "2", "--label-steps", "3", "--iterations", "0",
                            "--out", "run", "--resume", cwd=tmp_path)
    assert resumed.returncode == 2 and "settings differ in" in resumed.stderr
    assert "label_steps 2 -> 3" in resumed.stderr
    assert snapshot(tmp_path / "run") == before


def test_ppo_and_alphazero_runs_do_not_resume_each_other(tmp_path):
    ppo = zerosum_train("--game", "tictactoe", "--steps", "128", "--n-envs", "2", "--n-steps", "64",
                        "--batch-size", "64", "--n-epochs", "1", "--eval-games", "0", "--out", "ppo", cwd=tmp_path)
    assert ppo.returncode == 0, ppo.stderr
    before = snapshot(tmp_path / "ppo")
    r = _tiny_run(tmp_path, "ppo", "--resume")
    assert r.returncode == 2 and "holds a maskable_ppo run" in r.stderr, r.stderr
    az = zerosum_train("--algo", "alphazero", "--game", "tictactoe", "--net", "kind=mlp", "hidden=16",
                       "--labels", "50", "--label-depth", "2", "--label-steps", "2", "--iterations", "0",
                       "--eval-games", "2", "--eval-opponents", "random", "--no-tensorboard", "--out", "az",
                       cwd=tmp_path)
    assert az.returncode == 0, az.stderr
    az_before = snapshot(tmp_path / "az")
    back = zerosum_train("--game", "tictactoe", "--steps", "128", "--out", "az", "--resume", cwd=tmp_path)
    assert back.returncode == 2 and "holds a alphazero run" in back.stderr, back.stderr
    assert snapshot(tmp_path / "ppo") == before and snapshot(tmp_path / "az") == az_before


def test_replay_buffer_keeps_the_last_positions():
    buf = ReplayBuffer(5, (1,), 2)

    def games(values):
        n = len(values)
        return Positions(np.zeros((n, 1), np.int8), np.ones((n, 2), np.int8), np.full((n, 2), 0.5, np.float32),
                     np.asarray(values, np.float32))

    buf.add(games([1, 2, 3]))
    buf.add(games([4, 5, 6, 7]))
    assert buf.size == 5 and sorted(buf.value.tolist()) == [3, 4, 5, 6, 7]
    st = buf.state()
    other = ReplayBuffer(5, (1,), 2)
    other.restore(st)
    assert other.value.tolist() == buf.value.tolist() and other.next == buf.next
    assert buf.oldest_first().value.tolist() == [3, 4, 5, 6, 7]
    buf.add(games(list(range(10, 20))))
    assert sorted(buf.value.tolist()) == [15, 16, 17, 18, 19]
    partial = ReplayBuffer(5, (1,), 2)
    partial.add(games([8, 9]))
    assert partial.oldest_first().value.tolist() == [8, 9]
    exact = ReplayBuffer(2, (1,), 2)  # a saved partial buffer restored into one just its size
    exact.restore(partial.state())
    assert exact.oldest_first().value.tolist() == [8, 9]


def test_config_refuses_bad_values():
    with pytest.raises(ValueError, match="rule='uct'"):
        AlphaZeroConfig(rule="uct")
    with pytest.raises(ValueError, match="full_search_prob"):
        AlphaZeroConfig(full_search_prob=0.0)
    with pytest.raises(ValueError, match="backend"):
        AlphaZeroConfig(backend="slurm")
    with pytest.raises(ValueError, match="ladder_games > 0"):
        AlphaZeroConfig(ladder_rounds=2, ladder_games=0)
    with pytest.raises(ValueError, match="ladder_rounds=-1"):
        AlphaZeroConfig(ladder_rounds=-1)
    AlphaZeroConfig(iterations=0, ladder_rounds=1)  # ladder rounds alone are a run


def test_a_round_is_started_only_if_one_as_long_as_the_last_fits_the_time_limit():
    assert fits(0.0, 0.0, None) and fits(10**9, 10**9, None)  # no limit
    assert fits(0.0, 0.0, 3600.0)  # the first round starts whenever time is left
    assert fits(3599.0, 0.0, 3600.0) and not fits(3600.0, 0.0, 3600.0)
    assert fits(3300.0, 200.0, 3600.0)  # it ends at 3,500 s
    assert not fits(3450.0, 200.0, 3600.0)  # it would end at 3,650 s: the run stops within its hour


@pytest.mark.parametrize(("recipe", "game_name", "lines"), [("az_connect_four", "connect_four", 4),
                                                        ("az_pentago", "pentago", 5)])
def test_a_ladder_recipe_runs_its_round_with_its_line_feature_network(tmp_path, recipe, game_name, lines):
    """az_connect_four and az_pentago, shrunk to one round of two games: the recipe's own network
    (a ResNet with line features) trains on the round's labels, and the checkpoint plays as an
    agent with its line features."""
    r = zerosum_train("--algo", "alphazero", "--recipe", recipe, "--label-depth", "2",
                      "--ladder-rounds", "1", "--ladder-games", "2", "--ladder-steps", "2", "--final-steps", "2",
                      "--eval-games", "2", "--eval-opponents", "random", "--no-tensorboard", "--out", "run", "-v",
                      cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ladder   1" in r.stdout and "2 games (W/D/L" in r.stdout
    from zerosum.agents import make_agent
    from zerosum.games import make_game
    from zerosum.nets import load_network

    net, meta = load_network(tmp_path / "run" / "best.pt")
    assert meta["game"] == game_name and meta["net"]["lines"] == lines and net.lines is not None
    game = make_game(game_name)
    agent = make_agent(f"alphazero(path={tmp_path / 'run' / 'best.pt'}, sims=8)")
    agent.prepare(game)
    state = game.initial_state()
    assert game.legal_mask(state)[agent.act(game, state)]


def test_ladder_rounds_label_the_networks_games_and_a_resume_goes_on_from_the_last_round(tmp_path):
    """Connect Four, quiescence labels that prefer the nearest win: each round adds the labelled
    positions of its games to the buffer; a resumed run keeps the rounds done and plays only the
    missing ones."""
    args = ["--algo", "alphazero", "--game", "connect_four", "--net", "kind=mlp", "hidden=32",
            "--label-depth", "2", "--label-quiescence", "--label-fast-wins", "--ladder-games", "3",
            "--ladder-steps", "4",
            "--eval-every", "1", "--eval-games", "2", "--eval-opponents", "random", "--no-tensorboard",
            "--iterations", "0", "--out", "run", "-v"]
    r = zerosum_train(*args, "--ladder-rounds", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ladder   1" in r.stdout and "3 games (W/D/L" in r.stdout
    import torch

    one = torch.load(tmp_path / "run" / "state.pt", weights_only=False)
    assert one["ladder_rounds"] == 1 and one["buffer"]["size"] >= 3 * 7  # a game of Connect Four has >= 7 plies
    assert "best.pt (ladder round 1," in r.stdout
    r = zerosum_train(*args, "--ladder-rounds", "1", "--resume", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ladder   " not in r.stdout  # nothing left to play
    again = torch.load(tmp_path / "run" / "state.pt", weights_only=False)
    assert again["ladder_rounds"] == 1 and again["buffer"]["size"] == one["buffer"]["size"]
    r = zerosum_train(*args, "--ladder-rounds", "2", "--resume", cwd=tmp_path)  # more rounds: only the new one
    assert r.returncode == 0, r.stderr
    assert "ladder   2" in r.stdout and "ladder   1 " not in r.stdout
    two = torch.load(tmp_path / "run" / "state.pt", weights_only=False)
    assert two["ladder_rounds"] == 2 and two["buffer"]["size"] > one["buffer"]["size"]
    from zerosum.nets import load_network

    _, meta = load_network(tmp_path / "run" / "best.pt", make_game("connect_four"))
    assert meta["recipe_settings"]["label_quiescence"] is True
    assert meta["recipe_settings"]["label_fast_wins"] is True


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_selfplay_run_writes_progress_and_resumes_after_sigkill(tmp_path):
    """Kill a run with SIGKILL after a few iterations; --resume goes on from the last finished
    iteration with the replay buffer it had (kept in state.pt), nothing repeated."""
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "zerosum", "train", "--algo", "alphazero", "--game", "tictactoe", *TINY,
           "--iterations", "200", "--out", "run"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if (out / "progress.csv").is_file() and len(_rows(out / "progress.csv")) >= 2 and proc.poll() is None:
                break
            if proc.poll() is not None:
                pytest.fail(f"the run ended early: {proc.stderr.read().decode()}")
            time.sleep(0.2)
        else:
            pytest.fail("no progress in 240 s")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    import torch

    saved = torch.load(out / "state.pt", weights_only=False)
    done = int(saved["iteration"])
    assert done >= 1 and saved["buffer"]["size"] > 0
    r = zerosum_train("--algo", "alphazero", "--game", "tictactoe", *TINY, "--iterations", str(done + 2),
                      "--out", "run", "--resume", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = _rows(out / "progress.csv")
    assert [int(x["iteration"]) for x in rows] == list(range(1, done + 3))
    first_new = rows[done]
    assert int(first_new["buffer"]) == saved["buffer"]["size"] + int(first_new["positions"])  # the buffer was kept
    assert int(rows[-1]["games"]) == 8 * (done + 2)
    from zerosum.nets import load_network

    _, meta = load_network(out / "model.pt", make_game("tictactoe"))
    assert meta["iteration"] == done + 2 and meta["train_steps"] == 5 * (done + 2)
    assert (out / "score.png").is_file() and _rows(out / "eval.csv")


def test_ray_backend_plays_selfplay_in_actors(tmp_path):
    pytest.importorskip("ray")
    r = zerosum_train_subprocess("--algo", "alphazero", "--game", "tictactoe", *TINY, "--out", "run", "--backend",
                                 "ray", "--iterations", "1", cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = _rows(tmp_path / "run" / "progress.csv")
    assert len(rows) == 1 and int(rows[0]["games"]) == 8
