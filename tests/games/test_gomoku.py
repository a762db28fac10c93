"""Gomoku: the conformance kit, scripted games, errors, variants, perft, and OpenSpiel's
``gomoku`` move for move (legal actions, player, terminal flag, returns, board and
observation at every step)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from zerosum.envs import gomoku_v0
from zerosum.games import GameOverError, IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.gomoku import Gomoku
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel, openspiel_perft, perft

G = make_game("gomoku")
RESULT = {Outcome.P0_WINS: (1.0, -1.0), Outcome.P1_WINS: (-1.0, 1.0), Outcome.DRAW: (0.0, 0.0)}


def play(moves, game=G):
    s = game.initial_state()
    for m in moves.split():
        s = game.apply(s, game.string_to_action(m, s))
    return s


@pytest.mark.parametrize("variant", [{}, {"size": 9}, {"size": 7, "connect": 4},
                                     {"size": 6, "connect": 4, "wrap": True}, {"size": 5, "connect": 3, "anti": True}])
def test_conformance(variant):
    game = make_game("gomoku", **variant)
    if variant:
        check_game(game, games=10, seed=1, env=False)  # the env conformance tests cover two variants
    else:  # the standard board: fewer games and searched positions (every position applies its 225 moves)
        check_game(game, games=2, seed=1, search_positions=2)
    for name in game.heuristics:
        check_heuristic(game, name)


# (variant, moves, outcome); a scripted game's every prefix is unfinished
SCRIPTED = [
    ({}, "h8 h9 i8 i9 j8 j9 k8 k9 l8", Outcome.P0_WINS),  # a row
    ({}, "a1 b1 a2 b2 a3 b3 a4 b4 o15 b5", Outcome.P1_WINS),  # a column
    ({}, "a1 o1 b2 o2 c3 o3 d4 o4 e5", Outcome.P0_WINS),  # a diagonal up to the right
    ({}, "o1 a1 n2 a2 m3 a3 l4 a4 k5", Outcome.P0_WINS),  # a diagonal up to the left
    ({}, "a1 o1 b1 o2 c1 o3 e1 o4 f1 o6 d1", Outcome.P0_WINS),  # an overline (six) wins, as in OpenSpiel
    ({"size": 3, "connect": 3}, "a1 b1 c1 b2 a2 a3 b3 c2 c3", Outcome.DRAW),  # a full board
    ({"size": 5, "connect": 4, "wrap": True}, "d3 a1 e3 a2 a3 b1 b3", Outcome.P0_WINS),  # over the edge
    ({"size": 5, "connect": 3, "anti": True}, "a1 e5 b1 e4 c1", Outcome.P1_WINS),  # anti: the line loses
]


@pytest.mark.parametrize(("variant", "moves", "outcome"), SCRIPTED)
def test_scripted_games(variant, moves, outcome):
    g = make_game("gomoku", **variant)
    s = play(moves, g)
    assert g.outcome(s) == outcome and g.returns(s) == RESULT[outcome], g.render(s)
    assert g.is_terminal(s) and len(g.legal_actions(s)) == 0
    words = moves.split()
    for prefix in range(len(words)):
        assert not g.is_terminal(play(" ".join(words[:prefix]), g))


def test_render_and_names():
    s = play("h8 g9")
    assert G.action_to_string(112) == "h8" and G.string_to_action("h8") == 112 == G.string_to_action("7,7")
    assert G.action_to_string(0) == "a15" and G.action_to_string(224) == "o1"
    assert all(G.string_to_action(G.action_to_string(a)) == a for a in range(225))
    text = G.render(s)
    assert text.splitlines()[0] == "   a b c d e f g h i j k l m n o"
    assert text.splitlines()[7] == " 9 . . . . . . O . . . . . . . ." and text.endswith("X to move")
    assert G.cells(s)[7] == ".......X......."


def test_errors():
    s = play("h8")
    with pytest.raises(IllegalActionError, match=r"action 112 \(h8\) is not legal here: h8 is taken by X"):
        G.apply(s, 112)
    for bad in (225, -1, 2.5, None, True):
        with pytest.raises(IllegalActionError, match="an int in|out of range"):
            G.apply(s, bad)
    for text in ("p1", "a16", "a0", "h", "15,0", "", "8h"):
        with pytest.raises(IllegalActionError, match="write a column letter a-o and a row 1-15"):
            G.string_to_action(text)
    with pytest.raises(GameOverError):
        G.apply(play(SCRIPTED[0][1]), 0)


@pytest.mark.parametrize(("bad", "match"), [
    ({"connect": 16}, r"connect=16 is not allowed: an int from 1 to 15 \(the side of the board\) with size=15"),
    ({"size": 9, "connect": 10}, "connect=10 is not allowed: an int from 1 to 9"),
    ({"connect": 0}, "connect=0 is not allowed: an int from 1 to 19"),
    ({"size": 20}, "size=20 is not allowed: an int from 1 to 19"),
    ({"size": 0}, "size=0 is not allowed"),
    ({"wrap": 1}, "wrap=1 is not allowed"),
    ({"dims": 3}, "unknown name 'dims'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("gomoku", **bad)


def test_variant_sizes():
    for size, words in ((15, 4), (19, 7), (9, 2), (7, 1), (1, 1)):
        g = make_game("gomoku", size=size, connect=min(5, size))
        assert (g.num_actions, g.max_game_length, g.observation_shape) == (size * size, size * size, (size, size, 3))
        assert g.state_size == 2 * words + 2
    g = make_game("gomoku", size=1, connect=1)
    assert g.returns(g.apply(g.initial_state(), 0)) == (1.0, -1.0)
    assert make_game("gomoku", size=9) == Gomoku(9) != G


# perft from the start: every move is a different cell, so n!/(n-d)! until a line can appear
# (3x3 connect 3 is tic-tac-toe: its known counts; OpenSpiel's agree, test_openspiel_perft)
PERFT = [({}, [225, 50400, 11239200]), ({"size": 7, "connect": 4}, [49, 2352, 110544, 5085024]),
         ({"size": 3, "connect": 3}, [9, 72, 504, 3024, 15120, 54720])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    g = make_game("gomoku", **variant)
    depth = len(counts) if g.size <= 3 else len(counts) - 1
    assert [perft(g, g.initial_state(), d) for d in range(1, depth + 1)] == counts[:depth]


def test_openspiel_perft():
    pyspiel = pytest.importorskip("pyspiel")
    for variant, counts in PERFT:
        game = pyspiel.load_game("gomoku", variant)
        depth = 2 if not variant else 3
        assert [openspiel_perft(game.new_initial_state(), d) for d in range(1, depth + 1)] == counts[:depth]


def test_position_round_trip():
    g = make_game("gomoku", size=7, connect=4)
    rng = np.random.default_rng(5)
    for _ in range(100):
        s = g.initial_state()
        for _ in range(int(rng.integers(0, 49))):
            if g.is_terminal(s):
                break
            legal = g.legal_actions(s)
            s = g.apply(s, int(legal[rng.integers(len(legal))]))
        assert np.array_equal(g.position(g.cells(s)), s), g.render(s)


@pytest.mark.parametrize(("board", "match"), [
    (["....."] * 4, "5 rows of 5 cells"),
    (["X....", "X....", ".....", ".....", "....."], "X has as many stones as O or one more; got X 2, O 0"),
    (["XXX..", "OO...", "O....", ".....", "....."], "X has a line of 3, but O moved last"),
])
def test_position_errors(board, match):
    with pytest.raises(PositionError, match=match):
        make_game("gomoku", size=5, connect=3).position(board)


# OpenSpiel move for move: (variant, games); seeds of their own
CROSS_CHECK = [({}, 12), ({"size": 9}, 40), ({"size": 7, "connect": 4}, 80),
               ({"size": 6, "connect": 4, "wrap": True}, 60), ({"size": 5, "connect": 3, "anti": True}, 60),
               ({"size": 4, "connect": 4}, 40)]


def cross_check(variant, games, seed):
    """Plays ``games`` random games in both; returns the number of positions compared."""
    pyspiel = pytest.importorskip("pyspiel")
    g = make_game("gomoku", **variant)
    game = pyspiel.load_game("gomoku", variant)
    assert (game.num_distinct_actions(), game.max_game_length()) == (g.num_actions, g.max_game_length)

    def same_board_and_observations(s, os_state):
        assert [r.lower().replace("x", "b").replace("o", "w") for r in g.cells(s)] == str(os_state).split()[1:]
        if not g.is_terminal(s):
            planes = np.asarray(os_state.observation_tensor(0)).reshape(3, -1)
            ours = g.observation(s, 0).reshape(-1, 3).T
            assert np.array_equal(ours, planes)
            assert np.array_equal(g.observation(s, 1).reshape(-1, 3).T, [planes[1], planes[0], 1 - planes[2]])

    return compare_with_openspiel(g, game, games, seed, same_board_and_observations).steps


@pytest.mark.parametrize(("variant", "games"), CROSS_CHECK)
def test_openspiel_cross_check(variant, games):
    """Identical legal actions, board, player, observation, terminal flag and returns at every step."""
    assert cross_check(variant, games, seed=4711) > games


def test_the_env_docstring_table_matches_the_spaces():
    env = gomoku_v0.env()
    assert re.search(rf"\| Action values\s+\| Discrete\({env.action_space('player_0').n}\)", gomoku_v0.__doc__)
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", gomoku_v0.__doc__)


def reference_scan(g, s):
    """The windows, open threes and short cells of knowledge.scan, cell by cell in Python."""
    n, cols, k, wrap = g.rows, g.columns, g.connect, g.variant["wrap"]
    grid = g.cells(s)
    windows = [[0] * (k + 1) for _ in range(2)]
    opens = [0, 0]
    short = [[set() for _ in range(3)] for _ in range(2)]

    def window(r, c, dr, dc, length):
        out = []
        for i in range(length):
            rr, cc = r + i * dr, c + i * dc
            if wrap:
                rr, cc = rr % n, cc % cols
            elif not (0 <= rr < n and 0 <= cc < cols):
                return None
            out.append((rr, cc))
        return out

    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(n):
            for c in range(cols):
                w = window(r, c, dr, dc, k)
                if w is not None:
                    marks = [grid[rr][cc] for rr, cc in w]
                    for p, (mine, other) in enumerate((("X", "O"), ("O", "X"))):
                        if other not in marks and mine in marks:
                            stones = marks.count(mine)
                            windows[p][stones] += 1
                            if k - 1 - stones < 3:
                                short[p][k - 1 - stones].update(cell for cell, m in zip(w, marks) if m == ".")
                w = window(r, c, dr, dc, k + 1) if k >= 3 and (k < n or not wrap) else None
                if w is not None:
                    marks = [grid[rr][cc] for rr, cc in w]
                    for p, (mine, other) in enumerate((("X", "O"), ("O", "X"))):
                        inside = marks[1:-1]
                        if marks[0] == marks[-1] == "." and other not in inside and inside.count(mine) == k - 2:
                            opens[p] += 1
    return windows, opens, short


@pytest.mark.parametrize("variant", [{}, {"size": 9, "connect": 4}, {"size": 7, "connect": 4, "wrap": True},
                                     {"size": 6, "connect": 6}, {"size": 8, "connect": 3, "wrap": True},
                                     {"m": 9, "n": 4, "connect": 4}, {"m": 3, "n": 8, "connect": 5},
                                     {"m": 19, "n": 5, "connect": 5}])
def test_scan_equals_a_cell_by_cell_reference(variant):
    from zerosum.games.gomoku import knowledge

    g = make_game("gomoku", **variant)
    rng = np.random.default_rng(11)
    for _ in range(25):
        s = g.initial_state()
        for _ in range(int(rng.integers(0, g.max_game_length))):
            if g.is_terminal(s):
                break
            legal = g.legal_actions(s)
            s = g.apply(s, int(legal[rng.integers(len(legal))]))
        k, n, cols = g.connect, g.rows, g.columns
        counts, opens, cells = np.zeros(2 * (k + 1), np.int64), np.zeros(2, np.int64), np.zeros(6 * n, np.int64)
        knowledge.scan(g.params, s, counts, opens, cells)
        windows, ref_opens, short = reference_scan(g, s)
        assert [list(counts[1:k]), list(counts[k + 2:2 * k + 1])] == [w[1:k] for w in windows], g.render(s)
        assert list(opens) == ref_opens, g.render(s)
        for p in (0, 1):
            for j in range(3):
                got = {(r, c) for r in range(n) for c in range(cols) if (int(cells[(3 * p + j) * n + r]) >> c) & 1}
                assert got == short[p][j], (p, j, g.render(s))


# ---- the kit's search and the CLI on it (make_vec, BatchedSearch and alphazero: tests/envs/test_vector.py and
# tests/agents/test_alphazero.py list gomoku with every game) -------------------------------------------
SMALL = {"size": 9}
FOUR = [".........", ".........", "..XXXX...", "..OOO....", ".........", ".........", ".........",
        ".........", "...O....."]  # X to move wins at b7 or g7; O to move blocks or loses


def test_the_search_wins_and_blocks():
    from zerosum.search import WIN_BOUND, alphabeta, mcts, minimax

    g = make_game("gomoku", **SMALL)
    s = g.position(FOUR)
    assert g.current_player(s) == 0
    for depth in (1, 2, 3):
        r = alphabeta(g, s, depth=depth)
        assert r.value >= WIN_BOUND and g.action_to_string(r.action) in ("b7", "g7")
    assert minimax(g, s, 1).value == alphabeta(g, s, depth=1, quiescence=False).value
    assert g.action_to_string(mcts(g, s, sims=2000, seed=0).action) in ("b7", "g7")
    lost = g.position([".........", ".........", "..OOOO...", "..XXX....", *[".........."[:9]] * 4, "...X....."])
    r = alphabeta(g, lost, depth=2)  # O's open four: X blocks one end, O wins at the other
    assert r.value <= -WIN_BOUND
    quiet = g.apply(g.initial_state(), g.string_to_action("e5"))  # no threat: minimax's value at depth 2
    for heuristic in ("threats", "windows"):
        assert alphabeta(g, quiet, depth=2, heuristic=heuristic, quiescence=False).value == \
            minimax(g, quiet, 2, heuristic=heuristic).value


def test_zerosum_play_reads_h8_and_answers_help_and_hint():
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "zerosum", "play", "gomoku", "--opponent", "alphabeta(depth=1)"],
                       input="h8\nhelp h1\nhint\nh8\nquit\n", capture_output=True, text=True, timeout=900, cwd=root,
                       env={**os.environ, "PYTHONPATH": str(root)})
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    # h8 is the centre: column h of row 8 shows X (the engine's reply may be on that row too)
    assert any(line.split()[8] == "X" for line in r.stdout.splitlines() if line.startswith(" 8 ")), r.stdout
    listed = re.search(r"legal moves starting with 'h1' \((\d) of 223\):\n  (.*)\n", r.stdout)
    assert listed and int(listed.group(1)) in (6, 7), r.stdout  # h1, h10-h15 less the engine's reply
    assert set(listed.group(2).split(", ")) <= {"h1", "h10", "h11", "h12", "h13", "h14", "h15"}
    hint = re.search(r"^.*hint: ([a-o]\d+)\s", r.stdout, re.M)
    assert hint, r.stdout
    assert "action 112 (h8) is not legal here: h8 is taken by X" in r.stdout and "You left the game." in r.stdout


# ---- rectangular boards: OpenSpiel's mnk (m columns, n rows, k = connect) ----------------------
MNK = [({}, 8), ({"m": 7, "n": 4, "k": 4}, 60), ({"m": 3, "n": 6, "k": 3}, 80), ({"m": 9, "n": 5, "k": 5}, 40),
       ({"m": 3, "n": 3, "k": 3}, 60)]


def mnk(variant):
    """The Gomoku of OpenSpiel's mnk ``variant`` (``k`` is ``connect``)."""
    return make_game("gomoku", **{("connect" if name == "k" else name): v for name, v in variant.items()})


