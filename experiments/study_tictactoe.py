"""Study 3 redone: nodes per engine move, minimax against alpha-beta, in four tic-tac-toe games.

The engine searches to the end of the game and plays minimax's move (the first best in
legal order); every alpha-beta variant searches the same positions. The person's moves
are scripted as data: the four games of the study (engine first to a draw, engine first
and winning, person first in the centre to a draw, person first in a corner and losing).

    python experiments/study_tictactoe.py [--figure docs/figures/tictactoe_nodes.png]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # _report: the benchmarks' output

from _report import emit

from zerosum.games import make_game
from zerosum.search import AlphaBeta, minimax

GAME = make_game("tictactoe")
# engine seat, the person's moves in order ("best" = the person plays the engine's own best move)
GAMES = {
    "engine first, draw": (0, ["best", "best", "best", "best"]),
    "engine first, engine wins": (0, ["b1", "best", "best", "best"]),
    "person first in the centre, draw": (1, ["b2", "best", "best", "best", "best"]),
    "person first in a corner, engine wins": (1, ["a1", "c3", "best", "best", "best"]),
}
VARIANTS = {
    "alpha-beta": {"tt": False, "ordering": False, "iterative": False},
    "alpha-beta + TT": {"tt": True, "ordering": False, "iterative": False},
    "alpha-beta + TT + ordering + ID": {"tt": True, "ordering": True, "iterative": True},
}
STUDY_MINIMAX_FIRST = {"engine first, draw": [549_946, 7_332, 198, 14, 2],
                       "engine first, engine wins": [549_946, 8_232, 246, 7],
                       "person first in the centre, draw": [55_505, 933, 51, 5],
                       "person first in a corner, engine wins": [59_705, 1_053, 24]}
STUDY_ALPHABETA = {"engine first, draw": [3_957, 318, 21, 4, 1],
                   "engine first, engine wins": [3_957, 241, 27, 1],
                   "person first in the centre, draw": [1_560, 57, 9, 2],
                   "person first in a corner, engine wins": [573, 30, 1]}


def play(engine: int, person: list[str]) -> list[dict]:
    s = GAME.initial_state()
    rows = []
    script = iter(person)
    while not GAME.is_terminal(s):
        depth = 9 - int(bin(int(s[0]) | int(s[1])).count("1"))
        ref = minimax(GAME, s, depth)
        if GAME.current_player(s) == engine:
            row = {"move": len(rows) + 1, "position": GAME.render(s).replace("\n", " / "), "minimax": ref.stats.nodes}
            for name, opts in VARIANTS.items():
                r = AlphaBeta(GAME, tt_size=1 << 14, **opts).search(s, depth)
                assert r.value == ref.value
                row[name] = r.stats.nodes
            rows.append(row)
            s = GAME.apply(s, ref.action)
        else:
            name = next(script)
            s = GAME.apply(s, ref.action if name == "best" else GAME.string_to_action(name))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--figure", default="")
    args = ap.parse_args()
    rows, results = [], {}
    for label, (engine, person) in GAMES.items():
        moves = play(engine, person)
        results[label] = moves
        for i, m in enumerate(moves):
            study_mm = STUDY_MINIMAX_FIRST[label]
            study_ab = STUDY_ALPHABETA[label]
            rows.append({"game": label, "engine move": i + 1, "minimax": m["minimax"],
                         "study minimax": study_mm[i] if i < len(study_mm) else None,
                         **{k: m[k] for k in VARIANTS},
                         "study alpha-beta": study_ab[i] if i < len(study_ab) else None})
    emit("study_tictactoe", rows, ["game", "engine move", "minimax", "study minimax", *VARIANTS, "study alpha-beta"])
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 4, figsize=(16, 4), sharey=True)
        for ax, (label, moves) in zip(axes, results.items()):
            xs = [m["move"] for m in moves]
            for key in ("minimax", *VARIANTS):
                ax.plot(xs, [max(m[key], 1) for m in moves], marker="o", label=key)
            ax.set_yscale("log")
            ax.set_xticks(xs)
            ax.set_title(label, fontsize=9)
            ax.set_xlabel("engine move")
        axes[0].set_ylabel("nodes visited (log)")
        axes[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.figure, dpi=110)
        print(f"wrote {args.figure}")


if __name__ == "__main__":
    main()
