"""The single-agent wrapper: the learner's side in both seats, masks, PettingZoo equivalence, check_env."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from zerosum.agents.base import Agent, RandomAgent
from zerosum.envs import AGENTS, make
from zerosum.games import make_game
from zerosum.training.opponents import (
    Curriculum, FixedOpponent, MixedOpponent, SelfPlayPool, as_source, split_specs,
)
from zerosum.training.single_agent import EpisodeOverError, SingleAgentEnv


class Scripted(Agent):
    """Plays the given actions in order."""

    name = "scripted"

    def __init__(self, actions):
        super().__init__(0)
        self.actions = list(actions)
        self.i = 0

    def reset(self):
        self.i = 0

    def act(self, game, state):
        a = self.actions[self.i]
        self.i += 1
        return a


class Recorder(Agent):
    """A random agent that appends its moves to a shared log."""

    name = "recorder"

    def __init__(self, log):
        super().__init__(0)
        self.log = log
        self.inner = RandomAgent(0)

    def act(self, game, state):
        self.inner.rng = self.rng
        a = self.inner.act(game, state)
        self.log.append(a)
        return a


# (learner seat, learner's moves, opponent's moves, rewards after each learner step)
SCRIPTS = [
    (0, [0, 1, 2], [3, 4], [0.0, 0.0, 1.0]),           # learner completes the top row
    (1, [3, 4], [0, 1, 2], [0.0, -1.0]),                # opponent completes the top row inside step()
    (1, [0, 1, 2], [3, 4, 8], [0.0, 0.0, 1.0]),         # the second player wins
    (0, [3, 4], [0, 1, 2], [0.0, 0.0]),                 # (cut short: the opponent wins below)
    (0, [0, 2, 3, 7, 8], [1, 4, 5, 6], [0.0, 0.0, 0.0, 0.0, 0.0]),  # a draw
]


@pytest.mark.parametrize(("seat", "mine", "theirs", "rewards"), [SCRIPTS[i] for i in (0, 1, 2, 4)])
def test_rewards_are_the_learners_in_both_seats(seat, mine, theirs, rewards):
    env = SingleAgentEnv("tictactoe", Scripted(theirs), seat=seat, obs_format="dict")
    obs, info = env.reset(seed=0)
    assert info["seat"] == seat
    got = []
    for a in mine:
        # every observation is from the learner's side, and the learner is to move
        assert env.game.current_player(env.state) == seat
        np.testing.assert_array_equal(obs["observation"], env.game.observation(env.state, seat))
        obs, reward, terminated, truncated, info = env.step(a)
        got.append(reward)
        assert not truncated
        if terminated:
            break
    assert got == rewards
    assert terminated
    expected = {1.0: "win", 0.0: "draw", -1.0: "loss"}[rewards[-1]]
    assert info["outcome"] == expected and info["seat"] == seat
    assert not env.action_masks().any() and not obs["action_mask"].any()
    with pytest.raises(EpisodeOverError):
        env.step(0)


def test_loss_inside_step_is_seen_by_the_learner_as_first_player():
    env = SingleAgentEnv("tictactoe", Scripted([0, 1, 2]), seat=1)
    env.reset(seed=0)
    env.step(3)
    _, reward, terminated, _, info = env.step(4)
    assert (reward, terminated, info["outcome"]) == (-1.0, True, "loss")


@pytest.mark.parametrize("game", ["tictactoe", "nim", "nine_mens_morris"])
@pytest.mark.parametrize("seat", [0, 1])
def test_observations_equal_the_pettingzoo_envs(game, seat):
    """Lockstep with the AEC env: the learner's obs dict is PettingZoo's for its agent."""
    log: list[int] = []
    env = SingleAgentEnv(game, Recorder(log), seat=seat, obs_format="dict")
    flat = SingleAgentEnv(game, Recorder([]), seat=seat, obs_format="flat")
    pz = make(SingleAgentEnv(game).env_name)
    rng = np.random.default_rng(1)
    for episode in range(3):
        log.clear()
        obs, _ = env.reset(seed=episode)
        fobs, _ = flat.reset(seed=episode)
        pz.reset()
        done, applied = False, 0
        while True:
            for a in log[applied:]:
                pz.step(a)
            applied = len(log)
            expected = pz.observe(AGENTS[seat])
            np.testing.assert_array_equal(obs["observation"], expected["observation"])
            np.testing.assert_array_equal(obs["action_mask"], expected["action_mask"])
            np.testing.assert_array_equal(fobs, np.concatenate([expected["observation"].ravel(),
                                                               expected["action_mask"]]).astype(np.float32))
            if done:
                break
            mask = env.action_masks()
            assert pz.agent_selection == AGENTS[seat]
            np.testing.assert_array_equal(np.flatnonzero(mask), env.game.legal_actions(env.state))
            a = int(rng.choice(np.flatnonzero(mask)))
            log.append(a)
            applied += 1
            pz.step(a)
            obs, reward, done, _, _info = env.step(a)
            fobs, freward, _, _, _ = flat.step(a)
            assert freward == reward
        assert pz.terminations[AGENTS[seat]]
        assert reward == pz._cumulative_rewards[AGENTS[seat]]


@pytest.mark.parametrize("seat", [0, 1, "alternate", "random"])
@pytest.mark.parametrize("obs_format", ["flat", "dict"])
def test_check_env(seat, obs_format):
    check_env(SingleAgentEnv("tictactoe", "random", seat=seat, obs_format=obs_format), skip_render_check=True)


@pytest.mark.parametrize("game", ["nim", "nine_mens_morris"])
def test_check_env_other_games(game):
    check_env(SingleAgentEnv(game, "random"), skip_render_check=True)


def test_check_env_against_search():
    check_env(SingleAgentEnv("tictactoe", "alphabeta(depth=2)", seat="random"), skip_render_check=True)


def test_seats_and_seeds():
    env = SingleAgentEnv("tictactoe", "random", seat="alternate", first_seat=1)
    seats = [env.reset(seed=3 if i == 0 else None)[1]["seat"] for i in range(4)]
    assert seats == [1, 0, 1, 0]
    assert env.reset(seed=3)[1]["seat"] == 1

    def run(seed):
        e = SingleAgentEnv("tictactoe", "random", seat="random")
        e.reset(seed=seed)
        out, rng = [], np.random.default_rng(0)
        for _ in range(200):
            obs, r, term, _, _info = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            out.append((obs.tobytes(), r))
            if term:
                out.append(e.reset()[1]["seat"])
        return out

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_illegal_action_ends_with_the_penalty():
    env = SingleAgentEnv("tictactoe", "random", seat=0, illegal_penalty=-2.0)
    env.reset(seed=0)
    env.step(4)
    taken = int(np.flatnonzero(env.game.observation(env.state, 0)[..., 1].ravel())[0])  # a cell the opponent took
    _, reward, terminated, _, info = env.step(taken)
    assert (reward, terminated, info["outcome"], info["illegal_action"]) == (-2.0, True, "illegal", taken)
    env.reset()
    _, reward, terminated, _, info = env.step(99)
    assert (reward, terminated, info["outcome"]) == (-2.0, True, "illegal")


def test_bad_arguments_are_clear():
    with pytest.raises(ValueError, match="seat='left' is not allowed"):
        SingleAgentEnv("tictactoe", seat="left")
    with pytest.raises(ValueError, match="obs_format='image' is not allowed"):
        SingleAgentEnv("tictactoe", obs_format="image")
    with pytest.raises(ValueError, match="unknown game 'mahjong'"):
        SingleAgentEnv("mahjong")
    with pytest.raises(TypeError, match="an opponent is"):
        SingleAgentEnv("tictactoe", opponent=3)
    with pytest.raises(ValueError, match="unknown agent"):
        SingleAgentEnv("tictactoe", "nosuch").reset()


def test_variant_and_env_names():
    env = SingleAgentEnv("nim_v0", "random", variant={"piles": (2, 3)})
    assert env.game.variant["piles"] == (2, 3) and env.env_name == "nim_v0"
    assert env.observation_space.shape == (int(np.prod(env.game.observation_shape)) + env.game.num_actions,)


def test_curriculum_advances_on_the_window():
    c = Curriculum(["random", "alphabeta(depth=1)", "alphabeta(depth=2)"], threshold=0.75, window=4)
    rng = np.random.default_rng(0)
    for r in (1, 1, -1, -1, 1):
        assert c.sample(rng) == "random"
        c.record("random", r, 0)
    assert c.current == "random"  # never 3 wins in a full window of 4
    c2 = Curriculum(["random", "alphabeta(depth=1)"], threshold=0.75, window=4)
    for r in (-1, 1, 1, 1):
        c2.record("random", r, 0)
    assert c2.current == "alphabeta(depth=1)" and c2.stage_log == [(0, 0), (4, 1)]
    c2.record("random", 1, 1)  # a late episode against the previous stage does not count
    assert len(c2.results) == 0
    score = Curriculum(["random", "x"], threshold=0.5, window=2, metric="score")
    score.record("random", 0, 0)
    score.record("random", 0, 1)
    assert score.current == "x"
    with pytest.raises(ValueError, match="threshold"):
        Curriculum(["random"], threshold=1.5)


def test_curriculum_drives_the_env():
    c = Curriculum(["random", "alphabeta(depth=1)"], threshold=0.5, window=20)
    env = SingleAgentEnv("tictactoe", c, seat=0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(3000):
        _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term:
            seen.add(info["opponent"])
            env.reset()
    assert c.stage == 1 and seen == {"random", "alphabeta(depth=1)"}


def test_self_play_pool_samples_snapshots():
    pool = SelfPlayPool(base=["random"], base_prob=0.25, pool_size=2, latest_prob=0.0)
    rng = np.random.default_rng(0)
    assert pool.sample(rng) == "random"  # empty pool: the base opponent
    snaps = [RandomAgent(i) for i in range(3)]
    for s in snaps:
        pool.add(s)
    picks = [pool.sample(rng) for _ in range(400)]
    assert snaps[0] not in picks  # fell out of the pool of 2
    assert 60 < picks.count("random") < 140
    assert {id(p) for p in picks if not isinstance(p, str)} == {id(snaps[1]), id(snaps[2])}
    env = SingleAgentEnv("tictactoe", pool)
    env.reset(seed=0)
    assert isinstance(as_source("random"), FixedOpponent)


def test_mixed_opponent():
    mix = MixedOpponent(["random", "alphabeta(depth=1)"], [3, 1])
    rng = np.random.default_rng(0)
    picks = [mix.sample(rng) for _ in range(400)]
    assert 250 < picks.count("random") < 350
    assert mix.describe() == {"kind": "mixture", "opponents": ["random", "alphabeta(depth=1)"], "weights": [0.75, 0.25]}
    with pytest.raises(ValueError, match="weights"):
        MixedOpponent(["random"], [1, 2])
    env = SingleAgentEnv("tictactoe", mix, seat=0)
    env.reset(seed=0)
    seen = set()
    for _ in range(300):
        _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term:
            seen.add(info["opponent"])
            env.reset()
    assert seen == {"random", "alphabeta(depth=1)"} and set(mix.results) == seen


def test_split_specs():
    assert split_specs("random, alphabeta(depth=1, tt=on); mcts(sims=10)") == [
        "random", "alphabeta(depth=1, tt=on)", "mcts(sims=10)"]


def test_render_ansi():
    env = SingleAgentEnv("tictactoe", "random", seat=0, render_mode="ansi")
    env.reset(seed=0)
    env.step(4)
    assert isinstance(env.render(), str)
    assert make_game("tictactoe").num_actions == env.action_space.n


def test_search_opponents_vary_between_episodes():
    """A fresh opponent each episode: alpha-beta's random tie-breaks give different games."""
    env = SingleAgentEnv("pentago", "alphabeta(depth=1)", seat=1)
    env.reset(seed=0)
    first_moves = set()
    for _ in range(10):
        first_moves.add(env.state.tobytes())
        env.reset()
    assert len(first_moves) > 1


