"""The vector envs (zerosum.envs.vector): lane by lane equal to SingleAgentEnv and the AEC env
on every game and variant, the compiled alpha-beta opponent equal to the searcher, the
autoreset modes, the SB3 VecEnv under MaskablePPO, and the bad-input errors."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_action_space, check_observation_space

from zerosum.agents.base import Agent, RandomAgent
from zerosum.envs import make
from zerosum.envs.lanes import VECTOR_TEMPLATE
from zerosum.envs.vector import VectorEnvError, make_vec
from zerosum.games import make_game
from zerosum.games.kit import IllegalActionError
from zerosum.search import compiled
from zerosum.search.alphabeta import AlphaBeta
from zerosum.training.single_agent import SingleAgentEnv
from tests.envs.test_conformance import CASES, IDS


class Replay(Agent):
    """Plays the moves it is handed, in order (the vector env's opponent, replayed)."""

    name = "replay"

    def __init__(self) -> None:
        super().__init__(0)
        self.queue: deque[int] = deque()

    def act(self, game, state):  # type: ignore[no-untyped-def]
        return self.queue.popleft()


class Script:
    """The single-agent env's generator, scripted: the vector lane's opening ply (-1: none) and symmetry."""

    def __init__(self, opening: int, sym: int) -> None:
        self.opening, self.sym = opening, sym

    def random(self) -> float:
        return 0.0 if self.opening >= 0 else 1.0  # below random_opening=1.0 exactly when the lane opened

    def choice(self, legal: np.ndarray) -> int:
        assert self.opening in legal
        return self.opening

    def integers(self, n: int) -> int:
        assert 0 <= self.sym < n
        return self.sym


class Lane:
    """One lane replayed through SingleAgentEnv and the PettingZoo AEC env (the AEC env only
    without symmetries: it shows the real board)."""

    def __init__(self, name: str, variant: dict, seat: int, moves: list[int], opening: int = -1,
                 sym: int | None = None) -> None:
        self.seat = seat
        self.opp = Replay()
        self.opp.queue.extend(moves)
        scripted = opening >= 0 or sym is not None
        self.single = SingleAgentEnv(name, opponent=self.opp, seat=seat, variant=variant or None,
                                     random_opening=1.0 if scripted else 0.0, symmetry=sym is not None)
        if scripted:
            self.single.np_random = Script(opening, sym or 0)  # type: ignore[assignment]
            self.obs, _ = self.single.reset()
        else:
            self.obs, _ = self.single.reset(seed=0)
        assert not self.opp.queue
        self.aec = make(name, **variant) if sym is None else None
        if self.aec is not None:
            self.aec.reset()
            for a in [opening] * (opening >= 0) + moves:
                self.aec.step(a)
        self.agent = f"player_{seat}"

    def step(self, action: int, moves: list[int]) -> tuple[np.ndarray, float, bool]:
        self.opp.queue.extend(moves)
        obs, reward, terminated, _, _ = self.single.step(action)
        assert not self.opp.queue
        if self.aec is not None:
            self.aec.step(action)
            for a in moves:
                self.aec.step(a)
        self.obs = obs
        return obs, reward, terminated

    def check_aec(self, obs: np.ndarray, done: bool) -> None:
        if self.aec is None:
            return
        seen = self.aec.observe(self.agent)
        n = seen["observation"].size
        assert np.array_equal(obs[:n], seen["observation"].reshape(-1))
        if not done:
            assert self.aec.agent_selection == self.agent
            assert np.array_equal(obs[n:], seen["action_mask"])


def split(log: list[int]) -> tuple[list[int], list[list[int]]]:
    """The opponent's moves of the old episode, then those of each new one (after -1)."""
    parts: list[list[int]] = [[]]
    for a in log:
        if a == -1:
            parts.append([])
        else:
            parts[-1].append(a)
    return parts[0], parts[1:]


def run_equality(name: str, variant: dict, opponent: object, mode: str, steps: int, lanes: int = 6,
                 seed: int = 0, random_opening: float = 0.0, symmetry: bool = False) -> int:
    env = make_vec(name, lanes, opponent=opponent, seed=seed, autoreset_mode=mode, random_opening=random_opening,
                   symmetry=symmetry, **variant)
    obs, info = env.reset()

    def lane(i: int, seat: int, moves: list[int]) -> Lane:  # lane i's new episode, replayed
        sym = int(env.lanes.sym[i]) if symmetry else None
        return Lane(name, variant, seat, moves, int(env.lanes.opened[i]), sym)

    replay: list[Lane] = []
    for i, log in enumerate(env.opponent_moves()):
        _, new = split(log)
        replay.append(lane(i, int(info["seat"][i]), new[0]))
        assert np.array_equal(obs[i], replay[i].obs)
        replay[i].check_aec(obs[i], False)
    rng = np.random.default_rng(seed)
    done = np.zeros(lanes, bool)
    finished = 0
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, log in enumerate(env.opponent_moves()):
            old, new = split(log)
            if done[i]:  # next_step: this step restarted the lane
                assert not old and len(new) == 1 and rewards[i] == 0 and not terminated[i]
                replay[i] = lane(i, int(info["seat"][i]), new[0])
                assert np.array_equal(obs[i], replay[i].obs)
                replay[i].check_aec(obs[i], False)
                continue
            o, r, t = replay[i].step(int(actions[i]), old)
            assert r == rewards[i] and t == terminated[i]
            if mode == "same_step" and t:
                assert np.array_equal(info["final_obs"][i], o) and info["_final_obs"][i]
                replay[i].check_aec(o, True)
                assert info["outcome"][i] == r and info["_outcome"][i]
                assert len(new) == 1
                replay[i] = lane(i, int(info["seat"][i]), new[0])
                assert np.array_equal(obs[i], replay[i].obs)
            else:
                assert not new
                assert np.array_equal(obs[i], o)
                replay[i].check_aec(o, t)
            finished += int(t)
        done = terminated.copy() if mode == "next_step" else np.zeros(lanes, bool)
    return finished


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_lanes_equal_the_single_agent_and_aec_envs_against_random(name, variant):
    steps = 12 if name == "halma_v0" else 40
    finished = run_equality(name, variant, "random", "next_step", steps)
    if name in ("tictactoe_v0", "nim_v0", "connect_four_v0"):
        assert finished > 0


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_lanes_equal_against_seeded_alphabeta_same_step(name, variant):
    steps = 6 if name == "halma_v0" else 25
    opponent = ["alphabeta(depth=1)", "noisy(base=alphabeta(depth=2), epsilon=0.3)"]
    run_equality(name, variant, opponent, "same_step", steps, lanes=4, seed=3)


@pytest.mark.parametrize("name", ["tictactoe_v0", "connect_four_v0"])
def test_lanes_equal_with_a_python_opponent(name):
    finished = run_equality(name, {}, ["random", "mcts(sims=20)"], "same_step", 30, lanes=4, seed=5)
    assert finished > 0


@pytest.mark.parametrize("name", ["tictactoe_v0", "connect_four_v0", "pentago_v0"])
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_lanes_equal_with_random_openings_and_symmetries(name, mode):
    """Each lane's opening ply and symmetry, scripted into SingleAgentEnv's generator: the same
    observations (mapped boards and masks), rewards and ends, the learner's actions mapped back."""
    finished = run_equality(name, {}, ["random", "alphabeta(depth=1)"], mode, 30, lanes=6, seed=2,
                            random_opening=0.5, symmetry=True)
    if name != "pentago_v0":
        assert finished > 0


def test_random_openings_and_symmetries_are_drawn_per_episode():
    env = make_vec("tictactoe_v0", 400, opponent="random", learner_seat=0, seed=0, random_opening=0.5,
                   symmetry=True)
    obs, _ = env.reset()
    opened = env.lanes.opened >= 0
    assert 0.4 < opened.mean() < 0.6 and len(set(env.lanes.sym.tolist())) == 8
    stones = obs[:, :27].reshape(400, 9, 3)[:, :, :2].sum(axis=(1, 2))
    assert (stones[opened] == 2).all() and (stones[~opened] == 0).all()  # seat 0: its own random ply, a reply
    flat, planes = (make_vec("pentago_v0", 6, opponent="random", seed=4, random_opening=0.5, symmetry=True,
                             obs_format=fmt) for fmt in ("flat", "dict"))
    a, b = flat.reset()[0], planes.reset()[0]
    for _ in range(6):  # the dict observation's planes are the flat row's, under the same symmetry
        assert np.array_equal(a[:, :108], b["observation"].reshape(6, -1))
        assert np.array_equal(a[:, 108:], b["action_mask"]) and (flat.lanes.sym == planes.lanes.sym).all()
        actions = flat.action_masks().argmax(axis=1)
        a, b = flat.step(actions)[0], planes.step(actions)[0]
    plain = make_vec("tictactoe_v0", 8, seed=0)
    plain.reset()
    assert (plain.lanes.opened == -1).all() and (plain.lanes.sym == 0).all()
    with pytest.raises(VectorEnvError, match="random_opening=1.5 is not allowed: a probability"):
        make_vec("tictactoe_v0", 2, random_opening=1.5)
    with pytest.raises(VectorEnvError, match="no board symmetries are known for nim"):
        make_vec("nim_v0", 2, symmetry=True)


def test_opponent_weights_move_and_infos_name_the_opponent():
    env = make_vec("tictactoe_v0", 64, opponent=["random", "alphabeta(depth=1)"], seed=0,
                   autoreset_mode="same_step")
    _, info = env.reset()
    assert env.opponent_names == ["random", "alphabeta(depth=1)"]
    assert set(info["opponent"].tolist()) == {0, 1}
    env.set_opponent_weights([0.0, 1.0])
    seen = set()
    for _ in range(12):
        _, _, term, _, info = env.step(np.argmax(env.action_masks(), axis=1))
        if term.any():
            fin = info["final_info"]
            assert (fin["opponent"][term] == env.lanes.episode_comp[term]).all()
            seen |= set(info["opponent"][term].tolist())
    assert seen == {1}  # every episode begun after the change plays the second opponent
    with pytest.raises(VectorEnvError, match=r"2 non-negative numbers \(one per opponent: random, alphabeta"):
        env.set_opponent_weights([1.0])


@pytest.mark.parametrize(("game_name", "depth"), [("tictactoe", 3), ("connect_four", 4), ("pentago", 2),
                                                  ("nine_mens_morris", 3), ("gomoku", 2)])
def test_the_compiled_opponent_chooses_what_alphabeta_chooses(game_name, depth):
    from zerosum.envs.vector import Opponents

    game = make_game(game_name)
    opp = Opponents(game, f"alphabeta(depth={depth})")
    w = opp.records[0]
    row = opp.table[0]
    tiered = compiled.searcher(game, VECTOR_TEMPLATE, opp.heuristics[0])  # the tier the suite runs on
    if tiered.generic:
        w.set_heuristic(tiered.heuristic)
    k = tiered.module
    rng = np.random.default_rng(1)
    searcher = AlphaBeta(game)
    for t in range(12):
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 8))):
            if game.is_terminal(state):
                break
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
        if game.is_terminal(state):
            continue
        w.noise[:] = np.random.default_rng(t).random(game.num_actions)
        got = k.ab_choose(tiered.params, w, state, depth, row[3], row[4], 2, row[6], row[7])
        want = searcher.search(state, depth, seed=t).action
        assert got == want


