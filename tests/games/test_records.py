"""Games kept as players keep them (zerosum.games.records): PGN read back by python-chess, SGF by
sgfmill, both by zerosum, on random games of chess and of every game in SGF's list; JSON for the
rest; the errors for what is not a record."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.games.records import (
    TERMINATIONS, GameRecord, RecordError, check_path, from_json, from_pgn, from_sgf, parse_sgf, read_record,
    record_suffix, to_json, to_pgn, to_sgf, write_record,
)
from zerosum.games.registry import GAMES, game_class

SEVEN_TAGS = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def random_actions(game, rng, limit=None, start=None):
    """A random game's actions, to the end or ``limit`` moves."""
    s = game.initial_state() if start is None else start
    actions = []
    while not game.is_terminal(s) and (limit is None or len(actions) < limit):
        legal = game.legal_actions(s)
        actions.append(int(legal[rng.integers(len(legal))]))
        s = game.apply(s, actions[-1])
    return actions


def sgf_games():
    """Every registered game that declares a number in SGF's list (data: Game.sgf_game)."""
    return sorted(n for n in GAMES if game_class(n).sgf_game is not None)


def test_every_game_of_sgfs_list_that_zerosum_has_is_kept_as_sgf():
    numbers = {game_class(n).sgf_game: n for n in sgf_games()}
    assert {1: "go", 2: "othello", 4: "gomoku", 5: "nine_mens_morris", 11: "hex"}.items() <= numbers.items()
    assert record_suffix(make_game("chess")) == ".pgn" and record_suffix(make_game("go")) == ".sgf"
    assert record_suffix(make_game("tictactoe")) == ".json"


def test_pgn_round_trip_through_python_chess():
    chess_pgn = pytest.importorskip("chess.pgn")
    game = make_game("chess")
    rng = np.random.default_rng(0)
    seen_endings = set()
    starts = [None, game.from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), game.from_fen("7k/8/8/8/8/8/6Q1/K7 w - - 0 1")]
    for i in range(9):
        start = starts[i % 3]
        actions = random_actions(game, rng, limit=None if i != 4 else 7, start=start)
        record = GameRecord(game, tuple(actions), players=("alice", "bob"), date="2026.11.29", round=str(i),
                            start=start)
        text = to_pgn(record)
        tags = re.findall(r'^\[(\w+) "', text, re.M)
        assert tags[:7] == SEVEN_TAGS, tags
        read = chess_pgn.read_game(io.StringIO(text))
        assert not read.errors, read.errors
        assert read.headers["Date"] == "2026.11.29" and read.headers["Termination"] in TERMINATIONS
        s, ucis = record.states(), [m.uci() for m in read.mainline_moves()]
        assert ucis == [game.action_to_string(a, s[k]) for k, a in enumerate(actions)]
        result = record.final_result()
        assert read.headers["Result"] == result and text.rstrip().endswith(result)
        if game.is_terminal(s[-1]):
            assert read.end().board().result(claim_draw=True) == result
            seen_endings.add(game.result_reason(s[-1]))
        else:
            assert result == "*" and read.headers["Termination"] == "unterminated"
        back = from_pgn(text)
        assert back.actions == tuple(actions) and back.final_result() == result
        assert back.players == ("alice", "bob") and back.date == "2026.11.29"
    assert len(seen_endings) >= 2, seen_endings


def test_pgn_termination_and_date_are_the_standards():
    game = make_game("chess")
    record = GameRecord(game, ())
    text = to_pgn(record)
    assert re.search(r'\[Date "\d{4}\.\d{2}\.\d{2}"\]', text) and '[Termination "unterminated"]' in text
    assert '[Termination "abandoned"]' in to_pgn(GameRecord(game, (), termination="abandoned"))
    with pytest.raises(RecordError, match="termination='end': one of abandoned, adjudication"):
        GameRecord(game, (), termination="end")


@pytest.mark.parametrize("variant", [{"board_size": 9}, {"board_size": 13, "komi": 6.5},
                                     {"board_size": 19, "handicap": 3}])
def test_go_sgf_round_trip_through_sgfmill(variant):
    sgf_module = pytest.importorskip("sgfmill.sgf")
    game = make_game("go", **variant)
    rng = np.random.default_rng(game.board_size)
    n = game.board_size
    for i in range(3):
        actions = random_actions(game, rng, limit=None if n < 19 else 60 + i)
        record = GameRecord(game, tuple(actions), players=("black bot", "white bot"), date="2026.11.29")
        text = to_sgf(record)
        sg = sgf_module.Sgf_game.from_bytes(text.encode())
        assert sg.get_size() == n and sg.get_komi() == game.komi
        assert sg.get_player_name("b") == "black bot" and sg.get_player_name("w") == "white bot"
        root = sg.get_root()
        assert root.get("GM") == 1 and root.get("FF") == 4
        if game.handicap:
            black, _white, _empty = root.get_setup_stones()
            start = game.initial_state()
            assert {r * n + c for r, c in black} == {a for a in range(n * n) if game.stone(start, a) == 0}
        moves = [node.get_move() for node in sg.get_main_sequence()[1:]]
        states = record.states()
        expected = [("b" if game.current_player(states[k]) == 0 else "w",
                     None if a == game.pass_action else divmod(a, n)) for k, a in enumerate(actions)]
        assert moves == expected
        if game.is_terminal(states[-1]):
            winner = sg.get_winner()
            assert winner == {"1-0": "b", "0-1": "w", "1/2-1/2": None}[record.final_result()]
        back = from_sgf(text)
        assert back.game == game and back.actions == tuple(actions) and back.final_result() == record.final_result()


