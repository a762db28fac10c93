"""chess_v0 against PettingZoo's chess_v6, and go_v0(compat="go_v5") against go_v5: the same spaces,
and random games played on both side by side agree at every step, the end included: both agents'
observations plane by plane (dtype too), the masks, the rewards, the terminations and the agent
selected. So a policy moves across with no change (the last test plays one on both).

More games than the tests play: ``python tests/envs/test_pettingzoo_compat.py --chess 100 --go 9:200,13:20,19:10``.
"""

from __future__ import annotations

import argparse
import zlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo.classic")

from zerosum.envs import chess_v0, go_v0


def _same_observations(theirs: Any, mine: Any, where: str, masks: bool) -> None:
    for agent in theirs.possible_agents:
        a, b = theirs.observe(agent), mine.observe(agent)
        assert a["observation"].dtype == b["observation"].dtype, where
        assert a["observation"].shape == b["observation"].shape, where
        for k in range(a["observation"].shape[2]):
            assert np.array_equal(a["observation"][..., k], b["observation"][..., k]), f"{where}: {agent} plane {k}"
        if masks:
            assert a["action_mask"].dtype == b["action_mask"].dtype
            assert np.array_equal(a["action_mask"], b["action_mask"]), f"{where}: {agent}'s mask"


def play_side_by_side(theirs: Any, mine: Any, choose: Callable[[dict[str, np.ndarray]], int]) -> tuple[str, int]:
    """One game on both envs, each move chosen by ``choose`` from PettingZoo's observation; every
    step compared. Returns how it ended, ``"both"`` (the same end, rewards equal, the agents
    stepped out in the same order) or ``"ours"`` (zerosum's rules ended it where PettingZoo's go on:
    Go's move cap or superko; compared up to there), and the positions compared."""
    theirs.reset()
    mine.reset()
    assert theirs.possible_agents == mine.possible_agents
    for agent in theirs.possible_agents:
        assert theirs.observation_space(agent) == mine.observation_space(agent)
        assert theirs.action_space(agent) == mine.action_space(agent)
    ply = 0
    while True:
        where = f"ply {ply}"
        done = all(theirs.terminations.values())
        if not done and all(mine.terminations.values()):
            return "ours", ply
        assert theirs.agent_selection == mine.agent_selection, where
        assert theirs.terminations == mine.terminations, where
        assert {a: float(r) for a, r in theirs.rewards.items()} == mine.rewards, where
        _same_observations(theirs, mine, where, masks=not done)
        if done:
            break
        action = choose(theirs.observe(theirs.agent_selection))
        theirs.step(action)
        mine.step(action)
        ply += 1
    # the end: each agent steps out with None, in the same order, seeing the same reward
    while theirs.agents:
        assert theirs.agent_selection == mine.agent_selection
        assert float(theirs.last()[1]) == mine.last()[1]
        theirs.step(None)
        mine.step(None)
    assert not mine.agents
    return "both", ply + 1


def random_choice(rng: np.random.Generator) -> Callable[[dict[str, np.ndarray]], int]:
    """Uniform over the legal actions."""
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def chess_games(games: int, seed: int = 0) -> Counter[str]:
    """``games`` random games on chess_v6 and chess_v0: how many ended by ``mate`` and ``draw``, and
    the ``positions`` compared."""
    from pettingzoo.classic import chess_v6

    rng = np.random.default_rng(seed)
    ends: Counter[str] = Counter()
    for _ in range(games):
        theirs, mine = chess_v6.env(), chess_v0.env()
        ending, plies = play_side_by_side(theirs, mine, random_choice(rng))
        assert ending == "both"
        ends["mate" if any(mine.game.returns(mine.state)) else "draw"] += 1
        ends["positions"] += plies
    return ends


def go_games(board_size: int, games: int, seed: int = 0) -> Counter[str]:
    """``games`` random games on go_v5 and go_v0(compat="go_v5"): how many ended the same on both
    (``both``) or by zerosum's rules alone (``ours``), and the ``positions`` compared."""
    from pettingzoo.classic import go_v5

    rng = np.random.default_rng(seed)
    ends: Counter[str] = Counter()
    for _ in range(games):
        theirs = go_v5.env(board_size=board_size)  # go_v5 sets its module's board size when made
        mine = go_v0.env(compat="go_v5", board_size=board_size)
        ending, plies = play_side_by_side(theirs, mine, random_choice(rng))
        ends[ending] += 1
        ends["positions"] += plies
    return ends


def test_chess_spaces_are_chess_v6s():
    from pettingzoo.classic import chess_v6

    theirs, mine = chess_v6.env(), chess_v0.env()
    for agent in theirs.possible_agents:
        assert mine.observation_space(agent) == theirs.observation_space(agent)
        assert mine.action_space(agent) == theirs.action_space(agent)
    mine.reset()
    obs = mine.observe("player_0")
    assert obs["observation"].dtype == bool and mine.observation_space("player_0").contains(obs)


