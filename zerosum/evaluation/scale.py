"""One Elo scale per game: the rated ladders zerosum ships, read and written as JSON.

A ladder is a list of *rungs*, agents of fixed cost (``random``, ``mcts(sims=N)``,
``alphabeta(depth=D)``, an outside engine at fixed nodes), rated by a tournament between
neighbouring rungs with a Bradley-Terry fit in which ``random`` is 0: an Elo reads "points
above random" on that game. The files lie in ``zerosum/evaluation/ladders/GAME.json``; each
holds the rungs with their ratings and 95% bootstrap intervals, the cost of a move of each
rung (nodes or simulations, and the time a move measured on the machine that built it), the
table of every pair that played, and how it was built (command, seed, games a pair, zerosum
and env versions, date).

>>> from zerosum.evaluation.scale import ladder
>>> lad = ladder("tictactoe")
>>> lad.rungs[0].spec, lad.rungs[0].elo
('random', 0.0)

:func:`zerosum.evaluation.placement.rate` places any policy on a ladder;
:mod:`zerosum.evaluation.scale_build` builds one (``zerosum ladder build GAME``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zerosum.games.kit import ZerosumError

LADDER_DIR = Path(__file__).with_name("ladders")
"""Where the shipped ladder files are: one ``GAME.json`` per game."""
FORMAT = 1
"""The version of the file layout this module reads and writes."""


class LadderError(ZerosumError, ValueError):
    """A ladder that is missing, malformed, or written for another env version; the message says which."""


@dataclass(frozen=True)
class Rung:
    """One rung: an agent spec of fixed cost with its rating on the game's scale."""

    spec: str
    """The agent spec (``alphabeta(depth=3)``)."""
    elo: float
    """Its Elo above ``random`` (which is 0)."""
    low: float
    """The lower end of its 95% bootstrap interval."""
    high: float
    """The upper end."""
    family: str = ""
    """The agent kind the plots group rungs by (``alphabeta``, ``mcts``, ``random``, ``stockfish``...)."""
    cost: float | None = None
    """Its fixed budget: depth, simulations or nodes (None for random)."""
    nodes_per_move: float | None = None
    """Mean nodes (or simulations) a move in the ladder's games, where the agent reports them."""
    seconds_per_move: float = 0.0
    """Mean time a move measured on the machine that built the ladder (a rung's cost is fixed; its time is not)."""

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ``+-`` of the rating)."""
        return (self.high - self.low) / 2.0


@dataclass(frozen=True)
class PairResult:
    """The games two rungs played: ``a``'s wins, draws and losses against ``b``."""

    a: str
    """The first rung's spec (the lower of the two in the ladder's order)."""
    b: str
    """The second rung's spec."""
    games: int
    """Games played, seats alternating, from paired openings."""
    wins: int
    """Games ``a`` won."""
    draws: int
    """Games drawn."""
    losses: int
    """Games ``a`` lost."""

    @property
    def score(self) -> float:
        """``a``'s score: (wins + draws / 2) / games."""
        return (self.wins + self.draws / 2.0) / self.games if self.games else 0.5


