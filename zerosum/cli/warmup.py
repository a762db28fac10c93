"""``zerosum warmup [GAME ...] [--parts ...] [--jobs N]``: compile ahead of time, in parallel.

Everything zerosum compiles is cached on disk and compiled on first use (see
:mod:`zerosum.games.kit.cache`); this command does the first use in advance, for every
installed game or the ones named, in worker processes (numba compiles under one lock per
process, so only processes run compiles side by side). The parts of a game:

* ``rules``: its kernels and the Game API's fast calls (``make_game``, every env);
* ``alphabeta``: alpha-beta and minimax specialised to it (``alphabeta``, ``minimax``);
* ``mcts``: MCTS specialised to it;
* ``guided``: the network-guided search (``BatchedSearch``, the ``alphazero`` agent);
* ``batched``: its batched kernels (``BatchedRules``);
* ``vector``: the vector env's step with the opponents inside (``make_vec``).

``--tier generic`` compiles instead the searches' one copy for every game (and each
game's rules): the code a process runs until a game's own copy is compiled
(:mod:`zerosum.search.compiled`). ``make test`` runs that first (the tests run on it);
``make run`` compiles the inlined copies, so that the tournament's workers load compiled
code instead of each compiling the same game. Prints one line a part with its time; the exit
status is 1 if any part failed (its error is printed).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context

from zerosum.cli.common import Parser, UsageError, run_command
from zerosum.games.registry import IMPORT_HINT

PARTS = ("rules", "alphabeta", "mcts", "guided", "batched", "vector")
"""The parts of a game that warmup compiles, in the order a game's parts are scheduled."""
NEEDS = {"alphabeta": "rules", "mcts": "rules", "guided": "rules", "batched": "rules", "vector": "alphabeta"}
"""A part compiled only once the part it builds on is cached (the vector step links the
alpha-beta copy; every search part the game's kernels)."""


TEMPLATES = {"alphabeta": "TEMPLATE", "mcts": "MCTS_TEMPLATE", "guided": "GUIDED_TEMPLATE", "vector": "VECTOR_TEMPLATE"}
"""The parts that have a generic tier, and the name of their template in zerosum.search.compiled
(the vector step's is zerosum.envs.lanes.VECTOR_TEMPLATE)."""
EVERY_GAME = "every game"
"""The game of a generic part: its one copy serves every game."""


def compile_part(game_name: str, part: str, tier: str = "inline") -> float:
    """Compile (or load from the disk cache) one part of a game's code in ``tier``
    (``inline``: the game's own copy; ``generic``: the copy for every game, ``game_name``
    then :data:`EVERY_GAME`); its wall seconds. The ``rules`` part also compiles the game's
    search knowledge (its ordering hint, forcing moves and default heuristic)."""
    os.environ["ZEROSUM_TIER"] = tier  # this worker's hot calls and searches too, with nothing left to the background
    os.environ["ZEROSUM_BACKGROUND_COMPILE"] = "0"
    from zerosum.search import compiled

    start = time.perf_counter()
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}; parts: {', '.join(PARTS)}")
    from zerosum.games import make_game

    if part == "vector":  # the step's functions compile on their first call: make a vector env and reset it
        from zerosum.envs.lanes import Lanes

        game = make_game("tictactoe" if tier == "generic" else game_name)  # generic: one copy serves every game
        Lanes(game, 2, opponent="alphabeta(depth=1)").reset(0)
        return time.perf_counter() - start
    if tier == "generic" and part in TEMPLATES:
        compiled.generic_for(getattr(compiled, TEMPLATES[part]))
        return time.perf_counter() - start
    game = make_game(game_name)
    if part == "rules":
        from zerosum.games.kit.generic import generic_params

        generic_params(game.kernels, game.params, game.heuristic(None).fn)  # compiles the knowledge kernels
    elif part == "batched":  # its functions compile on their first call: call each once, on one state
        from zerosum.games.kit.batched import BatchedRules

        rules = BatchedRules(game)
        states = rules.reset(1)
        rules.masks(states), rules.status(states), rules.players(states), rules.observe(states, 0)
        rules.apply(states, rules.random_moves(states, 0))
    else:
        compiled.for_game(game, getattr(compiled, TEMPLATES[part]))
    return time.perf_counter() - start