def test_go_sgf_from_another_program_is_read_by_its_root():
    text = "(;FF[4]GM[1]SZ[9]KM[6.5]PB[b]PW[w];B[ee];W[dc](;B[];W[tt])(;B[aa]))"
    record = from_sgf(text)
    assert record.game == make_game("go", board_size=9, komi=6.5)
    g = record.game
    assert [g.action_to_string(a) for a in record.actions] == ["e5", "d7", "pass", "pass"]
    assert record.final_termination() == "normal" and record.players == ("b", "w")


@pytest.mark.parametrize("name", sgf_games())
def test_sgf_round_trip_for_every_sgf_game(name):
    """sgfmill parses every game's file (moves as the raw B/W values, in order), and zerosum reads it back."""
    sgf_module = pytest.importorskip("sgfmill.sgf")
    game = make_game(name)
    rng = np.random.default_rng(1)
    for i in range(3):
        actions = random_actions(game, rng, limit=None if i < 2 else 9)
        record = GameRecord(game, tuple(actions), players=("first", "second"))
        text = to_sgf(record)
        sg = sgf_module.Sgf_game.from_bytes(text.encode())
        root = sg.get_root()
        assert root.get("GM") == game.sgf_game and root.get("FF") == 4
        states = record.states()
        nodes = sg.get_main_sequence()[1:]
        assert len(nodes) == len(actions)
        for k, (node, a) in enumerate(zip(nodes, actions)):
            colour = game.sgf_colours[game.current_player(states[k])]
            assert node.get_raw_property_map() == {colour: [game.sgf_move(a, states[k]).encode()]}
        back = from_sgf(text)
        assert back.game == game and back.actions == tuple(actions)
        assert back.final_result() == record.final_result() and back.players == ("first", "second")


def test_sgf_parser_follows_the_main_line_and_unescapes():
    nodes = parse_sgf("garbage (;GM[1]C[a \\] b\\\nc](;B[aa];W[bb](;B[cc])(;B[dd]))(;B[ee]))")
    assert nodes[0]["C"] == ["a ] bc"]
    assert [n.get("B", n.get("W")) for n in nodes[1:]] == [["aa"], ["bb"], ["cc"]]
    for bad, words in [("no tree", "no game tree"), ("(;B[aa]", "not closed by ']'|not closed by '\\)'"),
                       ("(;B[aa", "not closed by ']'"), ("(;B)", "has no \\[value\\]"), ("(x)", "unexpected 'x'")]:
        with pytest.raises(RecordError, match=words):
            parse_sgf(bad)
    with pytest.raises(RecordError, match="move 2 is B\\[cc\\] but W is to move"):
        from_sgf("(;GM[1]SZ[9];B[aa];B[cc])")
    with pytest.raises(RecordError, match="move 2 W\\[aa\\] is not legal"):
        from_sgf("(;GM[1]SZ[9];B[aa];W[aa])")
    with pytest.raises(RecordError, match="GM\\[77\\]: no zerosum game"):
        from_sgf("(;GM[77];B[aa])")


@pytest.mark.parametrize(("name", "variant"), [("tictactoe", {}), ("nim", {"piles": (3, 4, 5)}),
                                               ("connect_four", {})])
def test_json_round_trip(name, variant, tmp_path):
    game = make_game(name, **variant)
    actions = random_actions(game, np.random.default_rng(2))
    record = GameRecord(game, tuple(actions), players=("a", "b"), date="2026.11.29")
    path = tmp_path / "g.json"
    write_record(str(path), record)
    data = json.loads(path.read_text())
    assert data["game"] == name and data["actions"] == actions and data["result"] == record.final_result()
    back = read_record(str(path))
    assert back.game == game and back.actions == tuple(actions) and back.players == ("a", "b")
    assert from_json(to_json(record)).final_termination() == "normal"


def test_paths_and_bad_files(tmp_path):
    go = make_game("go")
    assert check_path(go, "x.sgf") == "sgf" and check_path(go, "x.JSON") == "json"
    with pytest.raises(RecordError, match=r"go games are kept as \.json or \.sgf; got \.pgn"):
        check_path(go, "x.pgn")
    with pytest.raises(RecordError, match=r"tictactoe games are kept as \.json; got \.sgf"):
        check_path(make_game("tictactoe"), "x.sgf")
    with pytest.raises(RecordError, match=r"a game record is a \.pgn, \.sgf, \.json file; got \.txt"):
        read_record(str(tmp_path / "x.txt"))
    with pytest.raises(RecordError, match="cannot read"):
        read_record(str(tmp_path / "none.sgf"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "zerosum game", "game": "tictactoe", "actions": [0, 0]}')
    with pytest.raises(RecordError, match="move 2 \\(0\\) of the tictactoe game is not legal"):
        read_record(str(bad))
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[Event "x"]\n\n1. e4 e4 *\n')
    with pytest.raises(RecordError, match="move 2 \\(e4\\) is not legal"):
        read_record(str(pgn))
