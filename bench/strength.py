"""Strength against OpenSpiel's MCTSBot: a zerosum agent spec against OpenSpiel's MCTS.

For each game (zerosum name -> OpenSpiel game and parameters, and zerosum's variant, in
``OPENSPIEL``; the actions are the same numbers on both sides but for chess, whose moves pass
between the two by their UCI names (``zerosum.testing.openspiel_chess_moves``), with
OpenSpiel's draw rule, ``draws="arise"``, and OpenSpiel's player 0 is black there), the agent
``--spec`` (default: the game's ``default_opponent``, the spec that plays it best at about
0.1 s a move) plays ``--games`` games against OpenSpiel's
``MCTSBot`` with ``--sims`` simulations a move (1,000 by default), one random rollout per leaf
(``RandomRolloutEvaluator(1)``), ``uct_c=2`` and ``solve=True``, as OpenSpiel's own
``examples/mcts.py`` sets them. ``--impl cpp`` (the default) plays OpenSpiel's C++ ``pyspiel.MCTSBot``;
``--impl python`` plays ``open_spiel.python.algorithms.mcts.MCTSBot``, the same algorithm about ten
times slower (a 100-game run of the Python bot takes hours a game here). Seats alternate and
openings are paired: games 2k and 2k+1 start from the same ``--openings-plies`` random plies
(seeded), with the agent moving first in one and second in the other, so neither side gains
from an opening's luck.

Both sides see one position: the zerosum state and the pyspiel state advance together, and
every move is checked legal on both sides. A win scores 1, a draw 0.5; the score comes with
a 95% Wilson interval. Games run in ``--workers`` processes; each finished game is appended
at once to ``--log`` (JSON lines), and a run started again with the same log plays only the
games it lacks (so a long run can be stopped and resumed, or summed up with fewer games).

Prints one JSON document, then a short table::

    python bench/strength.py --game othello --games 100 --workers 2 --log strength_othello.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from _report import emit, headline
from zerosum.agents import make_agent
from zerosum.evaluation.stats import wilson_interval
from zerosum.games import GAMES, make_game
from zerosum.testing import openspiel_chess_moves

OPENSPIEL: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "othello": ("othello", {}, {}), "hex": ("hex", {}, {}), "breakthrough": ("breakthrough", {}, {}),
    "checkers": ("checkers", {}, {}), "gomoku": ("gomoku", {}, {}),
    "go": ("go", {"board_size": 9, "komi": 7.5}, {}), "chess": ("chess", {}, {"draws": "arise"})}
"""zerosum game name -> (OpenSpiel name, its parameters, zerosum's variant): the same game on both sides"""
TARGETED = ("othello", "hex", "breakthrough", "checkers", "gomoku")
"""The games whose score has issue 47's target; chess and Go (issue 48) have none"""
OPENSPIEL.update({"clobber": ("clobber", {}, {}), "ultimate_tic_tac_toe": ("ultimate_tic_tac_toe", {}, {})})
TARGETED += ("clobber", "ultimate_tic_tac_toe")  # issue 57's games have the same target
OPENSPIEL.update({"mancala": ("mancala", {}, {}), "oware": ("oware", {}, {})})
TARGETED += ("mancala", "oware")
OPENSPIEL.update({"dots_and_boxes": ("dots_and_boxes", {}, {})})
TARGETED += ("dots_and_boxes",)
OPENSPIEL.update({"y": ("y", {}, {}), "havannah": ("havannah", {}, {})})
TARGETED += ("y", "havannah")
OPENSPIEL.update({"lines_of_action": ("lines_of_action", {}, {}), "amazons": ("amazons", {}, {})})
TARGETED += ("lines_of_action", "amazons")
TARGET = 0.75


def opening(game_name: str, plies: int, seed: int) -> list[int]:
    """``plies`` uniformly random legal actions from the start (fewer if the game ends)."""
    game = make_game(game_name, **OPENSPIEL[game_name][2])
    rng = np.random.default_rng(seed)
    s, moves = game.initial_state(), []
    for _ in range(plies):
        if game.is_terminal(s):
            break
        a = int(rng.choice(game.legal_actions(s)))
        moves.append(a)
        s = game.apply(s, a)
    if game.is_terminal(s):  # an opening that ends the game plays nothing: take fewer plies
        return moves[:-1]
    return moves


def play_one(job: dict[str, Any]) -> dict[str, Any]:
    """One game: the agent in seat ``job['seat']`` against MCTSBot, from the job's opening."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    os_name, os_params, variant = OPENSPIEL[job["game"]]
    game = make_game(job["game"], **variant)
    og = pyspiel.load_game(os_name, os_params)
    agent = make_agent(job["spec"], rng=job["index"])
    agent.prepare(game)
    agent.reset()
    if job["impl"] == "cpp":
        bot = pyspiel.MCTSBot(og, pyspiel.RandomRolloutEvaluator(1, job["index"]), 2.0, job["sims"], 1000, True,
                              10_000 + job["index"], False)
    else:
        bot = mcts.MCTSBot(og, 2, job["sims"], mcts.RandomRolloutEvaluator(1, np.random.RandomState(job["index"])),
                           solve=True, random_state=np.random.RandomState(10_000 + job["index"]))
    s, st = game.initial_state(), og.new_initial_state()
    def theirs(a: int) -> int:  # our action in OpenSpiel's numbers
        if job["game"] != "chess":
            return a
        return openspiel_chess_moves(game, s, st)[1][game.action_to_string(a, s)]

    def ours(a: int) -> int:  # OpenSpiel's action in ours
        if job["game"] != "chess":
            return a
        mine, theirs_by_name = openspiel_chess_moves(game, s, st)
        return mine[{x: name for name, x in theirs_by_name.items()}[a]]

    flip = job["game"] == "chess"  # OpenSpiel's chess numbers black 0 and white 1; zerosum's white 0

    for a in job["opening"]:
        st.apply_action(theirs(a))
        s = game.apply(s, a)
    secs = {"agent": 0.0, "mcts": 0.0}
    plies = 0
    while not game.is_terminal(s):
        assert not st.is_terminal() and game.current_player(s) == abs(flip - st.current_player())
        mine = game.current_player(s) == job["seat"]
        t = time.perf_counter()
        a = int(agent.act(game, s)) if mine else ours(int(bot.step(st)))
        secs["agent" if mine else "mcts"] += time.perf_counter() - t
        if a not in set(map(int, game.legal_actions(s))):
            raise RuntimeError(f"{'the agent' if mine else 'MCTSBot'} chose {a}, illegal in zerosum's state")
        st.apply_action(theirs(a))
        s = game.apply(s, a)
        plies += 1
    assert st.is_terminal() and tuple(st.returns())[:: -1 if flip else 1] == game.returns(s)
    r = game.returns(s)[job["seat"]]
    return {"index": job["index"], "seat": job["seat"], "opening": job["opening"], "result": r,
            "score": (r + 1) / 2, "plies": plies, "agent_s": secs["agent"], "mcts_s": secs["mcts"]}


def run_game(name: str, spec: str, games: int, sims: int, plies: int, workers: int, seed: int,
             log: Path | None, impl: str = "cpp") -> dict[str, Any]:
    """Play (or read from ``log``) ``games`` games of ``name``; the score with its interval."""
    done: dict[int, dict[str, Any]] = {}
    if log is not None and log.exists():
        for line in log.read_text().splitlines():
            rec = json.loads(line)
            key = (rec.get("game"), rec.get("spec"), rec.get("sims"), rec.get("impl", "python"))
            if key == (name, spec, sims, impl):
                done[rec["index"]] = rec
    jobs = [{"game": name, "spec": spec, "sims": sims, "impl": impl, "index": i, "seat": i % 2,
             "opening": opening(name, plies, seed + i // 2)} for i in range(games) if i not in done]
    if jobs:
        with get_context("spawn").Pool(workers) as pool:
            for rec in pool.imap_unordered(play_one, jobs):
                rec.update(game=name, spec=spec, sims=sims, impl=impl)
                done[rec["index"]] = rec
                if log is not None:
                    with log.open("a") as f:
                        f.write(json.dumps(rec) + "\n")
                so_far = [d["score"] for d in done.values()]
                print(f"{name}: game {rec['index']} seat {rec['seat']} result {rec['result']:+.0f}; "
                      f"{sum(so_far):.1f}/{len(so_far)}", file=sys.stderr, flush=True)
    recs = [done[i] for i in range(games)]
    points = sum(r["score"] for r in recs)
    lo, hi = wilson_interval(points, games)
    wins = sum(r["result"] > 0 for r in recs)
    draws = sum(r["result"] == 0 for r in recs)
    agent_moves = sum((r["plies"] + (r["seat"] == 0)) // 2 for r in recs)  # about half the plies each
    return {"game": name, "spec": spec, "opponent": f"MCTSBot({sims} sims, random rollouts, {impl})", "games": games,
            "wins": wins, "draws": draws, "losses": games - wins - draws, "score": points / games,
            "low": lo, "high": hi,
            "as first": sum(r["score"] for r in recs if r["seat"] == 0) / max(1, (games + 1) // 2),
            "as second": sum(r["score"] for r in recs if r["seat"] == 1) / max(1, games // 2),
            "agent s/move": sum(r["agent_s"] for r in recs) / max(1, agent_moves),
            "mcts s/move": sum(r["mcts_s"] for r in recs) / max(1, sum(r["plies"] for r in recs) - agent_moves)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="", help="comma-separated zerosum game names (default: every game in "
                    "OPENSPIEL this checkout has)")
    ap.add_argument("--spec", default="", help="the agent spec (default: each game's default_opponent)")
    ap.add_argument("--games", type=int, default=100, help="games per game name (even: seats alternate)")
    ap.add_argument("--sims", type=int, default=1000, help="MCTSBot simulations a move")
    ap.add_argument("--impl", choices=("cpp", "python"), default="cpp",
                    help="OpenSpiel's C++ MCTSBot (pyspiel.MCTSBot) or its Python one")
    ap.add_argument("--openings-plies", type=int, default=4, help="random plies before the players take over")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log", default="", help="JSON-lines file of finished games (appended; read to resume)")
    args = ap.parse_args()
    names = [n for n in args.game.split(",") if n] or [n for n in OPENSPIEL if n in GAMES]
    for n in names:
        if n not in OPENSPIEL or n not in GAMES:
            raise SystemExit(f"--game {n!r}: one of {sorted(n for n in OPENSPIEL if n in GAMES)}")
    rows = []
    for n in names:
        spec = args.spec or type(make_game(n, **OPENSPIEL[n][2])).default_opponent
        rows.append(run_game(n, spec, args.games, args.sims, args.openings_plies, args.workers, args.seed,
                             Path(args.log) if args.log else None, args.impl))
    lines = [headline(f"{r['game']}: {r['spec']} vs OpenSpiel MCTSBot({args.sims}), score", r["score"], None,
                      f">= {TARGET} over 100 games" if r["game"] in TARGETED else "none (issue 48: the figure)")
             for r in rows]
    emit("strength", rows, ["game", "spec", "games", "wins", "draws", "losses", "score", "low", "high", "as first",
                            "as second", "agent s/move", "mcts s/move"],
         {"headline": lines, "load_1min": os.getloadavg()[0],
          "settings": {"sims": args.sims, "openings_plies": args.openings_plies, "seed": args.seed,
                       "uct_c": 2, "rollouts": 1, "solve": True, "impl": args.impl}})


if __name__ == "__main__":
    main()
