"""Search speed: tic-tac-toe full solve against OpenSpiel and easyAI, nodes/s, cold start.

    python bench/search.py [--repeat 20]

Every figure is measured in this run; the peers run in the same process after ours.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


from _report import emit, headline

from zerosum.games import Heuristic, make_game
from zerosum.search import AlphaBeta, minimax


def best_of(fn, repeat: int) -> tuple[float, object]:
    """Median wall time of ``fn()`` over ``repeat`` runs (after one warm-up), and its last result."""
    result = fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def ttt_solves(repeat: int) -> list[dict]:
    g = make_game("tictactoe")
    s = g.initial_state()
    rows = []
    for label, opts in [("zerosum alpha-beta + TT", {"iterative": False}),
                        ("zerosum alpha-beta + TT + ID", {}),
                        ("zerosum alpha-beta, no TT, no ordering",
                         {"tt": False, "ordering": False, "iterative": False})]:
        ab = AlphaBeta(g, tt_size=1 << 12, **opts)

        def solve(ab=ab):
            ab.clear()
            return ab.search(s, 9)

        t, r = best_of(solve, repeat)
        rows.append({"case": f"tictactoe full solve: {label}", "time_ms": t * 1e3,
                     "nodes": r.stats.nodes, "value": r.value})
    t, r = best_of(lambda: minimax(g, s, 9), max(3, repeat // 5))
    rows.append({"case": "tictactoe full solve: zerosum minimax", "time_ms": t * 1e3,
                 "nodes": r.stats.nodes, "value": r.value})

    import pyspiel
    from open_spiel.python.algorithms import minimax as os_minimax

    game = pyspiel.load_game("tic_tac_toe")
    t, v = best_of(lambda: os_minimax.alpha_beta_search(game)[0], max(3, repeat // 5))
    rows.append({"case": "tictactoe full solve: OpenSpiel alpha_beta_search (Python)", "time_ms": t * 1e3, "value": v})

    from easyAI import AI_Player, Negamax, TranspositionTable
    from easyAI.games import TicTacToe

    class TTTWithKey(TicTacToe):
        def ttentry(self):  # easyAI's transposition table keys positions by this
            return "".join(map(str, self.board)) + str(self.current_player)

    def easy():
        ai = Negamax(9, tt=TranspositionTable())
        return ai(TTTWithKey([AI_Player(ai), AI_Player(ai)]))

    t, _ = best_of(easy, max(3, repeat // 5))
    rows.append({"case": "tictactoe full solve: easyAI Negamax + TT", "time_ms": t * 1e3})
    return rows


def nodes_per_second(repeat: int) -> list[dict]:
    """The same search with a compiled heuristic and with its plain-Python twin (py_func)."""
    rows = []
    cases = [("tictactoe", {}, 4, "lines"), ("nim", {"piles": (3, 4, 5, 6)}, 6, "nim_sum"),
             ("connect_four", {}, 7, "threats")]
    for game_name, variant, depth, h in cases:
        g = make_game(game_name, **variant)
        s = g.initial_state()
        compiled_h = g.heuristic(h)
        python_h = Heuristic(f"{h} (plain Python)", compiled_h.fn.py_func)
        for path, heur in (("compiled heuristic", compiled_h), ("plain-Python heuristic", python_h)):
            ab = AlphaBeta(g, heur, tt=False, ordering=False, iterative=False)
            t, r = best_of(lambda: ab.search(s, depth), max(2, repeat // 10))
            rows.append({"case": f"{game_name} alpha-beta depth {depth}, {path}", "time_ms": t * 1e3,
                         "nodes": r.stats.nodes, "nodes_per_s": r.stats.nodes / t, "value": r.value})
    return rows


COLD = """
import time; t = time.perf_counter()
from zerosum.games import make_game
from zerosum.search import alphabeta
g = make_game("tictactoe")
r = alphabeta(g, g.initial_state(), 9)
print(time.perf_counter() - t)
"""


def cold_start() -> dict:
    subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True)  # fills the cache
    times = [float(subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True, text=True).stdout)
             for _ in range(3)]
    return {"case": "cold start: fresh process to first search result (cached compile)", "time_ms": min(times) * 1e3}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    rows = ttt_solves(args.repeat) + nodes_per_second(args.repeat) + [cold_start()]
    ours = rows[0]["time_ms"]
    peers = {r["case"].split(": ", 1)[1]: r["time_ms"]
             for r in rows if "OpenSpiel" in r["case"] or "easyAI" in r["case"]}
    for r in rows:
        if "OpenSpiel" in r["case"] or "easyAI" in r["case"]:
            r["peer_vs_ours"] = r["time_ms"] / ours
    marks = [headline(f"tictactoe full solve, ms (vs {peer})", ours, ms, "<= 1 ms", lower_is_better=True)
             for peer, ms in peers.items()]
    marks.append(headline("cold start to first search, ms", rows[-1]["time_ms"], None,
                          "printed (no target)", lower_is_better=True))
    emit("search", rows, ["case", "time_ms", "nodes", "nodes_per_s", "value", "peer_vs_ours"],
         {"ttt_solve_ms": ours, "target_ms": 1.0, "peers_ms": peers, "headline": marks})


if __name__ == "__main__":
    main()
