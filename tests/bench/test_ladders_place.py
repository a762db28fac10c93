"""bench/ladders.py --place: which method each placed agent stands for, how it was trained, and how a
new placement merges into docs/results/placements.json (no game is played here)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _ladders():
    saved = list(sys.path)  # the script puts bench/ on sys.path for its _report helper: undo that here
    try:
        spec = importlib.util.spec_from_file_location("bench_ladders", BENCH / "ladders.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


def test_the_default_opponent_and_the_zoo_networks_are_placed_with_their_methods():
    lad = _ladders()
    agents = lad.agents_to_place("tictactoe")
    assert agents == {"alphabeta(time=0.1)": "default opponent",
                      "alphazero(path=zoo:tictactoe, sims=0)": "AlphaZero zoo network, alone",
                      "alphazero(path=zoo:tictactoe, sims=64)": "AlphaZero zoo network, 64 simulations"}
    assert list(lad.agents_to_place("nim").values()) == ["default opponent"]  # no zoo network for Nim
    # a zoo network's training command is its sidecar's
    assert lad.known_method("tictactoe", "alphazero(path=zoo:tictactoe, sims=0)")["trained"].startswith(
        "zerosum train --algo alphazero --recipe az_tictactoe")
    assert "trained_note" in lad.known_method("connect_four", "alphazero(path=zoo:connect_four, sims=64)")
    assert lad.known_method("tictactoe", "alphabeta(time=0.1)") == {"method": "default opponent"}
    assert lad.known_method("tictactoe", "ppo(path=runs/ttt/best.zip)") == {}


def test_a_placement_replaces_its_own_row_and_old_rows_gain_their_method_with_figures_kept():
    lad = _ladders()
    old = [{"game": "tictactoe", "agent": "alphabeta(time=0.1)", "elo": 1.0},
           {"game": "tictactoe", "agent": "ppo(path=a.zip)", "method": "PPO recipe", "elo": 2.0},
           {"game": "nim", "agent": "mcts(sims=8)", "elo": 3.0}]
    new = {"game": "tictactoe", "agent": "ppo(path=a.zip)", "method": "PPO recipe", "elo": 4.0, "trained": "t"}
    merged = lad.merge(old, [new])
    assert [(r["game"], r["agent"], r["elo"]) for r in merged] == [
        ("nim", "mcts(sims=8)", 3.0), ("tictactoe", "alphabeta(time=0.1)", 1.0), ("tictactoe", "ppo(path=a.zip)", 4.0)]
    assert merged[1]["method"] == "default opponent"
    assert "method" not in merged[0]  # an agent of no known method keeps no method
    assert merged[2] == new


def test_an_agent_is_placed_on_one_game_with_its_method():
    for args in (["--agent", "random", "--only", "tictactoe"],  # no --place
                 ["--place", "--agent", "random", "--method", "m", "--only", "tictactoe,nim"],
                 ["--place", "--agent", "random", "--only", "tictactoe"],  # no --method
                 ["--place", "--trained", "zerosum train", "--only", "tictactoe"]):  # --trained without --agent
        out = subprocess.run([sys.executable, str(BENCH / "ladders.py"), *args], capture_output=True, text=True)
        assert out.returncode == 2 and ("--agent" in out.stderr), (args, out.stderr)
