"""Chess: perft nodes/s, the Game API's natural loop against python-chess and pyspiel, make_vec.

* **perft**: the compiled perft (zerosum.games.chess.perft: legal move generation, the
  last ply counted in bulk) on one core, from the start and from "Kiwipete", checked
  against the published counts; nodes (leaves) per second of CPU time.
* **natural loop**: random games through the loop a user writes, on each side::

      while not game.is_terminal(s):             while not board.is_game_over(claim_draw=True):
          game.current_player(s)                     board.turn
          legal = game.legal_actions(s)              legal = list(board.legal_moves)
          s = game.apply(s, int(legal[i]))           board.push(legal[i])
      game.returns(s)                            board.result(claim_draw=True)

  against python-chess under chess_v6's draw rule (the default, ``draws="claim"``), and
  ``draws="arise"`` against pyspiel's ``chess`` (the loop of bench/game_api.py). The loops
  take turns game by game so that a shared machine's load falls on both alike; the games
  differ (the move lists are ordered differently) but are drawn alike; CPU seconds.
* **make_vec**: lanes of chess_v0 against a random opponent, random legal learner moves,
  learner steps per CPU second of ``step()`` (and per wall second, which a loaded machine
  lowers).

Prints one JSON document, then a table, with the load average. ``python bench/chess_speed.py``
(``--full``, or FULL=1: perft to depth 6 from the start and 5 from Kiwipete). Not named
``chess.py``: a script's folder comes first on ``sys.path``, and ``import chess`` would find it.
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

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PUBLISHED = {(START, 5): 4_865_609, (START, 6): 119_060_324, (KIWIPETE, 4): 4_085_603, (KIWIPETE, 5): 193_690_690}


def perft_rows(full: bool) -> list[dict]:
    from zerosum.games.chess.perft import perft

    game = make_game("chess")
    rows = []
    for fen, name, depth in ((START, "start", 6 if full else 5), (KIWIPETE, "kiwipete", 5 if full else 4)):
        s = game.from_fen(fen)
        perft(s, 2)  # warm
        t = time.process_time()
        nodes = perft(s, depth)
        secs = time.process_time() - t
        assert nodes == PUBLISHED[(fen, depth)], (name, depth, nodes)
        rows.append({"what": f"perft {name} depth {depth}", "nodes": nodes, "seconds": secs,
                     "rate": nodes / secs, "load_1min": os.getloadavg()[0]})
    return rows


def python_chess_natural(rnd: random.Random) -> int:
    import chess

    board = chess.Board()
    n = 0
    while not board.is_game_over(claim_draw=True):
        _ = board.turn
        legal = list(board.legal_moves)
        board.push(legal[rnd.randrange(len(legal))])
        n += 1
    board.result(claim_draw=True)
    return n


def rates(loops: dict, games: int) -> dict:
    """Moves per CPU second of each loop, game by game in turn (bench/game_api.py's
    ``time_loops``; the sides' games differ: python-chess and OpenSpiel order their moves
    otherwise)."""
    moves, secs = time_loops(loops, games, 1, seed=0, same=False)
    return {k: moves[k] / secs[k] for k in loops}


def loop_rows(games: int, spiel_games: int) -> list[dict]:
    import pyspiel

    claim, arise = make_game("chess"), make_game("chess", draws="arise")
    api_natural(claim, random.Random(0))  # warm
    api_natural(arise, random.Random(0))
    pc = rates({"ours": lambda r: api_natural(claim, r), "python-chess": python_chess_natural}, games)
    og = pyspiel.load_game("chess")
    ps = rates({"ours": lambda r: api_natural(arise, r), "pyspiel": lambda r: openspiel_natural(og, r)}, spiel_games)
    load = os.getloadavg()[0]
    return [{"what": "natural loop vs python-chess (draws=claim)", "rate": pc["ours"], "peer": pc["python-chess"],
             "ratio": pc["ours"] / pc["python-chess"], "load_1min": load},
            {"what": "natural loop vs pyspiel (draws=arise)", "rate": ps["ours"], "peer": ps["pyspiel"],
             "ratio": ps["ours"] / ps["pyspiel"], "load_1min": load}]


def vector_row(lanes: int, seconds: float) -> dict:
    wall, cpu = vector_rate("chess_v0", "random", lanes, seconds)
    return {"what": f"make_vec x{lanes} vs random, learner steps per CPU second", "rate": cpu,
            "wall_rate": wall, "load_1min": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", default=os.environ.get("FULL") == "1",
                    help="perft to depth 6 (start) and 5 (Kiwipete)")
    ap.add_argument("--games", type=int, default=20, help="random games per loop against python-chess")
    ap.add_argument("--spiel-games", type=int, default=200, help="random games per loop against pyspiel")
    ap.add_argument("--lanes", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds of make_vec stepping")
    args = ap.parse_args()
    rows = perft_rows(args.full)
    rows += loop_rows(args.games, args.spiel_games)
    rows.append(vector_row(args.lanes, args.seconds))
    heads = [headline(rows[0]["what"] + " nodes/s", rows[0]["rate"], None, ">= 5 M/s"),
             headline(rows[2]["what"], rows[2]["rate"], rows[2]["peer"], ">= 20x"),
             headline(rows[3]["what"], rows[3]["rate"], rows[3]["peer"], ">= 1.5x"),
             headline(rows[4]["what"], rows[4]["rate"], None, ">= 100 k/s")]
    emit("chess", rows, ["what", "nodes", "seconds", "rate", "peer", "ratio", "wall_rate", "load_1min"],
         {"headline": heads, "load_1min": os.getloadavg()[0]})


if __name__ == "__main__":
    main()
