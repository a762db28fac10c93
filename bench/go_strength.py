"""Go's engine against engines people know: GNU Go over GTP, and OpenSpiel's MCTSBot.

Our agent (``--spec``, default ``Go.default_opponent``) plays 9x9 with komi 7.5 under
zerosum's rules (OpenSpiel's: Tromp-Taylor area scoring, so stones left on the board at
the end count as alive: an engine that passes with dead stones on the board is scored as
the rules say) against

* GNU Go (Debian ``gnugo``, ``--mode gtp --level 1 --chinese-rules``), through a pipe;
  a GNU Go resignation is a win;
* OpenSpiel's ``MCTSBot`` (uct_c 2, ``--openspiel-sims`` simulations, one random rollout
  each, its Python search over pyspiel's C++ Go);

half the games with each colour. Scores are wins + draws/2 over games, with a 95% Wilson
interval. Tromp-Taylor counts every stone left on the board as alive, and GNU Go passes with
dead stones on the board, so against GNU Go the score under our rules favours whoever plays
white; the row also gives the score as GNU Go's ``final_score`` judges the final position
(dead stones removed), the fairer figure. Prints one JSON document, then a table, with the load average.

    python bench/go_strength.py [--games 20] [--openspiel-games 4] [--spec "mcts(time=0.1)"]
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


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a score (a proportion) over n games."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


JUDGED: list[float] = []
"""Our score in each game against GNU Go as its ``final_score`` judges it (dead stones removed)."""


class GnuGo:
    """GNU Go behind GTP: ``play`` tells it a move, ``genmove`` asks for one."""

    def __init__(self, size: int, komi: float, level: int) -> None:
        exe = shutil.which("gnugo") or "/usr/games/gnugo"
        self.proc = subprocess.Popen([exe, "--mode", "gtp", "--level", str(level), "--chinese-rules"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send(f"boardsize {size}")
        self.send(f"komi {komi}")

    def send(self, command: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"GNU Go ended on {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"GNU Go answered {answer!r} to {command!r}")
        return answer[1:].strip()

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def play_gnugo(spec: str, colour: int, seed: int, level: int) -> tuple[float, int]:
    """One game; our score (1, 0.5, 0) under zerosum's rules and its length; the score GNU Go's
    ``final_score`` gives (dead stones removed) goes to JUDGED."""
    game = make_game("go")
    agent = make_agent(spec, rng=seed)
    agent.prepare(game)
    agent.reset()
    gnu = GnuGo(game.board_size, game.komi, level)
    gnu.send("clear_board")
    s = game.initial_state()
    names = "bw"
    try:
        while not game.is_terminal(s):
            p = game.current_player(s)
            if p == colour:
                a = int(agent.act(game, s))
                gnu.send(f"play {names[p]} {game.action_to_string(a).upper()}")
            else:
                move = gnu.send(f"genmove {names[p]}").lower()
                if move == "resign":
                    JUDGED.append(1.0)
                    return 1.0, game.moves_played(s)
                a = game.string_to_action(move)
            s = game.apply(s, a)
        verdict = gnu.send("final_score").upper()
        JUDGED.append(0.5 if verdict.startswith("0") else float(verdict.startswith("BW"[colour])))
    finally:
        gnu.close()
    r = game.returns(s)[colour]
    return (r + 1) / 2, game.moves_played(s)


def play_openspiel(spec: str, colour: int, seed: int, sims: int) -> tuple[float, int]:
    """One game against OpenSpiel's MCTSBot on the same moves."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = make_game("go")
    og = pyspiel.load_game("go", {"board_size": game.board_size, "komi": game.komi})
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(og, uct_c=2.0, max_simulations=sims, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng, solve=True)
    agent = make_agent(spec, rng=seed)
    agent.prepare(game)
    agent.reset()
    s, st = game.initial_state(), og.new_initial_state()
    while not game.is_terminal(s):
        a = int(agent.act(game, s)) if game.current_player(s) == colour else int(bot.step(st))
        s = game.apply(s, a)
        st.apply_action(a)
    r = game.returns(s)[colour]
    return (r + 1) / 2, game.moves_played(s)


def run(name: str, play, games: int, spec: str, seed: int) -> dict:
    scores, lengths, t = [], [], time.perf_counter()
    for i in range(games):
        score, length = play(spec, i % 2, seed + i)
        scores.append(score)
        lengths.append(length)
        print(f"  {name} game {i + 1}/{games}: {'black' if i % 2 == 0 else 'white'} scores {score}", flush=True)
    total = sum(scores)
    lo, hi = wilson(total, games)
    judged = {}
    if JUDGED:
        jlo, jhi = wilson(sum(JUDGED), len(JUDGED))
        judged = {"gnugo-judged score": sum(JUDGED) / len(JUDGED), "judged low": jlo, "judged high": jhi}
        JUDGED.clear()
    return {**judged, "opponent": name, "spec": spec, "games": games, "wins": scores.count(1.0),
            "draws": scores.count(0.5), "losses": scores.count(0.0),
            "score": total / games if games else 0.0, "low": lo, "high": hi,
            "mean length": float(np.mean(lengths)) if lengths else 0.0, "seconds": time.perf_counter() - t}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", default=None, help="our agent (default: Go.default_opponent)")
    ap.add_argument("--games", type=int, default=20, help="games against GNU Go")
    ap.add_argument("--level", type=int, default=1, help="GNU Go's level")
    ap.add_argument("--openspiel-games", type=int, default=4)
    ap.add_argument("--openspiel-sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    spec = args.spec or type(make_game("go")).default_opponent
    rows = []
    if args.games:
        rows.append(run(f"gnugo --level {args.level}", lambda sp, c, sd: play_gnugo(sp, c, sd, args.level),
                        args.games, spec, args.seed))
    if args.openspiel_games:
        rows.append(run(f"OpenSpiel MCTSBot({args.openspiel_sims})",
                        lambda sp, c, sd: play_openspiel(sp, c, sd, args.openspiel_sims),
                        args.openspiel_games, spec, args.seed))
    load = os.getloadavg()
    emit("go_strength", rows, ["opponent", "spec", "games", "wins", "draws", "losses", "score", "low", "high",
                               "gnugo-judged score", "judged low", "judged high", "mean length", "seconds"],
         {"load": load})
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
