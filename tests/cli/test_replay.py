"""``zerosum replay``: a stored game as text and as a GIF, through the Store API; bad input as one line."""

from __future__ import annotations

import pytest

from tests.cli.test_play import run_cli
from zerosum.cli.replay import replay_main
from zerosum.games import make_game


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A tournament database with one tic-tac-toe game (2 opening plies) written by the Store."""
    from zerosum.agents import make_agent
    from zerosum.evaluation.match import play_match
    from zerosum.evaluation.store import GameTask, Store

    path = tmp_path_factory.mktemp("replay") / "t.sqlite"
    specs = ["alphabeta(depth=2)", "mcts(sims=30)"]
    game = make_game("tictactoe")
    store = Store(path)
    store.init({"game": "tictactoe", "variant": {}}, {"game": "tictactoe"}, [(s, s) for s in specs], [(0, 1), (1, 0)])
    opening = [8, 3]
    match = play_match(game, [make_agent(specs[0], 1), make_agent(specs[1], 2)], opening)
    game_id = store.add_game(GameTask(0, 0, (0, 1), 7, tuple(opening)), match)
    store.close()
    return path, game_id, match


def test_replay_as_text(stored, capsys):
    path, game_id, match = stored
    assert replay_main([str(path), str(game_id)]) == 0
    out = capsys.readouterr().out
    game = make_game("tictactoe")
    state = game.initial_state()
    assert "player 0: alphabeta(depth=2)" in out and "opening: the first 2 moves" in out
    assert "1. player 0 (opening) c3" in out and "2. player 1 (opening) a2" in out
    for i, a in enumerate(match.actions, start=1):
        state = game.apply(state, a)
        assert f"{i}. player" in out and game.render(state) in out
    assert "3. player 0 (alphabeta(depth=2)) " in out and "nodes " in out
    assert f"Result: {match.result}" in out


def test_replay_gif_has_one_frame_per_move_plus_the_start(stored, tmp_path):
    from PIL import Image, ImageSequence

    path, game_id, match = stored
    gif = tmp_path / "game.gif"
    r = run_cli("replay", str(path), str(game_id), "--gif", str(gif), "--fps", "4")
    assert r.returncode == 0, r.stderr
    n = len(match.actions) + 1
    assert r.stdout.strip() == f"wrote {gif}: {n} frames (the start position and {n - 1} moves)"
    with Image.open(gif) as im:
        frames = [f.copy() for f in ImageSequence.Iterator(im)]
    assert len(frames) == n


@pytest.mark.parametrize(("argv", "message"), [
    (["{db}", "99"], "no game with id 99"),
    (["{db}", "one"], "a game id is an integer; got 'one'"),
    (["{db}", "1", "--fps", "0"], "--fps must be a positive number"),
    (["{db}", "1", "--gif", "/no/such/dir/x.gif"], "cannot write '/no/such/dir/x.gif'"),
    (["{db}"], "give a game id after a database, or a game kept in a .pgn, .sgf, .json file"),
    ([__file__, "1"], "is not a usable SQLite database"),
])
def test_bad_replay_arguments_are_one_line_errors(stored, argv, message, capsys):
    argv = [a.format(db=stored[0]) for a in argv]
    assert replay_main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("zerosum replay: ") and message in err and err.count("\n") == 1, err
