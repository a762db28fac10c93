"""``zerosum --import MODULE``: a module that registers a game of one's own, loaded before the command."""

from __future__ import annotations

import os
import re
import sqlite3
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


def _guide_package(root: Path) -> None:
    """docs/new-game.md's Hexapawn package (a kit game in the guide's shape) under ``root``."""
    from tests.test_new_game_guide import guide_blocks

    for block in guide_blocks():
        name = block.options.get("file", "")
        if name.startswith("hexapawn/"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(block.text)


def test_worker_processes_import_what_the_command_line_imported(tmp_path):
    _guide_package(tmp_path)
    r = _run(["--import", "hexapawn", "tournament", "--game", "hexapawn", "--variant", "rows=4", "columns=4",
              "--agents", "random", "noisy(base=random, epsilon=0.5)", "--games", "3", "--workers", "2",
              "--output", "out", "--no-plots", "--quiet"], tmp_path)
    assert r.returncode == 0, r.stderr  # before: the workers said "unknown game 'hexapawn'"
    with sqlite3.connect(tmp_path / "out" / "tournament.sqlite") as db:
        played = db.execute("SELECT termination, error FROM games").fetchall()
    assert len(played) == 6 and all(error is None for _, error in played), played
    m = _run(["--import", "hexapawn", "match", "random", "noisy(base=random, epsilon=0.5)", "--game", "hexapawn",
              "--max-games", "4", "--workers", "2", "--quiet"], tmp_path)
    assert m.returncode == 0, m.stderr


def test_a_worker_that_cannot_import_a_module_names_it(tmp_path):
    (tmp_path / "parent_only.py").write_text(
        "import multiprocessing\n"
        "if multiprocessing.parent_process() is not None:\n"
        "    raise ImportError('this module refuses to load in a child process')\n"
        "from zerosum.games import register_game\n"
        "register_game('my_tictactoe', 'zerosum.games.tictactoe:TicTacToe')\n")
    r = _run(["--import", "parent_only", "tournament", "--game", "my_tictactoe", "--agents", "random",
              "noisy(base=random, epsilon=0.5)", "--games", "2", "--workers", "2", "--output", "out", "--no-plots",
              "--quiet"], tmp_path)
    assert r.returncode == 2
    assert "could not import 'parent_only'" in r.stderr and "refuses to load in a child process" in r.stderr


def test_warmup_compiles_an_imported_game_in_its_workers(tmp_path):
    _guide_package(tmp_path)
    r = _run(["--import", "hexapawn", "warmup", "hexapawn", "--parts", "rules", "--jobs", "1"], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr  # before: the worker said "unknown game 'hexapawn'"
    assert re.search(r"^hexapawn\s+rules\s+[\d.]+ s$", r.stdout, re.M), r.stdout
    unknown = _run(["warmup", "hexapawn", "--parts", "rules"], tmp_path)
    assert unknown.returncode == 2 and "zerosum --import MODULE" in unknown.stderr
