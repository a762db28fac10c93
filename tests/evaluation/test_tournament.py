"""Matches and tournaments: recording, faults, seats and openings, store, resume, bad input, backends."""

import doctest
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import zerosum.evaluation.match as match_mod
from zerosum.agents import AGENTS, Agent, make_agent
from zerosum.cli.common import UsageError, parse_variant
from zerosum.cli.tournament import tournament_main
from zerosum.evaluation.config import ConfigError, build_config, load_config
from zerosum.evaluation.match import ERROR, ILLEGAL, play_match, random_opening
from zerosum.evaluation.store import ConfigMismatchError, Store, StoreError
from zerosum.evaluation.tournament import pairings, prepare_all, run_tournament, schedule, validate
from zerosum.games import make_game

ROOT = Path(__file__).resolve().parents[2]
TTT = make_game("tictactoe")


class Crasher(Agent):
    """Plays the first legal move twice, then raises."""

    name = "crasher"

    def act(self, game, state):
        if len(game.legal_actions(state)) < 7:
            raise RuntimeError("boom")
        return int(game.legal_actions(state)[0])


class Cheater(Agent):
    """Plays on an occupied cell (or off the board) at its first move."""

    name = "cheater"

    def act(self, game, state):
        return 99


def tiny(tmp_path, **kw):
    raw = {"game": "tictactoe", "agents": ["random", "alphabeta(depth=2)"], "games_per_pairing": 2,
           "workers": 1, "output": str(tmp_path / "t"), **kw}
    return build_config(raw)


# ---- matches --------------------------------------------------------------------------------
def test_match_records_moves_and_search_statistics():
    agents = [make_agent("alphabeta(depth=9)", 1), make_agent("random", 2)]
    m = play_match(TTT, agents, opening=[4])
    assert m.opening == [4] and m.actions[0] == 4 and m.length == len(m.actions)
    assert [mv.ply for mv in m.moves] == list(range(1, m.length))
    first = m.moves[0]
    assert first.player == 1 and first.stats is None            # random has no statistics
    searched = m.moves[1]
    assert searched.player == 0 and searched.stats["nodes"] > 0 and searched.stats["depth"] >= 1
    assert searched.stats["pv"][0] == searched.move == TTT.action_to_string(searched.action)
    assert m.winner != 1 and m.termination == "end"


@pytest.mark.parametrize(("bad", "how", "text"), [(Crasher, ERROR, "RuntimeError: boom"),
                                                  (Cheater, ILLEGAL, "illegal action 99")])
@pytest.mark.parametrize("seat", [0, 1])
def test_faulty_agent_loses_and_is_recorded(bad, how, text, seat):
    agents = [make_agent("random", 0), make_agent("random", 1)]
    agents[seat] = bad()
    m = play_match(TTT, agents)
    assert m.termination == how and m.faulty_seat == seat and m.winner == 1 - seat
    assert text in m.error
    assert (m.traceback is not None) == (how == ERROR)
    if how == ERROR:
        assert "RuntimeError" in m.traceback


def test_random_opening_never_ends_the_game():
    nim = make_game("nim", piles=[1, 1])
    for seed in range(20):
        op = random_opening(nim, 5, seed)
        assert len(op) <= 1                                     # the second ply would take the last object
    assert len({tuple(random_opening(TTT, 3, s)) for s in range(20)}) > 10


def test_match_docstring_example():
    assert doctest.testmod(match_mod).failed == 0


# ---- tournaments ----------------------------------------------------------------------------
def test_both_seats_and_distinct_games_for_deterministic_agents(tmp_path):
    specs = ["alphabeta(depth=3, tie_break=off)", "alphabeta(depth=2, tie_break=off)"]
    cfg = tiny(tmp_path, agents=specs, games_per_pairing=4)
    out = run_tournament(cfg, progress=False, report=False, note=lambda _: None)
    store = Store(out.database)
    recs = [store.game_record(i) for i in store.game_ids()]
    assert len(recs) == 8 and {r.seats for r in recs} == {(0, 1), (1, 0)}
    for pairing in (0, 1):
        games = [tuple(r.actions) for r in recs if r.pairing == pairing]
        assert len(set(games)) == 4, "openings must make deterministic agents play different games"
    by_index = {}
    for r in recs:
        by_index.setdefault(r.game_index, set()).add(tuple(r.opening))
    assert all(len(ops) == 1 for ops in by_index.values()), "both seat orders share game k's opening"
    # without openings the same two deterministic agents replay one game per seat order
    cfg0 = tiny(tmp_path, agents=specs, games_per_pairing=3, opening_plies=0, output=str(tmp_path / "o"))
    store0 = Store(run_tournament(cfg0, progress=False, report=False, note=lambda _: None).database)
    assert len({tuple(store0.game_record(i).actions) for i in store0.game_ids()}) == 2


