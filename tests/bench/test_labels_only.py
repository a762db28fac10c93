"""bench/labels_only.py with several label sets: joined in order, repeats dropped with --unique, a
resumed run's overlap dropped with --drop-overlap, sets from another labeller refused before any
training."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.games.registry import make_game

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "labels_only.py"


def _run(tmp_path, *args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def label_files(tmp_path_factory):
    import numpy as np

    from zerosum.training.labeller import Dataset, label_dataset, save_dataset

    game = make_game("tictactoe")
    d = tmp_path_factory.mktemp("labels")
    first, second = label_dataset(game, 40, depth=2, seed=1), label_dataset(game, 30, depth=2, seed=2)
    a = save_dataset(d / "a.npz", first)
    b = save_dataset(d / "b.npz", second)
    deeper = save_dataset(d / "deeper.npz", label_dataset(game, 30, depth=3, seed=2))
    # a run resumed from a's: its buffer starts with a's last 10 positions, then new ones
    resumed = save_dataset(d / "resumed.npz", Dataset(*(np.concatenate([getattr(first, f)[-10:], getattr(second, f)])
                                                        for f in ("obs", "mask", "policy", "value")), second.meta))
    return a, b, deeper, resumed


def _rows(stdout):
    return json.loads(stdout.splitlines()[0])["rows"]


def test_joined_sets_train_on_all_of_them_and_unique_drops_repeats(tmp_path, label_files):
    a, b, _, resumed = label_files
    common = ("--steps", "2", "--net", "kind=mlp", "hidden=16,16", "--games", "2", "--opponents", "random")
    one = _run(tmp_path, "--labels", str(a), *common)
    both = _run(tmp_path, "--labels", str(a), str(b), *common)
    again = _run(tmp_path, "--labels", str(a), str(a), "--unique", *common)
    overlap = _run(tmp_path, "--labels", str(a), str(resumed), "--drop-overlap", *common)
    kept = _run(tmp_path, "--labels", str(a), str(resumed), *common)
    limited = _run(tmp_path, "--labels", str(a), str(b), "--held-out", "10", "--limit", "25", *common)
    for r in (one, both, again, overlap, kept, limited):
        assert r.returncode == 0, r.stderr
    n_a = _rows(one.stdout)[0]["labels"]
    assert n_a == 40 and _rows(both.stdout)[0]["labels"] == 70
    assert _rows(again.stdout)[0]["labels"] <= 40  # a second copy of a adds nothing
    assert _rows(overlap.stdout)[0]["labels"] == 70 and _rows(kept.stdout)[0]["labels"] == 80
    row = _rows(limited.stdout)[0]
    assert row["labels"] == 25 and row["held_out"] == 10


def test_sets_from_another_labeller_and_bad_counts_are_refused(tmp_path, label_files):
    a, _, deeper, _ = label_files
    mixed = _run(tmp_path, "--labels", str(a), str(deeper), "--steps", "1")
    assert mixed.returncode != 0 and "only labels made alike can be joined" in mixed.stderr
    too_many = _run(tmp_path, "--labels", str(a), "--held-out", "40", "--steps", "1")
    assert too_many.returncode != 0 and "hold only 40 positions" in too_many.stderr
    for bad in (("--held-out", "2.5"), ("--limit", "0")):
        r = _run(tmp_path, "--labels", str(a), *bad, "--steps", "1")
        assert r.returncode != 0 and bad[0] in r.stderr
