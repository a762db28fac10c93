"""Board symmetries: legal actions map to legal actions, and play under a symmetry reaches the mapped positions."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from zerosum.agents.base import RandomAgent
from zerosum.games import make_game
from zerosum.training.single_agent import SingleAgentEnv
from zerosum.training.symmetry import board_symmetries

GAMES = [("tictactoe", 8), ("pentago", 8), ("connect_four", 2)]


@pytest.mark.parametrize(("name", "count"), GAMES)
def test_tables_are_permutations_with_the_identity_first(name, count):
    g = make_game(name)
    sym = board_symmetries(g)
    assert len(sym) == count
    n_cells = g.observation_shape[0] * g.observation_shape[1]
    for k in range(count):
        assert sorted(sym.cells[k]) == list(range(n_cells))
        assert sorted(sym.actions[k]) == list(range(g.num_actions))
        assert (sym.actions[k][sym.inverse_actions[k]] == np.arange(g.num_actions)).all()
    assert (sym.actions[0] == np.arange(g.num_actions)).all()
    assert len({tuple(a) for a in sym.actions}) == count  # all different


@pytest.mark.parametrize(("name", "count"), GAMES)
def test_play_under_a_symmetry_reaches_the_mapped_positions(name, count):
    """Random games played as they are and, move by move, mapped by each symmetry: the legal
    actions map to the legal actions, and every position (both players' views) to the mapped one."""
    g = make_game(name)
    sym = board_symmetries(g)
    rng = np.random.default_rng(0)
    for k in range(count):
        for _ in range(4 if name == "pentago" else 10):
            s, t = g.initial_state(), g.initial_state()
            while not g.is_terminal(s):
                assert not g.is_terminal(t)
                legal = np.asarray(g.legal_actions(s))
                assert sorted(sym.actions[k][legal]) == sorted(g.legal_actions(t))
                assert (sym.mask(g.legal_mask(s), k) == g.legal_mask(t)).all()
                for p in (0, 1):
                    assert (sym.observation(g.observation(s, p), k) == g.observation(t, p)).all()
                a = int(rng.choice(legal))
                s, t = g.apply(s, a), g.apply(t, int(sym.actions[k, a]))
            assert g.is_terminal(t) and tuple(g.returns(s)) == tuple(g.returns(t))


def test_pentago_reflection_reverses_the_turn():
    g = make_game("pentago")
    sym = board_symmetries(g)
    a = g.string_to_action("a1 q0 cw")
    assert g.action_to_string(int(sym.actions[1, a])) == "f1 q1 cw"  # a quarter turn clockwise
    assert g.action_to_string(int(sym.actions[4, a])) == "f1 q1 ccw"  # the left-right mirror


class Seer(RandomAgent):
    """A random agent that keeps the last position it was asked to move in."""

    def act(self, game, state):
        self.seen = state.copy()
        return super().act(game, state)


def test_env_shows_the_mapped_board_and_plays_the_action_back():
    opponent = Seer(0)
    env = SingleAgentEnv("pentago", opponent, seat=0, symmetry=True)
    seen = set()
    for episode in range(40):
        obs, _ = env.reset(seed=episode)
        seen.add(env.symmetry)
        sym, k, g = env.symmetries, env.symmetry, env.game
        assert (env.action_masks() == sym.mask(g.legal_mask(env.state).astype(bool), k)).all()
        assert (obs[-288:] == env.action_masks()).all()
        assert (obs[:-288] == sym.observation(g.observation(env.state, 0), k).reshape(-1)).all()
        shown = int(np.flatnonzero(env.action_masks())[episode % 7])
        expected = g.apply(env.state, int(sym.inverse_actions[k, shown]))  # the action on the real board
        env.step(shown)
        assert (opponent.seen == expected).all()
    assert seen == set(range(8))


def test_env_with_symmetry_is_reproducible_and_passes_check_env():
    def run(seed):
        env = SingleAgentEnv("tictactoe", "alphabeta(depth=2)", symmetry=True)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = []
        for _ in range(60):
            obs, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append((obs.tobytes(), r))
            if done:
                env.reset()
        return out

    assert run(3) == run(3)
    check_env(SingleAgentEnv("tictactoe", "random", symmetry=True), skip_render_check=True)


def test_symmetry_for_a_game_without_known_ones_is_an_error():
    with pytest.raises(ValueError, match="no board symmetries are known for nim"):
        SingleAgentEnv("nim", "random", symmetry=True)


def test_a_game_declares_its_symmetries_and_its_value_scale_and_a_bad_declaration_is_refused(monkeypatch):
    from zerosum.games.connect_four import ConnectFour
    from zerosum.training.alphazero import Labeller

    for name in ("tictactoe", "connect_four", "pentago", "nim"):
        game = make_game(name)
        assert Labeller(game, 2).value_scale == game.value_scale
    assert make_game("nim").board_symmetries() is None and make_game("nim").value_scale == 10.0
    game = make_game("connect_four", rows=4, columns=5)
    cells, actions = game.board_symmetries()
    monkeypatch.setattr(ConnectFour, "board_symmetries", lambda self: (cells[::-1], actions[::-1]))
    with pytest.raises(ValueError, match="symmetry 0 must be the identity"):
        board_symmetries(game)
    monkeypatch.setattr(ConnectFour, "board_symmetries", lambda self: (cells, actions[:, :3]))
    with pytest.raises(ValueError, match="actions must be one permutation of range"):
        board_symmetries(game)
