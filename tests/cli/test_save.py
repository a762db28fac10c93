"""``zerosum play GAME --save PATH`` keeps the game as it goes (a game left or finished is on disk),
``zerosum replay PATH`` shows it, ``zerosum replay DB ID --sgf OUT`` exports a stored game."""

from __future__ import annotations

import io
import json

import pytest

from zerosum.cli.play import play_main
from zerosum.cli.replay import replay_main
from zerosum.games import make_game
from zerosum.games.records import read_record


def first_use(err: str) -> str:
    """stderr without the notes of a game's first use (compiling its kernels)."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("zerosum: "))


def typed(lines, seen=None):
    """An input function that types ``lines`` one by one (then end of input); ``seen`` gets the
    file's moves at each prompt, when given as (path, list)."""
    it = iter(lines)

    def input_fn(prompt: str) -> str:
        if seen is not None:
            path, log = seen
            log.append(len(read_record(str(path)).actions))
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return input_fn


def test_a_game_left_is_on_disk_and_replays(tmp_path, capsys):
    path = tmp_path / "ttt.json"
    counts: list[int] = []
    out: list[str] = []
    code = play_main(["tictactoe", "--opponent", "random", "--seed", "1", "--save", str(path)],
                     input_fn=typed(["b2", "quit"], (path, counts)), output_fn=out.append)
    assert code == 0
    assert counts == [0, 2]  # at each prompt the file holds every move so far
    record = read_record(str(path))
    assert record.actions[0] == 4 and len(record.actions) == 2
    assert record.final_result() == "*" and record.final_termination() == "abandoned"
    assert record.players[0] == "you" and record.players[1].startswith("random")
    data = json.loads(path.read_text())
    assert data["moves"][0] == "b2" and data["termination"] == "abandoned"
    assert replay_main([str(path)]) == 0
    shown = capsys.readouterr().out
    assert "player 0: you" in shown and "1. player 0 (you) b2" in shown and "unfinished" in shown
    assert "abandoned" in shown


def test_a_finished_chess_game_is_pgn_that_python_chess_reads(tmp_path):
    chess_pgn = pytest.importorskip("chess.pgn")
    path = tmp_path / "mate.pgn"
    moves = ["f3", "e5", "g4", "Qh4#"]  # fool's mate, both sides typed (two people)
    assert play_main(["chess", "--opponent", "human", "--save", str(path)], input_fn=typed(moves),
                     output_fn=lambda _: None) == 0
    read = chess_pgn.read_game(io.StringIO(path.read_text()))
    assert [m.uci() for m in read.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert read.headers["Result"] == "0-1" and read.headers["Termination"] == "normal"
    assert read.headers["Event"] == "zerosum play" and len(read.headers["Date"]) == 10
    record = read_record(str(path))
    assert record.final_result() == "0-1" and len(record.actions) == 4


def test_a_go_game_is_sgf_that_sgfmill_reads(tmp_path):
    sgf = pytest.importorskip("sgfmill.sgf")
    path = tmp_path / "go.sgf"
    play_main(["go", "--variant", "board_size=5", "--opponent", "human", "--save", str(path)],
              input_fn=typed(["c3", "d4", "pass", "undo", "b2"]), output_fn=lambda _: None)
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    assert game.get_size() == 5
    assert [n.get_move() for n in game.get_main_sequence()[1:]] == [("b", (2, 2)), ("w", (3, 3)), ("b", (1, 1))]
    record = read_record(str(path))
    assert record.game == make_game("go", board_size=5) and record.final_result() == "*"


def test_bad_save_paths_are_one_line_errors(tmp_path, capsys):
    for argv, words in [(["go", "--save", "x.pgn"], "go games are kept as .json or .sgf; got .pgn"),
                        (["tictactoe", "--save", "x.sgf"], "tictactoe games are kept as .json; got .sgf"),
                        (["nim", "--save", "/no/such/dir/x.json"], "cannot save the game to '/no/such/dir/x.json'")]:
        assert play_main(argv, input_fn=typed([])) == 2
        err = first_use(capsys.readouterr().err)
        assert err.startswith("zerosum play: ") and words in err and err.count("\n") == 1, err


@pytest.fixture(scope="module")
def go_db(tmp_path_factory):
    """A database with two random 5x5 Go games."""
    from zerosum.agents import make_agent
    from zerosum.evaluation.match import play_match
    from zerosum.evaluation.store import GameTask, Store

    path = tmp_path_factory.mktemp("sgf") / "go.sqlite"
    game = make_game("go", board_size=5)
    store = Store(path)
    store.init({"game": "go", "variant": {"board_size": 5}}, {"game": "go"}, [("one", "random"), ("two", "random")],
               [(0, 1)])
    matches = []
    for i in range(2):
        matches.append(play_match(game, [make_agent("random", i), make_agent("random", i + 5)], []))
        store.add_game(GameTask(0, i, (0, 1), i, ()), matches[-1])
    store.close()
    return path, matches


def test_replay_exports_stored_games_as_sgf(go_db, tmp_path, capsys):
    sgf = pytest.importorskip("sgfmill.sgf")
    path, matches = go_db
    out = tmp_path / "one.sgf"
    assert replay_main([str(path), "1", "--sgf", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}: 1 game"
    read = sgf.Sgf_game.from_bytes(out.read_bytes())
    game = make_game("go", board_size=5)
    assert read.get_size() == 5 and read.get_player_name("b") == "one" and read.get_player_name("w") == "two"
    moves = [n.get_move()[1] for n in read.get_main_sequence()[1:]]
    assert moves == [None if a == 25 else divmod(a, 5) for a in matches[0].actions]
    assert read.get_winner() == {"1-0": "b", "0-1": "w", "1/2-1/2": None}[matches[0].result]
    record = read_record(str(out))
    assert record.game == game and list(record.actions) == list(matches[0].actions)
    assert replay_main([str(out)]) == 0 and "game " in capsys.readouterr().out
    assert replay_main([str(path), "all", "--sgf", "-"]) == 0
    assert capsys.readouterr().out.count("(;FF[4]") == 2


@pytest.mark.parametrize(("argv", "message"), [
    (["{db}", "1", "--pgn", "x.pgn"], "--pgn writes chess; game 1 is go, kept as .sgf"),
    (["{db}"], "give a game id after a database, or a game kept in a .pgn, .sgf, .json file"),
    (["{file}", "1"], "is one game: no game id ('1') after it"),
    (["{file}", "--sgf", "y.sgf"], "--sgf exports a game of a database"),
    (["nothing.sgf"], "cannot read 'nothing.sgf'"),
])
def test_bad_replay_of_files_are_one_line_errors(go_db, tmp_path, argv, message, capsys):
    f = tmp_path / "g.sgf"
    f.write_text("(;GM[1]SZ[5];B[cc])")
    argv = [a.format(db=go_db[0], file=f) for a in argv]
    assert replay_main(argv) == 2
    err = first_use(capsys.readouterr().err)
    assert err.startswith("zerosum replay: ") and message in err and err.count("\n") == 1, err
