"""Nine Men's Morris: rules as data, perft, OpenSpiel cross-check, invariants, search."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.games.morris_cases import CASES
from tests.playouts import check_random_playouts, perft
from zerosum.testing import compare_with_openspiel, random_positions
from zerosum import search
from zerosum.games import GameOverError, IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.nine_mens_morris import NineMensMorris
from zerosum.games.nine_mens_morris.tables import (
    ADJ, MILLS, MILLS_OF, NUM_PLANES, POINT_NAMES, POINT_RC, S_COUNT, S_TURNS,
)

VARIANTS = [{}, {"protect_mills": False}, {"flying": False}, {"no_return": True}, {"max_turns": 40},
            {"protect_mills": False, "flying": False, "no_return": True, "max_turns": 120}]


@pytest.fixture
def pyspiel():
    """OpenSpiel, for the cross-checks only: they skip without it, the rest of the suite runs."""
    return pytest.importorskip("pyspiel")


def names(game, actions):
    return {game.action_to_string(int(a)) for a in actions}


def points(bits: int) -> set[str]:
    return {POINT_NAMES[p] for p in range(24) if (int(bits) >> p) & 1}


# ---- geometry and numbering ---------------------------------------------------------------
def test_geometry_tables():
    assert len(MILLS) == 16 and all(int(m).bit_count() == 3 for m in MILLS)
    assert all({int(m) for m in MILLS_OF[p]} <= {int(m) for m in MILLS} for p in range(24))
    assert sum(int(a).bit_count() for a in ADJ) == 2 * 32  # 32 lines between adjacent points
    assert sorted(int(a).bit_count() for a in ADJ) == [2] * 12 + [3] * 8 + [4] * 4
    for p in range(24):  # adjacency is symmetric and joins points on one row or column
        for q in range(24):
            if (int(ADJ[p]) >> q) & 1:
                assert (int(ADJ[q]) >> p) & 1
                assert POINT_RC[p, 0] == POINT_RC[q, 0] or POINT_RC[p, 1] == POINT_RC[q, 1]


def test_point_numbering_matches_openspiel(pyspiel):
    """OpenSpiel draws point i at a text position; ours sits at the same row and column."""
    os_game = pyspiel.load_game("nine_mens_morris")
    cols = [0, 2, 4, 7, 10, 12, 14]  # OpenSpiel's text columns of files a..g
    for p in range(24):
        st = os_game.new_initial_state()
        st.apply_action(p)
        rows = str(st).split("\n")[:13]
        (r, c), = [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "W"]
        assert (r // 2, cols.index(c)) == tuple(POINT_RC[p]), POINT_NAMES[p]


# ---- scripted games -----------------------------------------------------------------------
def _check(game, s, expect, where):
    legal = game.legal_actions(s)
    checks = {
        "to_move": lambda: game.current_player(s),
        "removal_due": lambda: game.removal_due(s),
        "turns": lambda: game.turns(s),
        "in_hand": lambda: game.men_in_hand(s),
        "outcome": lambda: game.outcome(s).name,
        "x": lambda: points(s[0]),
        "o": lambda: points(s[1]),
        "legal": lambda: names(game, legal),
        "legal_count": lambda: len(legal),
    }
    for key, want in expect.items():
        if key in checks:
            got = checks[key]()
            want = set(want) if key == "legal" else want
            assert got == want, f"{where}: {key} is {got!r}, expected {want!r}"
    for m in expect.get("legal_has", ()):
        assert m in names(game, legal), f"{where}: {m} should be legal"
    for m in expect.get("legal_lacks", ()):
        assert m not in names(game, legal), f"{where}: {m} should not be legal"
    for m in expect.get("illegal", ()):
        with pytest.raises(IllegalActionError):
            game.apply(s, game.string_to_action(m, s))


def _play_case(case):
    game = NineMensMorris(**case["variant"])
    s = game.position(**case["start"]) if case.get("start") else game.initial_state()
    actions = []
    for i, (move, expect) in enumerate(case["script"]):
        if move is not None:
            a = game.string_to_action(move, s)
            s = game.apply(s, a)
            actions.append(a)
        _check(game, s, expect, f"after move {i + 1} ({move})")
    return game, actions


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_scripted_game(case):
    _play_case(case)


@pytest.mark.parametrize("case", [c for c in CASES if c.get("openspiel")],
                         ids=[c["name"] for c in CASES if c.get("openspiel")])
def test_scripted_game_replays_in_openspiel(case, pyspiel):
    game, actions = _play_case(case)
    st = pyspiel.load_game("nine_mens_morris").new_initial_state()
    s = game.initial_state()
    for a in actions:
        st.apply_action(a)
        s = game.apply(s, a)
        assert list(game.legal_actions(s)) == list(st.legal_actions())
        assert game.is_terminal(s) == st.is_terminal()
        assert list(game.returns(s)) == list(st.returns())


# ---- perft and the OpenSpiel cross-check ----------------------------------------------------
def test_perft_from_the_start():
    game = NineMensMorris()
    s = game.initial_state()
    assert [perft(game, s, d) for d in (1, 2, 3, 4)] == [24, 552, 12_144, 255_024]


def test_cross_check_with_openspiel(pyspiel):
    """Identical legal actions, player, terminal status and returns at every step of 200 games."""
    game = NineMensMorris()
    os_game = pyspiel.load_game("nine_mens_morris")
    assert (os_game.num_distinct_actions(), os_game.max_game_length()) == (game.num_actions, game.max_game_length)

    def same_name_and_turns(s, st):
        if st.is_terminal():
            turn = int(re.search(r"Turn number: (\d+)", str(st)).group(1))
            assert game.turns(s) == turn
            return
        first = int(game.legal_actions(s)[0])
        shown = st.action_to_string(first).split()[-1]
        assert shown in (str(first), str((first - 24) % 24))

    report = compare_with_openspiel(game, os_game, 200, 2024, same_name_and_turns)
    assert set(report.outcomes) == {Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW}


# ---- random playouts --------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_random_playout_invariants(variant):
    """The full checks of tests/playouts.py on 60 games per variant (360 in all; 1,000 more
    games through the kernels below)."""
    game = NineMensMorris(**variant)
    lengths = check_random_playouts(game, games=60, seed=7)
    assert max(lengths) <= game.max_game_length


def test_one_thousand_random_games_end_by_the_cap():
    """1,000 games over the variants through the kernels: every game ends, within the cap."""
    rng = np.random.default_rng(11)
    for i in range(1000):
        game = NineMensMorris(**VARIANTS[i % len(VARIANTS)])
        k, p = game.kernels, game.params
        out = np.empty(game.max_moves, np.int64)
        s = game.initial_state()
        plies = 0
        while k.status(p, s) == 0:
            n = k.legal(p, s, out)
            assert n > 0
            child = np.empty_like(s)
            k.apply(p, s, out[rng.integers(n)], child)
            s = child
            plies += 1
        assert plies <= game.max_game_length and s[S_TURNS] <= game.variant["max_turns"]
        assert k.legal(p, s, out) == 0
        r = game.returns(s)
        assert r[0] + r[1] == 0


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_checked_apply_accepts_exactly_the_legal_actions(variant):
    """apply's one-call legality test agrees with legal_actions, and the stored number of
    legal actions with the list, at every position of 12 random games: on every action (and
    four out of range) in the first game, on the legal actions and 30 others drawn at
    random in the rest (a refused action builds an error message listing the legal ones:
    ~60 us: 600 of them a position, over 40 games, made this test take minutes)."""
    game = NineMensMorris(**variant)
    k, p = game.kernels, game.params
    out = np.empty(game.max_moves, np.int64)
    rng = np.random.default_rng(5)
    everything = np.arange(-2, game.num_actions + 2)
    for i in range(12):
        s = game.initial_state()
        while True:
            legal = game.legal_actions(s)
            assert list(legal) == list(out[:k.legal(p, s, out)])
            assert s[S_COUNT] == len(legal)
            accepted = []
            tried = everything if i == 0 else np.union1d(legal, rng.choice(everything, 30, replace=False))
            for a in (int(x) for x in tried):
                try:
                    child = game.apply(s, a)
                except (IllegalActionError, GameOverError):
                    continue
                expected = np.empty_like(s)
                k.apply(p, s, a, expected)
                assert np.array_equal(child, expected)
                accepted.append(a)
            assert accepted == list(legal)
            if game.is_terminal(s):
                break
            s = game.apply_unchecked(s, legal[rng.integers(len(legal))])


# ---- state, key, observation ------------------------------------------------------------------
def test_key_equal_for_transpositions_and_distinct_otherwise():
    game = NineMensMorris(no_return=True)
    a = game.initial_state()
    for m in ["a7", "b6", "d7", "d6"]:
        a = game.apply(a, game.string_to_action(m))
    b = game.initial_state()
    for m in ["d7", "d6", "a7", "b6"]:
        b = game.apply(b, game.string_to_action(m))
    assert np.array_equal(a, b) and game.state_key(a) == game.state_key(b)
    base = game.position(x=["a7", "d7", "b4", "c4"], o=["g1", "d1", "f2", "c3"], in_hand=(2, 2), turns=30,
                         no_return={0: ("a4", "a7")})
    keys = {game.state_key(base)}
    for i, delta in [(2, 1), (3, 1), (4, -1), (5, -1), (6, 1), (7, -1), (8, 1), (9, 3), (10, 4)]:
        s = base.copy()
        s[i] += delta
        keys.add(game.state_key(s))
    assert len(keys) == 10


def test_observation_planes():
    game = NineMensMorris(no_return=True, max_turns=98)
    s = game.position(x=["a7", "d7", "b4"], o=["g1", "d1", "f2", "c3"], to_move=1, in_hand=(0, 2),
                      removal_due=True, turns=49, no_return={0: ("a4", "a7")})
    assert game.observation_shape == (7, 7, NUM_PLANES)
    o1, o0 = game.observation(s, 1), game.observation(s, 0)
    assert o1.dtype == np.int8 and set(np.unique(o1)) <= {0, 1}
    assert np.array_equal(o1[..., 0], o0[..., 1]) and np.array_equal(o1[..., 1], o0[..., 0])
    assert o0[0, 0, 0] == 1 and o0[0, 3, 0] == 1 and o0[3, 1, 0] == 1 and o0[..., 0].sum() == 3
    assert o1[6, 6, 0] == 1 and o1[..., 0].sum() == 4
    assert o1[..., 2].all() and not o0[..., 2].any()           # observer to move
    assert o0[..., 3].all() and o1[..., 3].all()               # a removal is due
    assert o0[..., 6].all() and not o0[..., 4].any()           # player 0 flies (3 men, none in hand)
    assert o1[..., 4].all() and o0[..., 7].all()               # player 1 places
    assert o1[..., 10].sum() == 2 and o1.reshape(49, -1)[:2, 10].all() and o1[..., 11].sum() == 0
    assert o0[..., 11].sum() == 2
    assert o0[..., 12].sum() == 24                             # 49 * 49 // 98
    assert o0[3, 0, 13] == 1 and o0[0, 0, 14] == 1 and o0[..., 13:15].sum() == 2
    assert o1[3, 0, 15] == 1 and o1[0, 0, 16] == 1 and o1[..., 13:15].sum() == 0


def test_position_errors():
    game = NineMensMorris()
    with pytest.raises(PositionError, match="unknown point"):
        game.position(x=["h9"])
    with pytest.raises(PositionError, match="twice"):
        game.position(x=["a7"], o=["a7"])
    with pytest.raises(PositionError, match="more than 9"):
        game.position(x=["a7"], in_hand=(9, 0))


# ---- names, render, errors, variants --------------------------------------------------------
def test_action_names_round_trip():
    game = NineMensMorris()
    for a in range(game.num_actions):
        assert game.string_to_action(game.action_to_string(a)) == a
        assert game.string_to_action(str(a)) == a
    assert game.action_to_string(0) == "a7" and game.action_to_string(23) == "g1"
    assert game.action_to_string(24 + 0 * 24 + 1) == "a7-d7"
    assert game.string_to_action("A7 - D7") == game.string_to_action("a7d7") == 25
    s = game.position(x=["a7", "d7", "g7"], o=["b4", "c4", "f2"], to_move=0, removal_due=True)
    assert game.action_to_string(10, s) == "x b4" and game.string_to_action("x b4", s) == 10
    for bad in ["h1", "a8", "a7-", "x", "600", "move"]:
        with pytest.raises(IllegalActionError, match="a7-d7"):
            game.string_to_action(bad)
    with pytest.raises(IllegalActionError, match="no removal is due"):
        game.string_to_action("x b4", game.initial_state())


def test_render_shows_board_and_counters():
    game = NineMensMorris()
    s = game.apply(game.initial_state(), game.string_to_action("d7"))
    text = game.render(s)
    assert text.splitlines()[0] == "7  .-----X-----."
    assert "a b c d e f g" in text and "to move: O (player 1), placing" in text
    assert "in hand: X 8, O 9; turn 1 of 200" in text


def test_illegal_actions_and_game_over():
    game = NineMensMorris()
    s = game.initial_state()
    with pytest.raises(IllegalActionError, match="not legal"):
        game.apply(s, 24 + 1)                       # a move in the placing phase
    s = game.apply(s, 0)
    with pytest.raises(IllegalActionError):
        game.apply(s, 0)                            # an occupied point
    with pytest.raises(IllegalActionError, match="out of range"):
        game.apply(s, 600)
    moving = game.position(x=["a7", "d7", "b4", "c4"], o=["g1", "d1", "f2", "c3"])
    with pytest.raises(IllegalActionError):
        game.apply(moving, game.string_to_action("a7-g4"))  # not adjacent, not flying
    with pytest.raises(IllegalActionError):
        game.apply(moving, game.string_to_action("g1-g4"))  # the opponent's man
    over = NineMensMorris(max_turns=1).apply(game.initial_state(), 0)
    with pytest.raises(GameOverError):
        NineMensMorris(max_turns=1).apply(over, 1)


@pytest.mark.parametrize("bad", [{"protect_mills": 1}, {"flying": "yes"}, {"no_return": None},
                                 {"max_turns": 0}, {"max_turns": 2.5}, {"max_turns": True},
                                 {"max_turns": 100_001}, {"mills": True}])
def test_variants_are_validated(bad):
    with pytest.raises(VariantError):
        make_game("nine_mens_morris", **bad)


def test_variant_recorded():
    game = make_game("nine_mens_morris", no_return=True, max_turns=50)
    assert dict(game.variant) == {"protect_mills": True, "flying": True, "no_return": True, "max_turns": 50}
    assert game.max_game_length == 64 and game.num_actions == 600


# ---- heuristics and ordering --------------------------------------------------------------------
def test_heuristics():
    game = NineMensMorris()
    assert set(game.heuristics) == {"men", "men_mills", "men_mobility", "threats", "petcu"}
    assert game.default_heuristic == "men_mobility"  # the strongest against 0.1.0 at equal time (see the class)
    s = game.position(x=["a7", "d7", "g7", "b4", "c4"], o=["g1", "d1", "f2", "c3"], to_move=1)
    h = {name: game.heuristic(name).fn for name in game.heuristics}
    assert h["men"](game.params, s, 0) == 1.0
    assert h["men_mills"](game.params, s, 0) == 10.0 + 1.0
    # X: a4-b4-c4 needs a4 (open two); O: a1-d1-g1 needs a1 (open two); O f2..: none else
    assert h["threats"](game.params, s, 0) == 10.0 + 3.0 * (1 - 1)
    # X moves: a7-a4, g7-g4, d7-d6, b4-a4, b4-b6, b4-b2, c4-c5 = 7; O: g1-g4, d1-a1, d1-d2, f2-d2, f2-f4, c3-d3 = 6
    assert h["men_mobility"](game.params, s, 0) == 10.0 + 1.0
    for fn in h.values():
        assert fn(game.params, s, 1) == -fn(game.params, s, 0)
    pending = game.position(x=["a7", "d7", "g7"], o=["g1", "d1", "f2"], to_move=0, removal_due=True)
    assert h["men"](game.params, pending, 0) == 1.0  # the removal due counts as done


def test_ordering_hint_puts_mill_closing_then_blocking_first():
    game = NineMensMorris()
    s = game.position(x=["a7", "d7", "b4"], o=["a1", "d1", "c3"], to_move=0, in_hand=(6, 6))
    legal = game.legal_actions(s)
    scores = np.zeros(len(legal))
    game.kernels.order(game.params, s, legal, len(legal), scores)
    by = {game.action_to_string(int(a)): sc for a, sc in zip(legal, scores)}
    assert by["g7"] == 2.0 and by["g1"] == 1.0 and by["e5"] == 0.0
    assert max(by, key=by.get) == "g7"
    r = game.position(x=["a7", "d7", "g7"], o=["a1", "d1", "c3"], to_move=0, removal_due=True)
    legal = game.legal_actions(r)
    scores = np.zeros(len(legal))
    game.kernels.order(game.params, r, legal, len(legal), scores)
    by = {game.action_to_string(int(a)): sc for a, sc in zip(legal, scores)}
    assert by == {"a1": 1.0, "d1": 1.0, "c3": 0.0}


# ---- search ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", [{}, {"protect_mills": False, "flying": False, "no_return": True}],
                         ids=["default", "study-rules"])
def test_alphabeta_equals_minimax(variant):
    game = NineMensMorris(**variant)
    heuristics = list(game.heuristics)
    for i, s in enumerate(random_positions(game, 40, seed=5, max_plies=119)):
        h = heuristics[i % len(heuristics)]
        for depth in (1, 2, 3):
            ref = search.minimax(game, s, depth, heuristic=h).value
            for opts in ({}, {"tt": False, "ordering": False}, {"history": True}, {"pvs": False, "aspiration": False}):
                got = search.alphabeta(game, s, depth, heuristic=h, quiescence=False, **opts).value
                assert got == pytest.approx(ref, abs=1e-9), (i, depth, h, opts)


def _threat_position(game):
    # X closes b6-d6-f6 with d5-d6. O threatens two mills with one man: g4-g1 (a1-d1-g1)
    # and g4-g7 (a7-d7-g7). Only removing the man on g4 stops both.
    return game.position(x=["b6", "f6", "d5", "e3", "c3"], o=["a1", "d1", "a7", "d7", "g4"], to_move=0)


def test_engine_removes_the_man_that_stops_both_threats():
    game = NineMensMorris()
    s = _threat_position(game)
    r = search.alphabeta(game, s, 3, heuristic="men")
    assert [game.action_to_string(a, st) for a, st in zip(r.pv[:2], [s, game.apply(s, r.pv[0])])] == ["d5-d6", "x g4"]
    after = game.apply(s, game.string_to_action("d5-d6"))
    assert game.removal_due(after) and game.current_player(after) == 0
    for depth in (2, 3, 4):
        r = search.alphabeta(game, after, depth, heuristic="men")
        assert game.action_to_string(r.action) == "g4", depth


def test_engine_takes_a_winning_removal():
    """X to remove with O on 3 men: any removal wins at once; the engine sees a win in 1."""
    game = NineMensMorris()
    s = game.position(x=["a7", "d7", "g7", "b4"], o=["g1", "d1", "f2"], to_move=0, removal_due=True)
    r = search.alphabeta(game, s, 2, heuristic="men")
    assert r.is_proven and r.value > 0 and r.plies_to_end == 1


# ---- environment ----------------------------------------------------------------------------------
def test_env_docstring_matches_spaces_and_a_mill_keeps_the_turn():
    from zerosum.envs import nine_mens_morris_v0

    env = nine_mens_morris_v0.env(render_mode="rgb_array", no_return=True)
    env.reset(seed=1)
    doc = nine_mens_morris_v0.__doc__
    assert f"Discrete({env.action_space('player_0').n})" in doc
    assert str(env.observation_space("player_0")["observation"].shape) in doc
    assert f"| {NUM_PLANES - 2}-{NUM_PLANES - 1} |" in doc  # the plane table ends at the last plane
    game = env.unwrapped.game
    for m in ["a7", "b6", "d7", "b4", "g7"]:
        env.step(game.string_to_action(m))
    assert env.agent_selection == "player_0"             # the mill gives player_0 a removal turn
    obs = env.observe("player_0")
    assert obs["observation"][..., 3].all()
    assert np.flatnonzero(obs["action_mask"]).tolist() == [3, 10]
    assert np.array_equal(obs["observation"], game.observation(env.unwrapped.state, 0))
    env.step(3)
    assert env.agent_selection == "player_1"
    img = env.render()
    assert img.shape == (440, 440, 3) and img.dtype == np.uint8
