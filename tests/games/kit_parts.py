"""Checks the per-game test files share: the kit's engines, env and tools run on one game
(agents play legal moves, the vector env against an alpha-beta opponent, an untrained
AlphaZero agent plays a game out, a tournament with evaluate and ``replay --gif``, the env
docstring's table) and the OpenSpiel step-by-step comparison with the action names. Each
test file calls them with its own game, variants and expectations."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from zerosum.games import Game, State
from zerosum.testing import OpenSpielReport, compare_with_openspiel, openspiel_perft, perft


def play(game: Game, moves: str | Sequence[str], state: State | None = None) -> State:
    """Play ``moves`` (names ``string_to_action`` reads: a list, or one string of them split at
    spaces) from ``state``, by default the start."""
    s = game.initial_state() if state is None else state
    for m in moves.split() if isinstance(moves, str) else moves:
        s = game.apply(s, game.string_to_action(m, s))
    return s


def perft_counts(game: Game, depth: int) -> list[int]:
    """Perft from the start at each depth from 1 to ``depth``."""
    return [perft(game, game.initial_state(), d) for d in range(1, depth + 1)]


def openspiel_perft_counts(name: str, variant: dict[str, Any] | None, depth: int) -> list[int]:
    """OpenSpiel's perft of its game ``name`` (with ``variant``'s parameters) from the start at
    each depth from 1 to ``depth``; the test is skipped without pyspiel."""
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game(name, dict(variant or {})).new_initial_state()
    return [openspiel_perft(state, d) for d in range(1, depth + 1)]


def scripted_game_ends(game: Game, moves: str, outcome: Any, board: list[str]) -> State:
    """``moves`` (one string of names) from the start end the game with ``outcome``, its
    ``cells`` equal to ``board`` and no legal action left; no shorter run of them ends it.
    The final state."""
    s = play(game, moves)
    assert game.cells(s) == board, game.render(s)  # type: ignore[attr-defined]
    assert game.outcome(s) == outcome and game.is_terminal(s) and len(game.legal_actions(s)) == 0
    words = moves.split()
    for k in range(len(words)):
        assert not game.is_terminal(play(game, words[:k]))
    return s


def same_stones_as_openspiel(game: Game, s: State, os_state: Any) -> None:
    """``game.cells(s)`` (x, o and '.') equal OpenSpiel's text board of a connection game
    (Y, Havannah) read as rows of O (player 0), @ (player 1) and '.' after the column letters."""
    theirs = ["".join(ch for ch in line if ch in ".O@") for line in str(os_state).split("\n")[1:] if line.strip()]
    assert [row.replace("x", "O").replace("o", "@") for row in game.cells(s)] == theirs  # type: ignore[attr-defined]


def random_states(game: Game, count: int, seed: int | np.random.Generator,
                  max_plies: int | None = None) -> list[State]:
    """``count`` states, each after a random number (below ``max_plies``, default the game's
    maximum length) of random moves from the start; some may be terminal. ``seed`` may be a
    generator, which goes on from where it stands."""
    rng = np.random.default_rng(seed)
    out: list[State] = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(0, game.max_game_length if max_plies is None else max_plies))):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            s = game.apply(s, int(legal[rng.integers(len(legal))]))
        out.append(s)
    return out


def cross_check_with_names(game: Game, openspiel_game: Any, games: int, seed: Any,
                           same_board: Callable[[State, Any], None], **kwargs: Any) -> OpenSpielReport:
    """``compare_with_openspiel`` with the action played named alike on both sides at every step."""
    def same_name(s: State, os_state: Any, a: int) -> None:
        assert game.action_to_string(a, s) == os_state.action_to_string(a)

    return compare_with_openspiel(game, openspiel_game, games, seed, same_board, check_action=same_name, **kwargs)


def agents_play_legal_moves(game: Game, specs: Iterable[str], state: State) -> None:
    """Each agent spec, prepared for ``game``, answers a legal move in ``state`` (not terminal)."""
    from zerosum.agents import make_agent

    assert not game.is_terminal(state)
    legal = set(game.legal_actions(state).tolist())
    for spec in specs:
        agent = make_agent(spec, rng=0)
        agent.prepare(game)
        assert int(agent.act(game, state)) in legal, spec


def vector_env_with_an_alphabeta_opponent(env_name: str, lanes: int, steps: int, **variant: Any) -> None:
    """``make_vec`` against ``alphabeta(depth=1)``: random legal actions for ``steps`` steps,
    rewards only -1, 0 or 1, and at least one episode ends."""
    from zerosum.envs import make_vec

    env = make_vec(env_name, lanes, opponent="alphabeta(depth=1)", seed=0, **variant)
    env.reset()
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(steps):
        # a lane whose episode just ended has an empty mask: its next step resets it, whatever the action
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.action_masks()])
        _, reward, terminated, _, _ = env.step(actions)
        ends += int(terminated.sum())
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}
    assert ends > 0


def untrained_alphazero_plays_out(game: Game, tmp_path: Path) -> State:
    """An untrained one-block network saved and loaded as ``alphazero(path=..., sims=8)`` plays
    ``game`` from the start to its end; the final state."""
    import torch

    from zerosum.agents import make_agent
    from zerosum.nets import NetConfig, build_network, save_network

    torch.manual_seed(0)
    config = NetConfig(kind="resnet", blocks=1, channels=4, policy_channels=1, value_hidden=8)
    path = save_network(tmp_path / "net.pt", build_network(game, config), game, config)
    agent = make_agent(f"alphazero(path={path}, sims=8)", rng=0)
    agent.prepare(game)
    s = game.initial_state()
    while not game.is_terminal(s):
        s = game.apply(s, agent.act(game, s))
    return s


def tournament_evaluate_and_replay_gif(tmp_path: Path, game: str, agents: Sequence[str], evaluated: str,
                                       variant: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], int]:
    """A tournament of two agents, two games a pairing (both seats): 4 games stored, 8 in the
    standings, no faults; ``zerosum.evaluate(evaluated)`` against random, 2 games, reported;
    ``zerosum replay DB 1 --gif`` draws the start and one frame a move. Returns the standings
    and the GIF's frame count."""
    from PIL import Image

    import zerosum
    from zerosum.cli.replay import load_replay, replay_main
    from zerosum.evaluation import build_config, run_tournament
    from zerosum.evaluation.store import Store

    assert len(agents) == 2
    cfg = build_config({"game": game, "variant": dict(variant or {}), "agents": list(agents), "games_per_pairing": 2,
                        "workers": 1, "output": str(tmp_path / "t")})
    out = run_tournament(cfg, progress=False, plots=False, note=lambda _: None)
    standings = out.summary.standings()
    assert sum(row["games"] for row in standings) == 8 and all(row["faults"] == 0 for row in standings)
    with Store(out.database) as store:
        ids = store.game_ids()
    assert len(ids) == 4  # both seats
    report = zerosum.evaluate(evaluated, f"{game}_v0", opponents=["random"], games=2, seed=0, variant=variant)
    assert report.results[0].total.games == 2 and "random" in str(report)
    gif = tmp_path / "game.gif"
    assert replay_main([str(out.database), str(ids[0]), "--gif", str(gif)]) == 0 and gif.stat().st_size > 0
    with Image.open(gif) as im:
        frames = int(getattr(im, "n_frames", 1))  # a GIF of one frame has none
    assert frames == len(load_replay(str(out.database), str(ids[0])).actions) + 1
    return standings, frames


