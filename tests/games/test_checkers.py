"""Checkers: the conformance kit, perft (OpenSpiel's and Aart Bik's published table), a
scripted multi-jump that crowns, errors, positions, and OpenSpiel move for move."""

import re

import numpy as np
import pytest

from zerosum.envs import checkers_v0
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel, openspiel_perft, perft

G = make_game("checkers")
VARIANTS = [{}, {"rows": 10, "columns": 10}, {"rows": 8, "columns": 6}, {"rows": 7, "columns": 7}]
EMPTY = "........"


@pytest.mark.parametrize(("variant", "games"), [({}, 6), (VARIANTS[1], 3), (VARIANTS[3], 4)])
def test_check_game(variant, games):
    check_game(make_game("checkers", **variant), games=games, seed=3)


@pytest.mark.parametrize("name", ["material", "kings", "back_rank", "mobility"])
def test_check_heuristic(name):
    report = check_heuristic(G, name)
    assert G.heuristic(name).compiled and report.low < 0 < report.high


# Aart Bik, "perft for 8x8 checkers" (talkchess.com, 2009): whole moves from the start,
# a multi-jump counted once, duplicate captures not removed.
BIK = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]


def test_perft_equals_the_published_table():
    assert [perft(G, G.initial_state(), d) for d in range(1, 7)] == BIK[:6]  # no capture before ply 7
    assert [G.whole_move_perft(G.initial_state(), d) for d in range(1, 7)] == BIK[:6]


@pytest.mark.parametrize(("variant", "depth"), [({}, 5), (VARIANTS[1], 4), (VARIANTS[3], 5)])
def test_perft_equals_openspiel(variant, depth):
    pyspiel = pytest.importorskip("pyspiel")
    g = make_game("checkers", **variant)
    root = pyspiel.load_game("checkers", variant).new_initial_state()
    assert [perft(g, g.initial_state(), d) for d in range(1, depth + 1)] == \
        [openspiel_perft(root, d) for d in range(1, depth + 1)]


