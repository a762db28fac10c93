"""Go against OpenSpiel's ``go``: the oracle at every step of random games, perft, and speed.

* ``oracle``: random games played on both side by side (seeds of their own, not the
  tests'), compared at every step: legal actions, player to move, terminal flag, returns;
  steps and superko draws per board size.
* ``perft``: move sequences of exactly d plies from the start, both sides counted.
* ``playouts``: random games on 9x9 in the loop a user writes, on both sides in this
  process, game by game in turn (the same games: one ``random.Random`` seed each)::

      while not game.is_terminal(s):                 while not st.is_terminal():
          game.current_player(s)                         st.current_player()
          legal = game.legal_actions(s)                  legal = st.legal_actions()
          s = game.apply(s, int(legal[i]))               st.apply_action(legal[i])
      game.returns(s)                                st.returns()

  ratio = ours / pyspiel's moves a CPU second (target >= 5).
* ``vector``: ``make_vec("go_v0", lanes, opponent="random")`` learner steps a second of
  ``step()`` (each with the opponent's reply and the restarts; target >= 200 k).

Prints one JSON document, then a table, with the load average.
``python bench/go.py [--oracle-games 9:2000,13:200,19:40] [--perft 5:4,9:3] [--games 300] [--lanes 1024]``
"""

from __future__ import annotations

import argparse
import os
import random
import time


from _report import emit, headline
from game_api import api_natural, openspiel_natural, time_loops
from vector import vector_rate
from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel, openspiel_perft, perft


def oracle(size: int, games: int, seed: int) -> dict:
    import pyspiel

    ours, theirs = make_game("go", board_size=size), pyspiel.load_game("go", {"board_size": size})
    t = time.perf_counter()
    report = compare_with_openspiel(ours, theirs, games, random.Random(seed))
    seconds = time.perf_counter() - t
    return {"what": f"oracle {size}x{size}", "games": games, "steps": report.plies,
            "superko draws": sum(r[0] == 0 for r in report.returns), "seconds": seconds}


def perft_row(size: int, depth: int) -> dict:
    import pyspiel

    g = make_game("go", board_size=size)
    t = time.perf_counter()
    ours = perft(g, g.initial_state(), depth)
    mid = time.perf_counter()
    theirs = openspiel_perft(pyspiel.load_game("go", {"board_size": size}).new_initial_state(), depth)
    if ours != theirs:
        raise AssertionError(f"perft {size}x{size} depth {depth}: ours {ours}, OpenSpiel {theirs}")
    return {"what": f"perft {size}x{size} d{depth}", "count": ours, "seconds": mid - t,
            "openspiel seconds": time.perf_counter() - mid}


def playouts(games: int, rounds: int) -> dict:
    import pyspiel

    og, game = pyspiel.load_game("go", {"board_size": 9}), make_game("go")
    loops = {"pyspiel": lambda rnd: openspiel_natural(og, rnd), "zerosum": lambda rnd: api_natural(game, rnd)}
    moves, secs = time_loops(loops, games, rounds, seed=0)
    rates = {k: moves[k] / secs[k] for k in loops}
    return {"what": "9x9 random playouts, natural loop", "moves": moves["zerosum"],
            "pyspiel moves/s": rates["pyspiel"], "zerosum moves/s": rates["zerosum"],
            "ratio": rates["zerosum"] / rates["pyspiel"]}


def vector(lanes: int, seconds: float) -> dict:
    wall, cpu = vector_rate("go_v0", "random", lanes, seconds)
    return {"what": f"make_vec go_v0 x{lanes} vs random", "steps/s": wall, "cpu steps/s": cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle-games", default="9:2000,13:200,19:40", help="size:games,...")
    ap.add_argument("--perft", default="5:4,9:3,13:2,19:2", help="size:depth,...")
    ap.add_argument("--games", type=int, default=300, help="9x9 playouts per loop")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--lanes", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rows = []
    for item in filter(None, args.oracle_games.split(",")):
        size, games = map(int, item.split(":"))
        rows.append(oracle(size, games, args.seed + size))
    for item in filter(None, args.perft.split(",")):
        size, depth = map(int, item.split(":"))
        rows.append(perft_row(size, depth))
    play = playouts(args.games, args.rounds)
    vec = vector(args.lanes, args.seconds)
    rows += [play, vec]
    load = os.getloadavg()
    emit("go", rows, ["what", "games", "steps", "superko draws", "count", "seconds", "openspiel seconds",
                      "pyspiel moves/s", "zerosum moves/s", "ratio", "steps/s", "cpu steps/s"],
         {"load": load, "headline": [
             headline("Go 9x9 random playouts vs pyspiel (natural loop)", play["zerosum moves/s"],
                      play["pyspiel moves/s"], ">= 5x"),
             headline("make_vec go_v0 vs random, steps/s", vec["steps/s"], None, ">= 200 k")]})
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
