"""bench/exact_teacher.py: a row per disc count, exact searches only from that count on, the
exact agent's moves legal and its games scored; bad counts are refused."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "exact_teacher.py"


def _exact_from():
    """The script's agent, loaded from its file (bench/ on sys.path would let its scripts shadow modules)."""
    sys.path.insert(0, str(SCRIPT.parent))  # for its own `from _report import emit`
    try:
        spec = importlib.util.spec_from_file_location("exact_teacher", SCRIPT)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module.ExactFrom


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_a_row_per_disc_count():
    r = _run("--exact-from", "42,30", "--depth", "4", "--games", "4", "--opponents", "alphabeta(depth=2)")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout.splitlines()[0])
    plain, exact = doc["rows"]
    assert plain["opponent"] == exact["opponent"] == "alphabeta(depth=2)"
    assert (plain["agent"], plain["exact_from"], plain["exact_searches"]) == ("alphabeta(depth=4)", 42, 0)
    assert exact["agent"] == "alphabeta(depth=4), exact from 30 discs" and exact["exact_searches"] > 0
    for row in doc["rows"]:
        w, d, lost = map(int, row["wdl"].split("/"))
        assert w + d + lost == row["games"] == 4 and row["score"] == (w + d / 2) / 4
    assert doc["depth"] == 4


def test_a_row_per_opponent_with_its_own_exact_searches():
    # the same opponent twice: the same openings and seeds, so the same games and the same count,
    # not the first row's searches counted again in the second
    r = _run("--exact-from", "30", "--depth", "4", "--games", "4", "--opponents",
             "alphabeta(depth=2); alphabeta(depth=2)")
    assert r.returncode == 0, r.stderr
    first, second = json.loads(r.stdout.splitlines()[0])["rows"]
    assert first["opponent"] == second["opponent"] == "alphabeta(depth=2)"
    assert first["wdl"] == second["wdl"]
    assert first["exact_searches"] == second["exact_searches"] > 0


def test_the_exact_search_takes_the_win_and_does_not_give_one():
    from zerosum.games import make_game

    ExactFrom = _exact_from()

    game = make_game("connect_four")
    s = game.initial_state()
    for a in (5, 0, 1, 1, 1, 5, 6, 4, 0, 0, 2, 3, 4, 3, 1, 1, 4, 5, 0, 0, 3, 3, 6, 4, 3, 3, 5, 4, 0, 5):
        s = game.apply(s, a)  # 30 discs; a disc in column 2 would let the opponent win on top of it
    agent = ExactFrom(depth=2, exact_from=30)
    agent.prepare(game)
    assert agent.act(game, s) != 2
    assert len(agent.exact_seconds) == 1
    s = game.apply(s, 2)  # played anyway: the opponent now wins in column 2
    assert agent.act(game, s) == 2
    assert agent.last_stats.value >= 900_000  # a proven win, not a heuristic value
    assert len(agent.exact_seconds) == 2 and np.isfinite(agent.exact_seconds).all()
    early = ExactFrom(depth=2, exact_from=31)
    early.prepare(game)
    early.act(game, game.initial_state())  # below its disc count: the depth-2 search, nothing exact
    assert early.exact_seconds == []


def test_bad_counts_are_refused():
    r = _run("--exact-from", "43")
    assert r.returncode != 0 and "give disc counts from 0 to 42" in r.stderr
    r = _run("--games", "0")
    assert r.returncode != 0 and "--depth and --games take positive whole numbers" in r.stderr
