"""Pentago speed, side by side with OpenSpiel in one run.

1. Alpha-beta (TT, ordering hint, killers; the defaults) with the ``open_lines``
   heuristic to depth 4 and 5 from three fixed midgame positions: seeded random
   playouts of 8, 12 and 16 moves (targets: depth 4 <= 0.1 s, depth 5 <= 2 s each,
   >= 8 M nodes/s). The seeds are the first whose position is not already decided
   within 3 plies (checked once; the positions are printed).
2. Depth 3 from the same positions under OpenSpiel's rule (``win_before_rotation=False``)
   next to OpenSpiel's Python ``alpha_beta_search`` on pyspiel's ``pentago`` with the same
   open-line heuristic written in Python (scaled by 1e-4 so that OpenSpiel's +-1 wins
   still outrank it). OpenSpiel's nodes are counted by wrapping its recursive
   ``_alpha_beta``; both values are printed (they agree: same tree, same heuristic).
   Target: ours >= 100x faster.
3. Random playouts, moves/s, game by game in one loop with the same random choices
   (so both play the very same games): OpenSpiel's C++ game through pyspiel, our Game
   API (``legal_actions`` / ``apply`` / ``is_terminal``; also ``apply_unchecked``), and
   our kernels with reused buffers (target: the Game API at least as fast as pyspiel).
4. Compiled batch playouts (how MCTS rollouts use the kernels): the kit's
   ``Game.random_playouts`` (the kit's one compiled loop; target >= 2 M moves/s).
5. Through ``env()``: ``agent_iter`` / ``last`` / ``step`` with a random legal action from
   the mask (target >= 30 k moves/s).

Times are CPU seconds of this process (``time.process_time``): the machine is shared, and
another job's load should not count against either side. ``--quick`` (for
``bench/run_all.py``) searches once, compares with OpenSpiel on the 16-move position only,
and plays fewer games.

Prints one JSON document, then a table. ``python bench/pentago.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from _report import emit, headline
from game_api import interleaved_playouts
from zerosum.envs import pentago_v0
from zerosum.games.pentago import Pentago
from zerosum.games.pentago.tables import LINES
from zerosum.search import AlphaBeta

# (moves, seed): the first seed (from 0) whose random playout is not decided within 3 plies
POSITIONS = ((8, 0), (12, 1), (16, 0))
OPEN_LINE_WEIGHTS = (0, 1, 3, 9, 27, 81)
_LINES = [int(m) for m in LINES]
_POW2 = 1 << np.arange(36, dtype=np.int64)


def position(game: Pentago, moves: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    s = game.initial_state()
    for _ in range(moves):
        s = game.apply(s, int(rng.choice(game.legal_actions(s))))
    if game.is_terminal(s):
        raise RuntimeError(f"the playout ({moves}, {seed}) ended the game")
    return s


def timed_search(game: Pentago, state: np.ndarray, depth: int, repeat: int) -> dict:
    """Best of ``repeat`` searches, each with a fresh searcher (empty TT)."""
    best = None
    for _ in range(repeat):
        searcher = AlphaBeta(game, "open_lines", tt_size=1 << 20)
        t = time.process_time()
        r = searcher.search(state, depth)
        dt = time.process_time() - t
        if best is None or dt < best["seconds"]:
            best = {"seconds": dt, "nodes": r.stats.nodes, "nodes_per_s": r.stats.nodes / dt,
                    "value": r.value, "move": game.action_to_string(r.action)}
    return best


# ---- OpenSpiel ---------------------------------------------------------------------------
def open_lines_py(me: int, op: int) -> int:
    """The open_lines heuristic in plain Python (own minus opponent's)."""
    total = 0
    for m in _LINES:
        a, b = me & m, op & m
        if not b:
            total += OPEN_LINE_WEIGHTS[a.bit_count()]
        if not a:
            total -= OPEN_LINE_WEIGHTS[b.bit_count()]
    return total


def openspiel_state(og, moves: list[int]):
    st = og.new_initial_state()
    for a in moves:
        st.apply_action(a)
    return st


def bench_openspiel_alphabeta(og, moves: list[int], depth: int) -> dict:
    from open_spiel.python.algorithms import minimax

    root = openspiel_state(og, moves)
    me = root.current_player()

    def value(state) -> float:
        planes = np.asarray(state.observation_tensor(me)).reshape(3, 36) > 0
        return open_lines_py(int(_POW2[planes[0]].sum()), int(_POW2[planes[1]].sum())) * 1e-4

    inner = minimax._alpha_beta
    count = [0]

    def counting(*args, **kwargs):
        count[0] += 1
        return inner(*args, **kwargs)

    minimax._alpha_beta = counting
    try:
        t = time.process_time()
        v, action = minimax.alpha_beta_search(og, state=root, value_function=value, maximum_depth=depth)
        dt = time.process_time() - t
    finally:
        minimax._alpha_beta = inner
    return {"seconds": dt, "nodes": count[0], "nodes_per_s": count[0] / dt, "value": v * 1e4 if abs(v) < 1 else v,
            "move": root.action_to_string(me, action)}


# ---- playouts ----------------------------------------------------------------------------
def bench_playouts(game: Pentago, og, games: int, seed: int = 0) -> dict:
    """pyspiel, the Game API and the kernels playing the same games (bench/game_api.py)."""
    return interleaved_playouts(game, og, games, seed)


def bench_compiled_playouts(game: Pentago, games: int) -> dict:
    out = {}
    game.random_playouts(game.initial_state(), 2, seed=0)
    t = time.process_time()
    r = game.random_playouts(game.initial_state(), games, seed=1)
    dt = time.process_time() - t
    out["Game.random_playouts"] = {"moves": r["moves"], "seconds": dt, "moves_per_s": r["moves"] / dt}
    return out


def bench_env(games: int, wbr: bool, seed: int = 0) -> dict:
    env = pentago_v0.env(win_before_rotation=wbr)
    rng = np.random.default_rng(seed)
    n = 0
    t = time.process_time()
    for _ in range(games):
        env.reset(seed=int(rng.integers(1 << 30)))
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
    dt = time.process_time() - t
    return {"moves": n, "seconds": dt, "moves_per_s": n / dt}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="searches per figure (the best is kept)")
    ap.add_argument("--games", type=int, default=1000, help="random playouts per loop")
    ap.add_argument("--env-games", type=int, default=300)
    ap.add_argument("--no-openspiel-search", action="store_true", help="skip OpenSpiel's slow alpha-beta")
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = ap.parse_args()
    versus_positions = POSITIONS
    if args.quick:
        args.repeat, args.games, args.env_games = 1, 300, 50
        versus_positions = POSITIONS[-1:]
    import pyspiel

    og = pyspiel.load_game("pentago")
    game = Pentago()
    openspiel_rule = Pentago(win_before_rotation=False)
    rows: list[dict] = []
    AlphaBeta(game, "open_lines").search(game.initial_state(), 2)  # load the compiled search
    AlphaBeta(openspiel_rule, "open_lines").search(openspiel_rule.initial_state(), 2)

    searches = {4: [], 5: []}
    for moves, seed in POSITIONS:
        s = position(game, moves, seed)
        for depth in (4, 5):
            r = timed_search(game, s, depth, args.repeat)
            searches[depth].append(r)
            rows.append({"what": f"alpha-beta open_lines, {moves}-move position, depth {depth}", **r})

    versus = []
    for moves, seed in versus_positions:
        s = position(openspiel_rule, moves, seed)
        history = []
        rng = np.random.default_rng(seed)
        t = openspiel_rule.initial_state()
        for _ in range(moves):  # the same playout, kept as a move list for pyspiel
            a = int(rng.choice(openspiel_rule.legal_actions(t)))
            history.append(a)
            t = openspiel_rule.apply(t, a)
        assert np.array_equal(t, s)
        ours = timed_search(openspiel_rule, s, 3, args.repeat)
        rows.append({"what": f"ours, OpenSpiel's rule, {moves}-move position, depth 3", **ours})
        if not args.no_openspiel_search:
            theirs = bench_openspiel_alphabeta(og, history, 3)
            rows.append({"what": f"OpenSpiel alpha_beta_search (Python), {moves}-move position, depth 3", **theirs})
            versus.append((ours, theirs))

    playouts = bench_playouts(openspiel_rule, og, args.games)
    for name, r in playouts.items():
        rows.append({"what": f"random playouts, {name}", **r})
    compiled = bench_compiled_playouts(game, 20 * args.games)
    for name, r in compiled.items():
        rows.append({"what": f"compiled batch playouts, {name}", **r})
    env = bench_env(args.env_games, True)
    rows.append({"what": "random playouts through env()", **env})

    d5 = searches[5]
    nps = sum(r["nodes"] for r in d5) / sum(r["seconds"] for r in d5)
    heads = [
        headline("Pentago alpha-beta nodes/s, open_lines (depth 5, 3 positions)", nps, None, ">= 8 M"),
        headline("Pentago depth 4, slowest of 3 positions (s)", max(r["seconds"] for r in searches[4]), None,
                 "<= 0.1 s", lower_is_better=True),
        headline("Pentago depth 5, slowest of 3 positions (s)", max(r["seconds"] for r in d5), None,
                 "<= 2 s", lower_is_better=True),
    ]
    if versus:
        ours_t = sum(o["seconds"] for o, _ in versus)
        theirs_t = sum(t["seconds"] for _, t in versus)
        heads.append(headline(f"Pentago depth 3, {len(versus)} position(s), vs OpenSpiel Python alpha-beta (s)",
                              ours_t, theirs_t, ">= 100x faster", lower_is_better=True))
    heads += [
        headline("Pentago random playouts, Game API moves/s vs pyspiel", playouts["game_api"]["moves_per_s"],
                 playouts["openspiel"]["moves_per_s"], ">= 1x"),
        headline("Pentago compiled batch playouts moves/s", compiled["Game.random_playouts"]["moves_per_s"],
                 None, ">= 2 M"),
        headline("Pentago env() moves/s", env["moves_per_s"], None, ">= 30 k"),
    ]
    emit("pentago", rows, ["what", "seconds", "nodes", "moves", "nodes_per_s", "moves_per_s", "value", "move"],
         {"headline": heads, "positions": [list(p) for p in POSITIONS]})


if __name__ == "__main__":
    main()
