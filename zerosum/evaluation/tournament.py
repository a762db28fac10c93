"""Tournaments: every pair of agents in both seats, N games per pairing, from varied openings.

A *pairing* is an ordered pair (seat-0 agent, seat-1 agent); each pair of agents has two,
adjacent in the numbering. Game ``k`` of both pairings of a pair starts from the same
opening (``opening_plies`` random plies drawn from the tournament seed, the pair and
``k``), so the two seat orders are compared on equal terms while deterministic agents
still meet in many different games. Each game's agents are seeded from (tournament seed,
pairing, game index): the games are the same whatever backend or number of workers plays
them, and a tournament stopped at any point resumes where it stopped.

>>> from zerosum.evaluation.config import build_config
>>> cfg = build_config({"game": "tictactoe", "agents": ["random", "alphabeta(depth=9)"],
...                     "games_per_pairing": 2, "workers": 1, "output": "/tmp/zs-doctest"})
>>> out = run_tournament(cfg, progress=False, report=False)   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from zerosum.evaluation.backends import import_ray, make_backend
from zerosum.evaluation.config import AgentEntry, ConfigError, TournamentConfig, without_agents
from zerosum.evaluation.match import random_opening
from zerosum.evaluation.stats import Record
from zerosum.evaluation.store import GameTask, Store
from zerosum.games.kit import Game
from zerosum.games.kit.tiers import for_job, job_note

Note = Callable[[str], None]


def pairings(n: int) -> list[tuple[int, int]]:
    """Every ordered pair of distinct agents; (i, j) and (j, i) are adjacent."""
    return [p for i in range(n) for j in range(i + 1, n) for p in ((i, j), (j, i))]


def game_seed(seed: int, pairing: int, game_index: int) -> int:
    """The seed of one game (63 bits), from the tournament seed, the pairing and the index."""
    words = np.random.SeedSequence([seed, 0, pairing, game_index]).generate_state(2, np.uint32)
    return (int(words[0]) << 31) ^ int(words[1])


def opening_rng(seed: int, a: int, b: int, game_index: int) -> np.random.Generator:
    """The generator of the opening shared by both seat orders of agents a and b in game k."""
    lo, hi = min(a, b), max(a, b)
    return np.random.default_rng(np.random.SeedSequence([seed, 1, lo, hi, game_index]))


def schedule(cfg: TournamentConfig, game: Game) -> list[GameTask]:
    """All games of the tournament, by game index then pairing (so partial runs stay balanced)."""
    pairs = pairings(len(cfg.agents))
    openings: dict[tuple[int, int, int], tuple[int, ...]] = {}
    tasks = []
    for k in range(cfg.games_per_pairing):
        for p, (a, b) in enumerate(pairs):
            key = (min(a, b), max(a, b), k)
            if key not in openings:
                openings[key] = tuple(random_opening(game, cfg.opening_plies, opening_rng(cfg.seed, a, b, k)))
            tasks.append(GameTask(p, k, (a, b), game_seed(cfg.seed, p, k), openings[key]))
    return tasks


def gauntlet(game: Game, opponents: int, games: int, seed: int, opening_plies: int) -> list[GameTask]:
    """Agent 0 against agents 1..``opponents``, ``games`` games each (what ``evaluate`` plays).

    Agent 0 sits first in even-numbered games and second in odd ones; games 2j and 2j+1
    against one opponent start from the same opening. Game k against opponent o (0-based)
    is numbered and seeded as game k of pairing o (:func:`game_seed`).
    """
    tasks = []
    for o in range(opponents):
        opening: tuple[int, ...] = ()
        for k in range(games):
            if k % 2 == 0 and opening_plies:
                rng = np.random.default_rng(np.random.SeedSequence([seed, 1, o, k // 2]))
                opening = tuple(random_opening(game, opening_plies, rng))
            seats = (0, o + 1) if k % 2 == 0 else (o + 1, 0)
            tasks.append(GameTask(o, k, seats, game_seed(seed, o, k), opening))
    return tasks


# ---- validation: every error before any game ------------------------------------------------
@dataclass
class Prepared:
    """A validated tournament: the game object, and the agents whose hooks are still to run."""

    config: TournamentConfig
    game: Game
    hooked: list[AgentEntry] = field(default_factory=list)


def _check_agent(game: Game, entry: AgentEntry) -> None:
    from zerosum.agents import make_agent

    try:
        agent = make_agent(entry.spec, rng=0)
        agent.prepare(game)
    except ImportError as exc:
        raise ConfigError(f"agent {entry.name!r} ({entry.spec}) needs an extra: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - any failure to build is reported as a config error
        raise ConfigError(f"agent {entry.name!r} ({entry.spec}) cannot play {game.name}: {exc}") from None


def validate(cfg: TournamentConfig, note: Note = print) -> Prepared | None:
    """Check the game, variant, agents, heuristics and backend; None when an optional game is missing."""
    from zerosum.agents import AGENTS, parse_spec
    from zerosum.games import GAMES, make_game

    if cfg.game not in GAMES and cfg.optional:
        note(f"note: skipping the {cfg.label} tournament: game {cfg.game!r} is not available "
             f"(available: {', '.join(sorted(GAMES))})")
        return None
    try:
        game = make_game(cfg.game, **dict(cfg.variant))
    except Exception as exc:  # noqa: BLE001
        raise ConfigError(f"{cfg.label}: {exc}") from None
    skip, hooked = [], []
    for entry in cfg.agents:
        try:
            name, _ = parse_spec(entry.spec)
        except Exception as exc:  # noqa: BLE001
            raise ConfigError(f"{cfg.label}: {exc}") from None
        if name not in AGENTS:
            if entry.optional:
                note(f"note: {cfg.label}: skipping optional agent {entry.name!r}: no agent named {name!r} here "
                     f"(its extra may be missing; known: {', '.join(sorted(AGENTS))})")
                skip.append(entry.name)
                continue
            raise ConfigError(f"{cfg.label}: unknown agent {name!r} in {entry.spec!r}; available: "
                              f"{', '.join(sorted(AGENTS))}")
        if entry.prepare:
            hooked.append(entry)
            continue
        try:
            _check_agent(game, entry)
        except ConfigError as exc:
            if not entry.optional:
                raise ConfigError(f"{cfg.label}: {exc}") from None
            note(f"note: {cfg.label}: skipping optional agent: {exc}")
            skip.append(entry.name)
    cfg = without_agents(cfg, skip)
    if len(cfg.agents) < 2:
        raise ConfigError(f"{cfg.label}: a tournament needs at least two agents; left: "
                          f"{[a.name for a in cfg.agents]}")
    if cfg.backend == "ray":
        try:
            import_ray()
        except ImportError as exc:
            raise ConfigError(str(exc)) from None
    return Prepared(cfg, game, hooked)


def run_hooks(prep: Prepared, note: Note = print) -> TournamentConfig:
    """Run each ``prepare`` hook (e.g. train a missing checkpoint), then check that agent."""
    from zerosum.agents import parse_spec

    cfg, skip = prep.config, []
    for entry in prep.hooked:
        _, options = parse_spec(entry.spec)
        try:
            module, _, attr = cast(str, entry.prepare).partition(":")  # hooked: the entries with a hook
            fn = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            if entry.optional:
                note(f"note: {cfg.label}: skipping optional agent {entry.name!r}: its prepare hook "
                     f"{entry.prepare!r} is not available ({exc})")
                skip.append(entry.name)
                continue
            raise ConfigError(f"{cfg.label}: agent {entry.name!r}: prepare hook {entry.prepare!r} "
                              f"not found: {exc}") from None
        note(f"{cfg.label}: preparing {entry.name} with {entry.prepare}({options.get('path', '')!r})")
        try:
            fn(options["path"]) if "path" in options else fn()
            _check_agent(prep.game, entry)
        except Exception as exc:  # noqa: BLE001
            if not entry.optional:
                raise ConfigError(f"{cfg.label}: agent {entry.name!r}: {exc}") from None
            note(f"note: {cfg.label}: skipping optional agent {entry.name!r}: {exc}")
            skip.append(entry.name)
    cfg = without_agents(cfg, skip)
    if len(cfg.agents) < 2:
        raise ConfigError(f"{cfg.label}: a tournament needs at least two agents; left: {[a.name for a in cfg.agents]}")
    return cfg


# ---- running -----------------------------------------------------------------------------------
@dataclass
class TournamentOutcome:
    """What a run did and where its files are."""

    config: TournamentConfig
    database: Path
    played: int
    total: int
    resumed: bool
    seconds: float
    summary: Any = None
    files: dict[str, Path] = field(default_factory=dict)


def _standings_text(points: dict[str, Record], limit: int = 4) -> str:
    ranked = sorted(points.items(), key=lambda kv: -kv[1].score if kv[1].games else 0.0)
    return "  ".join(f"{n} {r.score:.2f}" for n, r in ranked[:limit] if r.games)


def run_tournament(cfg: TournamentConfig | Prepared, *, progress: bool = True, report: bool = True,
                   plots: bool = True, console: Any = None, note: Note = print,
                   bootstrap: int = 200) -> TournamentOutcome:
    """Validate, then play every game not yet in the store, then summarise and write the report."""
    prep = cfg if isinstance(cfg, Prepared) else validate(cfg, note)
    if prep is None:
        raise ConfigError(f"game {cfg.game!r} is not available")
    cfg = run_hooks(prep, note)
    game = prep.game
    names = [a.name for a in cfg.agents]
    pairs = pairings(len(names))
    tasks = schedule(cfg, game)
    store = Store(cfg.database())
    resumed = store.init(cfg.as_dict(), cfg.fingerprint(), [(a.name, a.spec) for a in cfg.agents], pairs)
    done = store.done()
    todo = [t for t in tasks if (t.pairing, t.game_index) not in done]
    if resumed:
        note(f"{cfg.label}: resuming {store.path}: {len(done)} games stored, {len(todo)} to play")
    payload = {"game": cfg.game, "variant": dict(cfg.variant), "names": names,
               "specs": [a.spec for a in cfg.agents]}
    workers = cfg.n_workers()
    backend = make_backend(cfg.backend, workers, cfg.address)
    standings = {n: Record() for n in names}
    for g in store.games():
        standings[names[g["seat0"]]].add(g["score0"])
        standings[names[g["seat1"]]].add(1 - g["score0"])
    start = time.perf_counter()
    played = 0
    bar = None
    if progress and todo:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                       TextColumn("{task.fields[standings]}"), console=console)
        bar.start()
        task_id = bar.add_task(f"{cfg.label} ({backend.name} x{workers if backend.name != 'inline' else 1})",
                               total=len(tasks), completed=len(done), standings=_standings_text(standings))
    try:
        with for_job(len(todo)) as own_copy:
            if own_copy:
                note(f"{cfg.label}: {job_note(len(todo), game.name)}")
            for task, match in backend.run(payload, todo):
                if store.add_game(task, match) is not None:
                    played += 1
                    standings[names[task.seats[0]]].add(match.score0)
                    standings[names[task.seats[1]]].add(1 - match.score0)
                if bar is not None:
                    bar.update(task_id, advance=1, standings=_standings_text(standings))
    except KeyboardInterrupt:
        note(f"\n{cfg.label}: interrupted; {store.count()} games are stored in {store.path}; "
             "run the same command again to resume")
        raise
    finally:
        if bar is not None:
            bar.stop()
    seconds = time.perf_counter() - start
    outcome = TournamentOutcome(cfg, store.path, played, len(tasks), resumed, seconds)
    if report:
        from zerosum.evaluation.report import summarize_store, write_outputs

        outcome.summary = summarize_store(store, bootstrap=bootstrap, seed=cfg.seed)
        outcome.files = write_outputs(outcome.summary, store, cfg.output_dir(), plots=plots)
    store.close()
    return outcome


def prepare_all(configs: Sequence[TournamentConfig], note: Note = print) -> list[Prepared]:
    """Validate every tournament of a config before any of them plays a game."""
    out = []
    for cfg in configs:
        prep = validate(cfg, note)
        if prep is not None:
            out.append(prep)
    return out