@dataclass(frozen=True)
class Ladder:
    """A game's rated ladder: rungs in order of strength, the pair table, and how it was built."""

    game: str
    """The game's name."""
    env: str
    """The env name with its version (``tictactoe_v0``): a ladder rates play under those rules only."""
    variant: dict[str, Any]
    """The rule variant played (the game's default for the shipped ladders)."""
    rungs: tuple[Rung, ...]
    """The rungs, weakest (``random``) first."""
    pairs: tuple[PairResult, ...]
    """Every pair of rungs that played."""
    built: dict[str, Any] = field(default_factory=dict)
    """How it was built: command, seed, games_per_pair (every pair's least; with max_games, the cheaper pairs
    played more, up to it), opening_plies, zerosum, date, machine, seconds (the last run's wall time; a
    resumed build counts only its own part) and play_seconds (the games' time added up)."""

    def rung(self, spec: str) -> Rung:
        """The rung with this spec."""
        for r in self.rungs:
            if r.spec == spec:
                return r
        raise LadderError(f"no rung {spec!r} on the {self.game} ladder; rungs: {[r.spec for r in self.rungs]}")

    @property
    def games_a_pair(self) -> str:
        """How many games each pair played, in words: ``100 games a pair``, or with ``max_games``
        ``340-800 games a pair, more on the cheaper pairs``."""
        floor = self.built.get("games_per_pair", "?")
        most = max((p.games for p in self.pairs), default=0)
        if self.built.get("max_games") and isinstance(floor, int) and most > floor:
            return f"{floor}-{most} games a pair, more on the cheaper pairs"
        return f"{floor} games a pair"

    @property
    def top(self) -> Rung:
        """The strongest rung."""
        return max(self.rungs, key=lambda r: r.elo)

    def as_dict(self) -> dict[str, Any]:
        """The ladder as JSON types, as the file holds it."""
        return {"format": FORMAT, "game": self.game, "env": self.env, "variant": dict(self.variant),
                "built": dict(self.built), "rungs": [asdict(r) for r in self.rungs],
                "pairs": [asdict(p) for p in self.pairs]}

    def table(self) -> str:
        """The rungs as a text table: spec, Elo with interval, cost a move."""
        w = max(len("rung"), *(len(r.spec) for r in self.rungs))
        lines = [f"{self.game} ({self.env}) ladder: Elo above random, 95% intervals",
                 f"{'rung':<{w}} {'Elo':>7} {'95% interval':>17} {'nodes/move':>11} {'s/move':>9}"]
        for r in self.rungs:
            nodes = f"{r.nodes_per_move:,.0f}" if r.nodes_per_move is not None else "-"
            lines.append(f"{r.spec:<{w}} {r.elo:>7.0f} {f'[{r.low:.0f}, {r.high:.0f}]':>17} {nodes:>11} "
                         f"{r.seconds_per_move:>9.4f}")
        return "\n".join(lines)

    def pair_table(self) -> str:
        """The pairs as a text table: a, b, games, a's W/D/L and score."""
        w = max(1, *(len(p.a) for p in self.pairs), *(len(p.b) for p in self.pairs))
        lines = [f"{'a':<{w}} {'b':<{w}} {'games':>5} {'W-D-L':>11} {'score':>6}"]
        for p in self.pairs:
            lines.append(f"{p.a:<{w}} {p.b:<{w}} {p.games:>5} {f'{p.wins}-{p.draws}-{p.losses}':>11} {p.score:>6.3f}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def from_dict(data: Mapping[str, Any], source: str = "ladder") -> Ladder:
    """A Ladder from the JSON a file holds; a LadderError naming ``source`` where it is malformed."""
    if not isinstance(data, Mapping):
        raise LadderError(f"{source}: a ladder file holds a JSON object; got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise LadderError(f"{source}: ladder file format {data.get('format')!r}; this zerosum reads format {FORMAT}")
    try:
        rungs = tuple(Rung(**r) for r in data["rungs"])
        pairs = tuple(PairResult(**p) for p in data["pairs"])
        return Ladder(str(data["game"]), str(data["env"]), dict(data.get("variant") or {}), rungs, pairs,
                      dict(data.get("built") or {}))
    except (KeyError, TypeError) as exc:
        raise LadderError(f"{source}: malformed ladder file ({type(exc).__name__}: {exc})") from None


def current_env(game: str) -> str:
    """The env name (with its version) that ``game`` is played under in this zerosum."""
    from zerosum.games.registry import env_name

    return env_name(game) or game


def check_version(lad: Ladder, source: str) -> None:
    """Refuse a ladder written for another env version than this zerosum's: its ratings rate other rules."""
    now = current_env(lad.game)
    if lad.env != now:
        raise LadderError(f"{source} was written for {lad.env}, but this zerosum plays {lad.game} as {now}: "
                          f"its ratings are for other rules or observations; rebuild it with "
                          f"`zerosum ladder build {lad.game}`")


def load_ladder(path: str | os.PathLike[str]) -> Ladder:
    """Read a ladder file, refusing one written for another env version."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise LadderError(f"no ladder file at {str(p)!r}") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise LadderError(f"{str(p)!r} is not a readable ladder file: {exc}") from None
    lad = from_dict(data, str(p))
    check_version(lad, str(p))
    return lad


def save_ladder(lad: Ladder, path: str | os.PathLike[str]) -> Path:
    """Write ``lad`` as JSON (atomically: a file already there is replaced only by a whole new one)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(lad.as_dict(), indent=1) + "\n")
    os.replace(tmp, p)
    return p


def shipped() -> list[str]:
    """The games with a ladder shipped in this zerosum, sorted."""
    return sorted(p.stem for p in LADDER_DIR.glob("*.json"))


def ladder(game: Any, path: str | os.PathLike[str] | None = None) -> Ladder:
    """The rated ladder of ``game`` (a game name, env name or Game): the shipped file, or the one at ``path``."""
    if path is not None:
        return load_ladder(path)
    name = game_name(game)
    p = LADDER_DIR / f"{name}.json"
    if not p.exists():
        have = ", ".join(shipped()) or "none"
        raise LadderError(f"no ladder ships for {name!r} (ladders: {have}); build one with "
                          f"`zerosum ladder build {name}` and pass the file it writes (path= in Python, "
                          f"--path to `zerosum ladder show`)")
    return load_ladder(p)


def game_name(game: Any) -> str:
    """The game's name from a game name, an env name or a Game."""
    from zerosum.games import Game
    from zerosum.games.registry import ENVS, GAMES, env_game

    if isinstance(game, Game):
        return game.name
    if isinstance(game, str):
        if game in GAMES:
            return game
        if game in ENVS:
            return env_game(game)
    raise LadderError(f"a ladder is asked for by game name (tictactoe, connect_four, ...), env name or Game; "
                      f"got {game!r}")


def spec_family(spec: str) -> tuple[str, float | None]:
    """(the agent kind, its fixed budget) of a rung's spec: ``alphabeta(depth=3)`` -> ("alphabeta", 3)."""
    from zerosum.agents import parse_spec

    kind, options = parse_spec(spec)
    for key in ("depth", "sims", "nodes", "level", "skill"):
        if key in options:
            return kind, float(options[key])
    return kind, None


def families(rungs: Sequence[Rung]) -> dict[str, list[Rung]]:
    """The rungs grouped by family, each group in ladder order (the Ratings plot draws one line each)."""
    out: dict[str, list[Rung]] = {}
    for r in rungs:
        out.setdefault(r.family or "other", []).append(r)
    return out


__all__ = ["FORMAT", "LADDER_DIR", "Ladder", "LadderError", "PairResult", "Rung", "check_version", "families",
           "from_dict", "game_name", "ladder", "load_ladder", "save_ladder", "shipped", "spec_family"]
