"""`zerosum train` end to end (in this process: tests/inprocess.py): a short run whose checkpoint plays as an agent.

(The evaluation module loads the same checkpoint with ``make_agent("ppo(path=...)")``;
this test plays with its own small loop so it does not depend on zerosum.evaluation.)
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from zerosum.agents import RandomAgent, make_agent
from zerosum.games import make_game
from tests.inprocess import zerosum_train


def test_train_end_to_end(tmp_path):
    out = tmp_path / "runs" / "ttt"
    proc = zerosum_train("--game", "tictactoe", "--opponent", "random", "--steps", "3000", "--algo", "maskable_ppo",
                         "--out", str(out), "--n-envs", "4", "--n-steps", "128", "--eval-games", "20", "--json",
                         cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["steps"] >= 3000 and summary["checkpoint"] == str(out / "model.zip")
    assert {(r["opponent"], r["seat"]) for r in summary["final_eval"]} == {("random", 0), ("random", 1)}
    assert (out / "model.json").is_file() and (out / "eval.csv").is_file()

    game = make_game("tictactoe")
    agent = make_agent(f"ppo(path={out / 'model.zip'})")
    opponent = RandomAgent(0)
    rng = np.random.default_rng(0)
    results = []
    for i in range(40):
        seat = i % 2
        agent.seed(rng.integers(1 << 30))
        state = game.initial_state()
        while not game.is_terminal(state):
            mover = agent if game.current_player(state) == seat else opponent
            action = mover.act(game, state)
            assert game.legal_mask(state)[action], f"{mover.name} played an illegal move"
            state = game.apply(state, action)
        results.append(game.returns(state)[seat])
    assert np.mean(results) > 0  # 3000 steps already beat random on average


def test_train_takes_the_variant_grammar_of_every_command(tmp_path):
    out = tmp_path / "nim"
    proc = zerosum_train("--game", "nim", "--variant", "misere=true", "piles=3,4,5", "--opponent", "random",
                         "--steps", "64", "--n-envs", "2", "--n-steps", "32", "--batch-size", "32", "--eval-games", "2",
                         "--out", str(out), "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1])["steps"] >= 64
    assert json.loads((out / "model.json").read_text())["variant"] == {"misere": True, "piles": [3, 4, 5]}
    proc = zerosum_train("--game", "nim", "--variant", "colour=red", "--out", str(tmp_path / "y"), cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("zerosum train: bad variant for nim: unknown key(s) colour")
    assert "allowed: piles" in proc.stderr and not (tmp_path / "y").exists()


def test_train_recipe_overrides_and_errors(tmp_path):
    proc = zerosum_train("--game", "mahjong", "--steps", "10", "--out", str(tmp_path / "x"), cwd=tmp_path)
    assert proc.returncode == 2 and "unknown game 'mahjong'" in proc.stderr
    proc = zerosum_train("--seat", "left", cwd=tmp_path)
    assert proc.returncode == 2 and "seat 'left' is not allowed" in proc.stderr
    proc = zerosum_train("--help", cwd=tmp_path)
    assert proc.returncode == 0 and "--curriculum" in proc.stdout


def test_config_from_args():
    from zerosum.cli.train import config_from_args, parser

    ns = parser().parse_args(["--recipe", "tictactoe", "--steps", "10", "--lr", "0.01", "--variant", "x=(1, 2)",
                              "--curriculum", "random; alphabeta(depth=1, tt=on)", "--net-arch", "32,32"])
    cfg = config_from_args(ns)
    assert cfg.steps == 10 and cfg.net_arch == (32, 32) and cfg.variant == {"x": (1, 2)}
    assert cfg.algo_kwargs["learning_rate"] == 0.01 and cfg.algo_kwargs["n_epochs"] == 10  # recipe kept
    assert cfg.curriculum == ["random", "alphabeta(depth=1, tt=on)"]