def test_mixture_weights_and_seats():
    env = make_vec("tictactoe_v0", 400, opponent={"random": 1.0, "alphabeta(depth=1)": 0.0}, seed=0)
    env.reset()
    assert (env.lanes.comp == 0).all()
    env = make_vec("tictactoe_v0", 400, opponent=["random", "alphabeta(depth=1)"], opponent_weights=[1, 3], seed=0)
    _, info = env.reset()
    share = (env.lanes.comp == 1).mean()
    assert 0.65 < share < 0.85
    assert 0.4 < info["seat"].mean() < 0.6
    for seat in (0, 1):
        _, info = make_vec("tictactoe_v0", 8, learner_seat=seat).reset(seed=1)
        assert (info["seat"] == seat).all()
    env = make_vec("tictactoe_v0", 4, learner_seat="alternate")
    _, info = env.reset(seed=0)
    assert info["seat"].tolist() == [0, 1, 0, 1]
    _, info = env.reset(seed=0)
    assert info["seat"].tolist() == [1, 0, 1, 0]


def test_seeded_runs_replay_exactly():
    def run() -> list:
        env = make_vec("connect_four_v0", 8, opponent=["random", "noisy(base=alphabeta(depth=2), epsilon=0.2)"])
        obs, _ = env.reset(seed=11)
        out = [obs]
        for _ in range(30):
            masks = env.action_masks()
            obs, r, t, _, _ = env.step(masks.argmax(axis=1))
            out += [obs, r, t]
        return out

    a, b = run(), run()
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_next_step_autoreset_and_disabled():
    env = make_vec("nim_v0", 3, opponent="random", seed=0, piles=(3,), learner_seat=0)
    env.reset()
    obs, r, t, _, info = env.step(np.full(3, 2))  # taking the last 3 objects wins
    assert t.all() and (r == 1).all() and (info["outcome"] == 1).all()
    assert not env.action_masks().any() and not obs[:, -3:].any()
    obs, r, t, _, _ = env.step(np.full(3, 1))  # ignored: the lanes restart
    assert not t.any() and (r == 0).all() and env.action_masks().all()
    assert (env.lanes.states == env.game.initial).all()
    env = make_vec("nim_v0", 3, opponent="random", seed=0, piles=(3,), learner_seat=0, autoreset_mode="disabled")
    env.reset()
    env.step(np.full(3, 2))
    with pytest.raises(VectorEnvError, match="lane 0 finished"):
        env.step(np.zeros(3, np.int64))
    env.reset(options={"reset_mask": np.array([True, False, True])})
    assert env.action_masks()[[0, 2]].all() and not env.action_masks()[1].any()


