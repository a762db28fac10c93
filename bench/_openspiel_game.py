"""Shared parts of the bench scripts of issue 57's games (bench/clobber.py,
bench/ultimate_tic_tac_toe.py, bench/mancala.py, bench/oware.py, bench/dots_and_boxes.py and
others): a game against OpenSpiel's at every step of random games, perft on both sides, the
natural loop's speed on both sides and the default opponent's strength against OpenSpiel's
MCTSBot (bench/strength.py plays it); ``options`` reads the command line they share and
``finish`` measures speed and strength and prints the JSON document.

Speed: random games in the loop a user writes (``current_player``, ``legal_actions``,
``apply(s, int(a))``, ``returns``) on both sides, the same games (one seed each), taking turns
in rounds; CPU seconds of this process; the ratio is ours / pyspiel's moves a second (issue
57's target: >= 1.5x). Strength (skipped with ``--strength-games 0``): the game's
``default_opponent`` against OpenSpiel's ``MCTSBot`` (1,000 simulations, random rollouts;
bench/strength.py says how), seats alternating from paired 4-ply random openings (target:
>= 0.75 over 100 games)."""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _report import emit, headline
from game_api import api_natural, openspiel_natural
from strength import TARGET, run_game
from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel, openspiel_perft, perft


def compare(name: str, variant: dict, games: int, seed: int, same_board: Callable[[Any, Any, Any], None],
            label: str, sizes: Callable[[Any, Any], None] | None = None) -> dict:
    """Play ``games`` random games in both implementations, comparing the board with
    ``same_board(game, state, openspiel_state)`` and the names of the actions played; the
    steps compared. ``sizes(game, openspiel_game)`` compares the two games' action counts and
    length bounds (by default: both equal)."""
    import pyspiel

    g = make_game(name, **variant)
    og = pyspiel.load_game(name, variant)
    if sizes is None:
        assert (g.num_actions, g.max_game_length) == (og.num_distinct_actions(), og.max_game_length())
    else:
        sizes(g, og)

    def same_name(s, st, a):
        assert g.action_to_string(a, s) == st.action_to_string(a)

    t = time.perf_counter()
    report = compare_with_openspiel(g, og, games, seed, lambda s, st: same_board(g, s, st), check_action=same_name)
    return {"what": "random games", "variant": str(variant or label), "games": games, "steps": report.steps,
            "player 0 wins": sum(r[0] > 0 for r in report.returns), "draws": sum(r[0] == 0 for r in report.returns),
            "seconds": time.perf_counter() - t}


def same_stone_rows(g: Any, s: Any, st: Any) -> None:
    """A ``same_board`` for the connection games whose OpenSpiel text draws rows of O (player
    0), @ (player 1) and '.' after a line of column letters (y, havannah): those rows equal
    ``g.cells(s)``'s x, o and '.'."""
    theirs = ["".join(ch for ch in line if ch in ".O@") for line in str(st).split("\n")[1:] if line.strip()]
    assert [row.replace("x", "O").replace("o", "@") for row in g.cells(s)] == theirs


def perft_rows(name: str, variant: dict, depth: int, label: str) -> list[dict]:
    """Perft from the start to ``depth`` on both sides; AssertionError where they differ."""
    import pyspiel

    g = make_game(name, **variant)
    og = pyspiel.load_game(name, variant)
    rows = []
    for d in range(1, depth + 1):
        t = time.perf_counter()
        ours = perft(g, g.initial_state(), d)
        t_ours = time.perf_counter() - t
        t = time.perf_counter()
        theirs = openspiel_perft(og.new_initial_state(), d)
        t_theirs = time.perf_counter() - t
        assert ours == theirs, f"perft {variant} depth {d}: zerosum {ours}, OpenSpiel {theirs}"
        rows.append({"what": f"perft {d}", "variant": str(variant or label), "steps": ours,
                     "seconds": t_ours, "openspiel seconds": t_theirs})
    return rows