@pytest.mark.parametrize(("variant", "games"), MNK)
def test_mnk_cross_check(variant, games):
    """Identical legal actions, board, player, terminal flag and returns at every step as
    OpenSpiel's mnk, and its action names (``x(1,3)``) read as the same actions."""
    pyspiel = pytest.importorskip("pyspiel")
    g, game = mnk(variant), pyspiel.load_game("mnk", variant)
    assert (game.num_distinct_actions(), game.max_game_length()) == (g.num_actions, g.max_game_length)
    assert tuple(game.observation_tensor_shape()[1:]) == g.observation_shape[:2]

    def same_board(s, os_state):
        assert [row.lower() for row in g.cells(s)] == str(os_state).split()

    def same_name(s, os_state, a):
        assert g.string_to_action(os_state.action_to_string(a)) == a

    report = compare_with_openspiel(g, game, games, seed=2611, check=same_board, check_action=same_name)
    assert report.steps > games and set(report.outcomes) >= ({Outcome.P0_WINS, Outcome.P1_WINS} if variant else set())


@pytest.mark.parametrize("variant", [{"m": 7, "n": 4, "connect": 4}, {"m": 3, "n": 8, "connect": 5, "anti": True}])
def test_rectangles_conform(variant):
    game = make_game("gomoku", **variant)
    check_game(game, games=10, seed=3, env=False)
    for name in game.heuristics:
        check_heuristic(game, name, positions=20)


