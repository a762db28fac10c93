"""Hex: a zerosum agent spec against OpenSpiel's MCTSBot (random rollouts), the issue's strength protocol.

Each pair of games starts from one seeded random opening (``--opening-plies`` plies, the
same for both games) and the spec plays black in one game and white in the other, so the
seats alternate and the openings are paired. OpenSpiel's side is
``open_spiel.python.algorithms.mcts.MCTSBot`` with ``--sims`` simulations (1,000 by
default), UCT constant 2 and one random rollout per leaf (``RandomRolloutEvaluator``),
playing on pyspiel's ``hex`` while zerosum plays on its own rules; every move is applied to
both, so a difference in the rules would fail the run. Hex has no draws: the score is the
spec's win rate, with a 95% Wilson interval. Each game is appended to ``--log`` (JSON lines)
as it ends, and a rerun with the same log resumes.

    python bench/strength_hex.py --games 100 --workers 2
    python bench/strength_hex.py --spec "mcts(time=0.1)" --board-size 7 --games 20

Prints one JSON document, then a table; with the load average, since the spec's budget is
wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from _report import emit, headline


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def opening(variant: dict[str, Any], plies: int, seed: int) -> list[int]:
    """``plies`` seeded random legal moves from the start (no finished game: Hex needs more)."""
    from zerosum.games import make_game

    game = make_game("hex", **variant)
    rng = np.random.default_rng(seed)
    s, moves = game.initial_state(), []
    for _ in range(plies):
        legal = game.legal_actions(s)
        moves.append(int(legal[rng.integers(len(legal))]))
        s = game.apply(s, moves[-1])
    return moves


def play_one(job: tuple[str, dict[str, Any], int, int, int, int]) -> dict[str, Any]:
    """One game: the spec in seat ``seat`` (0 black) against MCTSBot, from the pair's opening."""
    import pyspiel
    from open_spiel.python.algorithms import mcts as os_mcts

    from zerosum.agents import make_agent
    from zerosum.games import make_game

    spec, variant, sims, pair, seat, plies = job
    game = make_game("hex", **variant)
    og = pyspiel.load_game("hex", variant)
    rng = np.random.RandomState(1000 * pair + seat)
    bot = os_mcts.MCTSBot(og, 2.0, sims, os_mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    agent = make_agent(spec, rng=1000 * pair + seat)
    agent.prepare(game)
    agent.reset()
    s, st = game.initial_state(), og.new_initial_state()
    moves = opening(variant, plies, pair)
    for a in moves:
        s = game.apply(s, a)
        st.apply_action(a)
    ours = theirs = 0.0
    while not game.is_terminal(s):
        assert list(game.legal_actions(s)) == st.legal_actions(), "the two rules disagree"
        t = time.perf_counter()
        if game.current_player(s) == seat:
            a = int(agent.act(game, s))
            ours += time.perf_counter() - t
        else:
            a = int(bot.step(st))
            theirs += time.perf_counter() - t
        moves.append(a)
        s = game.apply(s, a)
        st.apply_action(a)
    assert st.is_terminal()
    score = 1.0 if game.returns(s)[seat] > 0 else 0.0
    mine = sum(1 for i in range(plies, len(moves)) if i % 2 == seat)
    return {"pair": pair, "seat": seat, "score": score, "plies": len(moves), "moves": moves,
            "ours_s_per_move": ours / max(1, mine), "bot_s_per_move": theirs / max(1, len(moves) - plies - mine)}


def main() -> None:
    from zerosum.games import make_game

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", default=None, help="the zerosum agent (default: Hex's default_opponent)")
    ap.add_argument("--games", type=int, default=100, help="games, an even number (pairs of seats)")
    ap.add_argument("--sims", type=int, default=1000, help="MCTSBot's simulations a move")
    ap.add_argument("--board-size", type=int, default=11)
    ap.add_argument("--swap", action="store_true", help="the pie rule")
    ap.add_argument("--opening-plies", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--log", default="results/strength_hex.jsonl", help="JSON lines, one game each (resumed)")
    args = ap.parse_args()
    variant = {"board_size": args.board_size, "swap": args.swap}
    game = make_game("hex", **variant)
    spec = args.spec or game.default_opponent
    log = Path(args.log)
    log.parent.mkdir(parents=True, exist_ok=True)
    key = {"spec": spec, "variant": variant, "sims": args.sims, "opening_plies": args.opening_plies}
    done = {}
    if log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            if row.get("key") == key:
                done[(row["pair"], row["seat"])] = row
    jobs = [(spec, variant, args.sims, pair, seat, args.opening_plies)
            for pair in range(args.games // 2) for seat in (0, 1) if (pair, seat) not in done]
    with log.open("a") as out, mp.get_context("forkserver").Pool(args.workers) as pool:
        for row in pool.imap_unordered(play_one, jobs):
            row["key"] = key
            out.write(json.dumps(row) + "\n")
            out.flush()
            done[(row["pair"], row["seat"])] = row
            wins = sum(r["score"] for r in done.values())
            print(f"{len(done)} games: {wins:.0f} wins ({wins / len(done):.3f})", flush=True)
    rows = list(done.values())
    n = len(rows)
    wins = sum(r["score"] for r in rows)
    lo, hi = wilson(wins, n)
    summary = {"spec": spec, "opponent": f"OpenSpiel MCTSBot({args.sims} sims, random rollouts)",
               "variant": str(variant), "games": n, "wins": wins, "score": wins / n if n else 0.0,
               "wilson_low": lo, "wilson_high": hi,
               "as black": sum(r["score"] for r in rows if r["seat"] == 0) / max(1, sum(r["seat"] == 0 for r in rows)),
               "as white": sum(r["score"] for r in rows if r["seat"] == 1) / max(1, sum(r["seat"] == 1 for r in rows)),
               "ours s/move": float(np.mean([r["ours_s_per_move"] for r in rows])) if rows else 0.0,
               "bot s/move": float(np.mean([r["bot_s_per_move"] for r in rows])) if rows else 0.0,
               "mean plies": float(np.mean([r["plies"] for r in rows])) if rows else 0.0,
               "load": os.getloadavg()}
    emit("strength_hex", [summary], ["spec", "games", "score", "wilson_low", "wilson_high", "as black", "as white",
                                     "ours s/move", "bot s/move", "mean plies"],
         {"headline": [headline(f"hex {spec} vs MCTSBot({args.sims})", wins / n if n else 0.0, None, ">= 0.75")]})


if __name__ == "__main__":
    main()