def test_after_a_mate_the_loser_is_selected_first():
    from pettingzoo.classic import chess_v6

    theirs, mine = chess_v6.env(), chess_v0.env()
    g = mine.game
    s, moves = g.initial_state(), []
    for san in ["f3", "e5", "g4", "Qh4#"]:  # fool's mate: black mates
        moves.append(g.string_to_action(san, s))
        s = g.apply(s, moves[-1])
    ends = []
    for env in (theirs, mine):
        env.reset()
        for a in moves:
            env.step(a)
        _obs, reward, term, _, _ = env.last()
        ends.append((env.agent_selection, float(reward), term))
    assert ends[0] == ends[1] == ("player_0", -1.0, True)


def test_chess_random_games_agree_with_chess_v6():
    ends = chess_games(8, seed=3)
    assert ends["mate"] + ends["draw"] == 8 and ends["positions"] > 8


def test_go_compat_spaces_agents_and_default_board_are_go_v5s():
    from pettingzoo.classic import go_v5

    theirs, mine = go_v5.env(), go_v0.env(compat="go_v5")
    assert mine.possible_agents == theirs.possible_agents == ["black_0", "white_0"]
    assert mine.game.board_size == 19
    for agent in theirs.possible_agents:
        assert mine.observation_space(agent) == theirs.observation_space(agent)
        assert mine.action_space(agent) == theirs.action_space(agent)
    plain = go_v0.env()  # the default is as it was
    assert plain.possible_agents == ["player_0", "player_1"] and plain.game.board_size == 9
    assert plain.observation_space("player_0")["observation"].shape == (9, 9, 6)
    with pytest.raises(ValueError, match=r"compat='go_v4' is not known: one of \['go_v5'\]"):
        go_v0.env(compat="go_v4")


@pytest.mark.parametrize(("board_size", "games"), [(9, 12), (19, 1)])
def test_go_compat_random_games_agree_with_go_v5(board_size, games):
    ends = go_games(board_size, games, seed=board_size)
    assert ends["both"] + ends["ours"] == games and ends["both"] >= 1, ends  # one game at least to the same end on both


def test_go_compat_history_planes():
    """The planes after two moves, as go_v5's code keeps them: each pair from the mover's side."""
    env = go_v0.env(compat="go_v5", board_size=9)
    env.reset()
    env.step(0)  # black a1
    env.step(80)  # white j9
    obs = env.observe("black_0")["observation"]
    assert obs[8, 8, 0] and obs[0, 0, 1] and obs[..., :2].sum() == 2  # white just moved: its stones first
    assert obs[0, 0, 2] and not obs[..., 3].any() and obs[..., 2:4].sum() == 1  # after black's move
    assert not obs[..., 4:16].any() and not obs[..., 16].any()
    assert env.observe("white_0")["observation"][..., 16].all()


def test_go_compat_passes_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(go_v0.env(compat="go_v5", board_size=5), num_cycles=30)
    api_test(go_v0.raw_env(compat="go_v5", board_size=5), num_cycles=30)


def _policy(obs: dict[str, np.ndarray]) -> int:
    """A fixed policy that reads the planes' bytes: the legal action picked by their checksum."""
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[zlib.crc32(obs["observation"].tobytes()) % len(legal)])


def _play(env: Any, policy: Callable[[dict[str, np.ndarray]], int]) -> tuple[list[int], dict[str, float]]:
    """The loop a PettingZoo user writes."""
    env.reset(seed=0)
    actions: list[int] = []
    total: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += float(reward)
        action = None if term or trunc else policy(obs)
        if action is not None:
            actions.append(action)
        env.step(action)
    return actions, total


def test_a_policy_moves_across_with_no_change():
    from pettingzoo.classic import chess_v6, go_v5

    assert _play(chess_v6.env(), _policy) == _play(chess_v0.env(), _policy)
    theirs = _play(go_v5.env(board_size=7), _policy)
    assert theirs == _play(go_v0.env(compat="go_v5", board_size=7), _policy) and len(theirs[0]) > 10


def main() -> None:
    """Many more random games than the tests: the counts for the notes."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--chess", type=int, default=100, help="random chess games")
    p.add_argument("--go", default="9:200,13:20,19:10", help="board:games,... for Go (\"\" for none)")
    p.add_argument("--seed", type=int, default=100)
    args = p.parse_args()
    print(f"chess_v6 vs chess_v0, {args.chess} random games: {dict(chess_games(args.chess, args.seed))}", flush=True)
    for item in filter(None, args.go.split(",")):
        n, games = (int(x) for x in item.split(":"))
        ends = go_games(n, games, args.seed)
        print(f"go_v5 vs go_v0(compat='go_v5') {n}x{n}, {games} random games: {dict(ends)} "
              "(both: the same end; ours: zerosum's move cap or superko ended it first)", flush=True)


if __name__ == "__main__":
    main()