def test_rectangle_names_render_and_positions():
    g = make_game("gomoku", m=5, n=3, connect=3)
    assert (g.rows, g.columns, g.num_actions, g.observation_shape, g.state_size) == (3, 5, 15, (3, 5, 3), 4)
    assert [g.action_to_string(a) for a in (0, 4, 5, 14)] == ["a3", "e3", "a2", "e1"]
    assert g.string_to_action("e1") == g.string_to_action("2,4") == g.string_to_action("x(2,4)") == 14
    assert all(g.string_to_action(g.action_to_string(a)) == a for a in range(15))
    for text in ("f1", "a4", "3,0", "0,5"):
        with pytest.raises(IllegalActionError, match="write a column letter a-e and a row 1-3 .* rows 0-2 and "
                                                     "columns 0-4"):
            g.string_to_action(text)
    s = play("a3 a1 b3 b1", g)
    assert g.render(s).splitlines() == ["  a b c d e", "3 X X . . .", "2 . . . . .", "1 O O . . .", "X to move"]
    assert np.array_equal(g.position(g.cells(s)), s)
    s = g.apply(s, g.string_to_action("c3"))
    assert g.outcome(s) == Outcome.P0_WINS and np.array_equal(g.position(g.cells(s)), s)
    assert (make_game("gomoku", size=9, m=4).rows, make_game("gomoku", size=9, n=4).columns) == (9, 9)


