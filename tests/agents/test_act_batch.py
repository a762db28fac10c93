"""Agent.act_batch: the moves of many positions in one call (the vector env asks Python opponents
this way). A PPO policy and alphazero(sims=0) answer from one forward pass and choose exactly
what act() chooses row by row; any other agent plays act() row by row."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.agents.base import RandomAgent, sample_rows
from zerosum.games import make_game

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def positions(game, n, seed=0):
    """``n`` live positions from random play (int64, one a row)."""
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < n:
        s = game.initial_state()
        for _ in range(int(rng.integers(0, game.max_game_length))):
            if game.is_terminal(s):
                break
            rows.append(s.copy())
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
    return np.stack(rows[:n]).astype(np.int64)


def policy(game_name, obs_format="flat", algo="maskable_ppo", seed=0):
    """An untrained (randomly initialised) SB3 policy of the game: logits that differ per position."""
    from zerosum.agents.checkpoints import algo_class
    from zerosum.training.single_agent import SingleAgentEnv

    torch.set_num_threads(1)
    env = SingleAgentEnv(game_name, "random", obs_format=obs_format)
    kind = "MultiInputPolicy" if obs_format == "dict" else "MlpPolicy"
    kwargs = {"n_steps": 16, "batch_size": 16} if "ppo" in algo else {"learning_starts": 0, "buffer_size": 100}
    model = algo_class(algo)(kind, env, seed=seed, **kwargs)
    model.policy.set_training_mode(False)
    return model.policy


@pytest.mark.parametrize(("game_name", "obs_format", "algo"), [
    ("tictactoe", "flat", "maskable_ppo"), ("connect_four", "dict", "maskable_ppo"), ("pentago", "flat", "ppo"),
    ("tictactoe", "flat", "maskable_dqn")])
def test_policy_agent_batched_moves_equal_its_moves_one_by_one(game_name, obs_format, algo):
    from zerosum.agents.learned import PolicyAgent

    game = make_game(game_name)
    net = policy(game_name, obs_format, algo)
    states = positions(game, 40)
    greedy = PolicyAgent(net, algo=algo, obs_format=obs_format)
    batch = greedy.act_batch(game, states)
    assert batch.dtype == np.int64 and batch.shape == (40,)
    assert batch.tolist() == [greedy.act(game, s) for s in states]
    assert all(game.legal_mask(s)[a] for s, a in zip(states, batch, strict=True))
    logits, masks = greedy.scores_batch(game, states)
    for s, row, mask in zip(states, logits, masks, strict=True):
        one, one_mask = greedy.scores(game, s)
        assert np.array_equal(mask, one_mask) and np.allclose(row, one, atol=1e-5)
    if algo in ("maskable_ppo", "ppo"):  # sampling: one uniform number a row, in order
        a = PolicyAgent(net, algo=algo, obs_format=obs_format, deterministic=False, rng=7)
        b = PolicyAgent(net, algo=algo, obs_format=obs_format, deterministic=False, rng=7)
        sampled = a.act_batch(game, states)
        assert sampled.tolist() == [b.act(game, s) for s in states]
        assert len(set(sampled.tolist())) > 1


def test_a_policy_opponent_answers_the_vector_env_in_one_forward_pass():
    from zerosum.agents.base import Agent
    from zerosum.agents.learned import PolicyAgent
    from zerosum.envs.vector import make_vec

    net = policy("connect_four")
    calls = {"batch": 0}

    class Counted(PolicyAgent):
        def act_batch(self, game, states):  # type: ignore[no-untyped-def]
            calls["batch"] += 1
            return super().act_batch(game, states)

    class OneByOne(PolicyAgent):  # the per-lane fallback of the protocol
        def act_batch(self, game, states):  # type: ignore[no-untyped-def]
            return Agent.act_batch(self, game, states)

    runs = []
    for cls in (Counted, OneByOne):
        env = make_vec("connect_four_v0", 16, opponent=cls(net, algo="maskable_ppo"), seed=3, learner_seat=1)
        obs, _ = env.reset()
        out = [obs]
        for _ in range(10):
            obs, r, t, _, _ = env.step(env.action_masks().argmax(axis=1))
            out += [obs, r, t]
        runs.append(out)
    assert calls["batch"] == 11  # the reset (the policy opens every lane) and each step: one call each
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))


def test_alphazero_without_search_answers_a_batch_from_one_network_call():
    from zerosum.agents import make_agent

    game = make_game("tictactoe")
    states = positions(game, 30, seed=1)
    greedy = make_agent("alphazero(path=zoo:tictactoe, sims=0)")
    greedy.prepare(game)
    before = greedy.evaluator.calls
    batch = greedy.act_batch(game, states)
    assert greedy.evaluator.calls == before + 1
    assert batch.tolist() == [greedy.act(game, s) for s in states]
    a = make_agent("alphazero(path=zoo:tictactoe, sims=0, temperature=1.0)", rng=5)
    b = make_agent("alphazero(path=zoo:tictactoe, sims=0, temperature=1.0)", rng=5)
    assert a.act_batch(game, states).tolist() == [b.act(game, s) for s in states]
    from zerosum.games.kit import GameOverError

    s = game.initial_state()
    for m in (0, 3, 1, 4, 2):
        s = game.apply(s, m)
    with pytest.raises(GameOverError, match="finished game .row 1"):
        greedy.act_batch(game, np.stack([states[0], s]))


def test_the_default_plays_act_row_by_row_and_checks_its_input():
    game = make_game("connect_four")
    states = positions(game, 12)
    a, b = RandomAgent(rng=4), RandomAgent(rng=4)
    assert a.act_batch(game, states).tolist() == [b.act(game, s) for s in states]
    with pytest.raises(ValueError, match=r"act_batch takes an int array of shape \(n, \d+\).*got float64"):
        a.act_batch(game, states.astype(float))


def test_sample_rows_draws_as_choice_does_row_by_row():
    rng = np.random.default_rng(0)
    p = rng.random((50, 7))
    p /= p.sum(axis=1, keepdims=True)
    one, two = np.random.default_rng(9), np.random.default_rng(9)
    assert sample_rows(p, one).tolist() == [int(two.choice(7, p=row)) for row in p]
