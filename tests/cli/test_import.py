"""``zerosum --import MODULE``: a module that registers a game of one's own, loaded before the command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def _run(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(cwd), str(Path(__file__).resolve().parents[2])])}
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=600)


def test_a_registered_game_is_playable_after_import(tmp_path):
    (tmp_path / "my_games.py").write_text(
        "from zerosum.games import register_game\n"
        "register_game('my_tictactoe', 'zerosum.games.tictactoe:TicTacToe')\n")
    unknown = _run(["play", "my_tictactoe", "--opponent", "random"], tmp_path, "quit\n")
    assert unknown.returncode == 2 and "unknown game 'my_tictactoe'" in unknown.stderr
    done = _run(["--import", "my_games", "play", "my_tictactoe", "--opponent", "random", "--first"], tmp_path,
                "b2\nquit\n")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^2  \S X \S$", done.stdout, re.M)  # the typed move b2 is on the board


def test_a_missing_module_is_a_clear_error(tmp_path):
    r = _run(["--import", "no_such_module_here", "play", "tictactoe"], tmp_path)
    assert r.returncode == 2 and "--import no_such_module_here: No module named" in r.stderr
