"""Agents: one interface, spec strings, the perfect Nim strategy, seeded randomness, the package's imports."""

import itertools
import subprocess
import sys

import numpy as np
import pytest

from zerosum.agents import (
    AgentSpecError, AlphaBetaAgent, HumanAgent, PerfectNimAgent, RandomAgent, make_agent, parse_spec,
)
from zerosum.agents.search import nim_mover_wins
from zerosum.games import make_game

TTT = make_game("tictactoe")


def test_parse_spec():
    assert parse_spec("random") == ("random", {})
    assert parse_spec("alphabeta(depth=4, heuristic=lines, tt=on, time=0.5)") == (
        "alphabeta", {"depth": 4, "heuristic": "lines", "tt": True, "time": 0.5})
    assert parse_spec("ppo(path=runs/ttt/model.zip, deterministic=off)") == (
        "ppo", {"path": "runs/ttt/model.zip", "deterministic": False})
    assert parse_spec("x(name='a, b', n=none)") == ("x", {"name": "a, b", "n": None})


@pytest.mark.parametrize(("spec", "message"), [
    ("alphabeta(depth=4", "malformed agent spec"),
    ("alpha beta", "malformed agent spec"),
    ("alphabeta(depth=)", "empty value"),
    ("alphabeta(4)", "options are key=value"),
    # the sorted list; names other modules register (docs' cells_ab) may come between alphazero and human
    ("nosuch", r"unknown agent 'nosuch'.*available: alphabeta, alphazero, ([\w-]+, )*human, mcts\b"),
    ("alphabeta(dept=3)", "unknown option.*dept.*allowed: depth"),
    ("alphabeta(depth=3, depth=4)", "given twice"),
    ("alphabeta(depth=-2)", "positive"),
    ("mcts(rollout=smart)", "rollout"),
    (42, "is a string"),
])
def test_bad_specs(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_unknown_heuristic_fails_at_prepare():
    with pytest.raises(ValueError, match="unknown heuristic 'nope' for tictactoe; available: \\['lines', 'zero'\\]"):
        make_agent("alphabeta(depth=2, heuristic=nope)").prepare(TTT)
    with pytest.raises(ValueError, match="plays Nim only"):
        make_agent("perfect_nim").prepare(TTT)


@pytest.mark.parametrize("spec", ["random", "minimax(depth=2)", "alphabeta(depth=3)", "alphabeta(time=0.05)",
                                  "alphabeta(nodes=500, history=on, history_increment=square)", "mcts(sims=100)"])
def test_every_agent_plays_legal_moves(spec):
    agent = make_agent(spec, rng=0)
    agent.prepare(TTT)
    for seed in range(3):
        agent.reset()
        agent.seed(seed)
        s = TTT.initial_state()
        while not TTT.is_terminal(s):
            a = agent.act(TTT, s)
            assert a in TTT.legal_actions(s)
            s = TTT.apply(s, a)


def test_agents_use_their_own_generator():
    def game_with(seed):
        a, b = RandomAgent(seed), AlphaBetaAgent(depth=1, rng=seed + 100)
        s, moves = TTT.initial_state(), []
        while not TTT.is_terminal(s):
            m = (a if TTT.current_player(s) == 0 else b).act(TTT, s)
            moves.append(m)
            s = TTT.apply(s, m)
        return moves

    np.random.seed(0)
    first = game_with(1)
    np.random.seed(99)  # global state must not matter
    assert game_with(1) == first
    assert any(game_with(k) != first for k in range(2, 8))


@pytest.mark.parametrize("misere", [False, True])
def test_perfect_nim_never_loses_from_a_winning_position(misere):
    for piles in itertools.product(range(4), range(4), range(5)):
        game = make_game("nim", piles=tuple(max(p, 1) for p in piles), misere=misere)
        start = np.array([0, *piles], np.int64)
        if game.is_terminal(start) or not nim_mover_wins(start[1:], misere):
            continue
        agent = PerfectNimAgent(0)
        # The perfect player moves first from a winning position; the opponent tries everything.
        def walk(s):
            if game.is_terminal(s):
                assert game.returns(s)[0] == 1.0, (piles, misere, s)
                return
            if game.current_player(s) == 0:
                walk(game.apply(s, agent.act(game, s)))
            else:
                for a in game.legal_actions(s):
                    walk(game.apply(s, int(a)))
        walk(start)


def test_human_agent_reads_moves_and_explains_errors():
    answers = iter(["help", "zz", "b2", "a1"])
    out = []
    human = HumanAgent(input_fn=lambda prompt: next(answers), output_fn=out.append)
    s = TTT.apply(TTT.initial_state(), 4)  # b2 is taken
    assert human.act(TTT, s) == 0
    assert out[0].startswith("legal moves (8 of 8):\n  a1, b1, c1, a2, c2, a3, b3, c3")
    assert "cannot read move 'zz'" in out[1] and "not legal here" in out[2]


def test_noisy_agent():
    from zerosum.agents import make_agent

    game = make_game("tictactoe")
    always = make_agent('noisy(base="alphabeta(depth=9)", epsilon=0)', rng=0)
    never = make_agent("noisy(base=alphabeta(depth=9), epsilon=1)", rng=0)
    state = game.apply(game.apply(game.initial_state(), 0), 1)  # X a1, O b1: X wins with a2, b2 or a3
    assert always.act(game, state) in (3, 4, 6)
    picks = {never.act(game, state) for _ in range(60)}
    assert picks == {int(a) for a in game.legal_actions(state)}
    with pytest.raises(Exception, match="epsilon=2 is not allowed"):
        make_agent("noisy(epsilon=2)")


def test_every_spec_without_importing_training_or_envs():
    """`import zerosum.agents` alone gives every agent spec (noisy included); no module of
    agents/ imports training/ or the env registry of envs/ (checked in a fresh interpreter)."""
    code = """
import pkgutil, importlib, sys
import zerosum.agents
from zerosum.agents import make_agent
from zerosum.games import make_game
agent = make_agent("noisy(base=alphabeta(depth=1), epsilon=0.5)", rng=0)
agent.prepare(make_game("tictactoe"))
for m in pkgutil.iter_modules(zerosum.agents.__path__):
    if m.name != "maskable_dqn":  # torch and SB3: the train extra
        importlib.import_module("zerosum.agents." + m.name)
print(sorted(n for n in sys.modules if n.startswith(("zerosum.training", "zerosum.envs", "zerosum.evaluation"))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
