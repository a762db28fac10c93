"""SPRT matches on real games: decisions, resuming from the store, bad input before any game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.evaluation import ConfigError, Store, sprt
from zerosum.evaluation.gsprt import SprtError
from zerosum.evaluation.store import ConfigMismatchError

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = ("H1 accepted", "H0 accepted", "inconclusive")
ENGINE = "alphabeta(depth=9)"


def quiet(_: str) -> None:
    """Drop the notes."""


@pytest.fixture(scope="module")
def strong(tmp_path_factory):
    """The perfect tic-tac-toe engine against random, under SPRT(0, 50)."""
    out = tmp_path_factory.mktemp("strong")
    seen = []
    result = sprt("tictactoe", ENGINE, "random", elo0=0, elo1=50, workers=1, output=out, on_pair=seen.append,
                  note=quiet)
    return out, result, seen


def test_a_strong_engine_against_random_accepts_h1(strong):
    out, result, seen = strong
    assert result.verdict == "H1 accepted" and result.status.decision == "H1"
    lower, upper = result.test.bounds
    assert result.status.llr >= upper and all(lower < s.llr < upper for s in seen[:-1])
    assert [s.pairs for s in seen] == list(range(1, result.status.pairs + 1))  # the test after every pair
    assert result.played == 2 * result.status.pairs and sum(result.status.wdl) == result.played
    assert result.status.elo.low > 100 and result.status.wdl[2] == 0  # random never beats it
    line = result.summary()
    assert sum(v in line for v in VERDICTS) == 1 and str(result.status.elo) in line
    assert Store(result.database).count() == result.played and result.database == out / "match.sqlite"


def test_the_same_call_resumes_and_gives_the_same_verdict(strong):
    out, first, _ = strong
    again = sprt("tictactoe", ENGINE, "random", elo0=0, elo1=50, workers=1, output=out, note=quiet)
    assert again.played == 0 and again.resumed and again.status == first.status and again.summary() == first.summary()


def test_two_copies_of_one_engine_do_not_accept_h1(tmp_path):
    result = sprt("tictactoe", ENGINE, ENGINE, elo0=0, elo1=50, workers=1, output=tmp_path, note=quiet)
    assert result.verdict == "H0 accepted" and result.status.llr <= result.test.bounds[0]
    assert [e.name for e in result.config.agents] == [ENGINE, f"{ENGINE}#2"]
    assert result.status.pentanomial[2] == result.status.pairs  # perfect play: every pair scores 1-1


def test_fixed_length_and_max_games(tmp_path):
    fixed = sprt("nim", "perfect_nim", "random", variant={"piles": (3, 4, 5)}, max_games=6, workers=1,
                 output=tmp_path / "fixed", note=quiet)
    assert fixed.verdict == "fixed length" and fixed.status.pairs == 3 and fixed.status.llr is None
    assert not any(v in fixed.summary() for v in VERDICTS) and "Elo" in fixed.summary()
    longer = sprt("nim", "perfect_nim", "random", variant={"piles": (3, 4, 5)}, max_games=10, workers=1,
                  output=tmp_path / "fixed", note=quiet)  # the same match made longer: 4 more games, not 10
    assert longer.resumed and longer.played == 4 and longer.status.pairs == 5
    capped = sprt("tictactoe", "random", "random", elo0=0, elo1=5, max_games=4, workers=1, output=tmp_path / "capped",
                  note=quiet)
    assert capped.verdict == "inconclusive (max games reached)" and capped.status.pairs == 2


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"game": "mahjong"}, ConfigError, "unknown game 'mahjong'; available: amazons, breakthrough, checkers, chess"),
    ({"b": "deepblue"}, ConfigError, "unknown agent 'deepblue' in 'deepblue'; available: alphabeta"),
    ({"b": "alphabeta(depht=2)"}, ConfigError, "unknown option(s) depht for 'alphabeta'; allowed: depth"),
    ({"variant": {"colour": "red"}}, ConfigError, "unknown key(s) colour; allowed: none"),
    ({"elo0": 50, "elo1": 0}, SprtError, "ELO1 must be above ELO0"),
    ({"elo0": 5, "elo1": 5}, SprtError, "ELO1 must be above ELO0"),
    ({"alpha": 0.5}, SprtError, "alpha=0.5 is not allowed: a probability strictly between 0 and 0.5"),
    ({"beta": 0.0, "elo0": None, "elo1": None}, SprtError, "beta=0.0 is not allowed"),
    ({"elo1": None}, ConfigError, "give both Elo bounds"),
    ({"max_games": 7}, ConfigError, "max games = 7 is not allowed: an even number"),
])
def test_bad_input_is_refused_before_any_game(tmp_path, kwargs, error, message):
    args = {"game": "tictactoe", "a": "random", "b": "random", "elo0": 0, "elo1": 50, **kwargs}
    with pytest.raises(error) as err:
        sprt(args.pop("game"), args.pop("a"), args.pop("b"), output=tmp_path / "m", workers=1, note=quiet, **args)
    assert message in str(err.value)
    assert not (tmp_path / "m").exists()


def test_a_database_of_another_configuration_is_refused(tmp_path, strong):
    out, first, _ = strong
    with pytest.raises(ConfigMismatchError, match="agents: stored .*random.*, now .*mcts"):
        sprt("tictactoe", ENGINE, "mcts(sims=10)", elo0=0, elo1=50, workers=1, output=out, note=quiet)
    assert Store(first.database).count() == first.played
    from zerosum.evaluation import build_config, run_tournament  # a tournament's database is not a match's

    run_tournament(build_config({"game": "tictactoe", "agents": ["random", "random"], "games_per_pairing": 1,
                                 "workers": 1, "output": str(tmp_path)}), progress=False, report=False, note=quiet)
    os.rename(tmp_path / "tournament.sqlite", tmp_path / "match.sqlite")
    with pytest.raises(ConfigMismatchError, match="kind: stored None, now 'match'"):
        sprt("tictactoe", "random", "random", max_games=2, workers=1, output=tmp_path, note=quiet)
    assert Store(tmp_path / "match.sqlite").count() == 2


def test_the_verdict_does_not_depend_on_the_workers(tmp_path, strong):
    _, first, _ = strong
    parallel = sprt("tictactoe", ENGINE, "random", elo0=0, elo1=50, workers=2, output=tmp_path, note=quiet)
    assert parallel.status == first.status


def test_the_command_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "zerosum", "match", "--game", "nim", "perfect_nim", "random", "--variant",
           "misere=true", "piles=3,4,5", "--sprt", "0", "50", "--workers", "1", "--output", str(tmp_path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("H1 accepted after ") and "perfect_nim vs random" in last and "[95% interval " in last
    assert "LLR " in done.stdout.splitlines()[0]  # the live line: the LLR against its bounds
    bad = [*cmd[:cmd.index("--sprt")], "--sprt", "50", "0", "--output", str(tmp_path / "bad")]
    done = subprocess.run(bad, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("zerosum match: ELO1 must be above ELO0 (H1 says A is stronger by ELO1); got ELO0=50, "
                           "ELO1=0: e.g. --sprt 0 50\n") and not (tmp_path / "bad").exists()
