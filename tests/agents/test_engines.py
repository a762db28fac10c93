"""Outside engines as agents: Stockfish (chess) and GNU Go (Go), where Debian's packages are installed."""

from __future__ import annotations

import shutil

import pytest

from zerosum.agents import make_agent
from zerosum.agents.engines import EngineNotFound
from zerosum.evaluation.match import play_match
from zerosum.evaluation.scale_build import build_ladder
from zerosum.games import make_game


def installed(name: str) -> bool:
    return shutil.which(name) is not None or shutil.which(name, path="/usr/games") is not None


def test_a_missing_engine_is_a_clear_error_naming_its_package() -> None:
    agent = make_agent("stockfish(nodes=10, path=/nonexistent/stockfish)")
    with pytest.raises(EngineNotFound, match="apt-get install stockfish"):
        agent.prepare(make_game("chess"))
    with pytest.raises(Exception, match="plays chess, not tictactoe"):
        make_agent("stockfish(nodes=10)").prepare(make_game("tictactoe"))


@pytest.mark.parametrize(("spec", "message"), [("stockfish(nodes=0)", "nodes"), ("stockfish(skill=21)", "skill"),
                                               ("gnugo(level=11)", "level"), ("gnugo(level=true)", "level")])
def test_bad_engine_options_are_refused(spec, message) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_a_ladder_build_leaves_out_a_rung_whose_engine_is_missing(tmp_path) -> None:
    notes: list[str] = []
    lad = build_ladder(make_game("tictactoe"), ["random", "alphabeta(depth=1)", "stockfish(path=/nonexistent/sf)"],
                       games=2, opening_plies=1, store_path=tmp_path / "l.sqlite", bootstrap=5, note=notes.append)
    assert [r.spec for r in lad.rungs] == ["random", "alphabeta(depth=1)"]
    assert notes and "leaving out the rung" in notes[0] and "apt-get install stockfish" in notes[0]


@pytest.mark.skipif(not installed("stockfish"), reason="Debian's stockfish is not installed")
def test_stockfish_plays_legal_chess_to_the_end() -> None:
    game = make_game("chess")
    agents = [make_agent("stockfish(nodes=200)", rng=1), make_agent("random", rng=2)]
    for a in agents:
        a.prepare(game)
    m = play_match(game, agents)
    assert m.termination == "end" and m.error is None
    assert m.winner == 0                      # 200 nodes of Stockfish beat random play


@pytest.mark.skipif(not installed("gnugo"), reason="Debian's gnugo is not installed")
def test_gnugo_plays_legal_go_to_the_end() -> None:
    game = make_game("go", board_size=9)
    agents = [make_agent("random", rng=1), make_agent("gnugo(level=0)", rng=2)]
    for a in agents:
        a.prepare(game)
    m = play_match(game, agents)
    assert m.termination == "end" and m.error is None
    assert m.winner == 1


def test_gnugo_captures_dead_stones_before_passing() -> None:
    """OpenSpiel's Go scores the board as it stands after two passes (Tromp-Taylor): GNU Go must
    be told to capture dead stones first, or it passes with them on the board and loses won games
    (GNU Go at every level rated below 4,000 nodes of alpha-beta until it was)."""
    cmd = make_agent("gnugo(level=3)", rng=0).command("gnugo")
    assert "--capture-all-dead" in cmd and "--chinese-rules" in cmd
    assert cmd[cmd.index("--level") + 1] == "3"
