"""Tournament throughput (two worker processes against one) and the cost of logging every move.

    python bench/tournament.py [--quick] [--games 24]

1. Scaling: the same CPU-bound games (Pentago alpha-beta depth 3 against depth 2, from
   2-ply openings; tic-tac-toe if Pentago is not there) through the process backend with
   one worker and with two. games/s is measured over the whole run (pool start included)
   and after the first finished game (steady state). Target: >= 1.7x with two workers.
   The same ratio for a pure-Python loop ("machine ceiling") is measured before and
   after: on cores shared with other work it falls below 2, and bounds what games can get.
2. Logging overhead: Pentago alpha-beta depth 2 against itself, each game played twice:
   a bare referee loop (act, check, apply) and ``play_match`` with every move recorded
   (readable name, time, search statistics, PV as readable moves) plus the SQLite write
   of the game. The direct cost (converting statistics + the write, timed on their own)
   and the end-to-end difference are given per move and as a share of the game's time.
   Target: <= 5% of a Pentago depth-2 game's time. The end-to-end figure is noisy: a
   fresh agent's transposition table (8 MB) costs a different number of page faults from
   one game to the next, which moves a 30 ms game by several ms either way.

Prints one JSON document, then a table. The machine's load is in the JSON: other work
on the same cores lowers the speed-up.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit, headline

from zerosum.agents import make_agent
from zerosum.evaluation.backends import ProcessBackend, play_task
from zerosum.evaluation.config import build_config
from zerosum.evaluation.match import move_name, play_match, stats_dict
from zerosum.evaluation.store import GameTask, Store
from zerosum.evaluation.tournament import schedule
from zerosum.games import GAMES, make_game


def pick_game() -> str:
    return "pentago" if "pentago" in GAMES else "tictactoe"


def scaling(game_name: str, games: int) -> list[dict]:
    specs = ["alphabeta(depth=3)", "alphabeta(depth=2)"] if game_name == "pentago" else \
        ["alphabeta(depth=9, tt=off, ordering=off)", "mcts(sims=3000)"]
    cfg = build_config({"game": game_name, "agents": specs, "games_per_pairing": (games + 1) // 2, "seed": 1})
    game = make_game(game_name)
    tasks = schedule(cfg, game)[:games]
    payload = {"game": game_name, "variant": {}, "names": specs, "specs": specs}
    play_task(payload, tasks[0])  # compile/load everything once in this process (fills numba's cache)
    rows = []
    for workers in (1, 2):
        backend = ProcessBackend(workers)
        t0 = time.perf_counter()
        first = None
        n = 0
        for _ in backend.run(payload, tasks):
            n += 1
            if first is None:
                first = time.perf_counter()
        end = time.perf_counter()
        rows.append({"part": "scaling", "game": game_name, "workers": workers, "games": n,
                     "seconds": end - t0, "games_per_s": n / (end - t0),
                     "steady_games_per_s": (n - 1) / (end - first) if n > 1 and end > first else None})
    return rows


def _spin(n: int) -> float:
    t = time.perf_counter()
    x = 0
    for i in range(n):
        x += i
    return time.perf_counter() - t


def machine_ceiling(n: int = 6_000_000, jobs: int = 4) -> float:
    """What two processes get over one on this machine right now (a pure-Python loop).

    On a machine shared with other work this is below 2, and no tournament can beat it.
    """
    import multiprocessing as mp

    t0 = time.perf_counter()
    for _ in range(jobs):
        _spin(n)
    one = time.perf_counter() - t0
    with mp.get_context("spawn").Pool(2) as pool:
        pool.map(_spin, [1000, 1000])  # start both workers first
        t0 = time.perf_counter()
        pool.map(_spin, [n] * jobs, chunksize=1)
        two = time.perf_counter() - t0
    return one / two


def bare_game(game, agents, opening) -> tuple[float, int]:
    """The least any referee does: ask the agent, check legality, apply."""
    state = game.initial_state()
    for a in opening:
        state = game.apply_unchecked(state, a)
    for ag in agents:
        ag.reset()
    moves = 0
    t0 = time.perf_counter()
    while not game.is_terminal(state):
        agent = agents[game.current_player(state)]
        a = agent.act(game, state)
        if not (game.legal_actions(state) == a).any():
            raise RuntimeError("illegal move in the bench")
        state = game.apply_unchecked(state, a)
        moves += 1
    return time.perf_counter() - t0, moves


def overhead(game_name: str, games: int, repeats: int) -> dict:
    game = make_game(game_name)
    spec = "alphabeta(depth=2)" if game_name == "pentago" else "alphabeta(depth=9)"
    cfg = build_config({"game": game_name, "agents": [spec, spec], "games_per_pairing": games, "seed": 2})
    tasks = [t for t in schedule(cfg, game) if t.pairing == 0][:games]
    tmp = tempfile.mkdtemp(prefix="zs-bench-")
    store = Store(os.path.join(tmp, "t.sqlite"))
    store.init({"game": game_name, "variant": {}}, {"bench": 1}, [(spec, spec), (spec + "#2", spec)], [(0, 1)])

    def agents(task: GameTask):
        return [make_agent(spec, rng=task.seed + s) for s in (0, 1)]

    bare_t, logged_t, direct_t, moves_n = [], [], [], []
    for k, task in enumerate(tasks):
        best_bare, best_logged, best_direct = float("inf"), float("inf"), float("inf")
        for r in range(repeats):
            players = agents(task)  # built outside the timing, as bare_game's are
            if r % 2:  # alternate which variant runs first
                tb, n = bare_game(game, agents(task), task.opening)
            t0 = time.perf_counter()
            m = play_match(game, players, task.opening)
            tw0 = time.perf_counter()
            store.add_game(GameTask(task.pairing, k * repeats + r, task.seats, task.seed, task.opening), m)
            tw = time.perf_counter() - tw0
            best_logged = min(best_logged, time.perf_counter() - t0)
            if not r % 2:
                tb, n = bare_game(game, agents(task), task.opening)
            best_bare = min(best_bare, tb)
            # the conversion work on its own: statistics to plain data, PV and move names
            a = make_agent(spec, rng=task.seed)
            state = game.initial_state()
            for x in task.opening:
                state = game.apply_unchecked(state, x)
            a.act(game, state)
            tc0 = time.perf_counter()
            for _ in range(len(m.moves)):
                stats_dict(game, a.last_stats, state)
                move_name(game, int(a.last_stats.action), state)
            best_direct = min(best_direct, time.perf_counter() - tc0 + tw)
        bare_t.append(best_bare)
        logged_t.append(best_logged)
        direct_t.append(best_direct)
        moves_n.append(n)
    total_moves = sum(moves_n)
    game_time = sum(bare_t)
    return {"part": "logging", "game": game_name, "agents": f"{spec} x2", "games": len(tasks),
            "moves": total_moves, "game_s_mean": game_time / len(tasks),
            "move_ms_mean": 1000 * game_time / total_moves,
            "direct_us_per_move": 1e6 * sum(direct_t) / total_moves,
            "direct_pct": 100 * sum(direct_t) / game_time,
            "end_to_end_us_per_move": 1e6 * (sum(logged_t) - game_time) / total_moves,
            "end_to_end_pct": 100 * (sum(logged_t) - game_time) / game_time,
            "end_to_end_pct_median_game": statistics.median(100 * (lg - b) / b for lg, b in zip(logged_t, bare_t))}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer games (for make bench)")
    p.add_argument("--games", type=int, default=None, help="games in the scaling run")
    args = p.parse_args()
    game_name = pick_game()
    n_scale = args.games or (12 if args.quick else 32)
    ceiling_before = machine_ceiling()
    rows = scaling(game_name, n_scale)
    ceiling = (ceiling_before + machine_ceiling()) / 2
    log = overhead(game_name, 6 if args.quick else 12, 3 if args.quick else 5)
    speedup = rows[1]["games_per_s"] / rows[0]["games_per_s"]
    steady = (rows[1]["steady_games_per_s"] or 0) / (rows[0]["steady_games_per_s"] or 1)
    note = "" if game_name == "pentago" else "Pentago not available: tic-tac-toe used instead"
    extra = {
        "speedup_2_vs_1": speedup, "speedup_steady_2_vs_1": steady, "machine_ceiling_2_vs_1": ceiling,
        "scaling_efficiency": speedup / ceiling if ceiling > 0 else None,
        "logging": log,
        "load_average": os.getloadavg(), "note": note,
        "headline": [
            headline("tournament games/s, 2 workers / 1", speedup, None, ">= 1.7x"),
            headline(f"logging overhead, % of a {game_name} depth-2 game (direct)", log["direct_pct"], None, "<= 5%",
                     lower_is_better=True),
            headline("logging overhead, % end to end (median game; noisy)", log["end_to_end_pct_median_game"], None,
                     "<= 5%", lower_is_better=True),
        ],
    }
    table_rows = [*rows, {"part": "speed-up 2/1", "games_per_s": speedup, "steady_games_per_s": steady},
                  {"part": "machine ceiling 2/1", "games_per_s": ceiling},
                  {"part": "logging", "game": game_name, "games": log["games"], "seconds": log["game_s_mean"],
                   "direct_us_per_move": log["direct_us_per_move"], "direct_pct": log["direct_pct"],
                   "end_to_end_pct": log["end_to_end_pct_median_game"]}]
    emit("tournament", table_rows, ["part", "game", "workers", "games", "seconds", "games_per_s",
                                    "steady_games_per_s", "direct_us_per_move", "direct_pct", "end_to_end_pct"], extra)
    if note:
        print(note)


if __name__ == "__main__":
    main()
