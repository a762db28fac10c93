"""Halma: rules as scripted positions, the reference generator, invariants, heuristics, search."""

from __future__ import annotations

import numpy as np
import pytest

from tests.games import halma_reference as ref
from tests.playouts import check_random_playouts
from zerosum.envs import make
from zerosum.games import GameOverError, IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.halma import HASH, PASS, SIZES, TURN, Halma
from zerosum.games.halma.heuristics import CENTRE_C, DIAG_C, DIST, FILL_C, forward_first, table_sum
from zerosum.games.halma.strategies import PHASES, STRATEGIES, left_home, past_midline
from zerosum.games.kit import HEURISTIC

GAMES = {n: Halma(size=n) for n in SIZES}


def dests(game, s, square):
    """Destinations (names) of the piece on ``square`` in the legal moves of position s."""
    nn = game.size ** 2
    f = game.parse_square(square)
    return {game.square_name(int(a) % nn) for a in game.legal_actions(s) if int(a) // nn == f}


def agrees_with_reference(game, s):
    legal = game.legal_actions(s).tolist()
    status = ref.status(game.board(s), int(s[TURN]), game.max_game_length)
    expected = ref.legal_moves(game.board(s), game.current_player(s)) if status == "ongoing" else []
    return legal == expected and status == {
        Outcome.ONGOING: "ongoing", Outcome.P0_WINS: "p0", Outcome.P1_WINS: "p1", Outcome.DRAW: "draw"
    }[game.outcome(s)]


# ---- the rules as data: (name, size, X squares, O squares, piece, its destinations, not among them)
MOVES = [
    ("steps and a single jump", 8, ["d4"], ["e5"], "d4",
     {"c3", "d3", "e3", "c4", "e4", "c5", "d5", "f6"}, {"e5", "g7"}),
    ("a chain of three jumps over both colours", 8, ["b2", "g7"], ["c3", "e5"], "b2",
     {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "d4", "f6", "h8"}, {"b2"}),
    ("jumps in all 8 directions", 10, ["e5", "d4", "e4", "f4", "d5"], ["f5", "d6", "e6", "f6"], "e5",
     {"c3", "e3", "g3", "c5", "g5", "c7", "e7", "g7"}, set()),
    ("a chain that could come back to its start", 8, ["a1", "c2"], ["b1", "b3", "a2"], "a1",
     {"b2", "c1", "c3", "a3"}, {"a1"}),
    ("a step and a jump never mix", 8, ["c3"], ["d3", "e5"], "c3",
     {"b2", "c2", "d2", "b3", "b4", "c4", "d4", "e3"}, {"f3", "f2", "f4", "f6", "e4"}),
    ("a piece in its target camp stays in it", 8, ["g6", "g7"], ["f6", "e7"], "g6",
     {"h5", "h6", "f7", "h7", "g8"}, {"f5", "g5", "e6", "e8"}),
    ("the same chain outside the camp is free", 8, ["g5", "g6"], ["f5", "e6"], "g5",
     {"f4", "g4", "h4", "h5", "f6", "h6", "g7", "e5", "e7"}, set()),
]


@pytest.mark.parametrize(("name", "size", "x", "o", "piece", "expected", "excluded"), MOVES, ids=[m[0] for m in MOVES])
def test_scripted_moves(name, size, x, o, piece, expected, excluded):
    g = GAMES[size]
    s = g.position(x, o)
    got = dests(g, s, piece)
    assert got == expected, (got ^ expected, g.render(s))
    assert not got & excluded
    assert agrees_with_reference(g, s)


def test_duplicate_chains_are_one_move():
    # f6 is reached from d4 straight over e5 and by d4-d6-f6: one action.
    g = GAMES[8]
    s = g.position(["d4", "g7"], ["e5", "d5", "e6"])
    legal = g.legal_actions(s)
    assert len(set(legal.tolist())) == len(legal) and np.all(np.diff(legal) > 0)
    assert {"d6", "f6", "f4"} <= dests(g, s, "d4")


# (name, size, X, O, turn, max_turns, move (or None), expected outcome after it)
OUTCOMES = [
    ("spoiling: a camp full of the owner's pieces is no win", 8, [],
     ["h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "h8"], 0, None, None, Outcome.ONGOING),
    ("anti-spoiling: the last hole filled by one own piece wins", 8, ["d7"],
     ["h5", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8"], 0, None, "d7-e8", Outcome.P0_WINS),
    ("one hole left is no win yet", 8, ["h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "d7"],
     ["a1"], 0, None, "d7-e7", Outcome.ONGOING),
    ("a camp filled with own pieces wins", 8, ["h5", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8", "d8"],
     ["a1"], 0, None, "d8-e8", Outcome.P0_WINS),
    ("the opponent filling the last hole completes the win", 8, ["h8"],
     ["h5", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "d8"], 1, None, "d8-e8", Outcome.P0_WINS),
    ("the draw cap", 8, ["d4"], ["e6"], 4, 5, "d4-d3", Outcome.DRAW),
    ("a win on the last allowed move is a win", 8, ["d7"], ["h5", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8"],
     4, 5, "d7-e8", Outcome.P0_WINS),
]


@pytest.mark.parametrize(("name", "size", "x", "o", "turn", "cap", "move", "outcome"), OUTCOMES,
                         ids=[c[0] for c in OUTCOMES])
def test_scripted_outcomes(name, size, x, o, turn, cap, move, outcome):
    g = Halma(size=size, max_turns=cap) if cap else GAMES[size]
    s = g.position(x, o, turn=turn)
    if move is not None:
        assert not g.is_terminal(s)
        s = g.apply(s, g.string_to_action(move, s))
    assert g.outcome(s) == outcome, g.render(s)
    assert g.is_terminal(s) == (outcome != Outcome.ONGOING)
    assert agrees_with_reference(g, s)
    if outcome != Outcome.ONGOING:
        assert len(g.legal_actions(s)) == 0
        with pytest.raises(GameOverError):
            g.apply(s, 0)


def test_both_camps_complete_the_player_who_just_moved_wins():
    g = GAMES[8]
    x_target = ["h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "h8"]
    o_target = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"]
    x = x_target[:5] + o_target[:5]
    o = x_target[5:] + o_target[5:]
    assert g.outcome(g.position(x, o, turn=1)) == Outcome.P0_WINS  # X just moved
    assert g.outcome(g.position(x, o, turn=2)) == Outcome.P1_WINS


def test_a_player_without_a_move_passes():
    g = GAMES[8]
    s = g.position(["a1"], ["a2", "b1", "b2", "a3", "c1", "c3"])
    assert g.legal_actions(s).tolist() == [PASS] and g.action_to_string(PASS) == "pass"
    t = g.apply(s, g.string_to_action("pass"))
    assert t[TURN] == 1 and g.board(t).tolist() == g.board(s).tolist() and g.current_player(t) == 1
    assert agrees_with_reference(g, s)


# ---- the reference generator --------------------------------------------------------------
def reachable_positions(game, count, seed):
    """Positions from seeded games mixing random moves with greedy forward ones (so that the
    pieces reach the camps and games end)."""
    rng = np.random.default_rng(seed)
    z, nn = SIZES.index(game.size), game.size ** 2
    while count > 0:
        s = game.initial_state()
        greedy = rng.uniform(0.3, 0.9)
        while not game.is_terminal(s) and count > 0:
            yield s
            count -= 1
            legal = game.legal_actions(s)
            if rng.random() < greedy:
                p = game.current_player(s)
                gain = DIST[z, p, legal // nn] - DIST[z, p, legal % nn]
                a = rng.choice(legal[gain == gain.max()])
            else:
                a = rng.choice(legal)
            s = game.apply_unchecked(s, int(a))
        yield s


@pytest.mark.parametrize("size", SIZES)
def test_agrees_with_the_reference_generator(size):
    g = GAMES[size]
    outcomes = set()
    n = 0
    for s in reachable_positions(g, 2000, seed=size):
        assert agrees_with_reference(g, s), g.render(s)
        outcomes.add(g.outcome(s))
        n += 1
    assert n >= 2000
    if size < 16:  # the games reach their end (wins both ways) on the small boards
        assert {Outcome.P0_WINS, Outcome.P1_WINS} <= outcomes


# ---- invariants ---------------------------------------------------------------------------
@pytest.mark.parametrize(("size", "games", "cap"), [(8, 20, None), (10, 5, None), (16, 2, 200)])
def test_random_playout_invariants(size, games, cap):
    g = Halma(size=size, max_turns=cap)
    lengths = check_random_playouts(g, games, seed=size)
    assert max(lengths) <= g.max_game_length


@pytest.mark.parametrize("size", SIZES)
def test_pieces_hash_and_bounds_along_games(size):
    g = GAMES[size]
    most = 0
    for s in reachable_positions(g, 300 if size == 16 else 600, seed=100 + size):
        board = g.board(s)
        assert (board == 0).sum() == g.pieces and (board == 1).sum() == g.pieces  # counts constant
        assert not np.any(s[0:4] & s[4:8])  # no two pieces on a square
        assert s[HASH] == g.position(g.pieces_of(s, 0), g.pieces_of(s, 1), int(s[TURN]))[HASH]
        most = max(most, len(g.legal_actions(s)))
    assert most < g.max_moves


def test_initial_position_and_variants():
    for size, pieces, rows in ((16, 19, (5, 5, 4, 3, 2)), (10, 15, (5, 4, 3, 2, 1)), (8, 10, (4, 3, 2, 1))):
        g = make_game("halma", size=size)
        s = g.initial_state()
        board = g.board(s)
        assert g.pieces == pieces and len(g.camp(0)) == len(g.camp(1)) == pieces
        assert [int((board[r] == 0).sum()) for r in range(len(rows))] == list(rows)
        assert np.array_equal(board[::-1, ::-1] == 1, board == 0)  # camps in opposite corners
        assert g.num_actions == size ** 4 and g.observation_shape == (size, size, 6)
        assert g.current_player(s) == 0 and g.outcome(s) == Outcome.ONGOING
    assert GAMES[16].variant == {"size": 16, "max_turns": 600}
    for bad in ({"size": 12}, {"size": True}, {"size": 16.0}, {"max_turns": 0}, {"max_turns": 2.5},
                {"max_turns": 100_001}, {"players": 4}):
        with pytest.raises(VariantError):
            make_game("halma", **bad)
    assert Halma(size=16) == Halma(size=16, max_turns=600) and hash(Halma()) == hash(Halma(max_turns=600))
    assert Halma(size=8) != Halma(size=8, max_turns=201)
    with pytest.raises(AttributeError, match="frozen"):
        GAMES[8].size = 10


@pytest.mark.parametrize(("x", "o", "turn", "message"), [
    (["a1"], ["a1"], 0, "two pieces on one square: a1"),
    ([f"{c}{r}" for c in "abcdefgh" for r in (4, 5)], [], 0, "at most 10"),
    (["z9"], [], 0, "cannot read square 'z9'"),
    ([64], [], 0, r"an int in \[0, 64\); got 64"),
    ([True], [], 0, "got True"),
    (["a1"], ["h8"], -1, "turn=-1"),
    (["a1"], ["h8"], 201, "0 to max_turns=200"),
    (["a1"], ["h8"], 1.0, "turn=1.0"),
])
def test_position_errors(x, o, turn, message):
    with pytest.raises(PositionError, match=message):
        GAMES[8].position(x, o, turn=turn)


def test_keys_equal_for_transpositions():
    g = GAMES[10]
    s = g.initial_state()
    a, b, c, d = (g.string_to_action(m) for m in ("a5-a6", "j6-j5", "b4-b5", "i7-i6"))
    one = g.apply(g.apply(g.apply(g.apply(s, a), b), c), d)
    two = g.apply(g.apply(g.apply(g.apply(s, c), d), a), b)
    assert np.array_equal(one, two) and g.state_key(one) == g.state_key(two)
    later = one.copy()
    later[TURN] += 2
    assert g.state_key(later) != g.state_key(one)  # the move counter decides the draw


# ---- names, errors, text ------------------------------------------------------------------
def test_action_names_round_trip_and_errors():
    for g in GAMES.values():
        s = g.initial_state()
        for a in g.legal_actions(s):
            name = g.action_to_string(int(a))
            assert g.string_to_action(name) == a and g.string_to_action(name, s) == a
    g = GAMES[16]
    assert g.action_to_string(g.string_to_action("c1-e3")) == "c1-e3"
    assert g.string_to_action("c1e3") == g.string_to_action("C1 E3") == g.string_to_action("c1>e3") == 2 * 256 + 36
    assert g.string_to_action(str(2 * 256 + 36)) == 2 * 256 + 36
    for bad in ("z1-a2", "a1-a17", "a1", "a1-a1", "hello", "65536", ""):
        with pytest.raises(IllegalActionError, match="'c3-e5'"):
            g.string_to_action(bad)
    with pytest.raises(IllegalActionError, match="not legal here; legal: c1-e3"):
        g.string_to_action("a1-b1", g.initial_state())
    with pytest.raises(IllegalActionError, match=r"action 0 \(pass\) is not legal here"):
        g.apply(g.initial_state(), 0)
    for bad in (65536, -1, 1.5, "c1-e3", None):
        with pytest.raises(IllegalActionError, match="an int in|out of range"):
            g.apply(g.initial_state(), bad)
        with pytest.raises(IllegalActionError, match="an int in|out of range"):
            g.action_to_string(bad)


def test_render_has_coordinates_and_camps():
    g = GAMES[8]
    text = g.render(g.apply(g.initial_state(), g.string_to_action("d1-e1")))
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[1].split() == ["1", "X", "X", "X", ":", "X", ".", ".", "."]
    assert lines[-2].split() == ["8", ".", ".", ".", ".", "O", "O", "O", "O"]
    assert lines[-1] == "move 1, O to play"


def test_observation_planes_from_the_observers_side():
    g = GAMES[10]
    s = g.apply(g.initial_state(), g.string_to_action("e1-f1"))
    o0, o1 = g.observation(s, 0), g.observation(s, 1)
    assert o0.shape == (10, 10, 6) and o0.dtype == np.int8
    assert o0[0, 5, 0] == 1 and o0[0, 4, 0] == 0          # X moved e1 to f1
    assert o1[9, 4, 1] == 1                                  # ... seen turned round by O
    assert np.array_equal(o0[..., 2], o1[..., 2]) and o0[9, 9, 2] == 1 and o0[0, 0, 3] == 1
    assert np.array_equal(o1[..., 0], g.observation(g.initial_state(), 0)[..., 0])  # O's start looks like X's
    assert o1[..., 4].all() and not o0[..., 4].any()
    assert o0[0, 0, 5] == 1 and o0[..., 5].sum() == 1        # turn 1 in binary


# ---- heuristics, strategies, ordering -----------------------------------------------------
def test_heuristics_are_compiled_antisymmetric_and_bounded():
    g = GAMES[16]
    names = {"distance", "corner", "distance_free", "centre", "diagonal", "careful", "fill", "fill_alternate", "phased"}
    assert set(g.heuristics) == names and g.default_heuristic == "distance"
    positions = list(reachable_positions(g, 150, seed=5))
    for name in names:
        h = g.heuristic(name)
        for s in positions[::5]:
            v0, v1 = h.fn(g.params, s, 0), h.fn(g.params, s, 1)
            assert abs(v0) <= 10_000 and v0 == pytest.approx(-v1, abs=1e-9), name
        # a heuristic kernel compiles on first use (zerosum.games.kit.toolkit): after the calls above
        assert h.compiled and HEURISTIC in h.fn.nopython_signatures and h.symmetric, name
        start = h.fn(g.params, g.initial_state(), 0)
        if name == "distance":  # the side to move is credited with its best move
            assert start > 0
        else:
            assert start == pytest.approx(0.0, abs=1e-9), name


def test_distance_prefers_entering_the_camp_and_filling_it():
    g = GAMES[8]
    # X outside the camp next to its only hole (e8), behind a full row: entering wins the most
    x = ["g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8", "h5", "c6"]
    s = g.position(x, ["a1", "b1"])
    h = g.heuristic("distance").fn
    best = max(g.legal_actions(s), key=lambda a: -h(g.params, g.apply(s, int(a)), 1))
    assert g.action_to_string(int(best)) == "c6-d7"  # towards e8
    for name in ("fill", "fill_alternate", "corner", "distance_free"):
        fn = g.heuristic(name).fn
        deeper = g.position(["h8"], ["a1"])
        shallower = g.position(["h5"], ["a1"])
        outside = g.position(["g5"], ["a1"])
        assert fn(g.params, deeper, 0) >= fn(g.params, shallower, 0) > fn(g.params, outside, 0), name


def test_fill_orders():
    g = GAMES[16]
    fill, alt = g.heuristic("fill").fn, g.heuristic("fill_alternate").fn
    corner, near, edge, row_2, row_1 = (g.position([sq], ["a1"]) for sq in ("p16", "o15", "l15", "m14", "l15"))
    assert fill(g.params, corner, 0) > fill(g.params, near, 0) > fill(g.params, edge, 0)  # corner outwards
    assert alt(g.params, row_2, 0) > alt(g.params, row_1, 0)  # every second row first


def test_careful_counts_jump_chances():
    g = GAMES[16]
    careful, corner = g.heuristic("careful").fn, g.heuristic("corner").fn
    s = g.position(["d4"], ["e5", "a1"])  # X can jump e5 forwards; O can jump d4 forwards too
    t = g.position(["d4"], ["e6", "a1"])
    assert careful(g.params, s, 0) - corner(g.params, s, 0) == pytest.approx(0.0)
    assert careful(g.params, t, 0) - corner(g.params, t, 0) == pytest.approx(0.0)
    u = g.position(["d4", "e5"], ["a1"])  # X jumps its own piece; nothing for O
    assert careful(g.params, u, 0) - corner(g.params, u, 0) == pytest.approx(1.0)


def test_phased_strategy_switches_by_position():
    g = GAMES[8]
    assert PHASES == ("centre", "diagonal", "fill") and all(p in STRATEGIES for p in PHASES)
    phased = g.heuristic("phased").fn
    start = g.initial_state()
    assert left_home(g.params, start, 0) == 0 and past_midline(g.params, start, 0) == 0
    mid = g.position(["c4", "d4", "e3"], ["h8"])
    assert left_home(g.params, mid, 0) == 1 and past_midline(g.params, mid, 0) == 0
    end = g.position(["f5", "h8"], ["a1"])
    assert past_midline(g.params, end, 0) == 1
    # each side is scored by its own phase's strategy, plus 1000 per phase reached
    x_mid = 1000 + table_sum(DIAG_C, 0, mid, 0)
    o_mid = -table_sum(CENTRE_C, 0, mid, 1)  # O (on h8) has not left home
    assert phased(g.params, mid, 0) == pytest.approx(x_mid - o_mid)
    x_end = 2000 - table_sum(FILL_C, 0, end, 0)
    o_end = 2000 - table_sum(FILL_C, 0, end, 1)  # O (on a1) is past the midline too
    assert phased(g.params, end, 0) == pytest.approx(x_end - o_end)
    for st in STRATEGIES.values():
        assert st.order is forward_first


def test_ordering_hint_puts_forward_progress_first():
    g = GAMES[16]
    s = g.initial_state()
    legal = g.legal_actions(s)
    scores = np.zeros(len(legal))
    forward_first(g.params, s, legal, len(legal), scores)
    order = [g.action_to_string(int(a)) for a in legal[np.argsort(-scores, kind="stable")]]
    assert scores.max() == 4.0 and order[0] == "c1-e3"  # a diagonal jump towards the target
    assert scores[[g.action_to_string(int(a)) for a in legal].index("a5-a6")] == 1.0


# ---- env ----------------------------------------------------------------------------------
def test_env_rgb_array_shows_the_camps():
    env = make("halma_v0", size=8, render_mode="rgb_array")
    env.reset()
    env.step(GAMES[8].string_to_action("d1-e1"))
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (8 * 48 + 48, 8 * 48 + 48, 3)
    def cell(r, c):  # a square's corner, beside the stone
        return tuple(img[24 + r * 48 + 4, 24 + c * 48 + 4])

    assert cell(0, 3) == (190, 205, 225) and cell(7, 7) == (225, 195, 190) and cell(4, 4) == (236, 217, 180)
    centre = img[24 + 24, 24 + 4 * 48 + 24]
    assert tuple(centre) == (20, 20, 20)  # X's dark piece now on e1
    assert env.observe("player_1")["action_mask"].sum() == len(GAMES[8].legal_actions(env.state))


# ---- search -------------------------------------------------------------------------------
def test_alphabeta_equals_minimax_on_random_8x8_positions():
    from zerosum.search import alphabeta, minimax

    g = GAMES[8]
    positions = list(reachable_positions(g, 400, seed=7))
    rng = np.random.default_rng(0)
    for i in rng.choice(len(positions), 12, replace=False):
        s = positions[i]
        if g.is_terminal(s):
            continue
        for depth in (1, 2):
            for heuristic in ("distance", "corner"):
                m = minimax(g, s, depth, heuristic)
                for opts in ({}, {"ordering": False, "tt": False}):
                    a = alphabeta(g, s, depth, heuristic, **opts)
                    assert a.value == pytest.approx(m.value, abs=1e-9), (depth, heuristic, opts)


def test_search_takes_the_immediate_win():
    from zerosum.search import alphabeta

    g = GAMES[8]
    s = g.position(["d7", "b2"], ["h5", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8"])
    for heuristic in ("distance", "corner", "phased"):
        r = alphabeta(g, s, 2, heuristic)
        assert g.action_to_string(r.action) == "d7-e8" and r.value == pytest.approx(1_000_000 - 1)
