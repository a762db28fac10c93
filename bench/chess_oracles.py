"""Chess against its oracles at every step of many random games (the tests play a few).

* **python-chess** (chess_v6's draw rule, ``draws="claim"``): the legal moves (as UCI),
  the FEN, the SAN of the move played (written and read back) and the result.
* **OpenSpiel** (``draws="arise"``): the legal moves (as UCI), the board, side and
  castling rights of the FEN, the end and the returns.
* **PettingZoo chess_v6** against ``chess_v0``: both players' observations and action
  masks, the rewards and the end.

Half the games start from the standard position, half from endgames where random play
meets repetition, the fifty-move rule and promotion. Any difference stops the run with
the position. Prints one JSON document, then a table: games, steps compared, how games
ended. ``python bench/chess_oracles.py [--games N]``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

import numpy as np

from _report import emit
from zerosum.games import Outcome, make_game
from zerosum.games.chess import START_FEN
from zerosum.testing import openspiel_chess_moves

ENDGAMES = ["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
            "4k3/3q4/8/8/8/8/3Q4/4K3 w - - 0 1", "4k3/pp6/8/3pP3/8/8/6PP/4K3 w - d6 0 1",
            "8/8/4k3/8/8/3K4/8/R7 w - - 95 80", "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"]
RESULT = {"1-0": Outcome.P0_WINS, "0-1": Outcome.P1_WINS, "1/2-1/2": Outcome.DRAW}


def fens(games: int) -> list[str]:
    return [START_FEN if i % 2 == 0 else ENDGAMES[(i // 2) % len(ENDGAMES)] for i in range(games)]


def python_chess(games: int, seed: int) -> dict:
    import chess

    g = make_game("chess")
    rng = np.random.default_rng(seed)
    steps, ends = 0, Counter()
    for fen in fens(games):
        s, board = g.from_fen(fen), chess.Board(fen)
        while True:
            steps += 1
            over = (not any(board.generate_legal_moves()) or board.is_insufficient_material()
                    or board.can_claim_draw())
            outcome = RESULT[board.result(claim_draw=True)] if over else Outcome.ONGOING
            assert g.outcome(s) == outcome, (board.fen(), [m.uci() for m in board.move_stack])
            assert g.to_fen(s) == board.fen(), (g.to_fen(s), board.fen())
            mine = sorted(g.action_to_string(a, s) for a in g.legal_actions(s))
            assert mine == ([] if over else sorted(m.uci() for m in board.legal_moves)), board.fen()
            if over:
                ends[g.result_reason(s)] += 1
                break
            legal = g.legal_actions(s)
            a = int(legal[rng.integers(len(legal))])
            move = chess.Move.from_uci(g.action_to_string(a, s))
            assert g.san(a, s) == board.san(move) and g.string_to_action(board.san(move), s) == a, board.fen()
            board.push(move)
            s = g.apply(s, a)
    return {"oracle": "python-chess (draws=claim)", "games": games, "steps": steps, "ends": dict(ends)}


def openspiel(games: int, seed: int) -> dict:
    import pyspiel

    g = make_game("chess", draws="arise")
    og = pyspiel.load_game("chess")
    rng = np.random.default_rng(seed)
    steps, ends = 0, Counter()
    for fen in fens(games):
        s, o = g.from_fen(fen), og.new_initial_state(fen)
        while True:
            steps += 1
            assert g.is_terminal(s) == o.is_terminal(), str(o)
            if o.is_terminal():
                assert g.returns(s) == tuple(o.returns())[::-1], str(o)  # OpenSpiel's player 0 is black
                ends[g.result_reason(s)] += 1
                break
            mine, theirs = openspiel_chess_moves(g, s, o)
            assert set(mine) == set(theirs), str(o)
            assert g.to_fen(s).split()[:3] == str(o).split()[:3], (g.to_fen(s), str(o))
            uci = sorted(mine)[rng.integers(len(mine))]
            s = g.apply(s, mine[uci])
            o.apply_action(theirs[uci])
    return {"oracle": "OpenSpiel chess (draws=arise)", "games": games, "steps": steps, "ends": dict(ends)}


def pettingzoo(games: int, seed: int) -> dict:
    from pettingzoo.classic import chess_v6

    from zerosum.envs import chess_v0

    rng = np.random.default_rng(seed)
    steps, ends = 0, Counter()
    for i in range(games):
        theirs, mine = chess_v6.env(), chess_v0.env()
        theirs.reset(seed=i)
        mine.reset(seed=i)
        for agent in theirs.agent_iter():
            obs, _, done, _, _ = theirs.last()
            if done:
                assert all(mine.terminations.values()) and mine.rewards == theirs.rewards
                ends[theirs.unwrapped.board.result(claim_draw=True)] += 1
                break
            assert agent == mine.agent_selection and not any(mine.terminations.values())
            for who in mine.possible_agents:
                a, b = theirs.observe(who), mine.observe(who)
                assert np.array_equal(a["observation"], b["observation"]), (steps, who, theirs.unwrapped.board.fen())
                assert np.array_equal(a["action_mask"], b["action_mask"]), (steps, who)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            theirs.step(action)
            mine.step(action)
            steps += 1
    return {"oracle": "PettingZoo chess_v6 observations", "games": games, "steps": steps, "ends": dict(ends)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="random games per oracle")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = []
    for check in (python_chess, openspiel, pettingzoo):
        t = time.perf_counter()
        row = check(args.games, args.seed)
        row["seconds"] = time.perf_counter() - t
        row["load_1min"] = os.getloadavg()[0]
        rows.append(row)
    emit("chess_oracles", rows, ["oracle", "games", "steps", "seconds", "load_1min", "ends"])


if __name__ == "__main__":
    main()