@pytest.mark.parametrize(("bad", "match"), [
    ({"size": 1}, r"size=1 is not allowed: an int from 5 to 19 with connect=5 \(a line of 5 must fit"),
    ({"size": 4, "connect": 5}, r"size=4 is not allowed: an int from 5 to 19 with connect=5"),
    ({"m": 3, "n": 4}, r"n=4 is not allowed: an int from 5 to 19 with connect=5"),
    ({"m": 3, "n": 2, "connect": 4}, r"connect=4 is not allowed: an int from 1 to 3 \(the longer side of the board\) "
                                     r"with m=3, n=2"),
    ({"m": 4, "n": 5, "wrap": True}, r"wrap=True is not allowed: False on a board that is not square \(m=4, n=5\)"),
    ({"m": 20}, "m=20 is not allowed: an int from 1 to 19, or None"),
    ({"n": 0}, "n=0 is not allowed"),
    ({"k": 3}, "unknown name 'k'"),
])
def test_bad_rectangles(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("gomoku", **bad)


def test_the_env_blames_the_parameter_passed():
    with pytest.raises(VariantError, match=r"^size=1 is not allowed: an int from 5 to 19 with connect=5"):
        gomoku_v0.env(size=1)
    env = gomoku_v0.env(m=6, n=4, connect=4, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.observation_space("player_0")["observation"].shape == (4, 6, 3) and env.action_space("player_0").n == 24
    assert env.render().shape[:2] == (4 * 32, 6 * 32)