def env_docstring_table_matches_the_spaces(env_module: ModuleType) -> None:
    """The env module's docstring table gives its action count and observation shape."""
    env = env_module.env()
    doc = env_module.__doc__
    assert doc is not None
    assert re.search(rf"\| Action values\s+\| Discrete\({env.action_space('player_0').n}\)", doc)
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", doc)


def play_main_text(argv: Sequence[str], typed: Iterable[str]) -> str:
    """``zerosum play ARGV`` fed the ``typed`` lines: it exits 0; all it wrote, joined by newlines."""
    from zerosum.cli.play import play_main

    lines = iter(typed)
    out: list[str] = []
    assert play_main(list(argv), input_fn=lambda prompt: next(lines), output_fn=out.append) == 0
    return "\n".join(out)


def play_session_text(game: Game, typed: Iterable[str]) -> tuple[Any, str]:
    """A ``PlaySession`` on ``game``, the human player 0 against ``alphabeta(depth=1)`` with
    ``alphabeta(depth=2)`` for hints, fed the ``typed`` lines: it exits 0; the session and all
    it wrote, joined by newlines."""
    from zerosum.agents import make_agent
    from zerosum.cli.play import PlaySession

    lines = iter(typed)
    out: list[str] = []
    session = PlaySession(game, make_agent("alphabeta(depth=1)", rng=0), {0}, "alphabeta(depth=2)",
                          input_fn=lambda prompt: next(lines), output_fn=out.append)
    assert session.run() == 0
    return session, "\n".join(out)
