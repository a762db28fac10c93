"""The two tiers of the compiled searches (zerosum.search.compiled): a copy with the game's
rules inlined, and one generic copy for every game over zerosum.games.kit.generic, calling
the rules through their addresses. They run the same code on the same rules: values,
moves, principal variations and node counts are equal, and the tier is chosen as documented."""

import time
from pathlib import Path

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.games.kit import Heuristic, generic, tiers
from zerosum.games.kit.specialize import specialize
from zerosum.search import MCTS, AlphaBeta, compiled, minimax
from zerosum.testing import random_positions


def results(game, positions, tier, monkeypatch, **options):
    monkeypatch.setenv("ZEROSUM_TIER", tier)
    out = []
    for s in positions:
        engine = AlphaBeta(game, **options)
        assert engine._kernels is (compiled.generic_for() if tier == "generic" else compiled.for_game(game))
        r = engine.search(s, 3)
        out.append((r.value, r.action, r.pv, r.stats.nodes, r.stats.leaves, r.stats.cutoffs))
    return out


@pytest.mark.parametrize("name", ["connect_four", "pentago", "nine_mens_morris"])
def test_alphabeta_is_the_same_in_both_tiers(name, monkeypatch):
    game = make_game(name)
    positions = random_positions(game, 6, seed=3, max_plies=14)
    assert results(game, positions, "generic", monkeypatch) == results(game, positions, "inline", monkeypatch)


def test_minimax_mcts_and_a_python_heuristic_are_the_same_in_both_tiers(monkeypatch):
    game = make_game("tictactoe")
    s = game.apply(game.initial_state(), 4)
    python_h = Heuristic("centre", lambda params, state, player: float(state[0] % 3) - 1.0)
    runs = {}
    for tier in ("generic", "inline"):
        monkeypatch.setenv("ZEROSUM_TIER", tier)
        m = minimax(game, s, 4)
        t = MCTS(game, rollout="greedy", heuristic="lines").search(s, sims=300, seed=7)
        p = AlphaBeta(game, python_h).search(s, 3)
        runs[tier] = [(m.value, m.pv, m.stats.nodes), (t.value, t.action, t.stats.nodes), (p.value, p.pv)]
    assert runs["generic"] == runs["inline"]


def test_the_generic_params_carry_the_game_behind_a_header():
    game = make_game("connect_four")
    h = game.heuristic(None).fn
    params = generic.generic_params(game.kernels, game.params, h)
    assert not params.flags.writeable and params.dtype == np.int64
    assert list(params[generic.HEADER:]) == list(game.params)
    assert (params[: generic.HEADER] != 0).all()  # every kernel and the heuristic has both addresses
    s = game.initial_state()
    out = np.empty(game.max_moves, np.int64)
    assert generic.legal(params, s, out) == 7 and list(out[:7]) == list(range(7))
    assert generic.heuristic(params, s, 0) == h(game.params, s, 0)


def test_the_game_api_is_the_same_in_both_tiers(monkeypatch):
    """The hot calls of a new game run on the copy for every game until its own is compiled."""
    runs = {}
    for tier in ("generic", "inline"):
        monkeypatch.setenv("ZEROSUM_TIER", tier)
        game = make_game("nine_mens_morris")  # a removal turn: the same player moves twice
        rng = np.random.default_rng(5)
        s, seen = game.initial_state(), []
        while not game.is_terminal(s):
            legal = game.legal_actions(s)
            seen.append((tuple(legal), game.current_player(s)))
            s = game.apply(s, int(rng.choice(legal)))
        with pytest.raises(ValueError, match="not legal"):
            game.apply(game.initial_state(), 599)
        runs[tier] = (seen, game.returns(s))
    assert runs["generic"] == runs["inline"]


def test_auto_uses_an_inlined_copy_once_it_is_compiled(monkeypatch):
    game = make_game("tictactoe")
    monkeypatch.setenv("ZEROSUM_TIER", "inline")
    compiled.for_game(game)  # compiled (or loaded) in this process
    monkeypatch.setenv("ZEROSUM_TIER", "auto")
    assert tiers.copy_ready(compiled.TEMPLATE, game.kernels)
    assert not compiled.searcher(game, compiled.TEMPLATE, game.heuristic(None)).generic


def test_a_long_job_in_auto_runs_in_inline_and_a_short_one_or_a_set_tier_as_set(monkeypatch):
    import os

    monkeypatch.setattr(tiers, "LONG_JOB", 10)
    monkeypatch.setenv("ZEROSUM_TIER", "auto")
    with tiers.for_job(10) as own:
        assert own and os.environ["ZEROSUM_TIER"] == "inline"
    assert os.environ["ZEROSUM_TIER"] == "auto"
    with tiers.for_job(9) as own:
        assert not own and os.environ["ZEROSUM_TIER"] == "auto"
    monkeypatch.setenv("ZEROSUM_TIER", "generic")
    with tiers.for_job(10_000) as own:
        assert not own and os.environ["ZEROSUM_TIER"] == "generic"
    monkeypatch.setenv("ZEROSUM_TIER", "auto")
    with pytest.raises(RuntimeError, match="boom"), tiers.for_job(10):
        raise RuntimeError("boom")
    assert os.environ["ZEROSUM_TIER"] == "auto"


def test_a_bad_tier_is_refused(monkeypatch):
    monkeypatch.setenv("ZEROSUM_TIER", "fastest")
    with pytest.raises(ValueError, match="ZEROSUM_TIER='fastest': one of auto, inline, generic"):
        tiers.tier()


def test_a_background_compile_fills_the_cache_for_later_processes(tmp_path, monkeypatch):
    """The toy game and tiny template of test_specialize: auto finds no compiled copy, starts
    one compiling in the background (once: a second call finds the lock), and once it is
    done the copy is ready."""
    from tests.games.test_specialize import TINY_TEMPLATE, write_toy

    prefix = f"zs_bg_{abs(hash(str(tmp_path))) % 10**8}"
    write_toy(tmp_path, prefix)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("ZEROSUM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ZEROSUM_BACKGROUND_COMPILE", "1")
    monkeypatch.setenv("ZEROSUM_TIER", "auto")
    template = tmp_path / "_tiny_template.py"  # compiled when imported, as the searches' templates are
    template.write_text(TINY_TEMPLATE.replace("from numba import njit", "from numba import njit\n"
                                              "from zerosum.games.kit import STATUS")
                        .replace("@njit(cache=True)", "@njit(STATUS, cache=True)"))
    kernels = __import__(f"{prefix}_rules").KERNELS
    assert not tiers.copy_ready(template, kernels)
    assert tiers.use_generic(template, kernels, "the toy")  # and the compile starts
    assert not tiers.compile_in_background(template, kernels)  # one at a time
    locks = lambda: list((tmp_path / "cache" / "compiled").glob("*.compiling"))  # noqa: E731
    deadline = time.time() + 600
    while locks() and time.time() < deadline:
        time.sleep(0.5)
    assert not locks(), "the background compile did not finish"
    assert tiers.copy_ready(template, kernels)
    assert tiers.use_generic(template, kernels, "the toy")  # this process keeps its choice
    assert Path(specialize(template, kernels).__file__).parent == tmp_path / "cache" / "compiled"