def test_illegal_actions_penalty_and_raw():
    env = make_vec("tictactoe_v0", 4, learner_seat=0, seed=0, opponent="random")
    env.reset()
    env.step(np.array([0, 1, 2, 3]))
    taken = [int(np.flatnonzero(~m)[0]) for m in env.action_masks()]
    actions = np.array([taken[0], *np.argmax(env.action_masks()[1:], axis=1)])
    obs, r, t, _, info = env.step(actions)
    assert r[0] == -1 and t[0] and info["illegal_action"][0] == taken[0] and info["_illegal_action"][0]
    assert info["outcome"][0] == -2 and not info["_illegal_action"][1:].any()
    assert not obs[0, 27:].any()
    raw = make_vec("tictactoe_v0", 4, learner_seat=0, seed=0, illegal="raise")
    raw.reset()
    raw.step(np.array([0, 1, 2, 3]))
    before = raw.lanes.states.copy()
    bad = np.argmax(raw.action_masks(), axis=1)
    bad[2] = 2
    with pytest.raises(IllegalActionError, match=r"lane 2: action 2 .* legal: \["):
        raw.step(bad)
    assert np.array_equal(before, raw.lanes.states)


def test_bad_input_names_the_lane_and_what_is_allowed():
    env = make_vec("connect_four_v0", 4, seed=0)
    with pytest.raises(VectorEnvError, match="before reset"):
        env.step(np.zeros(4, np.int64))
    env.reset()
    with pytest.raises(VectorEnvError, match=r"shape \(4,\)"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(VectorEnvError, match="integers; got dtype float64 .lane 1"):
        env.step(np.array([0, 1.5, 0, 0]))
    with pytest.raises(VectorEnvError, match="integers; got dtype <U1"):
        env.step(np.array(["a", "b", "c", "d"]))
    with pytest.raises(VectorEnvError, match="lane 3: action 7 is out of range: 0 to 6"):
        env.step(np.array([0, 1, 2, 7]))
    with pytest.raises(VectorEnvError, match="lane 0: action -1"):
        env.step(np.array([-1, 1, 2, 3]))
    with pytest.raises(VectorEnvError, match="num_envs=0: a positive int"):
        make_vec("connect_four_v0", 0)
    with pytest.raises(VectorEnvError, match="opponent 'perfect_nim' cannot play connect_four: perfect_nim plays Nim"):
        make_vec("connect_four_v0", 2, opponent="perfect_nim")
    with pytest.raises(VectorEnvError, match="opponent 'alphabeta.depth=-1.'"):
        make_vec("connect_four_v0", 2, opponent="alphabeta(depth=-1)")
    with pytest.raises(VectorEnvError, match="autoreset_mode='sometimes' is not allowed: one of next_step"):
        make_vec("connect_four_v0", 2, autoreset_mode="sometimes")
    with pytest.raises(VectorEnvError, match="learner_seat=2"):
        make_vec("connect_four_v0", 2, learner_seat=2)
    with pytest.raises(VectorEnvError, match="opponent_weights"):
        make_vec("connect_four_v0", 2, opponent=["random", "random"], opponent_weights=[1, -1])
    with pytest.raises(VectorEnvError, match="api='gym' is not allowed"):
        make_vec("connect_four_v0", 2, api="gym")


class CountingAgent(RandomAgent):
    """A random agent that answers many lanes in one call and counts the calls."""

    calls = 0

    def act_batch(self, game, states):  # type: ignore[no-untyped-def]
        CountingAgent.calls += 1
        return [self.act(game, s) for s in states]


def test_a_python_agent_answers_all_its_lanes_in_one_call_per_step():
    agent = CountingAgent()
    env = make_vec("tictactoe_v0", 32, opponent=agent, learner_seat=0, seed=0)
    env.reset()
    CountingAgent.calls = 0
    env.step(np.argmax(env.action_masks(), axis=1))
    assert CountingAgent.calls == 1


def test_spaces_follow_gymnasium():
    for fmt in ("flat", "dict"):
        env = make_vec("pentago_v0", 5, obs_format=fmt, seed=0)
        check_observation_space(env.single_observation_space)
        check_action_space(env.single_action_space)
        obs, _ = env.reset()
        assert env.observation_space.contains(obs)
        for _ in range(5):
            obs, *_ = env.step(np.argmax(env.action_masks(), axis=1))
            assert env.observation_space.contains(obs)
        first = env.reset(seed=0)[0]
        second = env.reset(seed=0)[0]
        flat = (lambda o: o) if fmt == "flat" else (lambda o: o["observation"])
        assert np.array_equal(flat(first), flat(second)) and flat(first) is not flat(second)


def test_sb3_vec_env_under_maskable_ppo():
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor

    torch.set_num_threads(1)
    venv = make_vec("tictactoe_v0", 8, api="sb3", seed=0, opponent="random")
    assert isinstance(venv, VecEnv) and is_masking_supported(venv)
    obs = venv.reset()
    assert obs.shape == (8, 36) and get_action_masks(venv).shape == (8, 9)
    ended = 0
    for _ in range(12):
        obs, _, dones, infos = venv.step(get_action_masks(venv).argmax(axis=1))
        for i in np.flatnonzero(dones):
            term = infos[i]["terminal_observation"]
            assert not term[27:].any() and infos[i]["outcome"] in ("win", "draw", "loss")
            assert obs[i][27:].any()  # the next episode's first observation
            ended += 1
    assert ended > 0
    checked = VecCheckNan(VecMonitor(venv), raise_exception=True)  # SB3's own check of a VecEnv's numbers
    model = MaskablePPO("MlpPolicy", checked, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256


# ---- the kit's batched rules, and a user's kit game ------------------------------------------
from tests.test_new_game_guide import package  # noqa: E402, F401 - the guide's Hexapawn, built as a user would


@pytest.mark.parametrize("name", ["tictactoe", "nim", "connect_four", "pentago", "nine_mens_morris", "halma",
                                  "checkers", "gomoku"])
def test_batched_rules_equal_the_game_api(name):
    from zerosum.games.kit.batched import batched

    game = make_game(name, **({"size": 8} if name == "halma" else {}))
    rules = batched(game)
    rng = np.random.default_rng(0)
    states = rules.reset(16)
    for _ in range(12):
        live = rules.status(states) == 0
        masks = rules.masks(states)
        obs = rules.observe(states, rules.players(states))
        for i, s in enumerate(states):
            assert np.array_equal(masks[i], game.legal_mask(s))
            assert rules.players(states)[i] == game.current_player(s)
            assert np.array_equal(obs[i], game.observation(s, game.current_player(s)))
        actions = rules.random_moves(states, seed=int(rng.integers(1 << 30)))
        assert all(masks[i, a] for i, a in enumerate(actions) if live[i])
        nxt = rules.apply(states[live], actions[live])
        for s, a, child in zip(states[live], actions[live], nxt, strict=True):
            assert np.array_equal(child, game.apply(s, int(a)))
        states[live] = nxt
    if name == "tictactoe":
        taken = rules.apply(rules.reset(2), np.array([0, 4]))
        with pytest.raises(IllegalActionError, match=r"row 1: action 4 is not legal there; legal: \[0, 1, 2, 3, 5"):
            rules.apply(taken, np.array([1, 4]))


def test_a_users_kit_game_gets_the_vector_env(package):  # noqa: F811 - the fixture imported above
    import importlib

    importlib.import_module("hexapawn")
    finished = run_equality("hexapawn_v0", {}, ["random", "alphabeta(depth=2)"], "same_step", 20, lanes=4)
    assert finished > 0
