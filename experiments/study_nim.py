"""The lecture's Nim redone: the perfect (nim-sum) agent against alpha-beta and a learned agent.

1. Theory check, opponent-free: for every position reachable from each start (every pile
   from 0 to its starting size), both conventions, the nim-sum rule's verdict is compared
   with an exhaustive alpha-beta solve (no heuristic, searched to the end), and from every
   winning position perfect_nim's move is checked to leave the opponent a lost position
   (by the solve, not by the rule).
2. Games: perfect_nim against alpha-beta without knowledge of Nim (a ``blind`` heuristic
   that scores every unfinished position 0, so the search sees only the wins within its
   horizon) at depths 1, 2, 4 and 8, against alpha-beta that searches to the end, and
   against alpha-beta with the exact ``nim_sum`` heuristic at depth 1; from several
   starting piles, both seats, both conventions, ``--games`` games per seat (ties are
   broken at random, so games differ). Perfect play decides every game from the start:
   the first player wins exactly when the start is a winning position, so the table
   also gives that expected score.
3. Against a learned agent: ``--learned PATH``, a checkpoint trained on the standard piles in
   normal play (four minutes of MaskablePPO self-play, with a fifth of the games against
   random)::

       zerosum train --game nim --opponent random --self-play --steps 1000000 --max-seconds 240 \
           --ent-coef 0.01 --eval-opponents "random;perfect_nim;mcts(sims=100)" --out runs/nim_selfplay

   When the file is missing the row says so.

    python experiments/study_nim.py [--games 25] [--learned runs/nim_selfplay/model.zip]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # _report: the benchmarks' output

from _report import emit

from zerosum.agents import make_agent
from zerosum.agents.search import AlphaBetaAgent, nim_mover_wins
from zerosum.evaluation import play_match
from zerosum.evaluation.stats import Record
from zerosum.games import Heuristic, make_game
from zerosum.games.kit import HEURISTIC, kernel
from zerosum.search import WIN_BOUND, AlphaBeta

STARTS = ((1, 3, 5, 7), (3, 4, 5), (3, 5, 7), (2, 4, 6, 8))
DEPTHS = (1, 2, 4, 8)


@kernel(HEURISTIC)
def _blind(params, s, player):  # pragma: no cover - compiled
    return 0.0


BLIND = Heuristic("blind", _blind, "0 for every unfinished position: the search knows only the wins it sees")


def theory_check(piles: tuple[int, ...], misere: bool) -> dict:
    """Every reachable position: the nim-sum rule against an exhaustive solve, and perfect_nim's move."""
    game = make_game("nim", piles=piles, misere=misere)
    solver = AlphaBeta(game, BLIND, tt_size=1 << 16)
    perfect = make_agent("perfect_nim", rng=0)
    full = sum(piles)
    positions = agree = winning = kept = 0
    for sizes in itertools.product(*(range(p + 1) for p in piles)):
        if sum(sizes) == 0:
            continue
        for mover in (0, 1):
            s = np.array([mover, *sizes], np.int64)
            positions += 1
            solved_win = solver.search(s, full).value >= WIN_BOUND
            rule_win = nim_mover_wins(np.array(sizes), misere)
            agree += solved_win == rule_win
            if rule_win:
                winning += 1
                child = game.apply(s, perfect.act(game, s))
                if game.is_terminal(child):
                    kept += game.returns(child)[mover] > 0
                else:
                    kept += solver.search(child, full).value <= -WIN_BOUND
    return {"piles": piles, "misere": misere, "positions": positions, "rule agrees with solve": agree,
            "winning positions": winning, "perfect move keeps the win": kept}


def opponents(full: int) -> dict[str, object]:
    out: dict[str, object] = {f"alphabeta blind depth {d}": ("blind", d) for d in DEPTHS}
    out["alphabeta blind to the end"] = ("blind", full)
    out["alphabeta nim_sum depth 1"] = ("nim_sum", 1)
    return out


