"""The animated games on the game pages: ``python docs/figures/game_gifs.py`` writes
``docs/figures/games/<env>.gif``, one seeded game per environment between two search agents, drawn by
the env's ``rgb_array`` renderer (``zerosum replay --gif`` draws stored games the same way).

The GIFs are committed (a few tens of kB each) so that ``make docs`` need not compile the search for
every game; rerun this script when a game's drawing or rules change.
"""

from __future__ import annotations

import sys
from pathlib import Path

from zerosum.agents import make_agent
from zerosum.cli.replay import Replay
from zerosum.envs import env_module

OUT = Path(__file__).resolve().parent / "games"
GAMES = {  # env -> (variant, agent of player 0, agent of player 1, most plies shown)
    "tictactoe_v0": ({}, "alphabeta(depth=2)", "alphabeta(depth=2)", 9),
    "connect_four_v0": ({}, "alphabeta(depth=4)", "alphabeta(depth=2)", 42),
    "nim_v0": ({}, "alphabeta(depth=2)", "random", 30),
    "pentago_v0": ({}, "alphabeta(depth=2)", "alphabeta(depth=1)", 36),
    "nine_mens_morris_v0": ({}, "alphabeta(depth=3)", "alphabeta(depth=2)", 60),
    "halma_v0": ({"size": 8}, "alphabeta(depth=2)", "alphabeta(depth=1)", 60),
    "othello_v0": ({}, "alphabeta(depth=3)", "alphabeta(depth=2)", 120),
    "hex_v0": ({"board_size": 7}, "alphabeta(depth=2)", "alphabeta(depth=1)", 49),
    "breakthrough_v0": ({}, "alphabeta(depth=3)", "alphabeta(depth=2)", 120),
    "checkers_v0": ({}, "alphabeta(depth=4)", "alphabeta(depth=2)", 120),
    "gomoku_v0": ({}, "alphabeta(depth=2)", "alphabeta(depth=1)", 80),
    "go_v0": ({}, "mcts(sims=400)", "mcts(sims=200)", 60),
    "chess_v0": ({}, "alphabeta(depth=3)", "alphabeta(depth=2)", 30),
    "clobber_v0": ({}, "alphabeta(depth=4)", "alphabeta(depth=2)", 29),
    "ultimate_tic_tac_toe_v0": ({}, "alphabeta(depth=4)", "alphabeta(depth=2)", 162),
    "mancala_v0": ({}, "alphabeta(depth=4)", "alphabeta(depth=2)", 80),
    "oware_v0": ({}, "alphabeta(depth=4)", "alphabeta(depth=2)", 60),
    "dots_and_boxes_v0": ({"num_rows": 3, "num_cols": 3}, "alphabeta(depth=4)", "alphabeta(depth=2)", 24),
    "y_v0": ({"board_size": 9}, "alphabeta(depth=2)", "alphabeta(depth=1)", 45),
    "havannah_v0": ({"board_size": 5}, "alphabeta(depth=2)", "alphabeta(depth=1)", 61),
    "lines_of_action_v0": ({}, "alphabeta(depth=3)", "alphabeta(depth=2)", 120),
    "amazons_v0": ({}, "alphabeta(depth=3)", "alphabeta(depth=2)", 120),
}
SEED = 3


def play(name: str) -> Replay:
    """One seeded game of ``name`` (stopped after the most plies shown), as a Replay."""
    variant, spec0, spec1, most = GAMES[name]
    game = env_module(name).env(**variant).game
    agents = [make_agent(spec0, rng=SEED), make_agent(spec1, rng=SEED + 1)]
    for agent in agents:
        agent.prepare(game)
        agent.reset()
    states, actions = [game.initial_state()], []
    while not game.is_terminal(states[-1]) and len(actions) < most:
        action = agents[game.current_player(states[-1])].act(game, states[-1])
        actions.append(int(action))
        states.append(game.apply(states[-1], action))
    return Replay(game, name, tuple(actions), (agents[0].name, agents[1].name), 0, None, None, None, tuple(states))


def main(names: list[str]) -> None:
    OUT.mkdir(exist_ok=True)
    for name in names or list(GAMES):
        replay = play(name)
        path = OUT / f"{name}.gif"
        frames = replay.write_gif(str(path), fps=2.0)
        print(f"{path}: {frames} frames, {path.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main(sys.argv[1:])
