"""docs/_gen/ratings.py's placements: the method x game table of Elo, and every placement with the
commands that placed and trained it (on placements made up here, not the shipped file)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("mkdocs_gen_files")
pytest.importorskip("matplotlib")

_SPEC = importlib.util.spec_from_file_location("zerosum_docs_ratings",
                                               Path(__file__).resolve().parents[2] / "docs" / "_gen" / "ratings.py")
ratings = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ratings)


def row(game, agent, elo, method=None, **extra):
    out = {"game": game, "agent": agent, "elo": elo, "low": elo - 50, "high": elo + 50, "scale_half_width": 40.0,
           "beyond": None, "games": 200, "cost": {"seconds": 0.001}, "seconds": 1.0,
           "command": f'zerosum evaluate "{agent}" --game {game} --ladder --games 200', **extra}
    return out if method is None else {**out, "method": method}


def test_each_method_is_a_row_and_each_game_a_column_with_the_elo_and_its_interval():
    rows = [row("tictactoe", "ppo(path=runs/ttt/best.zip)", 650.0, "PPO recipe"),
            row("tictactoe", "alphabeta(time=0.1)", 700.0, "default opponent"),
            row("nim", "alphabeta(time=0.1)", 300.0, "default opponent")]
    lines = ratings.method_table(rows)
    assert lines[0] == "| method | tictactoe | nim |"
    assert lines[2].startswith("| *the ladder's top rung* | ")
    # the known methods in their order (default opponent before PPO recipe), whatever the file's order
    assert lines[3] == "| default opponent | 700 (650 to 750) | 300 (250 to 350) |"
    assert lines[4] == "| PPO recipe | 650 (600 to 700) | - |"
    assert len(lines) == 5


def test_a_row_without_a_method_stands_for_its_agent_and_an_open_end_says_so():
    above = {**row("tictactoe", "solved", 713.0), "beyond": "above", "high": None}
    below = {**row("tictactoe", "noisy(base=random, epsilon=1)", 0.0, "my method"), "beyond": "below",
             "low": None}
    lines = ratings.method_table([above, below])
    assert "| `solved` | above the top rung (713) |" in lines
    assert "| my method | below random |" in lines


def test_every_placement_lists_the_command_that_placed_and_the_one_that_trained_it(tmp_path, monkeypatch):
    trained = row("tictactoe", "ppo(path=runs/ttt/best.zip)", 650.0, "PPO recipe",
                  trained="zerosum train --recipe tictactoe --out runs/ttt --seed 0 | tee log",
                  trained_note="300k steps")
    legacy = row("tictactoe", "alphabeta(time=0.1)", 700.0)  # a row from before rows carried a method
    path = tmp_path / "placements.json"
    path.write_text(json.dumps([legacy, trained]))
    monkeypatch.setattr(ratings, "PLACEMENTS", path)
    page = "\n".join(ratings.placements_section())
    assert "| PPO recipe | 650 (600 to 700) |" in page
    assert "| `alphabeta(time=0.1)` | 700 (650 to 750) |" in page
    # the pipe of a command is escaped, so the cell does not end there
    assert ("| `zerosum evaluate \"ppo(path=runs/ttt/best.zip)\" --game tictactoe --ladder --games 200` | "
            "`zerosum train --recipe tictactoe --out runs/ttt --seed 0 \\| tee log` (300k steps) |") in page
    assert "| tictactoe | - | `alphabeta(time=0.1)` | 700 | 650 to 750 | 40 | 0.0010 | 200 |" in page


def test_no_placements_file_no_section(tmp_path, monkeypatch):
    monkeypatch.setattr(ratings, "PLACEMENTS", tmp_path / "missing.json")
    assert ratings.placements_section() == []
