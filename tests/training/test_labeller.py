"""The alpha-beta labeller: targets that agree with exact search, and the dataset file."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.search import WIN_BOUND, alphabeta, minimax
from zerosum.training.alphazero import DatasetError, Labeller, label_dataset, load_dataset, save_dataset
from zerosum.training.alphazero.labels import generate


def test_tictactoe_start_is_a_draw_and_the_policy_is_a_distribution_over_legal_moves():
    g = make_game("tictactoe")
    label = Labeller(g, depth=9).label(g.initial_state())
    assert label.value == 0.0
    assert label.policy.dtype == np.float32 and abs(float(label.policy.sum()) - 1) < 1e-6
    assert np.all(label.policy >= 0)


def test_a_winning_move_takes_the_policy_and_the_value_is_one():
    g = make_game("tictactoe")
    s = g.initial_state()
    for a in (0, 3, 1, 4):  # X on 0, 1; O on 3, 4: X to move wins at 2
        s = g.apply(s, a)
    label = Labeller(g, depth=4).label(s)
    assert label.value == 1.0
    assert int(np.argmax(label.policy)) == 2 and label.policy[2] > 0.5
    illegal = np.flatnonzero(g.legal_mask(s) == 0)
    assert np.all(label.policy[illegal] == 0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_values_are_minimax_values_at_the_same_depth(seed):
    """The best move value is the root's alpha-beta value; each exact move value is minimax's."""
    g = make_game("connect_four")
    rng = np.random.default_rng(seed)
    s = g.initial_state()
    for _ in range(6):
        s = g.apply(s, int(rng.choice(g.legal_actions(s))))
    lab = Labeller(g, depth=4)
    label = lab.label(s)
    ref = alphabeta(g, s, 4, quiescence=False)
    assert label.raw_value == pytest.approx(ref.value)
    best = float(np.nanmax(label.move_values))
    for a in g.legal_actions(s).tolist():
        child = g.apply(s, a)
        if g.is_terminal(child):
            continue
        exact = -minimax(g, child, 3).value
        v = float(label.move_values[a])
        if v >= best - lab.margin * lab.temperature:
            assert v == pytest.approx(exact)
        else:  # outside the window: an upper bound
            assert exact <= v + 1e-9


def test_squash_and_bad_arguments():
    g = make_game("connect_four")
    lab = Labeller(g, depth=2)
    assert -1 < lab.squash(10.0) < 1 and lab.squash(1e6 - 3) == 1.0 and lab.squash(-1e6 + 3) == -1.0
    with pytest.raises(ValueError, match="depth=1"):
        Labeller(g, depth=1)
    with pytest.raises(ValueError, match="temperature"):
        Labeller(g, depth=2, temperature=0.0)
    with pytest.raises(ValueError, match="finished"):
        t = make_game("tictactoe")
        s = t.initial_state()
        for a in (0, 3, 1, 4, 2):
            s = t.apply(s, a)
        Labeller(t, depth=2).label(s)


def test_generate_yields_positions_from_the_movers_side(tmp_path):
    g = make_game("connect_four")
    seen = list(generate(g, 30, depth=2, seed=3))
    assert len(seen) == 30
    for obs, mask, label in seen:
        assert obs.dtype == np.int8 and obs.shape == tuple(g.observation_shape)
        assert np.all(label.policy[mask == 0] == 0)
        assert -1.0 <= label.value <= 1.0


def test_dataset_round_trip_and_refusals(tmp_path):
    g = make_game("tictactoe")
    data = label_dataset(g, 25, depth=3, seed=1)
    assert len(data) == 25 and data.obs.dtype == np.int8 and data.mask.dtype == np.int8
    path = save_dataset(tmp_path / "labels.npz", data)
    back = load_dataset(path, g)
    for name in ("obs", "mask", "policy", "value"):
        assert np.array_equal(getattr(back, name), getattr(data, name))
    assert back.meta["depth"] == 3 and back.meta["game"] == "tictactoe"
    with pytest.raises(DatasetError, match="not tictactoe|connect_four"):
        load_dataset(path, make_game("connect_four"))
    with pytest.raises(DatasetError, match="no such"):
        load_dataset(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"junk")
    with pytest.raises(DatasetError, match="not a zerosum labels file"):
        load_dataset(tmp_path / "junk.npz")


def test_quiescence_labels_follow_forcing_moves_as_the_engine_does():
    """With quiescence the label's value is the engine's own fixed-depth quiescence search."""
    g = make_game("connect_four")
    rng = np.random.default_rng(5)
    s = g.initial_state()
    for _ in range(8):
        s = g.apply(s, int(rng.choice(g.legal_actions(s))))
    lab = Labeller(g, depth=4, quiescence=True)
    assert lab.quiescence and not Labeller(g, depth=4).quiescence
    label = lab.label(s)
    ref = alphabeta(g, s, 4, quiescence=True, iterative=False, eval_order=False)
    assert label.raw_value == pytest.approx(ref.value)
    data = label_dataset(g, 5, depth=2, seed=0, quiescence=True)
    assert data.meta["quiescence"] is True
    with pytest.raises(ValueError, match="forcing"):
        Labeller(make_game("tictactoe"), depth=2, quiescence=True)


def test_ladder_labels_every_position_of_games_against_the_opponents():
    """The learner plays its argmax; every position of both sides is labelled; W/D/L add up."""
    from zerosum.training.alphazero.labels import ladder

    g = make_game("tictactoe")
    lab = Labeller(g, depth=9)
    calls = []

    def first_legal(obs, mask):  # a learner that always takes its first legal move
        calls.append(mask.copy())
        return -np.arange(g.num_actions, dtype=np.float64)

    rows, wdl = ladder(g, first_legal, ["alphabeta(depth=9)"], 4, labeller=lab, seed=1, sample=0.0)
    assert sum(wdl) == 4 and wdl[0] == 0  # perfect play never loses to the learner
    assert 0 < len(calls) == sum(r.learner for r in rows) < len(rows)  # the opponent's positions are labelled too
    for r in rows:
        assert r.obs.shape == tuple(g.observation_shape) and np.all(r.label.policy[r.mask == 0] == 0)
        if r.learner:
            assert r.move == int(np.flatnonzero(r.mask)[0])  # the learner's own move: its first legal one
    assert [r.game for r in rows] == sorted(r.game for r in rows) and rows[-1].game == 3
    perfect, wdl = ladder(g, None, ["alphabeta(depth=9)"], 4, labeller=lab, opening_plies=(0, 0))  # the teacher
    assert wdl == (0, 4, 0) and all(r.move == int(np.argmax(r.label.policy)) for r in perfect if r.learner)
    rows, wdl = ladder(g, first_legal, ["alphabeta(depth=9)", "random"], 6, labeller=lab, seed=1, sample=0.0)
    assert sum(wdl) == 6
    again, wdl2 = ladder(g, first_legal, ["alphabeta(depth=9)", "random"], 6, labeller=lab, seed=1, sample=0.0)
    assert wdl2 == wdl and len(again) == len(rows)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(rows, again))
    with pytest.raises(ValueError, match="opponents"):
        ladder(g, first_legal, [], 1, labeller=lab)
    with pytest.raises(ValueError, match="sample"):
        ladder(g, first_legal, ["random"], 1, labeller=lab, sample=2.0)


def test_fast_wins_put_the_policy_on_the_nearest_win_where_plain_labels_share_it():
    """Connect Four positions (from random games) with one win in one and a farther proven win:
    plain labels share the mass among the winning moves, ``fast_wins`` labels give nearly all
    of it to the win in one; the value is a win either way."""
    g = make_game("connect_four")
    rng = np.random.default_rng(1)
    plain, fast = Labeller(g, 6, quiescence=True), Labeller(g, 6, quiescence=True, fast_wins=True)
    seen = 0
    for _ in range(50):
        s = g.initial_state()
        while not g.is_terminal(s) and seen < 3:
            me = g.current_player(s)
            now = [a for a in g.legal_actions(s).tolist()
                   if g.is_terminal(g.apply(s, a)) and g.returns(g.apply(s, a))[me] > 0]
            old = plain.label(s)
            later = [a for a in g.legal_actions(s).tolist()
                     if a not in now and old.move_values[a] >= WIN_BOUND]
            if len(now) == 1 and later:
                new = fast.label(s)
                assert old.value == new.value == 1.0
                assert old.policy[now[0]] == pytest.approx(old.policy[later[0]])  # shared
                assert new.policy[now[0]] > 0.98 and np.all(new.policy[later] < 0.02)
                seen += 1
            s = g.apply(s, int(rng.choice(g.legal_actions(s))))
    assert seen == 3
    assert fast.fast_wins and not plain.fast_wins
    data = label_dataset(g, 3, depth=2, seed=0, fast_wins=True)
    assert data.meta["fast_wins"] is True