def speed(name: str, games: int, rounds: int, seed: int, label: str) -> dict:
    """Moves a second of the natural loop (current_player, legal_actions, apply(s, int(a)),
    returns) on both sides over the same random games, taking turns in rounds; CPU seconds."""
    import pyspiel

    g, og = make_game(name), pyspiel.load_game(name)
    api_natural(g, random.Random(0))  # warm the calls
    moves = {"zerosum": 0, "pyspiel": 0}
    secs = {"zerosum": 0.0, "pyspiel": 0.0}
    per_round = max(1, games // rounds)
    for r in range(rounds):
        seeds = [seed + r * per_round + i for i in range(per_round)]
        for side in ("zerosum", "pyspiel") if r % 2 == 0 else ("pyspiel", "zerosum"):
            t = time.process_time()
            for sd in seeds:
                rnd = random.Random(sd)
                moves[side] += api_natural(g, rnd) if side == "zerosum" else openspiel_natural(og, rnd)
            secs[side] += time.process_time() - t
    assert moves["zerosum"] == moves["pyspiel"], moves  # the very same games
    ours, theirs = moves["zerosum"] / secs["zerosum"], moves["pyspiel"] / secs["pyspiel"]
    return {"what": "natural loop, moves/s", "variant": label, "games": per_round * rounds,
            "steps": moves["zerosum"], "zerosum moves/s": ours, "pyspiel moves/s": theirs, "ratio": ours / theirs}


def strength(name: str, games: int, workers: int, log: str, label: str) -> tuple[dict, dict, dict]:
    """The default opponent against MCTSBot(1000): bench/strength.py's record, a row and a headline."""
    spec = type(make_game(name)).default_opponent
    rec = run_game(name, spec, games, 1000, 4, workers, 0, Path(log) if log else None)
    row = {"what": f"{spec} vs MCTSBot(1000)", "variant": label, "games": rec["games"], "score": rec["score"],
           "low": rec["low"], "high": rec["high"], "agent s/move": rec["agent s/move"],
           "mcts s/move": rec["mcts s/move"]}
    return rec, row, headline(f"{name}: {spec} vs OpenSpiel MCTSBot(1000), score", rec["score"], None,
                              f">= {TARGET} over 100 games")


COLUMNS = ["what", "variant", "games", "steps", "player 0 wins", "draws", "seconds", "openspiel seconds",
           "zerosum moves/s", "pyspiel moves/s", "ratio", "score", "low", "high", "agent s/move", "mcts s/move"]


def options(doc: str, *, games: int, depth: int, speed_games: int, quick: tuple[int, int, int],
            games_help: str = "random games compared with OpenSpiel",
            depth_help: str = "perft depth from the start") -> argparse.Namespace:
    """The command line the bench scripts share: ``--games``, ``--depth``, ``--speed-games``,
    ``--strength-games``, ``--workers``, ``--seed``, ``--log`` and ``--quick``, which sets
    ``quick``'s games, depth and speed games and plays no strength games."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--games", type=int, default=games, help=games_help)
    ap.add_argument("--depth", type=int, default=depth, help=depth_help)
    ap.add_argument("--speed-games", type=int, default=speed_games, help="random games for the speed ratio")
    ap.add_argument("--strength-games", type=int, default=100, help="games against MCTSBot (0: skip)")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--log", default="", help="JSON-lines file of the strength games (appended; read to resume)")
    ap.add_argument("--quick", action="store_true", help=f"{quick[0]} games, perft to {quick[1]}, {quick[2]} speed "
                    "games, no strength games")
    args = ap.parse_args()
    if args.quick:
        args.games, args.depth, args.speed_games = quick
        args.strength_games = 0
    return args


def finish(name: str, label: str, rows: list[dict[str, Any]], args: argparse.Namespace, steps_what: str,
           per: str = "moves") -> None:
    """Add the speed row and (unless ``--strength-games 0``) the strength row to ``rows``, and
    print the JSON document with its headlines: the steps of the random games equal to
    OpenSpiel's (``steps_what`` says which games), the speed ratio (``per`` names what a step
    is in its headline: amazons counts actions) and the strength score."""
    fast = speed(name, args.speed_games, 10, args.seed, label)
    rows.append(fast)
    steps = sum(r["steps"] for r in rows if r["what"] == "random games")
    lines = [headline(f"{name} steps equal to OpenSpiel's ({steps_what})", steps),
             headline(f"{name} natural loop vs pyspiel, {per}/s", fast["zerosum moves/s"], fast["pyspiel moves/s"],
                      ">= 1.5x")]
    record = None
    if args.strength_games:
        record, row, line = strength(name, args.strength_games, args.workers, args.log, label)
        rows.append(row)
        lines.append(line)
    emit(name, rows, COLUMNS, {"headline": lines, "strength": record, "load_1min": os.getloadavg()[0]})
