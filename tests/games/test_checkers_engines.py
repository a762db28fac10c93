"""Checkers with the kit's engines: alpha-beta against minimax (multi-jumps keep the mover,
which neither search may assume away), MCTS, the vector env with an alpha-beta opponent,
and the engine finding a multi-jump."""

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.search import alphabeta, mcts, minimax

G = make_game("checkers")
EMPTY = "........"


def positions(count, seed, plies=(0, 60)):
    """Seeded unfinished positions from random games, mid-jump ones included."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = G.initial_state()
        for _ in range(int(rng.integers(*plies))):
            if G.is_terminal(s):
                break
            s = G.apply(s, int(rng.choice(G.legal_actions(s))))
        if not G.is_terminal(s):
            out.append(s)
    return out


def test_alphabeta_equals_minimax():
    states = positions(12, seed=5)
    s = G.position([EMPTY, "....+.+.", EMPTY, "..+.....", ".o......", EMPTY, ".....+..", "o......."])
    states.append(G.apply(s, G.string_to_action("b4d6")))  # white must jump on: white moves twice in a row
    for s in states:
        for depth in (1, 3):
            want = minimax(G, s, depth, heuristic="mobility").value
            got = alphabeta(G, s, depth, heuristic="mobility", quiescence=False)
            assert got.value == pytest.approx(want), G.render(s)
            assert got.action in set(G.legal_actions(s).tolist())


def test_alphabeta_takes_the_double_jump_and_mcts_plays_legal_moves():
    # white's b4 can take c5 and e7 in one move (two actions) and crown on f8
    s = G.position([EMPTY, "....+.+.", EMPTY, "..+.....", ".o......", EMPTY, ".....+..", "o......."])
    result = alphabeta(G, s, depth=4)
    assert G.action_to_string(result.action, s) == "b4d6" and result.value > 0
    for s in positions(4, seed=9):
        r = mcts(G, s, sims=200, seed=1)
        assert r.action in set(G.legal_actions(s).tolist()) and -1 <= r.value <= 1


def test_the_vector_env_plays_against_alphabeta():
    from zerosum.envs import make_vec

    env = make_vec("checkers_v0", 4, opponent="alphabeta(depth=2)", seed=0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        masks = env.action_masks()
        assert masks.shape == (4, G.num_actions)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])  # 0: a lane resetting
        _, rewards, terminated, truncated, _ = env.step(actions)
        assert np.all(np.abs(rewards) <= 1) and not truncated.any()
        ended += int(terminated.sum())
    assert ended > 0  # random play loses to alpha-beta in 200 steps, lanes reset themselves
    env.close()


def test_play_reads_standard_numbers_and_coordinates_with_help_and_hint():
    from tests.cli.test_play import Scripted
    from zerosum.cli.play import PlaySession

    typed = iter(["help", "11-15", "help", "hint", "d4xb6", "quit"])
    out: list[str] = []
    session = PlaySession(G, Scripted(["b6c5"]), {0}, "alphabeta(depth=2)",
                          input_fn=lambda prompt: (out.append(prompt), next(typed))[1], output_fn=out.append)
    assert session.run() == 0
    text = "\n".join(out)
    assert "legal moves (7 of 7):" in text and "legal moves (1 of 1):\n  d4b6" in text  # the capture is forced
    assert "hint: d4b6" in text
    assert session.actions[:3] == [338, G.string_to_action("b6c5"), G.string_to_action("d4b6")]
    assert len(session.actions) == 4  # black's forced recapture, then quit