@pytest.mark.parametrize("game, spec", [("tictactoe", "alphabeta(depth=9)"), ("tictactoe", "mcts(sims=30)"),
                                        ("connect_four", "alphabeta(depth=4)")])
def test_reused_opponents_play_the_games_fresh_ones_play(game, spec):
    """Under a depth budget a reused opponent's table changes its cost, never its moves."""
    def trace(fresh):
        env = SingleAgentEnv(game, spec, fresh_opponents=fresh)
        env.reset(seed=3)
        rng, states = np.random.default_rng(3), []
        for _ in range(300):
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            states.append(env.state.tobytes())
            if done:
                env.reset()
                states.append(env.state.tobytes())
        return states

    fresh = trace(True)
    assert len(set(fresh)) > 100 and trace(False) == fresh


def test_prioritized_opponents_follow_the_learners_results():
    from zerosum.training.opponents import PrioritizedOpponents

    src = PrioritizedOpponents(["random", "alphabeta(depth=1)", "alphabeta(depth=2)"], window=50, floor=0.1)
    assert np.allclose(src.probabilities(), 1 / 3)  # nothing played yet: every opponent at 1/2
    for _ in range(50):
        src.record("random", 1.0, 0)  # always won: nothing left to learn
        src.record("alphabeta(depth=1)", 1.0, 0)
        src.record("alphabeta(depth=1)", -1.0, 1)  # won half: the most to learn
        src.record("alphabeta(depth=2)", -1.0, 0)  # always lost
    p = src.probabilities()
    assert p.argmax() == 1 and p[1] > 0.9 and np.isclose(p.sum(), 1.0) and (p >= 0.1 / 3).all()
    hard = PrioritizedOpponents(["random", "alphabeta(depth=2)"], priority="hard", floor=0.0)
    hard.record("random", 1.0, 0)
    hard.record("alphabeta(depth=2)", -1.0, 0)
    assert hard.probabilities().tolist() == [0.0, 1.0]
    rng = np.random.default_rng(0)
    assert {hard.sample(rng) for _ in range(20)} == {"alphabeta(depth=2)"}
    assert src.describe()["kind"] == "prioritized"
    with pytest.raises(ValueError, match="priority='easy' is not allowed"):
        PrioritizedOpponents(["random"], priority="easy")


def test_self_play_pool_draws_the_snapshots_it_loses_to():
    pool = SelfPlayPool(base=["random"], base_prob=0.0, latest_prob=0.0, priority="hard")
    for name in ("snapshot@1", "snapshot@2", "snapshot@3"):
        a = RandomAgent(0)
        a.name = name
        pool.add(a)
    assert np.allclose(pool.snapshot_probabilities(), 1 / 3)  # none played yet
    for _ in range(20):
        pool.record("snapshot@1", 1.0, 0)  # always beaten
        pool.record("snapshot@2", -1.0, 0)  # always lost to
        pool.record("snapshot@3", 0.0, 0)
    p = pool.snapshot_probabilities()
    assert p[1] > p[2] > p[0] and p[1] > 0.7
    rng = np.random.default_rng(0)
    drawn = [pool.sample(rng).name for _ in range(200)]
    assert drawn.count("snapshot@2") > 140
    assert pool.describe()["priority"] == "hard"
    with pytest.raises(ValueError, match="priority='easy' is not allowed"):
        SelfPlayPool(priority="easy")
