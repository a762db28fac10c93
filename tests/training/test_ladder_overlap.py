"""Overlapped ladder rounds (``ladder_overlap``): the workers play the next round while the learner
learns, the learner's share shrinks by what they play in that time, and a round's games add up."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.training.alphazero import AlphaZeroConfig
from zerosum.training.azrun import LadderRounds
from zerosum.training.selfplay import Games



def zerosum_train(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zerosum", "train", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300, check=False)


class FakeWorkers:
    """Workers that answer a ladder job at once: ``per_game`` seconds a game, one position a game."""

    def __init__(self, n: int, per_game: float) -> None:
        self.n, self.per_game = n, per_game
        self.jobs: list[tuple[int, tuple]] = []
        self.out: dict[int, tuple] = {}

    def __len__(self) -> int:
        return self.n

    def submit(self, i: int, msg: tuple) -> None:
        assert i not in self.out, "a worker was sent a job before its last answer was read"
        self.jobs.append((i, msg))
        self.out[i] = msg

    def result(self, i: int) -> Games:
        msg = self.out.pop(i)
        games = msg[2]
        return Games(np.zeros((games, 6, 7, 2), np.int8), np.ones((games, 7), np.int8),
                     np.full((games, 7), 1 / 7, np.float32), np.zeros(games, np.float32), games=games,
                     moves=games, seconds=self.per_game * games, outcomes=(games, 0, 0))


def _ladder(workers: FakeWorkers, overlap: bool, games: int = 400) -> LadderRounds:
    cfg = AlphaZeroConfig(game="connect_four", ladder_rounds=5, ladder_games=games, ladder_overlap=overlap,
                          iterations=0)
    return LadderRounds(workers, cfg, make_game("connect_four"), net=None)


def test_without_overlap_the_split_is_even_whatever_the_times():
    lr = _ladder(FakeWorkers(1, 0.3), overlap=False)
    lr.rate, lr.lead = 0.3, 90.0
    assert lr._shares() == [200, 200]
    assert not lr.ahead(0.0, 0.0)  # nothing is submitted ahead


def test_the_learners_share_shrinks_by_the_games_the_workers_play_while_it_learns():
    lr = _ladder(FakeWorkers(1, 0.3), overlap=True)
    assert lr._shares() == [200, 200]  # no times measured yet
    lr.rate, lr.lead = 0.3, 60.0  # the workers play 200 games while the learner learns for 60 s
    assert lr._shares() == [300, 100]  # then each process plays 0.3 s x 100 games more: both end together
    lr.lead = 500.0
    assert lr._shares() == [400, 0]  # the learner plays none, the round still has its 400 games
    two = _ladder(FakeWorkers(2, 0.3), overlap=True, games=401)
    two.rate, two.lead = 0.3, 30.0
    split = two._shares()
    assert sum(split) == 401 and split[2] == round((401 - 2 * 100) / 3) and abs(split[0] - split[1]) <= 1


def test_a_round_submitted_ahead_is_not_sent_again_and_a_refused_one_is_waited_out():
    workers = FakeWorkers(1, 0.3)
    lr = _ladder(workers, overlap=True)
    lr.rate, lr.lead = 0.3, 500.0  # the learner's share is 0: no network is needed here
    lr.submit(b"w", 3)
    assert lr.pending == 3 and len(workers.jobs) == 1 and workers.jobs[0][1][2] == 400
    data = lr.round(b"w", 3)
    assert len(workers.jobs) == 1 and lr.pending is None  # the job sent ahead was the round's
    assert data.games == 400 and len(data) == 400 and lr.rate == pytest.approx(0.3) and lr.own == 0
    lr.submit(b"w", 4)
    lr.discard()
    assert lr.pending is None and not workers.out  # the worker is free for self-play


def test_an_overlapped_run_plays_every_rounds_games_and_records_the_setting(tmp_path):
    r = zerosum_train("--algo", "alphazero", "--game", "connect_four", "--net", "kind=mlp", "hidden=16",
                      "--label-depth", "2", "--ladder-rounds", "3", "--ladder-games", "4", "--ladder-steps", "2",
                      "--ladder-overlap", "--eval-every", "0", "--eval-games", "2", "--eval-opponents", "random",
                      "--no-tensorboard", "--iterations", "0", "--out", "run", "-v", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for k in (1, 2, 3):
        assert f"ladder   {k} " in r.stdout
    assert r.stdout.count("4 games (W/D/L") == 3 and r.stdout.count("of which the learner played") == 3
    settings = json.loads((tmp_path / "run" / "run.json").read_text())["settings"]
    assert settings["ladder_overlap"] is True
    r = zerosum_train("--algo", "alphazero", "--game", "connect_four", "--net", "kind=mlp", "hidden=16",
                      "--label-depth", "2", "--ladder-rounds", "4", "--ladder-games", "4", "--ladder-steps", "2",
                      "--no-ladder-overlap", "--eval-every", "0", "--eval-games", "2", "--eval-opponents", "random",
                      "--no-tensorboard", "--iterations", "0", "--out", "run", "--resume", cwd=tmp_path)
    assert r.returncode != 0 and "ladder_overlap" in r.stderr  # another setting: refused