def test_a_long_tournament_or_evaluation_runs_the_games_own_copy(tmp_path, record_jobs):
    """A tournament or an evaluation asks tiers.for_job with the games it has left to play, and a
    tournament says so when it runs on the game's own copy."""
    import zerosum.evaluation.evaluate as evaluate_mod
    import zerosum.evaluation.tournament as tournament_mod

    asked = record_jobs(8, tournament_mod, evaluate_mod)
    notes: list[str] = []
    cfg = tiny(tmp_path, agents=["random", "alphabeta(depth=1)"], games_per_pairing=4)   # 2 pairings x 4
    run_tournament(cfg, progress=False, report=False, note=notes.append)
    assert asked == [8] and any("8 games to play" in n and "own compiled" in n for n in notes)
    run_tournament(cfg, progress=False, report=False, note=notes.append)                  # nothing left
    run_tournament(tiny(tmp_path, games_per_pairing=3, output=str(tmp_path / "short")), progress=False,
                   report=False, note=notes.append)
    assert asked == [8, 0, 6] and sum("games to play" in n for n in notes) == 1
    evaluate_mod.evaluate("random", "tictactoe", opponents=["random", "alphabeta(depth=1)"], games=3)
    assert asked == [8, 0, 6, 6]


def test_schedule_is_reproducible_and_balanced():
    cfg = build_config({"game": "tictactoe", "agents": ["random", "mcts(sims=5)", "alphabeta(depth=1)"],
                        "games_per_pairing": 3, "seed": 7})
    a, b = schedule(cfg, TTT), schedule(cfg, TTT)
    assert a == b and len(a) == 6 * 3 and pairings(3)[:2] == [(0, 1), (1, 0)]
    assert len({(t.pairing, t.game_index) for t in a}) == len(a)
    assert len({t.seed for t in a}) == len(a)


def test_faulty_agents_in_a_tournament_are_stored_and_reported(tmp_path, monkeypatch):
    monkeypatch.setitem(AGENTS, "crasher", (Crasher, ()))
    monkeypatch.setitem(AGENTS, "cheater", (Cheater, ()))
    cfg = tiny(tmp_path, agents=["random", "crasher", "cheater"], games_per_pairing=1)
    out = run_tournament(cfg, progress=False, plots=False, note=lambda _: None)
    games = Store(out.database).games()
    assert len(games) == 6
    faults = {(g["termination"], g["faulty_seat"] is not None) for g in games if g["error"]}
    assert (ERROR, True) in faults and (ILLEGAL, True) in faults
    assert any("boom" in (g["traceback"] or "") for g in games)
    s = out.summary
    assert s.agents[0].total.wins >= 3 and s.agents[1].faults >= 2 and s.agents[2].faults >= 2
    report = out.files["report"].read_text()
    assert "## Faults" in report and "boom" in report


