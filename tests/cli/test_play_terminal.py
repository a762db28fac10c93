"""``zerosum play`` and ``replay`` on any terminal and as players of each game expect (issue 58 §4):
any output encoding, who moves first, chess in SAN with its draws named and resign, checkers'
multi-jumps typed whole and its kings explained, the game's own default opponent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.cli.play import PlaySession, parser, play_main
from zerosum.cli.terminal import for_terminal
from zerosum.games import make_game

ROOT = Path(__file__).resolve().parents[2]


def play(*argv: str, typed: list[str]) -> tuple[int, str]:
    """``zerosum play ARGV`` in this process with ``typed`` as the person's lines; the exit code and the output."""
    out: list[str] = []
    lines = iter(typed)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    code = play_main(list(argv), input_fn=read, output_fn=out.append)
    return code, "\n".join(out)


def run(args: list[str], stdin: str, encoding: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin.encode(), capture_output=True,
                          timeout=300, cwd=ROOT, env=env)


# ---- any terminal encoding ----------------------------------------------------------------
def test_for_terminal_falls_back_to_ascii_pieces():
    board = make_game("chess").render(make_game("chess").initial_state())
    assert for_terminal(board, "utf-8") == board
    ascii_board = for_terminal(board, "latin-1")
    assert ascii_board.splitlines()[0] == "8 r n b q k b n r" and ascii_board.splitlines()[7] == "1 R N B Q K B N R"
    assert ascii_board.splitlines()[3] == "5 . . . . . . . ."
    assert for_terminal("a ☃ b", "ascii") == "a ? b"  # what has no stand-in is still written
    assert for_terminal("x", "no-such-encoding") == "x"


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
def test_play_and_replay_chess_on_a_terminal_without_unicode(encoding, tmp_path):
    saved = tmp_path / "game.json"
    r = run(["play", "chess", "--opponent", "random", "--seed", "1", "--save", str(saved)], "e4\nquit\n", encoding)
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr.decode(errors="replace")
    out = r.stdout.decode(encoding)
    assert "1 R N B Q K B N R" in out and "You left the game." in out
    r = run(["replay", str(saved)], "", encoding)
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr.decode(errors="replace")
    assert "1 R N B Q K B N R" in r.stdout.decode(encoding)


# ---- who moves first -------------------------------------------------------------------------
@pytest.mark.parametrize(("seat", "first"), [("--first", "the engine moves first"), ("--second", "you move first")])
def test_who_moves_first_follows_the_game(seat, first):
    """Go with a handicap: white (player 1) moves first."""
    code, out = play("go", "--variant", "board_size=19", "handicap=2", "--opponent", "random", seat, typed=["quit"])
    assert code == 0 and first in out, out
    code, out = play("go", "--opponent", "random", seat, typed=["quit"])
    assert {"--first": "you move first", "--second": "the engine moves first"}[seat] in out


# ---- chess ---------------------------------------------------------------------------------
def test_chess_engine_moves_and_help_are_in_san_and_coordinates_are_read():
    chess = make_game("chess")
    code, out = play("chess", "--opponent", "random", "--seed", "3", typed=["E2E4", "help", "g1-f3", "quit"])
    assert code == 0
    replies = [line.split(" plays ", 1)[1] for line in out.splitlines() if line.startswith("engine (player 1) plays")]
    assert len(replies) == 2
    s = chess.initial_state()
    for mine, theirs in zip(["e2e4", "g1f3"], replies, strict=True):
        s = chess.apply(s, chess.string_to_action(mine, s))
        a = chess.string_to_action(theirs, s)
        assert theirs == chess.san(a, s)  # SAN, not the UCI name
        s = chess.apply(s, a)
    listed = out.split("legal moves (", 1)[1]
    assert "Nf3" in listed and "Nc3" in listed and "g1f3" not in listed
    assert "Moves: " not in out  # quit leaves without a result


@pytest.mark.parametrize(("fen", "typed", "why"), [
    ("7k/3Q4/6K1/8/8/8/8/8 w - - 0 1", "Qf7", "stalemate"),
    ("7k/8/8/8/8/8/1q6/K7 w - - 0 1", "Kxb2", "insufficient material"),
    ("7k/8/8/8/8/8/8/R3K3 w - - 98 80", "Ra2", "fifty-move rule"),
])
def test_a_chess_draw_says_why(fen, typed, why):
    code, out = play("chess", "--fen", fen, "--opponent", "random", typed=[typed])
    assert code == 0 and f"Result: a draw by {why} after 1 move." in out, out


def test_a_draw_by_repetition_says_so():
    knights = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]  # the start a third time: drawn (claimed)
    code, out = play("chess", "--opponent", "human", typed=knights)
    assert code == 0 and "Result: a draw by threefold repetition after 7 moves." in out, out


def test_a_checkmate_says_so():
    code, out = play("chess", "--opponent", "human", typed=["f3", "e5", "g4", "Qh4#"])
    assert code == 0 and "Result: player 1 wins after 4 moves (checkmate)." in out, out


