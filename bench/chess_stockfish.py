"""Chess strength: the default chess opponent (``Chess.default_opponent``) against Stockfish.

Stockfish (Debian's ``stockfish`` package) is driven over UCI through a subprocess pipe, at
its lowest skill level (``Skill Level 0``, 100 ms a move) and at depth 1 (``go depth 1``,
full skill). Each game starts from two random plies (seeded) and is played in both seats;
the rules are zerosum's (draws as chess_v6). The score is wins + draws/2 over games, from
our engine's side, with a 95% interval (normal approximation over the per-game scores).

Prints one JSON document, then a table. ``python bench/chess_stockfish.py [--games N]
[--stockfish PATH] [--agent SPEC]``.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import time

import numpy as np

from _report import emit
from zerosum.agents import make_agent
from zerosum.games import make_game


class Stockfish:
    """A UCI engine behind pipes."""

    def __init__(self, path: str, options: dict[str, object]) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"stockfish closed before {prefix!r}")

    def best(self, fen: str, go: str) -> str:
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go {go}")
        return self.wait("bestmove").split()[1]

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def play(game, agent, engine: Stockfish, go: str, ours: int, opening: list[int]) -> float:
    """One game; our score (1, 0.5, 0)."""
    s = game.initial_state()
    for a in opening:
        s = game.apply(s, a)
    agent.reset()
    while not game.is_terminal(s):
        if game.current_player(s) == ours:
            a = int(agent.act(game, s))
        else:
            a = game.string_to_action(engine.best(game.to_fen(s), go), s)
        s = game.apply(s, a)
    r = game.returns(s)[ours]
    return (r + 1) / 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per setting (half in each seat)")
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    ap.add_argument("--agent", default=None, help="our agent spec (default: Chess.default_opponent)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = make_game("chess")
    spec = args.agent or type(game).default_opponent
    agent = make_agent(spec, args.seed)
    agent.prepare(game)
    rows = []
    for name, options, go in (("skill 0, 100 ms", {"Skill Level": 0, "Threads": 1}, "movetime 100"),
                              ("depth 1", {"Threads": 1}, "depth 1")):
        engine = Stockfish(args.stockfish, options)
        rng = np.random.default_rng(args.seed)
        scores = []
        t = time.perf_counter()
        for i in range(args.games):
            s = game.initial_state()
            opening = []
            for _ in range(2):
                legal = game.legal_actions(s)
                opening.append(int(legal[rng.integers(len(legal))]))
                s = game.apply(s, opening[-1])
            scores.append(play(game, agent, engine, go, i % 2, opening))
        engine.close()
        n = len(scores)
        mean = float(np.mean(scores))
        half = 1.96 * math.sqrt(float(np.var(scores, ddof=1)) / n) if n > 1 else float("nan")
        rows.append({"agent": spec, "stockfish": name, "games": n, "wins": scores.count(1.0),
                     "draws": scores.count(0.5), "losses": scores.count(0.0), "score": mean,
                     "low": max(0.0, mean - half), "high": min(1.0, mean + half),
                     "seconds": time.perf_counter() - t, "load_1min": os.getloadavg()[0]})
    emit("chess_stockfish", rows, ["agent", "stockfish", "games", "wins", "draws", "losses", "score", "low", "high",
                                   "seconds", "load_1min"])


if __name__ == "__main__":
    main()