def test_openspiel_move_for_move():
    """Legal actions, their names, the player to move, the terminal flag, the returns and
    the board equal OpenSpiel's at every step of seeded random games."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(4747)
    for variant, games in zip(VARIANTS, (40, 8, 15, 15)):
        g = make_game("checkers", **variant)

        def same_board(s, o, g=g):
            assert g.cells(s) == [row[len(str(g.rows)):] for row in str(o).splitlines()[: g.rows]]

        def same_name(s, o, a, g=g):
            assert g.action_to_string(a, s) == o.action_to_string(o.current_player(), a)

        compare_with_openspiel(g, pyspiel.load_game("checkers", variant), games, rng, same_board,
                               check_action=same_name)


def test_encoding_and_names():
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape) == (512, 48, 983, (8, 8, 7))
    s = G.initial_state()
    assert G.describe_actions(G.legal_actions(s), s) == "a3b4, c3b4, c3d4, e3d4, e3f4, g3f4, g3h4"
    assert G.string_to_action("c3d4") == G.string_to_action("11-15") == G.string_to_action("C3-D4") == 338
    assert G.string_to_action("c3xe5") == G.string_to_action("11x18") == 339
    assert G.string_to_action("9-13") == G.string_to_action("g3h4") == 370  # Bik's 9-13 (b6-a5 turned round)
    assert [G.square_name(sq) for sq in G.dark_squares()[:5]] == ["g1", "e1", "c1", "a1", "h2"]
    for text in ("c3", "c3d5", "i3j4", "0-4", "33-34", "512", ""):
        with pytest.raises(IllegalActionError, match="cannot read move"):
            G.string_to_action(text)


SCRIPT_BOARD = [EMPTY, "....+.+.", EMPTY, "..+.....", ".o......", EMPTY, ".....+..", "o......."]


def test_multi_jump_that_crowns_ends_the_move():
    s = G.position(SCRIPT_BOARD)
    assert G.describe_actions(G.legal_actions(s), s) == "b4d6"  # the capture is forced
    s = G.apply(s, G.string_to_action("b4xd6"))
    assert G.current_player(s) == 0  # white jumps on: the same player moves again
    assert G.describe_actions(G.legal_actions(s), s) == "d6f8"
    assert G.render(s).splitlines()[-1] == "white (o) to move, jumping on with d6"
    with pytest.raises(IllegalActionError, match="the piece on d6 must go on jumping"):
        G.apply(s, G.string_to_action("a1b2"))
    s = G.apply(s, G.string_to_action("d6f8"))
    assert G.cells(s)[0] == ".....8.." and G.cells(s)[3] == EMPTY  # crowned on f8, c5 and e7 taken
    assert G.current_player(s) == 1  # crowning ends the move, though the king could take g7
    assert G.describe_actions(G.legal_actions(s), s) == "g7h6, g7f6, f2g1, f2e1"
    s = G.apply(s, G.string_to_action("f2g1"))  # black crowns too
    assert G.cells(s)[7] == "o.....*."
    s = G.apply(s, G.string_to_action("f8h6"))  # the white king takes g7
    assert G.current_player(s) == 1 and G.describe_actions(G.legal_actions(s), s) == "g1f2, g1h2"
    s = G.apply(s, G.string_to_action("g1h2"))
    s = G.apply(s, G.string_to_action("a1b2"))
    assert G.render(s).splitlines()[-1] == "black (+) to move"


def test_no_move_loses_and_quiet_plies_draw():
    board = [EMPTY] * 5 + ["..+.+...", "...o....", EMPTY]
    s = G.position(board, to_move="black")  # black must take d2
    s = G.apply(s, G.legal_actions(s)[0])
    assert G.outcome(s) == Outcome.P1_WINS and G.render(s).endswith("black wins")  # white has no piece
    blocked = G.position([EMPTY] * 5 + ["..+.....", ".+......", "o......."])
    assert G.outcome(blocked) == Outcome.P1_WINS  # white's only man cannot move
    kings = [".8......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "......*."]
    s = G.position(kings, quiet=39)
    s = G.apply(s, G.string_to_action("b8a7"))
    assert G.is_terminal(s) and G.returns(s) == (0.0, 0.0) and "draw (40 plies" in G.render(s)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"board": [EMPTY] * 7}, "8 rows of 8 cells"),
    ({"board": ["o......."] + [EMPTY] * 7}, "a8 is a light square"),
    ({"board": [".o......"] + [EMPTY] * 7}, "a man on b8, its crowning row, would be a king"),
    ({"board": [EMPTY] * 8, "to_move": "red"}, "to_move='red'"),
    ({"board": [EMPTY] * 8, "quiet": 40}, "quiet=40"),
    ({"board": SCRIPT_BOARD, "jump": "a1"}, "the piece on a1 has no jump"),
    ({"board": SCRIPT_BOARD, "jump": "c5"}, "jump='c5': the square of a white piece"),
])
def test_position_errors(kwargs, match):
    with pytest.raises(PositionError, match=re.escape(match)):
        G.position(**kwargs)


def test_position_round_trip():
    rng = np.random.default_rng(8)
    for _ in range(30):
        s = G.initial_state()
        for _ in range(int(rng.integers(0, 120))):
            if G.is_terminal(s):
                break
            s = G.apply(s, int(rng.choice(G.legal_actions(s))))
        jump = G.square_name(int(s[1])) if s[1] >= 0 else None
        again = G.position(G.cells(s), to_move=("white", "black")[int(s[0])], jump=jump, quiet=int(s[2]))
        assert np.array_equal(again, s) and G.state_key(again) == G.state_key(s)


@pytest.mark.parametrize(("bad", "match"), [
    ({"rows": 6}, "rows=6 is not allowed: an int from 7 to 16"),
    ({"rows": 17}, "rows=17 is not allowed"),
    ({"columns": 3}, "columns=3 is not allowed: an int from 4 to 16"),
    ({"rows": 8, "columns": 10}, "columns=10 is not allowed: at most rows=8"),
    ({"rows": "8"}, "rows='8' is not allowed"),
    ({"size": 8}, "unknown name 'size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=re.escape(match)):
        make_game("checkers", **bad)


def test_observation_planes():
    s = G.apply(G.initial_state(), G.string_to_action("c3d4"))
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (8, 8, 7) and o0.dtype == np.int8
    assert o0[4, 3, 0] == 1 and o0[..., 0].sum() == 12 and o0[..., 2].sum() == 12 and not o0[..., 1].any()
    assert o1[3, 4, 2] == 1  # black sees white's d4 man turned round
    assert not o0[..., 4].any() and o1[..., 4].all()  # black is to move
    assert o0[..., 6].sum() == 64 // 40  # one quiet ply


def test_ordering_hint_and_forcing_moves():
    from zerosum.games.checkers import knowledge

    s = G.position(SCRIPT_BOARD)
    out = np.zeros(G.max_moves, dtype=np.int64)
    assert knowledge.forcing(G.params, s, out) == 1 and out[0] == G.string_to_action("b4d6")
    assert knowledge.forcing(G.params, G.initial_state(), out) == 0
    moves = G.legal_actions(G.initial_state())
    scores = np.zeros(len(moves))
    knowledge.order(G.params, G.initial_state(), moves, len(moves), scores)
    names = [G.action_to_string(int(a)) for a in moves]
    assert scores[names.index("c3d4")] > scores[names.index("a3b4")]  # towards the centre first


def test_env_docstring_matches_the_spaces():
    env = checkers_v0.env()
    assert re.search(rf"\| Action values\s+\| Discrete\({env.action_space('player_0').n}\)", checkers_v0.__doc__)
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", checkers_v0.__doc__)
    for variant in VARIANTS[1:]:
        g = make_game("checkers", **variant)
        name = f"{variant['rows']}x{variant['columns']}"
        men = max(g.max_moves // 4, 1)
        assert f"| {name} | {men} | {g.num_actions} | {g.max_game_length} |" in checkers_v0.__doc__


def test_rgb_array_draws_kings():
    env = checkers_v0.env(render_mode="rgb_array")
    env.reset()
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (8 * 48 + 48, 8 * 48 + 48, 3)
    assert tuple(img[24 + 7 * 48 + 24, 24 + 24]) == (245, 245, 245)  # white's man on a1 is light
    assert tuple(img[24 + 24, 24 + 48 + 24]) == (20, 20, 20)  # black's man on b8 dark