def warmup(games: Sequence[str], parts: Sequence[str] = PARTS, jobs: int | None = None, tier: str = "inline",
           report: Callable[[str], None] = print) -> dict[tuple[str, str], float | BaseException]:
    """Compile ``parts`` of each game in ``tier`` in ``jobs`` worker processes (default:
    one a core), a part after the one it builds on (:data:`NEEDS`). In the generic tier the
    searches are compiled once for every game (:data:`EVERY_GAME`), and only each game's
    rules per game. Returns each (game, part)'s seconds, or the exception it raised;
    ``report`` gets one line a part as it finishes."""
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise ValueError(f"unknown parts {unknown}; parts: {', '.join(PARTS)}")
    if tier not in ("inline", "generic"):
        raise ValueError(f"tier={tier!r}: 'inline' or 'generic'")
    wanted = [(g, p) for g in games for p in PARTS if p in parts and not (tier == "generic" and p in TEMPLATES)]
    if tier == "generic":  # first: each is a long compile, and they overlap the games' rules
        wanted = [(EVERY_GAME, p) for p in PARTS if p in parts and p in TEMPLATES] + wanted
    done: dict[tuple[str, str], float | BaseException] = {}
    jobs = max(1, jobs or os.cpu_count() or 1)

    def ready(task: tuple[str, str]) -> bool:
        game, part = task
        need = NEEDS.get(part)
        return need is None or (game, need) not in wanted or (game, need) in done

    from zerosum.games.registry import IMPORTED, import_modules

    # Each worker first imports what this process imported to register games (zerosum --import
    # MODULE): a fresh process knows only zerosum's own games.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"), initializer=import_modules,
                             initargs=(tuple(IMPORTED),)) as pool:
        running: dict[Future[float], tuple[str, str]] = {}
        todo = list(wanted)
        while todo or running:
            for task in [t for t in todo if ready(t)][: jobs - len(running)]:
                todo.remove(task)
                running[pool.submit(compile_part, task[0], task[1], tier)] = task
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                task = running.pop(future)
                try:
                    done[task] = future.result()
                    report(f"{task[0]:<20} {task[1]:<10} {done[task]:7.1f} s")
                except Exception as exc:  # noqa: BLE001 - reported, and the exit status says so
                    done[task] = exc
                    report(f"{task[0]:<20} {task[1]:<10} failed: {type(exc).__name__}: {exc}")
    return done


def parser() -> Parser:
    """The argument parser of ``zerosum warmup``."""
    p = Parser(
        prog="zerosum warmup",
        description="Compile games ahead of time, in parallel processes, into the disk cache, so that later "
                    "processes start at once (each part is compiled on first use otherwise).")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to compile (default: every installed game)")
    p.add_argument("--parts", default=",".join(PARTS),
                   help=f"comma-separated parts to compile (default: all of {','.join(PARTS)})")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: one a core)")
    p.add_argument("--tier", choices=("inline", "generic"), default="inline",
                   help="inline (default): each game's own copy of each search, the fastest code; generic: the "
                        "one copy for every game (what a process runs until a game's own is compiled; the tests' tier)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``zerosum warmup``; 0 when every part compiled."""
    return run_command("zerosum warmup", lambda: _run(parser().parse_args(argv)))


def _run(args: argparse.Namespace) -> int:
    from zerosum.values import available_games

    games = args.games or available_games()
    unknown = sorted(set(games) - set(available_games()))
    if unknown:
        raise UsageError(f"unknown games {unknown}; games: {', '.join(available_games())}. {IMPORT_HINT}")
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    start = time.perf_counter()
    done = warmup(games, parts, args.jobs, args.tier)
    failed = sum(isinstance(v, BaseException) for v in done.values())
    print(f"{len(done) - failed} parts compiled or loaded in {time.perf_counter() - start:.1f} s"
          + (f"; {failed} failed" if failed else ""))
    return 1 if failed else 0
