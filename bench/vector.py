"""Vector envs (zerosum.envs.make_vec) against today's SingleAgentEnv in DummyVecEnv and
PettingZoo's connect_four_v3 through a single-agent wrapper, in the same run.

Env steps/s = learner steps (each with the opponent's replies and restarts) per second of
``step()`` alone (``cpu_steps_s``: per second of this process's CPU time in ``step()``, the
figure a loaded machine depresses least); the learner's actions (random legal ones) are drawn outside the timed
call, the same way for every env. The MaskablePPO rows are end to end (rollouts and
training, MlpPolicy, 4 epochs) with ``--threads`` torch threads.

    python bench/vector.py [--seconds 2] [--lanes 1024] [--ppo-steps 200000] [--threads 1] [--quick]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from _report import emit, headline


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks`` (a finished lane's: 0)."""
    return np.argmax(masks * rng.random(masks.shape), axis=1)


def vector_rate(game: str, opponent: str, lanes: int, seconds: float) -> tuple[float, float]:
    from zerosum.envs import make_vec

    env = make_vec(game, lanes, opponent=opponent, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    env.step(random_actions(env.action_masks(), rng))  # warm
    spent, cpu, steps = 0.0, 0.0, 0
    while spent < seconds:
        a = random_actions(env.action_masks(), rng)
        t, c = time.perf_counter(), time.process_time()
        env.step(a)
        spent += time.perf_counter() - t
        cpu += time.process_time() - c
        steps += lanes
    return steps / spent, steps / cpu


def dummy_rate(make_env, n: int, seconds: float) -> tuple[float, float]:
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([make_env for _ in range(n)])
    venv.reset()
    rng = np.random.default_rng(0)
    venv.step(random_actions(np.stack(venv.env_method("action_masks")), rng))  # warm, as vector_rate does
    spent, cpu, steps = 0.0, 0.0, 0
    while spent < seconds:
        masks = np.stack(venv.env_method("action_masks"))
        a = random_actions(masks, rng)
        t, c = time.perf_counter(), time.process_time()
        venv.step(a)
        spent += time.perf_counter() - t
        cpu += time.process_time() - c
        steps += n
    return steps / spent, steps / cpu


def single_agent(game: str, opponent: str):
    from zerosum.training.single_agent import SingleAgentEnv

    return lambda: SingleAgentEnv(game, opponent=opponent, seat="random", fresh_opponents=False)


def pettingzoo_connect_four():
    """PettingZoo's connect_four_v3 as a single-agent gymnasium env: the learner one seat,
    a random opponent through the same AEC env (the wrapper of PettingZoo's SB3 tutorial,
    with the opponent's turn inside step)."""
    import gymnasium as gym
    from pettingzoo.classic import connect_four_v3

    class Wrapper(gym.Env):
        def __init__(self) -> None:
            self.env = connect_four_v3.env()
            self.observation_space = gym.spaces.Box(0, 1, (84,), np.int8)
            self.action_space = gym.spaces.Discrete(7)
            self.rng = np.random.default_rng(0)

        def _obs(self):
            o, *_ = self.env.last()
            self.mask = o["action_mask"]
            return o["observation"].reshape(-1)

        def _opponent(self) -> None:
            o, _, term, trunc, _ = self.env.last()
            if not (term or trunc):
                self.env.step(int(self.rng.choice(np.flatnonzero(o["action_mask"]))))

        def reset(self, seed=None, options=None):
            self.env.reset(seed=seed)
            self.me = self.env.agents[int(self.rng.integers(2))]
            if self.env.agent_selection != self.me:
                self._opponent()
            return self._obs(), {}

        def step(self, action):
            self.env.step(int(action))
            self._opponent()
            _, _, term, trunc, _ = self.env.last()
            done = term or trunc
            reward = self.env._cumulative_rewards.get(self.me, 0.0) if done else 0.0
            return self._obs(), float(reward), done, False, {}

        def action_masks(self):
            return self.mask.astype(bool)

    return Wrapper


def ppo_rate(make_venv, steps: int, n_steps: int, batch_size: int) -> tuple[float, float]:
    from sb3_contrib import MaskablePPO

    venv = make_venv()
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=batch_size, n_epochs=4, seed=0)
    model.learn(n_steps * venv.num_envs)  # warm (compiles, allocates)
    t, c = time.perf_counter(), time.process_time()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - t), steps / (time.process_time() - c)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="timed seconds per row")
    ap.add_argument("--lanes", type=int, default=1024)
    ap.add_argument("--ppo-steps", type=int, default=200_000, help="timed MaskablePPO env steps (0: skip)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads for the MaskablePPO rows")
    ap.add_argument("--quick", action="store_true", help="connect four only, short rows")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    games = ["connect_four_v0"] if args.quick else ["connect_four_v0", "tictactoe_v0", "pentago_v0"]
    rows = []
    load = os.getloadavg()[0]
    for game in games:
        opponents = ["random", "alphabeta(depth=2)", "alphabeta(depth=4)"]
        if game == "connect_four_v0":  # quiescence (on by default here) is most of a shallow search's nodes
            opponents += ["alphabeta(depth=2, quiescence=off)", "alphabeta(depth=4, quiescence=off)"]
        for opponent in opponents:
            # Pentago at depth 4 searches ~0.1 s a move: fewer lanes keep the row short.
            lanes = 64 if game == "pentago_v0" and opponent.endswith("4)") else args.lanes
            rate, cpu = vector_rate(game, opponent, lanes, args.seconds)
            n_single = 16
            base, base_cpu = dummy_rate(single_agent(game, opponent), n_single, args.seconds / 2)
            rows.append({"game": game, "opponent": opponent, "env": f"make_vec x{lanes}", "steps_s": rate,
                         "cpu_steps_s": cpu, "baseline": f"SingleAgentEnv DummyVecEnv x{n_single}",
                         "baseline_steps_s": base, "baseline_cpu_steps_s": base_cpu, "speedup": rate / base})
    pz, pz_cpu = dummy_rate(pettingzoo_connect_four(), 16, args.seconds / 2)
    rows.append({"game": "connect_four (PettingZoo connect_four_v3)", "opponent": "random",
                 "env": "single-agent wrapper, DummyVecEnv x16", "steps_s": pz, "cpu_steps_s": pz_cpu})
    if args.ppo_steps:
        from stable_baselines3.common.vec_env import DummyVecEnv

        from zerosum.envs import make_vec

        ours, ours_cpu = ppo_rate(lambda: make_vec("connect_four_v0", 256, api="sb3", seed=0), args.ppo_steps, 64, 4096)
        old, old_cpu = ppo_rate(lambda: DummyVecEnv([single_agent("connect_four_v0", "random")] * 8),
                       max(args.ppo_steps // 10, 8192), 256, 512)
        rows.append({"game": "connect_four_v0", "opponent": "random", "env": "MaskablePPO, make_vec sb3 x256",
                     "steps_s": ours, "cpu_steps_s": ours_cpu, "baseline": "MaskablePPO, SingleAgentEnv DummyVecEnv x8",
                     "baseline_steps_s": old, "baseline_cpu_steps_s": old_cpu, "speedup": ours / old})
    c4 = {r["opponent"]: r["steps_s"] for r in rows if r["game"] == "connect_four_v0" and "make_vec x" in r["env"]}
    heads = [headline("Connect Four vs random, 1,024 lanes, env steps/s", c4["random"], target=">= 1,000,000"),
             headline("vs alphabeta(depth=2)", c4["alphabeta(depth=2)"], target=">= 200,000"),
             headline("vs alphabeta(depth=4)", c4["alphabeta(depth=4)"], target=">= 20,000")]
    if args.ppo_steps:
        heads.append(headline("MaskablePPO end to end, 256 lanes", rows[-1]["steps_s"], target=">= 15,000"))
    emit("vector", rows, ["game", "opponent", "env", "steps_s", "cpu_steps_s", "baseline", "baseline_steps_s",
                          "baseline_cpu_steps_s", "speedup"],
         {"headline": heads, "load_before": load, "load_after": os.getloadavg()[0], "torch_threads": args.threads})


if __name__ == "__main__":
    main()
