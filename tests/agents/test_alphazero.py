"""The alphazero agent: a network checkpoint alone (sims=0) or guiding the batched search (sims>0),
wherever an agent spec goes, with every bad input refused before a game starts."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import zerosum  # noqa: E402
from zerosum.agents import AgentSpecError, make_agent  # noqa: E402
from zerosum.agents.alphazero import AlphaZeroAgent  # noqa: E402
from zerosum.agents.base import RandomAgent  # noqa: E402
from zerosum.evaluation.match import play_match  # noqa: E402
from zerosum.games.registry import make_game  # noqa: E402
from zerosum.nets import (  # noqa: E402
    CheckpointError, NetConfig, NetworkEvaluator, build_network, load_network, save_network,
)

ROOT = Path(__file__).resolve().parents[2]
SEARCH = importlib.util.find_spec("zerosum.search.guided") is not None
needs_search = pytest.mark.skipif(not SEARCH, reason="zerosum.search.guided (the batched search) is not here yet")

# every game and every variant the env conformance tests list (tests/envs/test_conformance.py)
CASES = [
    ("tictactoe", {}), ("nim", {}), ("nim", {"piles": (3, 4, 5)}), ("nim", {"misere": True}),
    ("nim", {"piles": (2, 2), "misere": True}), ("halma", {}), ("halma", {"size": 10}), ("halma", {"size": 8}),
    ("pentago", {}), ("pentago", {"win_before_rotation": False}), ("nine_mens_morris", {}),
    ("nine_mens_morris", {"protect_mills": False}), ("nine_mens_morris", {"flying": False}),
    ("nine_mens_morris", {"no_return": True}), ("nine_mens_morris", {"max_turns": 40}),
    ("nine_mens_morris", {"protect_mills": False, "flying": False, "no_return": True, "max_turns": 120}),
    ("connect_four", {}), ("connect_four", {"rows": 5, "columns": 4, "x_in_row": 3}),
    ("hex", {}), ("hex", {"board_size": 5, "swap": True}), ("hex", {"num_rows": 4, "num_cols": 7}),
    ("y", {}), ("y", {"board_size": 5}), ("havannah", {}), ("havannah", {"board_size": 4, "swap": True}),
    ("breakthrough", {}), ("breakthrough", {"rows": 5, "columns": 7}),
    ("checkers", {}), ("checkers", {"rows": 7, "columns": 7}),
    ("gomoku", {}), ("gomoku", {"size": 7, "connect": 4, "wrap": True}),
    ("gomoku", {"m": 7, "n": 5, "connect": 4}),
    ("othello", {}), ("othello", {"size": 6}), ("othello", {"size": 10}),
    ("chess", {}), ("go", {}), ("go", {"board_size": 5, "komi": 0.0}), ("go", {"board_size": 19, "handicap": 3}),
    ("mancala", {}), ("oware", {}), ("oware", {"num_houses_per_player": 3, "num_seeds_per_house": 2}),
    ("clobber", {}), ("clobber", {"rows": 8, "columns": 8}),
    ("dots_and_boxes", {}), ("dots_and_boxes", {"num_rows": 3, "num_cols": 4, "utility_margin": True}),
    ("dots_and_boxes", {"num_rows": 1, "num_cols": 5}),
    ("ultimate_tic_tac_toe", {}),
    ("lines_of_action", {}), ("lines_of_action", {"max_game_length": 60}),
    ("amazons", {}), ("amazons", {"board_size": 6}),
]
IDS = [f"{name}-{variant}" for name, variant in CASES]
PLIES = 24  # per game in the legality tests: enough to reach Morris's removals and Nim's ends


def tiny(game):
    """A small untrained network for ``game`` (an MLP where the action count makes a ResNet head large)."""
    if game.num_actions > 20_000:
        return NetConfig(kind="mlp", hidden=(8,))
    return NetConfig(kind="resnet", blocks=1, channels=4, policy_channels=1, value_hidden=8)


def checkpoint(tmp_path, game, name="net"):
    config = tiny(game)
    torch.manual_seed(0)
    net = build_network(game, config)
    return net, str(save_network(tmp_path / f"{name}.pt", net, game, config))


def play_checked(game, agent, plies=PLIES, seed=0):
    """Alternate the agent and a random player for ``plies``; every move of the agent must be legal."""
    other = RandomAgent(seed)
    state, seat = game.initial_state(), seed % 2
    for _ in range(plies):
        if game.is_terminal(state):
            break
        mover = game.current_player(state)
        action = (agent if mover == seat else other).act(game, state)
        assert action in {int(a) for a in game.legal_actions(state)}
        state = game.apply(state, action)
    return state


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_an_untrained_network_plays_legal_moves_in_every_game_and_variant(tmp_path, name, variant):
    game = make_game(name, **variant)
    _, path = checkpoint(tmp_path, game)
    agent = make_agent(f"alphazero(path={path}, sims=0)", rng=0)
    agent.prepare(game)
    play_checked(game, agent, seed=0)
    play_checked(game, make_agent(f"alphazero(path={path}, temperature=1.0)", rng=1), seed=1)
    assert agent.last_stats.algorithm == "alphazero(policy)" and -1 <= agent.last_stats.value <= 1


def test_sims_0_plays_the_greedy_legal_move_of_the_saved_network(tmp_path):
    """The checkpoint round-trips: the loaded agent plays what the network in memory prefers."""
    game = make_game("connect_four")
    net, path = checkpoint(tmp_path, game)
    with torch.no_grad():  # a network with an opinion, not near-uniform logits
        for p in net.parameters():
            p.mul_(5.0)
    save_network(path, net, game, tiny(game))
    ev = NetworkEvaluator(net)
    agent = make_agent(f"alphazero(path={path})", rng=0)
    rng = np.random.default_rng(0)
    state, moves = game.initial_state(), 0
    while not game.is_terminal(state) and moves < 30:
        mask = game.legal_mask(state)
        logits, _ = ev(game.observation(state, game.current_player(state))[None], mask[None])
        expected = int(np.argmax(np.where(mask == 1, logits[0], -np.inf)))
        assert agent.act(game, state) == expected
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))  # wander, to see many positions
        moves += 1


def test_temperature_samples_legal_moves_from_the_agents_generator(tmp_path):
    game = make_game("pentago")
    _, path = checkpoint(tmp_path, game)
    state = game.initial_state()
    first = [make_agent(f"alphazero(path={path}, temperature=2)", rng=5).act(game, state) for _ in range(3)]
    assert len(set(first)) == 1  # the same seed, the same move
    many = {make_agent(f"alphazero(path={path}, temperature=2)", rng=s).act(game, state) for s in range(20)}
    assert len(many) > 1


def test_spawned_copies_share_the_network_and_keep_no_tree(tmp_path):
    game = make_game("tictactoe")
    _, path = checkpoint(tmp_path, game)
    agent = make_agent(f"alphazero(path={path})", rng=0)
    clone = agent.spawn(1)
    assert isinstance(clone, AlphaZeroAgent) and clone.net is agent.net and clone is not agent
    assert clone._search is None and clone._root is None


@pytest.mark.parametrize(("spec", "message"), [
    ("alphazero(path={path}, sims=-1)", r"sims=-1 is not allowed: an int >= 0"),
    ("alphazero(path={path}, sims=2.5)", r"sims=2.5 is not allowed"),
    ("alphazero(path={path}, sims=8, rule=ucb)", r"rule='ucb' is not allowed: one of \('puct', 'gumbel'\)"),
    ("alphazero(path={path}, c_puct=0)", r"c_puct=0 is not allowed: a number > 0"),
    ("alphazero(path={path}, temperature=-1)", r"temperature=-1 is not allowed: a number >= 0"),
    ("alphazero(path={path}, leaves=0)", r"leaves=0 is not allowed"),
    ("alphazero(path={path}, device=tpu)", r"device='tpu' is not allowed: 'cpu', 'cuda' or 'cuda:N'"),
    ("alphazero(path={missing})", r"no network checkpoint at '.*missing.pt'"),
    ("alphazero(path=zoo:no_such_net)", r"no network 'no_such_net' in the zoo .*available: "),
    ("alphazero(sims=4)", r"alphazero needs path=<network .pt> or path=zoo:NAME"),
    ("alphazero(path={path}, depth=3)", r"unknown option\(s\) depth for 'alphazero'; allowed: path, sims, rule"),
])
def test_bad_specs_are_refused_when_the_agent_is_built(tmp_path, spec, message):
    _, path = checkpoint(tmp_path, make_game("tictactoe"))
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec.format(path=path, missing=tmp_path / "missing.pt"))


def test_a_checkpoint_for_another_game_or_variant_is_refused_before_any_game(tmp_path):
    c4 = make_game("connect_four", rows=5, columns=4, x_in_row=3)
    _, path = checkpoint(tmp_path, c4)
    agent = make_agent(f"alphazero(path={path})")
    with pytest.raises(CheckpointError, match=r"made for connect_four .* cannot play tictactoe"):
        agent.prepare(make_game("tictactoe"))
    with pytest.raises(CheckpointError, match=r"variant .*observation shape \(5, 4, 3\), not \(6, 7, 3\)"):
        agent.act(make_game("connect_four"), make_game("connect_four").initial_state())
    with pytest.raises(Exception, match=r"cannot play connect_four"):
        zerosum.evaluate(f"alphazero(path={path})", "connect_four", opponents=["random"], games=2)


def test_evaluate_and_play_match_take_the_spec(tmp_path):
    game = make_game("tictactoe")
    _, path = checkpoint(tmp_path, game)
    report = zerosum.evaluate(f"alphazero(path={path})", "tictactoe_v0", opponents=["random"], games=4, seed=0)
    assert report.results[0].total.games == 4
    m = play_match(game, [make_agent(f"alphazero(path={path})", 0), make_agent("random", 1)])
    assert m.moves and m.moves[0].stats["algorithm"] == "alphazero(policy)"


def run_cli(*args, stdin=""):
    """``zerosum ARGS`` in a new process with a bare environment, but the suite's ``ZEROSUM_*``
    settings (its cache, its tier, no background compiles: tests/conftest.py)."""
    env = {"PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
           **{k: v for k, v in os.environ.items() if k.startswith("ZEROSUM_")}}
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin, capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)


def test_zerosum_match_and_play_with_a_hint_take_the_spec(tmp_path):
    game = make_game("tictactoe")
    _, path = checkpoint(tmp_path, game)
    spec = f"alphazero(path={path})"
    r = run_cli("match", "--game", "tictactoe", spec, "random", "--max-games", "2", "--output", str(tmp_path / "m"))
    assert r.returncode == 0, r.stderr
    r = run_cli("play", "tictactoe", "--opponent", spec, "--hint", spec, "--seed", "1", stdin="hint\nquit\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "hint: " in r.stdout and f"({spec}: value " in r.stdout
    other = checkpoint(tmp_path, make_game("connect_four"), name="c4")[1]
    r = run_cli("match", "--game", "tictactoe", f"alphazero(path={other})", "random", "--output", str(tmp_path / "x"))
    assert r.returncode == 2 and "made for connect_four" in r.stderr and "cannot play tictactoe" in r.stderr
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())  # refused before any game


# ---- sims > 0: the batched search ---------------------------------------------------------
@needs_search
@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_an_untrained_network_with_search_plays_legal_moves_in_every_game_and_variant(tmp_path, name, variant):
    game = make_game(name, **variant)
    _, path = checkpoint(tmp_path, game)
    agent = make_agent(f"alphazero(path={path}, sims=8)", rng=0)
    agent.prepare(game)
    play_checked(game, agent, plies=12, seed=0)
    assert agent.last_stats.algorithm == "alphazero(puct)" and -1 <= agent.last_stats.value <= 1
    if name in ("tictactoe", "nine_mens_morris"):
        play_checked(game, make_agent(f"alphazero(path={path}, sims=16, rule=gumbel)", rng=1), plies=12, seed=1)


@needs_search
def test_with_search_a_checkpoint_round_trips_and_plays_identically(tmp_path):
    game = make_game("connect_four")
    _, path = checkpoint(tmp_path, game)
    loaded, _ = load_network(path, game)
    copy_path = save_network(tmp_path / "copy.pt", loaded, game, tiny(game))

    def moves(p):
        agent = make_agent(f"alphazero(path={p}, sims=24, temperature=1)", rng=3)
        other = RandomAgent(4)
        state, played = game.initial_state(), []
        while not game.is_terminal(state) and len(played) < 16:
            a = (agent if game.current_player(state) == 0 else other).act(game, state)
            played.append(a)
            state = game.apply(state, a)
        return played

    assert moves(path) == moves(copy_path) == moves(path)


@needs_search
def test_with_search_a_reseeded_agent_replays_its_game(tmp_path):
    """The search's generator comes from the agent's: the same seed, the same moves, in a reused agent too."""
    game = make_game("tictactoe")
    _, path = checkpoint(tmp_path, game)
    agent = make_agent(f"alphazero(path={path}, sims=16, temperature=1)", rng=0)

    def game_moves(seed):
        agent.seed(seed)
        return [m.action for m in play_match(game, [agent, RandomAgent(seed)]).moves]

    first = game_moves(11)
    assert game_moves(12) != first or game_moves(13) != first
    assert game_moves(11) == first


@needs_search
@pytest.mark.parametrize("name", ["tictactoe", "nine_mens_morris"])
def test_the_tree_is_kept_between_the_agents_moves(tmp_path, name):
    """Through a whole game (Morris: with removals, two moves in a row by one side) the agent
    re-roots only at the start: every later position is reached by advancing its kept tree."""
    game = make_game(name)
    _, path = checkpoint(tmp_path, game)
    agent = make_agent(f"alphazero(path={path}, sims=8)", rng=0)
    agent.act(game, game.initial_state())
    search = agent._search[1]
    calls = []
    set_root, advance = search.set_root, search.advance
    search.set_root = lambda lane, state, seed=None: (calls.append(("set_root", None)), set_root(lane, state, seed))[1]
    search.advance = lambda lane, action: (calls.append(("advance", int(action))), advance(lane, action))[1]
    run, kept = search.run, []
    search.run = lambda *args, **kwargs: (kept.append(search.tree_size(0)), run(*args, **kwargs))[1]
    agent.reset()
    play_checked(game, agent, plies=400, seed=0)
    assert calls[0] == ("set_root", None) and all(kind == "advance" for kind, _ in calls[1:])
    assert len(calls) > 3
    assert kept[0] == 1 and max(kept[1:]) > 1  # later searches start from a kept subtree, not a bare root
    calls.clear()
    agent.act(game, game.initial_state())  # not a descendant of the kept root: a fresh root
    assert calls == [("set_root", None)]
