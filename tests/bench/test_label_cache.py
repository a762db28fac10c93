"""bench/label_cache.py: the same ladder rounds labelled without and with the cache, a row a round
and the total; bad counts are refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "label_cache.py"

pytest.importorskip("torch")


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_a_row_a_round_and_the_total():
    r = _run("--path", "zoo:tictactoe", "--game", "tictactoe", "--depth", "9", "--no-quiescence", "--rounds", "2",
             "--games", "40", "--opponents", "alphabeta(depth=9)")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout.splitlines()[0])
    rows = doc["rows"]
    assert [row["round"] for row in rows] == [1, 2, "all"]
    assert rows[2]["positions"] == rows[0]["positions"] + rows[1]["positions"] > 0
    assert rows[2]["from_cache"] == rows[0]["from_cache"] + rows[1]["from_cache"]
    assert rows[1]["from_cache"] > 0  # the network and alpha-beta replay some of round 1's positions
    assert all(0 <= row["from_cache"] <= row["positions"] and row["s_plain"] >= 0 for row in rows)
    assert doc["game"] == "tictactoe" and doc["opponents"] == ["alphabeta(depth=9)"]


def test_bad_counts_are_refused():
    r = _run("--rounds", "0")
    assert r.returncode != 0 and "--rounds and --games take positive whole numbers" in r.stderr