def play_series(game, a_factory, b_factory, games: int, seed: int) -> dict:
    """``games`` games with A first and ``games`` with A second: A's records, and how often A had a
    winning position to move in and still lost."""
    first, second = Record(), Record()
    faced_win = lost_from_win = 0
    for k in range(games):
        for seat in (0, 1):
            a, b = a_factory(seed * 1000 + 2 * k + seat), b_factory(seed * 1000 + 2 * k + seat + 7919)
            m = play_match(game, [a, b] if seat == 0 else [b, a], record_stats=False)
            score = m.returns[seat] * 0.5 + 0.5
            (first if seat == 0 else second).add(score)
            # did perfect_nim ever have a winning position to move in?
            s = game.initial_state()
            had = False
            for mv in m.moves:
                if game.current_player(s) == seat and nim_mover_wins(s[1:], bool(game.variant["misere"])):
                    had = True
                s = game.apply(s, mv.action)
            faced_win += had
            lost_from_win += had and score < 0.5
    return {"first": first, "second": second, "faced_win": faced_win, "lost_from_win": lost_from_win}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=25, help="games per seat for each start, convention and opponent")
    ap.add_argument("--learned", default="runs/nim_selfplay/model.zip")
    args = ap.parse_args()
    t0 = time.perf_counter()
    checks = [theory_check(p, m) for p in STARTS for m in (False, True)]
    rows = []
    for piles in STARTS:
        for misere in (False, True):
            game = make_game("nim", piles=piles, misere=misere)
            start_wins = nim_mover_wins(np.array(piles), misere)
            for j, (name, (heur, depth)) in enumerate(opponents(sum(piles)).items()):
                h = BLIND if heur == "blind" else heur
                res = play_series(game, lambda r: make_agent("perfect_nim", rng=r),
                                  lambda r, h=h, d=depth: AlphaBetaAgent(d, h, rng=r), args.games,
                                  seed=100 * STARTS.index(piles) + 10 * misere + j)
                rows.append(_row(piles, misere, start_wins, "perfect_nim", name, res))
    learned = Path(args.learned)
    if learned.exists():
        game = make_game("nim")
        res = play_series(game, lambda r: make_agent("perfect_nim", rng=r),
                          lambda r: make_agent(f"ppo(path={learned})", rng=r), args.games, seed=1)
        rows.append(_row((1, 3, 5, 7), False, False, "perfect_nim", f"ppo(path={learned})", res))
        # the learned agent's own strength, for scale (its network knows only the standard piles)
        for name, factory in (("random", lambda r: make_agent("random", rng=r)),
                              ("alphabeta blind depth 2", lambda r: AlphaBetaAgent(2, BLIND, rng=r)),
                              ("alphabeta blind depth 4", lambda r: AlphaBetaAgent(4, BLIND, rng=r))):
            res = play_series(game, lambda r: make_agent(f"ppo(path={learned})", rng=r), factory, args.games, seed=2)
            rows.append(_row((1, 3, 5, 7), False, False, "learned", name, res))
    else:
        rows.append({"piles": "1 3 5 7", "convention": "normal", "A": "perfect_nim",
                     "B": f"learned: {learned} missing (pending)"})
    cols = ["piles", "convention", "A", "B", "A first", "A second", "A score", "95% low", "95% high",
            "theory first", "won from a win"]
    emit("study_nim", rows, cols, {"theory": checks, "seconds": round(time.perf_counter() - t0, 1)})
    print()
    for c in checks:
        print(f"piles {c['piles']}, {'misere' if c['misere'] else 'normal'}: {c['rule agrees with solve']}/"
              f"{c['positions']} positions agree with the solve; perfect move keeps the win in "
              f"{c['perfect move keeps the win']}/{c['winning positions']}")


def _row(piles, misere, start_wins, a: str, b: str, res) -> dict:
    first, second = res["first"], res["second"]
    total = Record(first.wins + second.wins, first.draws + second.draws, first.losses + second.losses)
    lo, hi = total.interval
    return {"piles": " ".join(map(str, piles)), "convention": "misere" if misere else "normal", "A": a, "B": b,
            "A first": first.wdl(), "A second": second.wdl(), "A score": round(total.score, 3),
            "95% low": round(lo, 3), "95% high": round(hi, 3),
            "theory first": "win" if start_wins else "loss",
            "won from a win": f"{res['faced_win'] - res['lost_from_win']}/{res['faced_win']}"}


if __name__ == "__main__":
    main()