def test_outputs_and_cli(tmp_path, capsys):
    out_dir = tmp_path / "cli"
    code = tournament_main(["--game", "tictactoe", "--agents", "random", "alphabeta(depth=2)", "random",
                            "--games", "2", "--workers", "1", "--output", str(out_dir), "--quiet",
                            "--bootstrap", "20"])
    assert code == 0
    text = capsys.readouterr().out
    assert "report" in text and str(out_dir) in text
    for name in ("report.md", "games.csv", "moves.csv", "summary.json", "tournament.sqlite",
                 "plots/nodes_by_ply.png", "plots/score_matrix.png", "plots/ratings.png"):
        assert (out_dir / name).stat().st_size > 0, name
    summary = json.loads((out_dir / "summary.json").read_text())
    assert {r["agent"] for r in summary["standings"]} == {"random", "random#2", "alphabeta(depth=2)"}
    assert sum(r["games"] for r in summary["standings"]) == 2 * 12
    assert (out_dir / "moves.csv").read_text().splitlines()[0].startswith("game_id,ply,player,agent,action,move")
    searched = [m for m in Store(out_dir / "tournament.sqlite").moves() if m["nodes"] is not None]
    assert searched and all(m["depth"] >= 1 and m["time"] >= 0 for m in searched)
    assert all(json.loads(m["pv"])[0] == m["move"] for m in searched)
    # the same command again resumes: nothing to play, same games
    assert tournament_main(["--game", "tictactoe", "--agents", "random", "alphabeta(depth=2)", "random",
                            "--games", "2", "--workers", "1", "--output", str(out_dir), "--quiet",
                            "--no-plots", "--bootstrap", "0"]) == 0
    assert "0 games played now, 12 stored" in capsys.readouterr().out


# ---- bad input: errors before any game ----------------------------------------------------
@pytest.mark.parametrize(("raw", "message"), [
    ({"game": "mahjong"}, "unknown game 'mahjong'"),
    ({"variant": {"size": 4}}, "bad variant for tictactoe"),
    ({"agents": ["random", "deepblue"]}, "unknown agent 'deepblue'"),
    ({"agents": ["random", "alphabeta(depth=2"]}, "malformed agent spec"),
    ({"agents": ["random", "alphabeta(heuristic=nonsense)"]}, "unknown heuristic 'nonsense'"),
    ({"agents": ["random", "alphabeta(depht=2)"]}, "unknown option(s) depht"),
    ({"agents": ["random", "perfect_nim"]}, "perfect_nim plays Nim only"),
    ({"agents": ["random"]}, "at least two agents"),
    ({"games_per_pairing": 0}, "at least 1"),
    ({"backend": "slurm"}, "allowed: process, ray"),
    ({"opening_plies": "two"}, "should be a int"),
    ({"colour": "red"}, "unknown key(s) colour"),
])
def test_bad_input_is_refused_before_any_game(tmp_path, raw, message):
    with pytest.raises(ConfigError) as err:
        validate(tiny(tmp_path, **raw), note=lambda _: None)
    assert message in str(err.value)
    assert not (tmp_path / "t").exists()


