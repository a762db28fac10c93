"""Our engine against zerosum 0.1.0 at equal time a move: W/D/L, score and Elo per game.

0.1.0 (commit 3a3ba33) is built from the repository's own history into a temporary
directory (bench/_builds.py). Both engines run the same way, symmetric: each in its own
process (bench/_engine_server.py, under its own tree), answering one position at a time
with ``AlphaBeta(game, heuristic, **options).search(state, time=T, seed=...)``; the
driver keeps the position, checks each move against the rules and applies it. Games come
in pairs from one seeded random opening (``--plies`` random moves that do not end the
game), our engine first in one game and second in the other; ``--workers`` pairs run
at once, each with its own two engines (one thinks at a time, so a worker uses one core).

The score counts a win 1 and a draw 1/2, with its 95% Wilson interval; the Elo and its
95% interval come from the pairs (the pentanomial model of zerosum.evaluation.gsprt).
nodes/s is each side's nodes over its own search time. Target (issue 19): a score of at
least 0.62 (about +85 Elo) in Pentago and in Nine Men's Morris.

When Pentago is played, the same run first measures the search itself on the three Pentago
bench positions (bench/pentago.py), both engines with 0.1.0's heuristic (``open_lines``)
and ours with its exact enhancements only (``lmr=off, quiescence=off``): the nodes to
complete depth 5 (iterative deepening, a fresh table per position; target: ours <= 0.5x
0.1.0's) and nodes/s over those searches (the best of ``--repeats`` rounds, the sides
alternating; target: ours not below 0.1.0's). ``--no-nodes`` skips it.

    python bench/vs_release.py [GAME ...] [--games 200] [--time 0.05] [--workers 2]
        [--ours SPEC] [--theirs SPEC] [--plies N] [--seed 0] [--build-dir DIR] [--repeats 3]
        [--no-nodes | --nodes-only]

SPEC is ``KEY=VALUE, ...`` of AlphaBeta options (``heuristic=threats, tt_size=262144``),
for every game, or ``GAME:KEY=VALUE, ...`` for one game; repeat the flag to give both.
Without one, each side plays its own default heuristic and options.
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _builds import RELEASE, REPO, build_commit, environment
from _report import emit, headline, table
from pentago import POSITIONS, position

from zerosum.evaluation.gsprt import elo_estimate, pair_category
from zerosum.evaluation.match import random_opening
from zerosum.evaluation.stats import Record
from zerosum.games import make_game
from zerosum.values import parse_options

SERVER = Path(__file__).with_name("_engine_server.py")
OPENING_PLIES = {"pentago": 2, "nine_mens_morris": 4, "connect_four": 2, "tictactoe": 1, "nim": 1}
TARGET = 0.62
NODE_DEPTH, NODE_TARGET = 5, 0.5
EXACT_ONLY = {"lmr": False, "quiescence": False}  # our selective enhancements off (issue 19's node targets)


class Engine:
    """One engine server (bench/_engine_server.py) running under one build's tree."""

    def __init__(self, tree: Path, ours: bool) -> None:
        env = environment(tree)
        if ours:  # our own tree keeps its usual caches
            env.pop("ZEROSUM_CACHE_DIR")
            env.pop("NUMBA_CACHE_DIR")
        self.proc = subprocess.Popen([sys.executable, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env, cwd=tree, bufsize=1)
        self.nodes = 0
        self.seconds = 0.0
        self.moves = 0
        self.depths = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request; the answer (RuntimeError when the server fails or dies)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"engine server exited with code {self.proc.wait()}")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"engine server: {answer['error']}\n{answer.get('trace', '')}")
        return answer  # type: ignore[no-any-return]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def side_options(specs: Sequence[str], game: str) -> dict[str, Any]:
    """The AlphaBeta options of one side for ``game``: the SPECs for every game, then its own."""
    out: dict[str, Any] = {}
    for spec in specs:
        head, sep, rest = spec.partition(":")
        if sep and head.strip().isidentifier() and "=" not in head:
            if head.strip() == game:
                out.update(parse_options(rest))
        else:
            out.update(parse_options(spec))
    return out


def play_game(game: Any, request: dict[str, Any], opening: list[int], engines: tuple[Engine, Engine],
              options: tuple[dict[str, Any], dict[str, Any]], budget: float, seed: int) -> tuple[float, int]:
    """One game, engines[p] playing player p; player 0's score and the plies played."""
    s = game.initial_state()
    for a in opening:
        s = game.apply(s, a)
    plies = 0
    while not game.is_terminal(s):
        p = game.current_player(s)
        eng = engines[p]
        ans = eng.ask({**request, "options": options[p], "match": f"{seed}/{p}", "state": [int(x) for x in s],
                       "time": budget, "seed": seed * 1009 + plies})
        eng.nodes += ans["nodes"]
        eng.seconds += ans["seconds"]
        eng.moves += 1
        eng.depths += ans["depth"]
        if ans["action"] not in game.legal_actions(s):
            print(f"illegal move {ans['action']} by player {p}: it loses", file=sys.stderr)
            return (0.0 if p == 0 else 1.0), plies
        s = game.apply(s, ans["action"])
        plies += 1
    return (game.returns(s)[0] + 1.0) / 2.0, plies


