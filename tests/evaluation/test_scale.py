"""The rated ladders: the anchored Bradley-Terry fit, placement, the files, the commands."""

from __future__ import annotations

import json
import math
import shlex
from dataclasses import replace

import numpy as np
import pytest

import zerosum
from zerosum.cli import main
from zerosum.evaluation.placement import BEYOND_GAMES, PlacementError, fit_policy, next_rung, place, rate
from zerosum.evaluation.ratings import ELO, expected_score, fit_fixed
from zerosum.evaluation.scale import (Ladder, LadderError, PairResult, Rung, ladder, load_ladder,
                                      save_ladder, shipped)
from zerosum.evaluation.scale_build import allocate_games, build_ladder, ladder_pairs, ladder_tasks, pair_costs
from zerosum.games import make_game


def synthetic_games(elos: list[float], pairs: list[tuple[int, int]], n: int, rng: np.random.Generator,
                    draw: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    """Score and count matrices of ``n`` games a pair drawn from the logistic model with draws."""
    k = len(elos)
    wins, count = np.zeros((k, k)), np.zeros((k, k))
    for a, b in pairs:
        p = expected_score(elos[a], elos[b])
        for _ in range(n):
            u = rng.random()
            s = 0.5 if u < draw else (1.0 if rng.random() < (p - draw / 2) / (1 - draw) else 0.0)
            wins[a, b] += s
            wins[b, a] += 1 - s
            count[a, b] += 1
            count[b, a] += 1
    return wins, count


def test_the_anchored_fit_recovers_known_ratings_from_synthetic_games() -> None:
    truth = [0.0, 150.0, 320.0, 430.0, 600.0, 720.0]
    rng = np.random.default_rng(3)
    wins, count = synthetic_games(truth, ladder_pairs(len(truth), 2), 2000, rng)
    fitted = fit_fixed(wins, count, {0: 0.0}) * ELO
    assert fitted[0] == 0.0
    assert np.max(np.abs(fitted - np.array(truth))) < 40, fitted


def test_a_pair_won_every_game_stays_finite_with_virtual_draws() -> None:
    wins = np.array([[0.0, 0.0], [10.0, 0.0]])
    count = np.array([[0.0, 10.0], [10.0, 0.0]])
    r = fit_fixed(wins, count, {0: 0.0}, virtual_draws=1.0) * ELO
    assert 300 < r[1] < 800                 # 10.5 of 11: about 520 Elo, not infinite


def tiny_ladder(elos: list[float], half_width: float = 20.0) -> Ladder:
    rungs = tuple(Rung("random" if i == 0 else f"alphabeta(depth={i})", e, e - half_width, e + half_width,
                       "alphabeta", float(i)) for i, e in enumerate(elos))
    return Ladder("tictactoe", "tictactoe_v0", {}, rungs, (), {"opening_plies": 1})


def test_placement_recovers_a_synthetic_policy() -> None:
    lad = tiny_ladder([0.0, 200.0, 400.0, 600.0, 800.0, 1000.0])
    rng = np.random.default_rng(0)
    true_elo = 530.0
    played: list[str] = []

    def play(rung: str, n: int, k: int) -> tuple[float, int, str | None]:
        played.append(rung)
        p = expected_score(true_elo, lad.rung(rung).elo)
        return float(rng.binomial(n, p)), n, None

    elo, se, results = place(lad, play, games=400, round_games=10)
    assert abs(elo - true_elo) < 2.5 * se + 20, (elo, se)
    assert 1.96 * se < 60                    # 400 games: about +-50 Elo
    # adaptive: most games go to the rungs nearest the policy
    near = results.get("alphabeta(depth=2)", (0, 0))[1] + results.get("alphabeta(depth=3)", (0, 0))[1]
    assert near > 0.6 * 400, results
    assert next_rung(lad, 610.0) == "alphabeta(depth=3)"


@pytest.mark.parametrize("true_elo, beyond", [(1400.0, "above"), (-500.0, "below")])
def test_a_policy_beyond_the_scale_stops_early_and_is_reported_so(true_elo, beyond) -> None:
    lad = tiny_ladder([0.0, 200.0, 400.0])
    rng = np.random.default_rng(1)

    def play(rung: str, n: int, k: int) -> tuple[float, int, str | None]:
        return float(rng.binomial(n, expected_score(true_elo, lad.rung(rung).elo))), n, None

    elo, se, results = place(lad, play, games=400, round_games=10)
    played = sum(n for _, n in results.values())
    assert BEYOND_GAMES <= played < 400, played
    low, high = elo - 1.96 * se, elo + 1.96 * se     # the 95% interval rate() reports: wholly beyond
    assert (low > 400.0) if beyond == "above" else (high < 0.0), (elo, se)


def test_a_policy_just_above_the_top_plays_its_whole_budget() -> None:
    lad = tiny_ladder([0.0, 200.0, 400.0])
    rng = np.random.default_rng(2)

    def play(rung: str, n: int, k: int) -> tuple[float, int, str | None]:
        return float(rng.binomial(n, expected_score(430.0, lad.rung(rung).elo))), n, None

    _, _, results = place(lad, play, games=200, round_games=10)
    assert sum(n for _, n in results.values()) == 200


def test_fit_policy_is_finite_after_all_wins_and_its_error_shrinks_with_games() -> None:
    lad = tiny_ladder([0.0, 200.0, 400.0])
    e1, _ = fit_policy(lad, {"alphabeta(depth=2)": (10.0, 10)})
    assert math.isfinite(e1) and e1 > 400
    _, s2 = fit_policy(lad, {"alphabeta(depth=2)": (50.0, 100)})
    _, s3 = fit_policy(lad, {"alphabeta(depth=2)": (200.0, 400)})
    assert s3 < s2


def test_a_round_with_a_fault_ends_the_placement_keeping_its_games() -> None:
    lad = tiny_ladder([0.0, 200.0, 400.0])
    calls = []

    def play(rung: str, n: int, k: int) -> tuple[float, int, str | None]:
        calls.append(k)
        return (n / 2, n, None) if k < 2 else (1.0, n, "policy raised ValueError: boom")

    with pytest.raises(PlacementError, match="boom") as err:
        place(lad, play, games=100, round_games=10)
    assert calls == [0, 1, 2]
    assert err.value.partial is not None and err.value.partial.games == 30


def test_a_ladder_file_round_trips_and_another_env_version_is_refused(tmp_path) -> None:
    lad = replace(tiny_ladder([0.0, 250.0]), pairs=(PairResult("random", "alphabeta(depth=1)", 100, 10, 20, 70),))
    path = save_ladder(lad, tmp_path / "ttt.json")
    back = load_ladder(path)
    assert back == lad
    assert back.pairs[0].score == pytest.approx(0.2)
    data = json.loads(path.read_text())
    data["env"] = "tictactoe_v9"
    path.write_text(json.dumps(data))
    with pytest.raises(LadderError, match="written for tictactoe_v9.*tictactoe_v0.*rebuild"):
        load_ladder(path)


@pytest.mark.parametrize(("content", "message"), [
    ("not json", "not a readable ladder file"),
    ("[1, 2]", "holds a JSON object"),
    ('{"format": 99}', "format 99"),
    ('{"format": 1, "game": "tictactoe"}', "malformed ladder file"),
])
def test_bad_ladder_files_get_clear_errors(tmp_path, content, message) -> None:
    p = tmp_path / "bad.json"
    p.write_text(content)
    with pytest.raises(LadderError, match=message):
        load_ladder(p)


def test_bad_input_to_the_ladder_functions() -> None:
    with pytest.raises(LadderError, match="no ladder file"):
        ladder("tictactoe", "/nonexistent/ladder.json")
    with pytest.raises(LadderError, match="by game name"):
        ladder("no_such_game")
    with pytest.raises(LadderError, match="an int >= 2"):
        rate("random", "tictactoe", games=1)
    with pytest.raises(LadderError, match="even int"):
        rate("random", "tictactoe", games=10, round_games=3)
    with pytest.raises(LadderError, match="start with 'random'"):
        build_ladder(make_game("tictactoe"), ["alphabeta(depth=1)", "random"], store_path="/tmp/unused.sqlite")
    with pytest.raises(LadderError, match="games a pair"):
        build_ladder(make_game("tictactoe"), ["random", "alphabeta(depth=1)"], games=3, store_path="/x.sqlite")


def test_ladder_tasks_alternate_seats_on_paired_openings() -> None:
    game = make_game("connect_four")
    pairs = ladder_pairs(4, 2)
    assert pairs == [(0, 1), (1, 2), (2, 3), (0, 2), (1, 3)]
    tasks = ladder_tasks(game, pairs, games=4, seed=5, opening_plies=2)
    assert len(tasks) == 20
    by = {(t.pairing, t.game_index): t for t in tasks}
    for p, (a, b) in enumerate(pairs):
        assert by[(p, 0)].seats == (a, b) and by[(p, 1)].seats == (b, a)
        assert by[(p, 0)].opening == by[(p, 1)].opening and len(by[(p, 0)].opening) == 2
    assert by[(0, 0)].opening != by[(0, 2)].opening or by[(1, 0)].opening != by[(1, 2)].opening


def test_games_go_to_the_cheaper_pairs_in_inverse_square_root_of_their_cost() -> None:
    # the costliest pair keeps the floor; 4x cheaper plays 2x, 100x cheaper 10x, up to the most
    assert allocate_games([2.0, 0.5, 0.02, 0.0], 100, 800) == [100, 200, 800, 800]
    assert allocate_games([2.0, 0.5, 0.02], 100, 1000) == [100, 200, 1000]
    assert allocate_games([1.0, 0.9], 4, 10) == [4, 6]                  # rounded up to an even count
    assert allocate_games([1.0, 1.0], 100, 100) == [100, 100]
    with pytest.raises(LadderError, match="even"):
        allocate_games([1.0], 100, 99)
    with pytest.raises(LadderError, match="most games a pair"):
        build_ladder(make_game("tictactoe"), ["random", "alphabeta(depth=1)"], games=4, max_games=2,
                     store_path="/x.sqlite")


def test_ladder_tasks_take_one_count_a_pair_and_keep_each_game() -> None:
    game = make_game("connect_four")
    pairs = ladder_pairs(3, 2)
    uniform = {(t.pairing, t.game_index): t for t in ladder_tasks(game, pairs, 6, seed=5, opening_plies=2)}
    uneven = ladder_tasks(game, pairs, [2, 6, 4], seed=5, opening_plies=2)
    assert sorted((t.pairing, t.game_index) for t in uneven) == sorted(
        (p, k) for p, n in enumerate([2, 6, 4]) for k in range(n))
    assert all(t == uniform[(t.pairing, t.game_index)] for t in uneven)   # game k of a pair is one game


def test_a_build_with_a_most_plays_more_on_the_cheaper_pairs_and_resumes(tmp_path) -> None:
    game = make_game("tictactoe")
    rungs = ["random", "alphabeta(depth=1)", "alphabeta(depth=9)"]
    store = tmp_path / "ladder.sqlite"
    build = {"games": 4, "seed": 1, "opening_plies": 1, "store_path": store, "bootstrap": 20}
    lad = build_ladder(game, rungs, max_games=12, **build)
    from zerosum.evaluation.store import Store

    st = Store(store)
    try:
        expected = allocate_games(pair_costs(st, 4, 3), 4, 12)
        stored = len(st.games())
    finally:
        st.close()
    assert [p.games for p in lad.pairs] == expected and stored == sum(expected)
    assert all(4 <= n <= 12 and n % 2 == 0 for n in expected) and 4 in expected
    assert lad.built["games_per_pair"] == 4 and lad.built["max_games"] == 12
    again = build_ladder(game, rungs, max_games=12, **build)             # the same counts, nothing replayed
    assert again.rungs == lad.rungs and again.pairs == lad.pairs
    floor = build_ladder(game, rungs, **build)                           # without a most: the first 4 a pair
    assert [p.games for p in floor.pairs] == [4, 4, 4] and "max_games" not in floor.built


def test_a_tiny_build_resumes_from_its_store_and_places_a_policy(tmp_path) -> None:
    game = make_game("tictactoe")
    rungs = ["random", "alphabeta(depth=1)", "alphabeta(depth=9)"]
    store = tmp_path / "ladder.sqlite"
    lad = build_ladder(game, rungs, games=6, seed=1, opening_plies=1, store_path=store, bootstrap=50)
    assert [r.spec for r in lad.rungs] == rungs and lad.rungs[0].elo == 0.0
    assert [(p.a, p.b, p.games) for p in lad.pairs] == [
        ("random", "alphabeta(depth=1)", 6), ("alphabeta(depth=1)", "alphabeta(depth=9)", 6),
        ("random", "alphabeta(depth=9)", 6)]
    assert lad.rungs[2].elo > 0 and lad.env == "tictactoe_v0"
    again = build_ladder(game, rungs, games=6, seed=1, opening_plies=1, store_path=store, bootstrap=50)
    assert again.rungs == lad.rungs and again.pairs == lad.pairs   # nothing replayed: the same games
    fewer = build_ladder(game, rungs, games=4, seed=1, opening_plies=1, store_path=store, bootstrap=50)
    assert [p.games for p in fewer.pairs] == [4, 4, 4]              # the first 4 of each pair's 6
    more = build_ladder(game, rungs, games=8, seed=1, opening_plies=1, store_path=store, bootstrap=50)
    assert [p.games for p in more.pairs] == [8, 8, 8]               # extended: 2 more a pair, none replayed
    path = save_ladder(lad, tmp_path / "ttt.json")
    r = rate("alphabeta(depth=9)", "tictactoe", games=6, seed=2, ladder_path=path, round_games=2)
    assert r.games == 6 and r.env == "tictactoe_v0" and sum(g.games for g in r.per_rung) == 6
    assert r.low <= r.elo <= r.high
    assert r.cost["seconds"] >= 0 and r.cost.get("nodes", 1) > 0
    assert "Elo" in str(r) or r.beyond is not None


def test_an_agent_that_raises_ends_the_placement_with_its_error(tmp_path) -> None:
    game = make_game("tictactoe")
    path = save_ladder(build_ladder(game, ["random", "alphabeta(depth=1)"], games=2, opening_plies=1,
                                    store_path=tmp_path / "l.sqlite", bootstrap=10), tmp_path / "l.json")
    moves = []

    def flaky(obs):
        moves.append(1)
        if len(moves) > 6:
            raise RuntimeError("flaky policy")
        return int(np.flatnonzero(obs["action_mask"])[0])

    with pytest.raises(PlacementError, match="flaky policy") as err:
        rate(flaky, "tictactoe", games=20, ladder_path=path, round_games=2)
    assert err.value.partial is not None and 0 < err.value.partial.games < 20


def test_a_time_budget_is_found_in_a_spec_an_agent_and_what_it_wraps() -> None:
    from zerosum.agents import make_agent
    from zerosum.evaluation.placement import time_budgeted

    for spec in ("alphabeta(time=0.1)", "mcts(time=0.05, c=0.7)", "noisy(base=alphabeta(time=0.1), epsilon=0.1)"):
        assert time_budgeted(spec) and time_budgeted(make_agent(spec, rng=0)), spec
    for spec in ("random", "alphabeta(depth=2)", "alphabeta(nodes=1000)", "mcts(sims=64)",
                 "noisy(base=alphabeta(depth=1), epsilon=0.5)", "no such agent(", ""):
        assert not time_budgeted(spec), spec
    assert not time_budgeted(lambda obs: 0) and not time_budgeted(None)


def test_a_forced_tier_holds_for_its_block_and_is_restored_after_an_error(monkeypatch) -> None:
    import os

    from zerosum.games.kit.tiers import forced, tier

    monkeypatch.delenv("ZEROSUM_TIER", raising=False)
    with pytest.raises(RuntimeError, match="inside"), forced("inline"):
        assert tier() == "inline" and os.environ["ZEROSUM_TIER"] == "inline"
        raise RuntimeError("inside")
    assert "ZEROSUM_TIER" not in os.environ and tier() == "auto"
    monkeypatch.setenv("ZEROSUM_TIER", "generic")
    with forced("inline"):
        assert tier() == "inline"
    assert tier() == "generic"
    with pytest.raises(ValueError, match="one of auto, inline, generic"), forced("fast"):
        pass


def test_a_time_budgeted_placement_runs_the_games_own_copy_unless_the_tier_is_set(monkeypatch, tmp_path) -> None:
    """A time budget's strength is the speed of its code: placement forces the game's own compiled
    copy in the auto tier (here recorded, not compiled), and leaves a tier the user set alone."""
    from contextlib import contextmanager

    import zerosum.evaluation.placement as placement

    game = make_game("tictactoe")
    path = save_ladder(build_ladder(game, ["random", "alphabeta(depth=1)"], games=2, opening_plies=1,
                                    store_path=tmp_path / "l.sqlite", bootstrap=10), tmp_path / "l.json")
    asked: list[str] = []

    @contextmanager
    def record(value):
        asked.append(value)
        yield

    chosen = ["auto"]  # the tier placement sees; the games play on the suite's own (a process's auto
    monkeypatch.setattr(placement, "forced", record)  # choice is made once, and would outlive this test)
    monkeypatch.setattr(placement, "tier", lambda: chosen[0])
    rate("alphabeta(time=0.002)", "tictactoe", games=2, ladder_path=path, round_games=2)
    rate("alphabeta(depth=1)", "tictactoe", games=2, ladder_path=path, round_games=2)
    assert asked == ["inline"]
    chosen[0] = "generic"
    rate("alphabeta(time=0.002)", "tictactoe", games=2, ladder_path=path, round_games=2)
    assert asked == ["inline"]


def test_a_long_build_runs_the_games_own_copy(record_jobs, tmp_path) -> None:
    """A build asks tiers.for_job with the games it has left to play, and says so when it runs on the
    game's own copy."""
    import zerosum.evaluation.scale_build as scale_build

    game = make_game("tictactoe")
    asked = record_jobs(9, scale_build)
    notes: list[str] = []
    rungs = ["random", "mcts(sims=4)", "alphabeta(depth=1)"]
    build = {"games": 4, "opening_plies": 1, "store_path": tmp_path / "l.sqlite", "bootstrap": 10,
             "note": notes.append}
    build_ladder(game, rungs, **build)                                  # 3 pairs x 4 games
    assert asked == [12] and any("12 games to play" in n and "own compiled" in n for n in notes)
    build_ladder(game, rungs, **build)                                  # nothing left to play
    build_ladder(game, [*rungs, "alphabeta(depth=2)"], **build)         # 2 new pairs x 4 games
    assert asked == [12, 0, 8] and sum("games to play" in n for n in notes) == 1


def test_a_build_grows_by_rungs_on_top_keeping_every_game_played(tmp_path) -> None:
    from zerosum.evaluation.store import ConfigMismatchError, Store

    game = make_game("tictactoe")
    low = ["random", "mcts(sims=4)", "alphabeta(depth=1)"]
    store = tmp_path / "ladder.sqlite"
    first = build_ladder(game, low, games=4, seed=1, opening_plies=1, store_path=store, bootstrap=20,
                         command="zerosum ladder build tictactoe --games 4")
    with Store(store) as s:
        before = {(int(g["pairing"]), int(g["game_index"])): (g["seed"], g["score0"], g["length"]) for g in s.games()}
    grown = build_ladder(game, [*low, "alphabeta(depth=9)"], games=4, seed=1, opening_plies=1, store_path=store,
                         bootstrap=20, command="zerosum ladder build tictactoe --games 4")
    with Store(store) as s:
        after = {(int(g["pairing"]), int(g["game_index"])): (g["seed"], g["score0"], g["length"]) for g in s.games()}
        assert s.pairings() == [(0, 1), (1, 2), (0, 2), (2, 3), (1, 3)]   # the old pairs keep their numbers
    assert {k: after[k] for k in before} == before and len(after) == 5 * 4   # none replayed, two pairs added
    assert [(p.a, p.b) for p in grown.pairs][:3] == [(p.a, p.b) for p in first.pairs]
    assert grown.built["stages"] == [3, 4]
    assert grown.built["command"] == ("zerosum ladder build tictactoe --games 4 --rungs 'random; mcts(sims=4); "
                                      "alphabeta(depth=1)' && zerosum ladder build tictactoe --games 4")
    # the stages' commands, run in turn on an empty store, play the same games
    fresh = tmp_path / "again.sqlite"
    build_ladder(game, low, games=4, seed=1, opening_plies=1, store_path=fresh, bootstrap=20)
    again = build_ladder(game, [*low, "alphabeta(depth=9)"], games=4, seed=1, opening_plies=1, store_path=fresh,
                         bootstrap=20)
    rated = [(r.spec, r.elo, r.low, r.high) for r in grown.rungs]
    assert [(r.spec, r.elo, r.low, r.high) for r in again.rungs] == rated
    assert again.pairs == grown.pairs   # the same games (their times aside)
    # resuming the grown build replays nothing; a list that is not the stored one plus rungs on top is refused
    assert build_ladder(game, [*low, "alphabeta(depth=9)"], games=4, seed=1, opening_plies=1, store_path=store,
                        bootstrap=20).pairs == grown.pairs
    with pytest.raises(ConfigMismatchError, match=r"another configuration.*not leave any out \(\['mcts\(sims=4\)'\]\)"):
        build_ladder(game, ["random", "alphabeta(depth=1)", "alphabeta(depth=9)"], games=4, seed=1, opening_plies=1,
                     store_path=store, bootstrap=20)
    # a store from before stages were kept gets its first command from what it holds
    with Store(fresh) as s, s.conn:
        cfg = s.config()["config"]
        s.conn.execute("UPDATE config SET value=? WHERE key='config'",
                       (json.dumps({k: v for k, v in cfg.items() if k != "stages"}),))
        s.conn.execute("DELETE FROM config WHERE key='fingerprint'")
        s.conn.execute("INSERT INTO config VALUES ('fingerprint', ?)", (json.dumps(
            {"kind": "ladder", "game": "tictactoe", "variant": "[]", "rungs": low, "reach": 2, "seed": 1,
             "opening_plies": 1}),))
        s.conn.execute("DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE pairing > 2)")
        s.conn.execute("DELETE FROM games WHERE pairing > 2")
        s.conn.execute("DELETE FROM pairings WHERE id > 2")
        s.conn.execute("DELETE FROM agents WHERE id > 2")
    old = build_ladder(game, [*low, "alphabeta(depth=9)"], games=4, seed=1, opening_plies=1, store_path=fresh,
                       bootstrap=20, command="zerosum ladder build tictactoe --games 4")
    assert old.built["command"].startswith("zerosum ladder build tictactoe --games 4 --reach 2 --seed 1 --openings 1 "
                                           "--rungs 'random; mcts(sims=4); alphabeta(depth=1)' && ")
    assert old.pairs == grown.pairs


def test_a_build_grows_by_a_rung_between_two_and_by_a_new_order_keeping_every_game_played(tmp_path) -> None:
    """A bridging rung goes where it bridges, and a list goes into the order its ratings gave it,
    without a game played again: the stored rungs and pairs keep their numbers."""
    from zerosum.evaluation.store import Store

    game = make_game("tictactoe")
    first = ["random", "mcts(sims=4)", "alphabeta(depth=1)", "alphabeta(depth=9)"]
    store = tmp_path / "ladder.sqlite"
    build_ladder(game, first, games=4, seed=1, opening_plies=1, store_path=store, bootstrap=20,
                 command="zerosum ladder build tictactoe --games 4")
    with Store(store) as s:
        before = {(int(g["pairing"]), int(g["game_index"])): (g["seed"], g["score0"], g["length"]) for g in s.games()}
    bridged = ["random", "mcts(sims=4)", "alphabeta(depth=1)", "alphabeta(depth=2)", "alphabeta(depth=9)"]
    lad = build_ladder(game, bridged, games=4, seed=1, opening_plies=1, store_path=store, bootstrap=20,
                       command="zerosum ladder build tictactoe --games 4")
    with Store(store) as s:
        after = {(int(g["pairing"]), int(g["game_index"])): (g["seed"], g["score0"], g["length"]) for g in s.games()}
        # depth 2 is agent 4, after the stored four; the pairs this list lacks come after the stored five
        assert [n for n, _ in s.agents()] == [*first, "alphabeta(depth=2)"]
        assert s.pairings() == [(0, 1), (1, 2), (2, 3), (0, 2), (1, 3), (2, 4), (4, 3), (1, 4)]
    assert {k: after[k] for k in before} == before and len(after) == 8 * 4
    # the ladder lists the rungs in the build's order; the stored pair now three apart stays in its table
    assert [r.spec for r in lad.rungs] == bridged and lad.rungs[0].elo == 0.0
    assert ("mcts(sims=4)", "alphabeta(depth=9)") in {(p.a, p.b) for p in lad.pairs}
    assert ("alphabeta(depth=2)", "alphabeta(depth=9)") in {(p.a, p.b) for p in lad.pairs}
    assert lad.built["command"] == (f"zerosum ladder build tictactoe --games 4 --rungs {shlex.quote('; '.join(first))}"
                                    " && zerosum ladder build tictactoe --games 4")
    # a new order of the same rungs plays only the pairs it makes: here none, as depth 1 and MCTS
    # swap places and every pair the new order needs was played
    reordered = ["random", "alphabeta(depth=1)", "mcts(sims=4)", "alphabeta(depth=2)", "alphabeta(depth=9)"]
    again = build_ladder(game, reordered, games=4, seed=1, opening_plies=1, store_path=store, bootstrap=20,
                         command="zerosum ladder build tictactoe --games 4")
    with Store(store) as s:
        assert s.pairings() == [(0, 1), (1, 2), (2, 3), (0, 2), (1, 3), (2, 4), (4, 3), (1, 4)] and s.count() == 32
    assert [r.spec for r in again.rungs] == reordered
    by_spec = {r.spec: r.elo for r in again.rungs}
    assert by_spec == {r.spec: r.elo for r in build_ladder(game, reordered, games=4, seed=1, opening_plies=1,
                                                             store_path=store, bootstrap=20).rungs}
    # the stages' commands, run in turn on an empty store, play the same games
    fresh = tmp_path / "again.sqlite"
    for rungs in (first, bridged, reordered):
        rebuilt = build_ladder(game, rungs, games=4, seed=1, opening_plies=1, store_path=fresh, bootstrap=20)
    assert [(r.spec, r.elo, r.low, r.high) for r in rebuilt.rungs] == [(r.spec, r.elo, r.low, r.high)
                                                                         for r in again.rungs]
    assert rebuilt.pairs == again.pairs


def test_every_built_in_game_ships_a_ladder() -> None:
    """Issue 56: every game zerosum ships is rated; a new game lands with its ladder."""
    from zerosum.games.registry import GAMES

    built_in = {name for name, where in GAMES.items() if isinstance(where, str) and where.startswith("zerosum.games.")}
    assert len(built_in) == 22 and sorted(built_in - set(shipped())) == []


@pytest.mark.parametrize("game", shipped())
def test_every_shipped_ladder_loads_starts_at_random_and_has_its_pairs(game) -> None:
    lad = zerosum.ladder(game)
    assert lad.rungs[0].spec == "random" and lad.rungs[0].elo == 0.0
    assert all(r.low <= r.elo <= r.high for r in lad.rungs)
    names = {r.spec for r in lad.rungs}
    assert all(p.a in names and p.b in names and p.games >= 100 for p in lad.pairs)
    assert lad.built["command"].startswith("zerosum ladder build ")
    assert lad.top.elo > 0


@pytest.mark.parametrize("game", shipped())
def test_every_shipped_ladder_s_rebuild_command_names_its_rungs(game) -> None:
    """The last stage's command either lists the rungs or builds the game's own list: the rebuild
    command plays the shipped rungs, not a list changed since."""
    from zerosum.evaluation.scale_build import default_rungs
    from zerosum.values import split_top_level

    lad = zerosum.ladder(game)
    last = shlex.split(lad.built["command"].split(" && ")[-1])
    rungs = split_top_level(last[last.index("--rungs") + 1]) if "--rungs" in last else default_rungs(make_game(game))
    assert [r.spec for r in lad.rungs] == list(rungs)


def test_the_commands_show_a_ladder_and_place_an_agent(capsys, tmp_path) -> None:
    assert main(["ladder", "show"]) == 0
    assert "tictactoe" in capsys.readouterr().out
    assert main(["ladder", "show", "tictactoe", "--pairs"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "rebuild: zerosum ladder build tictactoe" in out
    target = tmp_path / "r.json"
    assert main(["evaluate", "alphabeta(depth=1)", "--game", "tictactoe", "--ladder", "--games", "4",
                 "--json", str(target)]) == 0
    doc = json.loads(target.read_text())
    assert doc["env"] == "tictactoe_v0" and doc["ratings"][0]["games"] == 4
    assert main(["evaluate", "random", "--game", "tictactoe", "--ladder", "--opponents", "random"]) == 2
    assert "leave out --opponents" in capsys.readouterr().err
    assert main(["ladder", "show", "no_such_game"]) == 2
    assert main(["ladder", "build", "tictactoe", "--games", "0"]) == 2
    assert "--games 0" in capsys.readouterr().err
    assert main(["ladder", "build", "tictactoe", "--games", "10", "--max-games", "8"]) == 2
    assert "--max-games 8: an even number >= --games (10)" in capsys.readouterr().err


def test_ladder_build_from_the_command_line_writes_a_file(tmp_path, capsys) -> None:
    out = tmp_path / "ttt.json"
    assert main(["ladder", "build", "tictactoe", "--rungs", "random; alphabeta(depth=1)", "--games", "2",
                 "--dir", str(tmp_path / "store"), "--output", str(out), "--quiet", "--bootstrap", "10"]) == 0
    lad = load_ladder(out)
    assert [r.spec for r in lad.rungs] == ["random", "alphabeta(depth=1)"]
    assert lad.built["command"].startswith("zerosum ladder build tictactoe --rungs")