@pytest.mark.parametrize("game", ["chess", "tictactoe", "go"])
def test_resign_ends_the_game_with_a_result(game, tmp_path):
    from zerosum.games.records import read_record

    saved = tmp_path / "game.json"
    code, out = play(game, "--opponent", "random", "--save", str(saved), typed=["resign"])
    assert code == 0 and "Result: The engine wins (player 1) after 0 moves (you resigned)." in out, out
    assert read_record(str(saved)).final_result() == "0-1"
    code, out = play("tictactoe", "--opponent", "human", typed=["b2", "resign"])
    assert code == 0 and "Result: player 0 wins after 1 move (player 1 resigned)." in out, out
    code, out = play("tictactoe", "--opponent", "human", typed=["resign now", "quit"])
    assert "cannot read move 'resign now'" in out and "Result" not in out  # resign takes nothing after it


# ---- checkers ------------------------------------------------------------------------------
EMPTY = "........"
DOUBLE = [EMPTY, EMPTY, "...+....", EMPTY, ".+......", "o.......", EMPTY, EMPTY]  # a3 takes b4 and d6


@pytest.mark.parametrize("typed", ["a3c5e7", "a3xc5xe7", "a3-c5-e7", "A3C5E7"])
def test_a_checkers_multi_jump_is_typed_whole(typed):
    g = make_game("checkers")
    start = g.position(DOUBLE)
    out: list[str] = []
    lines = iter([typed, "quit"])
    session = PlaySession(g, None, {0, 1}, "random", input_fn=lambda p: next(lines), output_fn=out.append,
                          history=[start])
    assert session.run() == 0
    assert [g.action_to_string(a) for a in session.actions] == ["a3c5", "c5e7"]
    assert g.current_player(session.state) == 1 and g.cells(session.state)[2] == EMPTY  # d6 taken: black to move


def test_a_checkers_multi_jump_in_standard_numbers():
    g = make_game("checkers")
    start = g.position(DOUBLE)
    dark = g.dark_squares()
    number = {g.square_name(sq): k + 1 for k, sq in enumerate(dark)}
    typed = "x".join(str(number[sq]) for sq in ("a3", "c5", "e7"))
    lines = iter([typed, "quit"])
    session = PlaySession(g, None, {0, 1}, "random", input_fn=lambda p: next(lines), output_fn=lambda t: None,
                          history=[start])
    assert session.run() == 0 and [g.action_to_string(a) for a in session.actions] == ["a3c5", "c5e7"]


def test_a_multi_jump_that_goes_wrong_plays_nothing():
    g = make_game("checkers")
    start = g.position(DOUBLE)
    out: list[str] = []
    lines = iter(["a3c5e7g5", "a3c5a7", "quit"])
    session = PlaySession(g, None, {0, 1}, "random", input_fn=lambda p: next(lines), output_fn=out.append,
                          history=[start])
    assert session.run() == 0 and session.actions == []
    text = "\n".join(out)
    assert "'a3c5e7g5': the move ends after c5e7; e7g5 is not part of it" in text
    assert "'a3c5a7': part 2 (c5a7)" in text


def test_checkers_kings_are_explained_on_the_board():
    g = make_game("checkers")
    lines = g.render(g.initial_state()).splitlines()
    assert lines[0].endswith("black: + man, * king") and lines[1].endswith("white: o man, 8 king")
    assert lines[-1] == "white (o) to move"


# ---- one default opponent --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["othello", "breakthrough", "tictactoe"])
def test_the_default_opponent_is_the_games(name):
    spec = type(make_game(name)).default_opponent
    code, out = play(name, typed=["quit"])
    assert code == 0 and f"the engine {spec} is player 1" in out, out
    assert "default_opponent" in parser().format_help()


@pytest.mark.parametrize(("board", "quiet", "typed", "said"), [
    ([".......+", *[EMPTY] * 6, "o......."], 39, "a1b2", "Result: a draw by 40 plies without a capture after 1 move."),
    ([EMPTY, EMPTY, EMPTY, "..+.....", ".o......", EMPTY, EMPTY, EMPTY], 0, "b4d6",
     "Result: player 0 wins after 1 move (black has no move)."),
])
def test_a_checkers_result_says_why(board, quiet, typed, said):
    g = make_game("checkers")
    out: list[str] = []
    lines = iter([typed, ""])  # the move, then Enter at the game-over prompt
    session = PlaySession(g, None, {0, 1}, "random", input_fn=lambda p: next(lines), output_fn=out.append,
                          history=[g.position(board, quiet=quiet)])
    assert session.run() == 0 and said in "\n".join(out), out


def test_undo_takes_back_a_multi_jump_typed_whole():
    g = make_game("checkers")
    out: list[str] = []
    lines = iter(["a3c5e7", "undo", "quit"])
    session = PlaySession(g, None, {0, 1}, "random", input_fn=lambda p: next(lines), output_fn=out.append,
                          history=[g.position(DOUBLE)])
    assert session.run() == 0
    assert "Took back 2 moves: a3c5 c5e7" in "\n".join(out) and session.actions == []
