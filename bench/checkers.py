"""Checkers against its references: OpenSpiel move for move, and perft tables.

* ``oracle``: seeded random games on the default board and the variants, stepped in
  zerosum and in pyspiel's ``checkers`` side by side; at every step the legal actions,
  their names, the player to move, the terminal flag, the returns and the board must be
  equal. Prints the games, steps and multi-jump steps compared per variant.
* ``perft``: move sequences from the start of the 8x8 game, per action (zerosum's
  compiled ``perft`` and OpenSpiel's, by recursion in Python through pyspiel) and per whole
  move (a multi-jump, one player's consecutive actions, counted once), next to Aart Bik's
  published table (talkchess.com, "perft for 8x8 checkers", 2009: whole moves, duplicate
  king captures kept).

``python bench/checkers.py oracle [--games N]`` / ``python bench/checkers.py perft [--depth D]``.
"""

from __future__ import annotations

import argparse
import os
import time

from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel, openspiel_perft, perft

BIK = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
VARIANTS = [{}, {"rows": 10, "columns": 10}, {"rows": 8, "columns": 6}, {"rows": 7, "columns": 7},
            {"rows": 10, "columns": 8}, {"rows": 12, "columns": 12}]


def oracle(games: int, seed: int) -> None:
    import pyspiel

    for variant in VARIANTS:
        g, game = make_game("checkers", **variant), pyspiel.load_game("checkers", variant)
        mover, jumps_on = None, 0  # mover: who played the last move, None at the start of a game

        def same_board(s, o):
            nonlocal mover, jumps_on
            assert g.cells(s) == [row[len(str(g.rows)):] for row in str(o).splitlines()[: g.rows]]
            if g.is_terminal(s):
                mover = None
            elif g.current_player(s) == mover:
                jumps_on += 1

        def same_name(s, o, a):
            nonlocal mover
            assert g.action_to_string(a, s) == o.action_to_string(o.current_player(), a)
            mover = g.current_player(s)

        start = time.perf_counter()
        steps = compare_with_openspiel(g, game, games, seed, same_board, check_action=same_name).steps
        print(f"{g!r}: {games} games, {steps} steps equal (legal actions, names, player, terminal, returns, "
              f"board), {jumps_on} of them a multi-jump going on; {time.perf_counter() - start:.1f} s")


def perft_table(depth: int, os_depth: int, whole_depth: int) -> None:
    import pyspiel

    g = make_game("checkers")
    root = pyspiel.load_game("checkers").new_initial_state()
    print("| depth | zerosum, per action | OpenSpiel, per action | zerosum, whole moves | Bik (whole moves) |")
    print("|---|---|---|---|---|")
    for d in range(1, depth + 1):
        ours = perft(g, g.initial_state(), d)
        theirs = openspiel_perft(root, d) if d <= os_depth else "-"
        whole = g.whole_move_perft(g.initial_state(), d) if d <= whole_depth else "-"
        print(f"| {d} | {ours} | {theirs} | {whole} | {BIK[d - 1] if d <= len(BIK) else '-'} |", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    o = sub.add_parser("oracle", help="OpenSpiel move for move")
    o.add_argument("--games", type=int, default=300)
    o.add_argument("--seed", type=int, default=2026)
    q = sub.add_parser("perft", help="perft tables")
    q.add_argument("--depth", type=int, default=9)
    q.add_argument("--os-depth", type=int, default=7)
    q.add_argument("--whole-depth", type=int, default=8)
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    if args.what == "oracle":
        oracle(args.games, args.seed)
    else:
        perft_table(args.depth, args.os_depth, args.whole_depth)


if __name__ == "__main__":
    main()
