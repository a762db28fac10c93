"""Go: OpenSpiel's ``go`` at every step of random games (9x9, 13x13, 19x19, handicaps and
komi), a scripted game (a capture, a ko, a suicide, the score), perft against OpenSpiel,
errors, variants, positions and the conformance kit."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel, openspiel_perft, perft

G = make_game("go")


def openspiel_steps(variant: dict, games: int, seed: int) -> tuple[int, int]:
    """Random games played on OpenSpiel's ``go`` and on ours side by side, compared at every
    step (legal actions, player to move, terminal flag, returns); (moves played, draws)."""
    pyspiel = pytest.importorskip("pyspiel")
    theirs = pyspiel.load_game("go", {"board_size": 9, **variant})
    report = compare_with_openspiel(make_game("go", **variant), theirs, games, random.Random(seed))
    return report.plies, sum(r[0] == 0 for r in report.returns)


@pytest.mark.parametrize(("variant", "games", "seed"), [
    ({"board_size": 9}, 40, 11),
    ({"board_size": 13}, 6, 12),
    ({"board_size": 19}, 2, 13),
    ({"board_size": 19, "handicap": 4}, 1, 14),
    ({"board_size": 17, "handicap": 9, "komi": 0.5}, 1, 15),
    ({"board_size": 7, "komi": 0.0}, 40, 16),   # an integer komi: drawn scores
    ({"board_size": 5, "komi": -3.5}, 200, 17),
])
def test_equal_to_openspiel_at_every_step(variant, games, seed):
    steps, _ = openspiel_steps(variant, games, seed)
    assert steps > games * variant["board_size"] ** 2 // 2


def test_superko_draws_equal_to_openspiel():
    """On 5x5 random games repeat a board now and then: OpenSpiel ends them as a draw."""
    _, draws = openspiel_steps({"board_size": 5}, 300, 4)
    assert draws >= 1


def test_scripted_game_capture_ko_suicide_score():
    g = make_game("go", board_size=5)
    s = g.initial_state()
    for m in ["b3", "c3", "c4", "d4", "c2", "d2", "a5", "e3", "d3"]:   # black d3 takes c3 in white's eye: a ko
        s = g.apply(s, g.string_to_action(m, s))
    assert g.cells(s) == ["X++++", "++XO+", "+X+XO", "++XO+", "+++++"]
    assert g.ko_point(s) == g.string_to_action("c3")
    with pytest.raises(IllegalActionError, match="c3 retakes the ko at once"):
        g.apply(s, g.string_to_action("c3"))
    for m in ["e2", "e5", "c3"]:                        # a threat, an answer, white retakes
        s = g.apply(s, g.string_to_action(m, s))
    assert g.ko_point(s) == g.string_to_action("d3") and g.stone(s, g.string_to_action("d3")) == -1
    for m in ["b1", "b4", "a2"]:
        s = g.apply(s, g.string_to_action(m, s))
    assert g.ko_point(s) is None
    with pytest.raises(IllegalActionError, match="a1 would have no liberty"):
        g.apply(s, g.string_to_action("a1"))
    s = g.apply(g.apply(s, g.pass_action), g.pass_action)
    assert g.cells(s) == ["X+++X", "+OXO+", "+XO+O", "X+XOO", "+X+++"]
    # black 7 stones + a1, b2; white 6 stones + d3; e4 and the rest touch both: 9 - 7 - 7.5
    assert g.score(s) == -5.5 and g.outcome(s) == Outcome.P1_WINS and g.returns(s) == (-1.0, 1.0)
    assert g.render(s).endswith("white wins by 5.5")


def test_two_passes_end_the_game_and_a_pass_clears_the_ko():
    s = G.apply(G.initial_state(), G.pass_action)
    assert not G.is_terminal(s) and G.observation(s, 1)[0, 0, 5] == 1
    s = G.apply(s, 40)
    assert G.observation(s, 0)[0, 0, 5] == 0
    s = G.apply(G.apply(s, G.pass_action), G.pass_action)
    assert G.is_terminal(s) and G.outcome(s) == Outcome.P1_WINS   # white's e5 takes all 81 points
    assert G.score(s) == -88.5


@pytest.mark.parametrize(("size", "depth", "count"),
                         [(5, 1, 26), (5, 2, 651), (5, 3, 15_650), (9, 2, 6_643), (13, 2, 28_731)])
def test_perft_equal_to_openspiel(size, depth, count):
    pyspiel = pytest.importorskip("pyspiel")
    g = make_game("go", board_size=size)
    assert perft(g, g.initial_state(), depth) == count
    assert openspiel_perft(pyspiel.load_game("go", {"board_size": size}).new_initial_state(), depth) == count


def test_text_and_errors():
    assert [G.action_to_string(a) for a in (0, 8, 40, 80, 81)] == ["a1", "j1", "e5", "j9", "pass"]
    assert G.string_to_action("D4") == 30 and G.string_to_action("PASS") == 81 and G.string_to_action("81") == 81
    for bad in ("i4", "a10", "z1", "", "k1"):
        with pytest.raises(IllegalActionError, match="write a point such as 'd4'"):
            G.string_to_action(bad)
    s = G.apply(G.initial_state(), 40)
    with pytest.raises(IllegalActionError, match="e5 is occupied"):
        G.apply(s, 40)
    for bad in ({"board_size": 4}, {"board_size": 20}, {"komi": 7.3}, {"komi": 900.0}, {"handicap": 2},
                {"handicap": 10}):
        with pytest.raises(VariantError, match=next(iter(bad))):
            make_game("go", **bad)


def test_handicap_puts_black_stones_and_white_moves_first():
    g = make_game("go", board_size=19, handicap=5)
    s = g.initial_state()
    assert g.current_player(s) == 1
    assert sorted(g.action_to_string(a) for a in range(361) if g.stone(s, a) == 0) == \
        ["d16", "d4", "k10", "q16", "q4"]


def test_positions():
    g = make_game("go", board_size=5)
    s = g.position(["+X+++", "XO+++", "+X+++", "+++++", "+++++"], to_move="black")
    assert g.cells(s)[1] == "XO+++" and g.current_player(s) == 0
    s = g.apply(s, g.string_to_action("c4"))          # the last liberty of white's b4
    assert g.stone(s, g.string_to_action("b4")) == -1 and g.cells(s)[1] == "X+X++"
    with pytest.raises(PositionError, match="no liberty"):
        g.position(["XO+++", "O++++", "+++++", "+++++", "+++++"])
    with pytest.raises(PositionError, match="5x5"):
        g.position(["+++"])


def test_states_are_canonical_and_keys_cover_the_history():
    """The same board by two move orders: equal states only when the boards seen are equal."""
    a = G.initial_state()
    for m in (10, 20, 30, 40):
        a = G.apply(a, m)
    b = G.initial_state()
    for m in (30, 40, 10, 20):
        b = G.apply(b, m)
    assert G.cells(a) == G.cells(b) and not np.array_equal(a, b) and G.state_key(a) != G.state_key(b)


@pytest.mark.parametrize("variant", [{}, {"board_size": 5}, {"board_size": 13, "komi": 0.0}])
def test_conformance(variant):
    g = make_game("go", **variant)
    check_game(g, games=6 if variant.get("board_size", 9) <= 9 else 2, seed=3, search_positions=3, env=False)


def test_heuristic():
    for g in (G, make_game("go", board_size=13, komi=6.5)):
        report = check_heuristic(g, "area", positions=20)
        assert report.low < 0 < report.high
    s = G.position(["+++++++++"] * 4 + ["++++X++++"] + ["+++++++++"] * 4, to_move="white")
    assert G.heuristic("area").fn(G.params, s, 0) > 0      # one stone in the middle: all 81 points black's


def test_the_env_docstring_table_matches_the_spaces_and_it_draws_stones():
    from zerosum.envs import go_v0

    env = go_v0.env(render_mode="rgb_array")
    assert re.search(rf"\| Action values\s+\| Discrete\({env.action_space('player_0').n}\)", go_v0.__doc__)
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", go_v0.__doc__)
    env.reset(seed=0)
    empty = env.render()
    env.step(40)
    board = env.render()
    assert board.shape == empty.shape and board.shape[2] == 3
    centre = board[board.shape[0] // 2, board.shape[1] // 2]
    assert centre.tolist() == [20, 20, 20]                  # black's stone on e5, the centre
    assert go_v0.star_points(19) and len(go_v0.star_points(9)) == 5


def test_terminal_play_reads_coordinates_help_and_hint():
    from zerosum.agents import make_agent
    from zerosum.cli.play import PlaySession

    typed = iter(["help d", "i4", "d4", "hint", "pass", "quit"])
    out: list[str] = []
    session = PlaySession(G, make_agent("random", rng=0), {0}, "mcts(sims=50)",
                          input_fn=lambda prompt: (out.append(prompt), next(typed))[1], output_fn=out.append)
    assert session.run() == 0
    text = "\n".join(out)
    assert "d1, d2, d3, d4, d5, d6, d7, d8, d9" in text       # help d: the legal moves starting with d
    assert "cannot read move 'i4'" in text                    # no column i
    assert session.actions[0] == G.string_to_action("d4") and session.actions[2] == G.pass_action
    assert G.render(G.initial_state()) in out
