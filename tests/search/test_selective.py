"""The enhancements beyond the source studies (issue 19).

Exact ones (principal variation search, aspiration windows) keep minimax's value; the
selective ones (late-move reductions, quiescence) change values by design, so they are
held to legal moves, forced wins found and bounded node counts. Bad options are errors
that name what is allowed. Depths and position counts stay small: speed is for bench/.
"""

import itertools

import pytest

from tests.games import test_connect_four as c4
from tests.games import test_pentago as pt
from zerosum.agents.spec import AgentSpecError, make_agent
from zerosum.games import make_game
from zerosum.search import WIN, AlphaBeta, SearchOptionError, alphabeta, minimax
from zerosum.testing import random_positions

SELECTIVE = {"lmr": True, "quiescence": True}


@pytest.mark.parametrize("iterative", [False, True])
def test_pvs_and_aspiration_keep_minimax_values(iterative):
    game = make_game("tictactoe")
    for s in random_positions(game, 40, seed=11, max_plies=5):
        depth = 9 - int(bin(s[0] | s[1]).count("1"))
        for d in (2, 4, depth):
            expected = minimax(game, s, d).value
            for pvs, asp in itertools.product([False, True], repeat=2):
                r = alphabeta(game, s, d, iterative=iterative, pvs=pvs, aspiration=asp, tt_size=1 << 10)
                assert r.value == expected, (s, d, pvs, asp)


def test_shallow_searches_spend_nothing_on_windows_that_cannot_pay():
    """Where a child's own moves are leaves, PVS gives it the full window (its cut is the
    same and no re-search follows), and iterations before ASPIRATION_DEPTH take no
    aspiration window: such searches cost exactly what they cost with both switched off."""
    from zerosum.search.alphabeta import ASPIRATION_DEPTH

    game = make_game("pentago")
    for s in random_positions(game, 6, seed=5, max_plies=10):
        for d in range(1, ASPIRATION_DEPTH):
            nodes = {(pvs, asp): AlphaBeta(game, pvs=pvs, aspiration=asp, quiescence=False).search(s, d, seed=1).stats
                     for pvs, asp in ((True, True), (True, False), (False, False))}
            assert nodes[True, True].nodes == nodes[True, False].nodes, (s, d)  # no window before ASPIRATION_DEPTH
            if d <= 2:  # every child's moves are leaves
                assert (nodes[True, False].nodes, nodes[True, False].researched) == (nodes[False, False].nodes, 0)


def test_exact_defaults_keep_minimax_values_with_a_forcing_kernel():
    game = make_game("connect_four")
    for s in random_positions(game, 8, seed=4, max_plies=12):
        for d in (1, 3):
            assert alphabeta(game, s, d, quiescence=False).value == minimax(game, s, d).value


@pytest.mark.parametrize("name", ["pentago", "nine_mens_morris", "connect_four"])
def test_selective_search_plays_legal_moves_with_bounded_nodes(name):
    game = make_game(name)
    for s in random_positions(game, 6, seed=8, max_plies=40):
        exact = AlphaBeta(game, quiescence=False).search(s, 3)
        for opts in (SELECTIVE, {"lmr": True, "quiescence": False}, {"lmr": False, "quiescence": True}):
            r = AlphaBeta(game, **opts).search(s, 3)
            assert r.action in game.legal_actions(s), (name, opts)
            assert r.stats.nodes <= 40 * exact.stats.nodes + 10_000, (name, opts, r.stats, exact.stats)
            if opts["quiescence"]:
                assert r.stats.qnodes <= r.stats.nodes
        timed = AlphaBeta(game).search(s, time=0.02, seed=3)
        assert timed.action in game.legal_actions(s)


@pytest.mark.parametrize(("board", "wins"), c4.WIN_IN_3)
def test_selective_search_finds_connect_four_wins(board, wins):
    s = c4.G.position(board)
    for depth in (3, 5):
        r = AlphaBeta(c4.G, "threats", **SELECTIVE).search(s, depth, seed=1)
        assert c4.G.action_to_string(r.action) in wins and r.value == WIN - 3


@pytest.mark.parametrize(("board", "block"), c4.BLOCKS)
def test_selective_search_blocks_in_connect_four(board, block):
    r = AlphaBeta(c4.G, "threats", **SELECTIVE).search(c4.G.position(board), 4, seed=2)
    assert c4.G.action_to_string(r.action) == block


def test_selective_search_finds_every_pentago_win_in_two():
    g = make_game("pentago")
    found = 0
    for s in pt.random_positions(60, seed=31 + True, wbr=True, min_moves=14, max_moves=26):
        if pt.wins_now(g, s) or not pt._forced_win_in_two(g.params, s):
            continue
        found += 1
        r = alphabeta(g, s, 3, **SELECTIVE)
        assert r.value >= WIN - 3, pt.rows_of(s)
    assert found >= 2


def test_options_that_cannot_act_are_errors_naming_what_is_allowed():
    ttt = make_game("tictactoe")
    with pytest.raises(SearchOptionError, match="quiescence=off or unset"):
        AlphaBeta(ttt, quiescence=True)
    assert AlphaBeta(ttt, quiescence=False).search(ttt.initial_state(), 2).action in range(9)
    with pytest.raises(SearchOptionError, match="depth >= 3"):
        AlphaBeta(ttt, lmr=True).search(ttt.initial_state(), 1)
    with pytest.raises(AgentSpecError, match="lmr=off or unset"):
        make_agent("alphabeta(depth=1, lmr=on)")
    with pytest.raises(AgentSpecError, match="pvs='maybe'"):
        make_agent("alphabeta(depth=2, pvs=maybe)")
    agent = make_agent("alphabeta(depth=2, quiescence=on)")
    with pytest.raises(SearchOptionError, match="tictactoe supplies no forcing moves"):
        agent.prepare(ttt)
    for spec in ("alphabeta(time=0.01, pvs=off, aspiration=off, lmr=off, quiescence=off)",
                 "alphabeta(depth=3, lmr=on, quiescence=on, quiescence_plies=2)"):
        agent = make_agent(spec)
        c4g = make_game("connect_four")
        assert agent.act(c4g, c4g.initial_state()) in c4g.legal_actions(c4g.initial_state())