def test_bad_toml_and_cli_errors(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "tictactoe"\nagents = ["random", \n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    two = tmp_path / "two.toml"
    two.write_text('agents = ["random", "mcts(sims=5)"]\n[[tournament]]\ngame = "tictactoe"\n'
                   '[[tournament]]\ngame = "tictactoe"\n')
    with pytest.raises(ConfigError, match="distinct names"):
        load_config(two)
    with pytest.raises(ConfigError, match="no config file"):
        load_config(tmp_path / "missing.toml")
    assert tournament_main(["--game", "tictactoe", "--agents", "random", "mcts(sims=-1)",
                            "--output", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("zerosum tournament: ") and "mcts(sims=-1)" in err and not (tmp_path / "x").exists()
    assert tournament_main([]) == 2 and "--config" in capsys.readouterr().err
    assert parse_variant(["piles=[3,4,5]", "misere=on", "x=1,2"]) == {"piles": (3, 4, 5), "misere": True, "x": (1, 2)}
    with pytest.raises(UsageError, match="key=value"):
        parse_variant(["misere"])


def test_optional_game_and_agent_are_skipped_with_a_note(tmp_path):
    notes = []
    cfg = build_config({"game": "mahjong", "optional": True, "agents": ["random", "random"]})
    assert validate(cfg, notes.append) is None and "skipping" in notes[-1]
    cfg = tiny(tmp_path, agents=["random", "alphabeta(depth=1)",
                                 {"spec": "nosuch(path=x.zip)", "optional": True},
                                 {"spec": "random", "name": "hooked",
                                  "prepare": "zerosum.nosuch:fn", "optional": True}])
    out = run_tournament(cfg, progress=False, report=False, note=notes.append)
    assert [a.name for a in out.config.agents] == ["random", "alphabeta(depth=1)"]
    assert sum("skipping optional agent" in n for n in notes) == 2


def test_default_config_is_valid():
    configs = load_config(ROOT / "configs" / "default.toml", {"workers": 1})
    assert configs[0].game == "tictactoe" and all(c.games_per_pairing >= 1 for c in configs)
    preps = prepare_all(configs, note=lambda _: None)
    assert preps and preps[0].config.game == "tictactoe"


def test_another_configuration_is_refused(tmp_path):
    run_tournament(tiny(tmp_path, games_per_pairing=1), progress=False, report=False, note=lambda _: None)
    db = tmp_path / "t" / "tournament.sqlite"
    with pytest.raises(ConfigMismatchError, match="seed: stored 0, now 5"):
        run_tournament(tiny(tmp_path, games_per_pairing=1, seed=5), progress=False, report=False, note=lambda _: None)
    assert Store(db).count() == 2
    # more games per pairing extends the same tournament
    out = run_tournament(tiny(tmp_path, games_per_pairing=2), progress=False, report=False, note=lambda _: None)
    assert out.played == 2 and Store(db).count() == 4
    with pytest.raises(StoreError, match="no game with id 99"):
        Store(db).game_record(99)
    with pytest.raises(StoreError, match="no tournament database"):
        Store(tmp_path / "none.sqlite").game_record(1)


# ---- resume after SIGKILL ---------------------------------------------------------------------
def _count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as c:
            return c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def test_resume_after_sigkill(tmp_path):
    out = tmp_path / "kill"
    cmd = [sys.executable, "-m", "zerosum", "tournament", "--game", "tictactoe", "--agents", "mcts(sims=2000)",
           "mcts(sims=1500)", "--games", "30", "--workers", "1", "--quiet", "--no-plots", "--bootstrap", "0",
           "--output", str(out)]
    db = out / "tournament.sqlite"
    total = 2 * 30
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while _count(db) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = _count(db)
    assert 3 <= killed_at < total, f"the run should be killed midway (stored {killed_at} of {total})"
    before = {(g["pairing"], g["game_index"]): g["seed"] for g in Store(db).games()}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "resuming" in done.stdout
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM games").fetchone()[0] == total
        assert c.execute("SELECT COUNT(DISTINCT pairing || ':' || game_index) FROM games").fetchone()[0] == total
        assert c.execute("SELECT COUNT(*) FROM moves WHERE game_id NOT IN (SELECT id FROM games)").fetchone()[0] == 0
    after = {(g["pairing"], g["game_index"]): g["seed"] for g in Store(db).games()}
    assert all(after[k] == v for k, v in before.items())


# ---- backends -------------------------------------------------------------------------------------
def _games(db: Path) -> list:
    store = Store(db)
    return sorted((r.pairing, r.game_index, tuple(r.actions), r.result)
                  for r in (store.game_record(i) for i in store.game_ids()))


def test_process_and_ray_backends_give_the_same_games(tmp_path):
    ray = pytest.importorskip("ray")
    specs = ["random", "mcts(sims=50)", "alphabeta(depth=2)"]
    inline = run_tournament(tiny(tmp_path, agents=specs, output=str(tmp_path / "inline")),
                            progress=False, report=False, note=lambda _: None)
    procs = run_tournament(tiny(tmp_path, agents=specs, workers=2, output=str(tmp_path / "procs")),
                           progress=False, report=False, note=lambda _: None)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        onray = run_tournament(tiny(tmp_path, agents=specs, workers=2, backend="ray", output=str(tmp_path / "ray")),
                               progress=False, report=False, note=lambda _: None)
    finally:
        ray.shutdown()
    assert len(_games(procs.database)) == 12
    assert _games(inline.database) == _games(procs.database) == _games(onray.database)
    nodes = [[(m["game_id"], m["ply"], m["nodes"]) for m in Store(o.database).moves()] for o in (procs, onray)]
    assert sorted(x[2] or 0 for x in nodes[0]) == sorted(x[2] or 0 for x in nodes[1])
