"""Halma 16x16: a search that finishes games, depth-3 cost, move generation speed.

1. Self-play: alpha-beta to depth 2 with the ``distance`` heuristic on both sides, 100
   seeded games (each opens with 4 seeded random moves, and every search breaks ties with
   a seeded random draw). Target: >= 95% end with a winner before the cap (600 moves);
   prints the mean length. For comparison, the study's plain far-corner sum (``corner``)
   on a few games: it stalls near the camps, as the study's engine did.
2. Depth 3 from 16x16 midgame positions (moves 40-120 of those games): alpha-beta with
   ordering (the defaults: TT, the forward-first hint, killers), target <= 0.5 s per
   move; nodes per move with and without ordering, and without pruning (minimax) on the
   first positions (the study measured millions of nodes without pruning against tens
   of thousands with it).
3. Move generation on the same midgame positions: positions/s of the ``legal`` kernel in
   a compiled loop and through ``Game.legal_actions``, and legal + apply of every move.

Prints one JSON document, then a table. ``python bench/halma.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from _report import emit, headline
from zerosum.games.halma import TURN, Halma
from zerosum.search import AlphaBeta, minimax

OPENING_PLIES = 4


def self_play(game: Halma, heuristic: str, depth: int, games: int, keep: range | None = None) -> dict:
    """Seeded self-play; returns lengths, outcomes, time per move and (optionally) positions."""
    lengths, winners, positions = [], [], []
    moves, seconds = 0, 0.0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        engines = (AlphaBeta(game, heuristic), AlphaBeta(game, heuristic))
        s = game.initial_state()
        for _ in range(OPENING_PLIES):
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
        while not game.is_terminal(s):
            if keep is not None and int(s[TURN]) in keep:
                positions.append(s)
            t = time.perf_counter()
            r = engines[game.current_player(s)].search(s, depth, seed=int(rng.integers(1 << 31)))
            seconds += time.perf_counter() - t
            moves += 1
            s = game.apply(s, r.action)
        lengths.append(int(s[TURN]))
        winners.append(game.outcome(s).winner)
    decided = sum(w is not None for w in winners)
    return {"heuristic": heuristic, "depth": depth, "games": games, "with_winner": decided,
            "winner_rate": decided / games, "player_0_wins": winners.count(0), "player_1_wins": winners.count(1),
            "mean_length": float(np.mean(lengths)), "max_length": max(lengths),
            "mean_length_decided": float(np.mean([n for n, w in zip(lengths, winners) if w is not None] or [0])),
            "seconds_per_move": seconds / max(moves, 1), "positions": positions}


def depth3(game: Halma, positions: list[np.ndarray], minimax_positions: int) -> dict:
    """Depth-3 searches from each position with a fresh searcher (an empty TT)."""
    rows = {"ordered": [], "unordered": [], "minimax": []}
    AlphaBeta(game).search(positions[0], 2)  # load the compiled search
    for i, s in enumerate(positions):
        for name, opts in (("ordered", {}), ("unordered", {"ordering": False})):
            searcher = AlphaBeta(game, "distance", tt_size=1 << 20, **opts)
            t = time.perf_counter()
            r = searcher.search(s, 3)
            rows[name].append({"seconds": time.perf_counter() - t, "nodes": r.stats.nodes,
                               "nodes_last_iteration": r.iterations[-1].nodes, "value": r.value})
        if i < minimax_positions:
            t = time.perf_counter()
            r = minimax(game, s, 3, "distance")
            rows["minimax"].append({"seconds": time.perf_counter() - t, "nodes": r.stats.nodes, "value": r.value})
            assert abs(r.value - rows["ordered"][-1]["value"]) < 1e-6, "alpha-beta and minimax disagree"
    out = {}
    for name, rs in rows.items():
        if rs:
            out[name] = {"positions": len(rs), "mean_seconds": float(np.mean([r["seconds"] for r in rs])),
                         "max_seconds": float(max(r["seconds"] for r in rs)),
                         "mean_nodes": float(np.mean([r["nodes"] for r in rs]))}
    out["ordered"]["mean_nodes_depth3_iteration"] = float(np.mean([r["nodes_last_iteration"] for r in rows["ordered"]]))
    out["unordered"]["mean_nodes_depth3_iteration"] = float(
        np.mean([r["nodes_last_iteration"] for r in rows["unordered"]]))
    if rows["minimax"]:
        k = len(rows["minimax"])
        out["nodes_ratio_minimax_to_ordered"] = float(
            np.mean([m["nodes"] / o["nodes"] for m, o in zip(rows["minimax"], rows["ordered"][:k])]))
    return out


@njit(cache=True)
def _legal_loop(legal, params, states, reps):  # pragma: no cover - compiled
    out = np.empty(4096, np.int64)
    total = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += legal(params, states[i], out)
    return total


@njit(cache=True)
def _children_loop(legal, apply, params, states):  # pragma: no cover - compiled
    out = np.empty(4096, np.int64)
    child = np.empty(states.shape[1], np.int64)
    total = 0
    for i in range(states.shape[0]):
        n = legal(params, states[i], out)
        for j in range(n):
            apply(params, states[i], out[j], child)
        total += n
    return total


def movegen(game: Halma, positions: list[np.ndarray], seconds: float) -> dict:
    k, p = game.kernels, game.params
    states = np.array(positions)
    _legal_loop(k.legal, p, states, 1)
    _children_loop(k.legal, k.apply, p, states)
    reps, t = 0, time.perf_counter()
    while time.perf_counter() - t < seconds:
        _legal_loop(k.legal, p, states, 20)
        reps += 20
    kernel_rate = reps * len(states) / (time.perf_counter() - t)
    calls, t = 0, time.perf_counter()
    while time.perf_counter() - t < seconds:
        for s in states:
            game.legal_actions(s)
        calls += len(states)
    api_rate = calls / (time.perf_counter() - t)
    reps, moves, t = 0, 0, time.perf_counter()
    while time.perf_counter() - t < seconds:
        moves += _children_loop(k.legal, k.apply, p, states)
        reps += 1
    dt = time.perf_counter() - t
    return {"positions": len(states), "mean_moves": float(np.mean([len(game.legal_actions(s)) for s in states])),
            "legal_kernel_positions_per_s": kernel_rate, "legal_actions_api_positions_per_s": api_rate,
            "legal_and_apply_moves_per_s": moves / dt, "legal_and_apply_positions_per_s": reps * len(states) / dt}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--corner-games", type=int, default=10)
    ap.add_argument("--positions", type=int, default=20, help="midgame positions for depth 3")
    ap.add_argument("--minimax", type=int, default=3, help="positions also searched without pruning")
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.games, args.corner_games, args.positions, args.minimax = 20, 2, 6, 1
    game = Halma()
    play = self_play(game, "distance", 2, args.games, keep=range(40, 121, 20))
    positions = play.pop("positions")
    rng = np.random.default_rng(0)
    positions = [positions[i] for i in sorted(rng.choice(len(positions), min(args.positions, len(positions)),
                                                         replace=False))]
    corner = self_play(game, "corner", 2, args.corner_games)
    corner.pop("positions")
    d3 = depth3(game, positions, args.minimax)
    gen = movegen(game, positions, 0.5 if args.quick else 2.0)

    rows = [
        {"what": "depth-2 self-play, distance: games with a winner", "value": play["winner_rate"],
         "target": ">= 0.95"},
        {"what": "  mean / max length (moves of both players)",
         "value": f"{play['mean_length']:.1f} / {play['max_length']}"},
        {"what": "  wins player 0 / player 1", "value": f"{play['player_0_wins']} / {play['player_1_wins']}"},
        {"what": "  seconds per move", "value": play["seconds_per_move"]},
        {"what": "depth-2 self-play, study's corner sum: with a winner", "value": corner["winner_rate"],
         "target": "(comparison)"},
        {"what": "depth 3, ordered: mean / max seconds per move",
         "value": f"{d3['ordered']['mean_seconds']:.3f} / {d3['ordered']['max_seconds']:.3f}", "target": "<= 0.5"},
        {"what": "depth 3, nodes per move: ordered", "value": d3["ordered"]["mean_nodes"]},
        {"what": "depth 3, nodes per move: no ordering", "value": d3["unordered"]["mean_nodes"]},
        {"what": "depth 3, nodes per move: no pruning (minimax)", "value": d3.get("minimax", {}).get("mean_nodes")},
        {"what": "move generation: legal kernel, positions/s", "value": gen["legal_kernel_positions_per_s"]},
        {"what": "move generation: Game.legal_actions, positions/s", "value": gen["legal_actions_api_positions_per_s"]},
        {"what": "legal + apply every move, moves/s", "value": gen["legal_and_apply_moves_per_s"]},
    ]
    extra = {
        "self_play_distance": play, "self_play_corner": corner, "depth3": d3, "movegen": gen,
        "headline": [
            headline("Halma 16x16 depth-2 self-play: share of games won", play["winner_rate"], target=">= 0.95"),
            headline("Halma 16x16 depth-3 alpha-beta, max seconds per move", d3["ordered"]["max_seconds"],
                     target="<= 0.5"),
            headline("Halma 16x16 midgame move generation, positions/s", gen["legal_kernel_positions_per_s"]),
        ],
    }
    emit("halma", rows, ["what", "value", "target"], extra)


if __name__ == "__main__":
    main()