def run_game(name: str, args: argparse.Namespace, release: Path) -> dict[str, Any]:
    """The paired match in ``name``: every pair both seat orders from one opening."""
    game = make_game(name)
    request = {"game": name, "variant": {}}
    options = {"ours": side_options(args.ours, name), "theirs": side_options(args.theirs, name)}
    pairs = (args.games + 1) // 2
    plies = args.plies if args.plies is not None else OPENING_PLIES.get(name, 2)
    tasks: queue.Queue[int] = queue.Queue()
    for i in range(pairs):
        tasks.put(i)
    results: dict[int, tuple[float, float, int]] = {}
    lanes = [(Engine(REPO, True), Engine(release, False)) for _ in range(max(1, args.workers))]
    for ours, theirs in lanes:  # load (or compile) everything before any clock runs
        for eng, opt in ((ours, options["ours"]), (theirs, options["theirs"])):
            eng.ask({**request, "options": opt, "match": "warm-up", "state": [int(x) for x in game.initial_state()],
                     "depth": 1})
    lock = threading.Lock()
    errors: list[BaseException] = []
    t0 = time.perf_counter()

    def lane(ours: Engine, theirs: Engine) -> None:
        while not errors:
            try:
                i = tasks.get_nowait()
            except queue.Empty:
                return
            try:
                opening = random_opening(game, plies, args.seed * 100_003 + i)
                seed = args.seed * 1_000_003 + 2 * i
                first, n1 = play_game(game, request, opening, (ours, theirs), (options["ours"], options["theirs"]),
                                      args.time, seed)
                second, n2 = play_game(game, request, opening, (theirs, ours),
                                       (options["theirs"], options["ours"]), args.time, seed + 1)
            except BaseException as exc:  # noqa: BLE001 - reported by the main thread
                errors.append(exc)
                return
            with lock:
                results[i] = (first, 1.0 - second, n1 + n2)
                done = len(results)
            if done % max(1, pairs // 10) == 0 or done == pairs:
                pts = sum(a + b for a, b, _ in results.values())
                print(f"{name}: {done}/{pairs} pairs, score {pts / (2 * done):.3f}, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    threads = [threading.Thread(target=lane, args=pair) for pair in lanes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for ours, theirs in lanes:
        ours.close()
        theirs.close()
    if errors:
        raise errors[0]
    return summarize(name, args, options, plies, results, lanes, time.perf_counter() - t0)


def summarize(name: str, args: argparse.Namespace, options: dict[str, dict[str, Any]], plies: int,
              results: dict[int, tuple[float, float, int]], lanes: list[tuple[Engine, Engine]],
              seconds: float) -> dict[str, Any]:
    record = Record()
    counts = [0] * 5
    for first, second, _ in results.values():
        record.add(first)
        record.add(second)
        counts[pair_category(first + second)] += 1
    elo = elo_estimate(counts)
    lo, hi = record.interval
    rate = {}
    depth = {}
    for k, side in (("ours", 0), ("theirs", 1)):
        engines = [lane[side] for lane in lanes]
        rate[k] = sum(e.nodes for e in engines) / max(sum(e.seconds for e in engines), 1e-9)
        depth[k] = sum(e.depths for e in engines) / max(sum(e.moves for e in engines), 1)
    return {"game": name, "games": record.games, "W/D/L": record.wdl(), "score": record.score,
            "score low": lo, "score high": hi, "Elo": elo.elo, "Elo low": elo.low, "Elo high": elo.high,
            "pentanomial": counts, "target": TARGET, "met": record.score >= TARGET,
            "ours nodes/s": rate["ours"], "theirs nodes/s": rate["theirs"], "ours depth": depth["ours"],
            "theirs depth": depth["theirs"], "plies/game": sum(n for *_, n in results.values()) / record.games,
            "opening plies": plies, "ours": options["ours"], "theirs": options["theirs"], "minutes": seconds / 60}


def node_bench(release: Path, repeats: int) -> dict[str, Any]:
    """Nodes to complete depth NODE_DEPTH on the Pentago bench positions and nodes/s, both
    engines with 0.1.0's heuristic, ours with its exact enhancements only."""
    game = make_game("pentago")
    states = [[int(x) for x in position(game, moves, seed)] for moves, seed in POSITIONS]
    sides = {"ours": (Engine(REPO, True), {"heuristic": "open_lines", **EXACT_ONLY}),
             "theirs": (Engine(release, False), {"heuristic": "open_lines"})}
    request = {"game": "pentago", "variant": {}}
    for eng, opt in sides.values():
        eng.ask({**request, "options": opt, "match": "warm-up", "state": states[0], "depth": 2})
    nodes: dict[str, list[int]] = {"ours": [], "theirs": []}
    rates: dict[str, list[float]] = {"ours": [], "theirs": []}
    for rep in range(repeats):
        for k in (("ours", "theirs") if rep % 2 == 0 else ("theirs", "ours")):
            eng, opt = sides[k]
            answers = [eng.ask({**request, "options": opt, "match": f"nodes/{rep}/{i}", "state": s,
                                "depth": NODE_DEPTH}) for i, s in enumerate(states)]
            nodes[k] = [a["nodes"] for a in answers]
            rates[k].append(sum(nodes[k]) / max(sum(a["seconds"] for a in answers), 1e-9))
    for eng, _ in sides.values():
        eng.close()
    ours, theirs = sum(nodes["ours"]), sum(nodes["theirs"])
    return {"what": f"pentago depth {NODE_DEPTH}, open_lines, exact only", "ours nodes": ours,
            "theirs nodes": theirs, "nodes ratio": ours / theirs, "nodes target": f"<= {NODE_TARGET}",
            "nodes met": ours <= NODE_TARGET * theirs, "ours nodes/s": max(rates["ours"]),
            "theirs nodes/s": max(rates["theirs"]), "nodes/s ratio": max(rates["ours"]) / max(rates["theirs"]),
            "nodes/s met": max(rates["ours"]) >= max(rates["theirs"]), "per position ours": nodes["ours"],
            "per position theirs": nodes["theirs"], "all nodes/s ours": rates["ours"],
            "all nodes/s theirs": rates["theirs"], "ours options": sides["ours"][1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games_to_play", nargs="*", metavar="GAME", default=["pentago", "nine_mens_morris"])
    ap.add_argument("--games", type=int, default=200, help="games per game (pairs x 2; default 200)")
    ap.add_argument("--time", type=float, default=0.05, help="seconds a move for both sides (default 0.05)")
    ap.add_argument("--workers", type=int, default=2, help="pairs played at once (default 2)")
    ap.add_argument("--ours", action="append", default=[], metavar="SPEC", help="our AlphaBeta options")
    ap.add_argument("--theirs", action="append", default=[], metavar="SPEC", help="0.1.0's AlphaBeta options")
    ap.add_argument("--plies", type=int, default=None, help="random opening plies (default per game)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--build-dir", type=Path, default=None, help="build 0.1.0 here (reused when built)")
    ap.add_argument("--repeats", type=int, default=3, help="rounds of the Pentago nodes/s measurement (default 3)")
    ap.add_argument("--no-nodes", action="store_true", help="skip the Pentago nodes and nodes/s measurement")
    ap.add_argument("--nodes-only", action="store_true", help="the Pentago nodes and nodes/s measurement alone")
    args = ap.parse_args()
    if args.games < 2 or args.time <= 0:
        ap.error("--games must be at least 2 and --time positive")
    release = build_commit(RELEASE, args.build_dir)
    rows, heads = [], []
    search_row = None
    if args.nodes_only:
        args.games_to_play = ["pentago"]
    if "pentago" in args.games_to_play and not args.no_nodes:
        search_row = node_bench(release, max(1, args.repeats))
        print(f"pentago depth {NODE_DEPTH}: nodes {search_row['nodes ratio']:.3f}x 0.1.0's, nodes/s "
              f"{search_row['nodes/s ratio']:.3f}x", file=sys.stderr, flush=True)
        heads.append(headline(f"pentago nodes to depth {NODE_DEPTH} (times fewer than 0.1.0's)",
                              search_row["ours nodes"], search_row["theirs nodes"], f">= {1 / NODE_TARGET:g}x",
                              lower_is_better=True))
        heads.append(headline("pentago nodes/s, open_lines, exact only", search_row["ours nodes/s"],
                              search_row["theirs nodes/s"], ">= 1x"))
    for name in [] if args.nodes_only else args.games_to_play:
        row = run_game(name, args, release)
        rows.append(row)
        heads.append(headline(f"{name} score vs 0.1.0 at {args.time:g} s/move", row["score"], 0.5,
                              f">= {TARGET}"))
    emit("vs_release", rows, ["game", "games", "W/D/L", "score", "score low", "score high", "Elo", "Elo low",
                              "Elo high", "ours nodes/s", "theirs nodes/s", "ours depth", "theirs depth",
                              "plies/game", "minutes"],
         {"release": RELEASE, "time": args.time, "seed": args.seed, "search": search_row, "headline": heads})
    if search_row is not None:
        print()
        table([search_row], ["what", "ours nodes", "theirs nodes", "nodes ratio", "nodes target", "ours nodes/s",
                             "theirs nodes/s", "nodes/s ratio"])


if __name__ == "__main__":
    main()
