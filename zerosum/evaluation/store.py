"""The tournament database: one SQLite file per tournament or match (stdlib ``sqlite3``).

Tables::

    config   (key, value)                       the tournament's configuration, JSON values
    agents   (id, name, spec)                   in the configured order
    pairings (id, seat0, seat1)                 ordered pairs of agent ids
    games    (id, pairing, game_index, seat0, seat1, seed, opening, result, score0, winner,
              length, termination, faulty_seat, error, traceback, duration, finished_at)
              UNIQUE (pairing, game_index)
    moves    (game_id, ply, player, agent, action, move, time, nodes, leaves, cutoffs,
              tt_probes, tt_hits, depth, ebf, value, pv, stats)   PRIMARY KEY (game_id, ply)

Each finished game is written with its moves in one transaction, committed at once, so a
process killed at any moment loses only the games still being played, and the UNIQUE
constraint makes a game impossible to store twice. Opening a database made by another
configuration raises :class:`ConfigMismatchError`.

Reading a stored game (``zerosum replay`` uses this)::

    rec = Store("results/tictactoe/tournament.sqlite").game_record(1)
    game = rec.make_game(); state = game.initial_state()
    for a in rec.actions: state = game.apply(state, a)
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from zerosum.evaluation.match import STAT_COLUMNS, MatchResult, line_names
from zerosum.games.kit import Action, Game, ZerosumError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agents (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pairings (
    id INTEGER PRIMARY KEY,
    seat0 INTEGER NOT NULL REFERENCES agents(id),
    seat1 INTEGER NOT NULL REFERENCES agents(id));
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    pairing INTEGER NOT NULL REFERENCES pairings(id),
    game_index INTEGER NOT NULL,
    seat0 INTEGER NOT NULL REFERENCES agents(id),
    seat1 INTEGER NOT NULL REFERENCES agents(id),
    seed INTEGER NOT NULL,
    opening TEXT NOT NULL,
    result TEXT NOT NULL,
    score0 REAL NOT NULL,
    winner INTEGER,
    length INTEGER NOT NULL,
    termination TEXT NOT NULL,
    faulty_seat INTEGER,
    error TEXT,
    traceback TEXT,
    duration REAL NOT NULL,
    finished_at TEXT NOT NULL,
    UNIQUE (pairing, game_index));
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    player INTEGER NOT NULL,
    agent INTEGER NOT NULL REFERENCES agents(id),
    action INTEGER NOT NULL,
    move TEXT NOT NULL,
    time REAL NOT NULL,
    nodes INTEGER, leaves INTEGER, cutoffs INTEGER, tt_probes INTEGER, tt_hits INTEGER,
    depth INTEGER, ebf REAL, value REAL,
    pv TEXT,           -- JSON list of readable moves
    stats TEXT,        -- JSON of any other statistics an agent reports
    PRIMARY KEY (game_id, ply));
"""


class StoreError(ZerosumError):
    """A tournament database that cannot be used as asked."""


class ConfigMismatchError(StoreError, ValueError):
    """The database holds games of another configuration (another tournament or match)."""


@dataclass(frozen=True)
class GameTask:
    """One game to play: which pairing, which of its games, the seats, the seed, the opening."""

    pairing: int
    """The pairing's index in the tournament."""
    game_index: int
    """The game's index within its pairing."""
    seats: tuple[int, int]
    """The agents' indices in seat order (seat 0 moves first)."""
    seed: int
    """The game's seed (its opening and the agents' generators)."""
    opening: tuple[Action, ...]
    """The random opening plies played before the agents."""


@dataclass(frozen=True)
class StoredGame:
    """A game read back from the store, enough to replay it move by move (seat 0 is player 0)."""

    game_id: int
    """The game's id in the database."""
    game: str
    """The game's name."""
    variant: dict[str, Any]
    """The variant played."""
    agents: tuple[str, str]
    """The agents' names in seat order."""
    specs: tuple[str, str]
    """The agents' specs in seat order."""
    seats: tuple[int, int]
    """The agents' indices in the tournament, in seat order."""
    pairing: int
    """The pairing's index."""
    game_index: int
    """The game's index within its pairing."""
    seed: int
    """The game's seed."""
    opening: list[Action]
    """The random opening plies."""
    actions: list[Action]
    """Every action from the initial position, the opening first."""
    moves: list[str]
    """The actions in the game's readable notation."""
    result: str
    """``1-0``, ``0-1`` or ``1/2-1/2``."""
    winner: int | None
    """The winning seat, or None for a draw."""
    termination: str
    """How the game ended (by the rules or by a fault)."""
    error: str | None
    """A faulting agent's message, or None."""
    traceback: str | None
    """A faulting agent's traceback, or None."""
    finished_at: str = ""
    """When the game ended, ``YYYY-MM-DD HH:MM:SS`` local time."""

    def make_game(self) -> Game:
        """The game with the variant this game was played under."""
        from zerosum.games import make_game

        return make_game(self.game, **self.variant)


class Store:
    """A tournament database. ``Store(path)`` opens it; nothing is created until ``init``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        """The SQLite file."""
        self._conn: sqlite3.Connection | None = None

    # ---- connection -----------------------------------------------------------------
    def _connect(self, create: bool) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        if not self.path.exists():
            if not create:
                raise StoreError(f"no tournament database at {str(self.path)!r}")
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=30.0)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            if create:
                conn.executescript(_SCHEMA)
            else:
                found = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if not {"config", "agents", "games", "moves"} <= found:
                    raise StoreError(f"{str(self.path)!r} is not a zerosum tournament database "
                                     f"(tables: {sorted(found)})")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{str(self.path)!r} is not a usable SQLite database: {exc}") from None
        except StoreError:
            conn.close()
            raise
        self._conn = conn
        return conn

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection (opening an existing database on first use)."""
        return self._connect(create=False)

    def close(self) -> None:
        """Close the connection (everything written is already committed)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- configuration ----------------------------------------------------------------
    def init(self, config: dict[str, Any], fingerprint: dict[str, Any], agents: Sequence[tuple[str, str]],
             pairings: Sequence[tuple[int, int]]) -> bool:
        """Create the tables and record the tournament, or check that it is the same one.

        ``fingerprint`` is what must match for games to be mixed (game, variant, agents,
        seed, openings); ``config`` is stored for information. Returns True when the
        database already held this tournament (a resume).
        """
        conn = self._connect(create=True)
        row = conn.execute("SELECT value FROM config WHERE key='fingerprint'").fetchone()
        fp_json = json.dumps(fingerprint, sort_keys=True)
        if row is not None:
            old = json.loads(row[0])
            if old != json.loads(fp_json):
                diffs = [f"{k}: stored {old.get(k)!r}, now {fingerprint.get(k)!r}"
                         for k in sorted(set(old) | set(fingerprint)) if old.get(k) != fingerprint.get(k)]
                raise ConfigMismatchError(
                    f"{str(self.path)!r} holds games of another configuration ({'; '.join(diffs)}); games of "
                    "different tournaments or matches are never mixed: choose another output path or delete that file")
            with conn:
                conn.execute("INSERT OR REPLACE INTO config VALUES ('config', ?)",
                             (json.dumps(config, sort_keys=True),))
            return True
        with conn:
            conn.executemany("INSERT INTO config VALUES (?, ?)", [
                ("fingerprint", fp_json), ("config", json.dumps(config, sort_keys=True)),
                ("schema_version", json.dumps(SCHEMA_VERSION)),
                ("created", json.dumps(time.strftime("%Y-%m-%d %H:%M:%S")))])
            conn.executemany("INSERT INTO agents VALUES (?, ?, ?)", [(i, n, s) for i, (n, s) in enumerate(agents)])
            conn.executemany("INSERT INTO pairings VALUES (?, ?, ?)", [(i, a, b) for i, (a, b) in enumerate(pairings)])
        return False

    def grow(self, config: dict[str, Any], fingerprint: dict[str, Any], agents: Sequence[tuple[str, str]],
             pairings: Sequence[tuple[int, int]]) -> None:
        """Make a stored tournament a larger one without touching a game played: ``agents`` and
        ``pairings`` must begin with the stored ones, in order (the games refer to them by index);
        the rest are added after them, and ``fingerprint`` and ``config`` replace the stored ones."""
        conn = self.conn
        old_agents, old_pairings = self.agents(), self.pairings()
        if list(agents[:len(old_agents)]) != old_agents or list(pairings[:len(old_pairings)]) != old_pairings:
            raise ConfigMismatchError(
                f"{str(self.path)!r} cannot grow into this tournament: its agents {[n for n, _ in old_agents]} and "
                f"pairings {old_pairings} must be the first of the new ones, in the same order")
        with conn:
            conn.executemany("INSERT INTO agents VALUES (?, ?, ?)",
                             [(i, n, s) for i, (n, s) in enumerate(agents) if i >= len(old_agents)])
            conn.executemany("INSERT INTO pairings VALUES (?, ?, ?)",
                             [(i, a, b) for i, (a, b) in enumerate(pairings) if i >= len(old_pairings)])
            conn.executemany("INSERT OR REPLACE INTO config VALUES (?, ?)", [
                ("fingerprint", json.dumps(fingerprint, sort_keys=True)),
                ("config", json.dumps(config, sort_keys=True))])

    def config(self) -> dict[str, Any]:
        """The stored configuration (including the fingerprint) as a dict."""
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM config")}

    def agents(self) -> list[tuple[str, str]]:
        """(name, spec) of every agent, in id order."""
        return [(n, s) for n, s in self.conn.execute("SELECT name, spec FROM agents ORDER BY id")]

    def pairings(self) -> list[tuple[int, int]]:
        """(seat-0 agent id, seat-1 agent id) of every pairing, in id order."""
        return [(a, b) for a, b in self.conn.execute("SELECT seat0, seat1 FROM pairings ORDER BY id")]

    # ---- games ------------------------------------------------------------------------
    def done(self) -> set[tuple[int, int]]:
        """The (pairing, game_index) of every finished game."""
        return set(self.conn.execute("SELECT pairing, game_index FROM games"))

    def count(self) -> int:
        """The number of finished games."""
        return int(self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def add_game(self, task: GameTask, match: MatchResult) -> int | None:
        """Write one finished game and its moves, committed at once; returns its id.

        A game whose (pairing, game_index) is already stored is not written again (None).
        """
        conn = self.conn
        seat_agent = task.seats
        try:
            with conn:
                cur = conn.execute(
                    "INSERT INTO games (pairing, game_index, seat0, seat1, seed, opening, result, score0, winner,"
                    " length, termination, faulty_seat, error, traceback, duration, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (task.pairing, task.game_index, seat_agent[0], seat_agent[1], task.seed,
                     json.dumps(list(task.opening)), match.result, match.score0, match.winner, match.length,
                     match.termination, match.faulty_seat, match.error, match.traceback, match.duration,
                     time.strftime("%Y-%m-%d %H:%M:%S")))
                game_id = cast(int, cur.lastrowid)  # set: the INSERT above added a row
                conn.executemany(
                    "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [_move_row(game_id, seat_agent[m.player], m) for m in match.moves])
        except sqlite3.IntegrityError:
            if (task.pairing, task.game_index) in self.done():
                return None
            raise
        return game_id

    def game_ids(self) -> list[int]:
        """Ids of the stored games, ascending."""
        return [r[0] for r in self.conn.execute("SELECT id FROM games ORDER BY id")]

    def game_record(self, game_id: int) -> StoredGame:
        """One stored game: game name, variant, agents, seats, opening, actions and result."""
        conn = self.conn
        row = conn.execute(
            "SELECT id, pairing, game_index, seat0, seat1, seed, opening, result, winner, termination, error,"
            " traceback, finished_at FROM games WHERE id = ?", (int(game_id),)).fetchone()
        if row is None:
            ids = self.game_ids()
            have = f"ids {ids[0]}..{ids[-1]}" if ids else "no games yet"
            raise StoreError(f"no game with id {game_id} in {str(self.path)!r} ({have})")
        gid, pairing, index, s0, s1, seed, opening, result, winner, termination, error, tb, finished_at = row
        cfg = self.config().get("config", {})
        agents = self.agents()
        moves = conn.execute("SELECT action, move FROM moves WHERE game_id = ? ORDER BY ply", (gid,)).fetchall()
        opening_actions = json.loads(opening)
        from zerosum.games import make_game

        try:
            game = make_game(cfg["game"], **cfg.get("variant", {}))
            names = line_names(game, opening_actions, game.initial_state())
        except Exception:  # noqa: BLE001 - the record is still useful without readable opening names
            names = [str(a) for a in opening_actions]
        return StoredGame(
            game_id=gid, game=cfg.get("game", ""), variant=dict(cfg.get("variant", {})),
            agents=(agents[s0][0], agents[s1][0]), specs=(agents[s0][1], agents[s1][1]), seats=(s0, s1),
            pairing=pairing, game_index=index, seed=seed, opening=opening_actions,
            actions=opening_actions + [a for a, _ in moves], moves=names + [m for _, m in moves],
            result=result, winner=winner, termination=termination, error=error, traceback=tb,
            finished_at=finished_at)

    def game_moves(self, game_id: int) -> list[dict[str, Any]]:
        """The agents' moves of one game, by ply: ply, player, action, move, time, nodes, depth,
        value and pv (a list of readable moves, or None); the opening's plies have no row."""
        cur = self.conn.execute("SELECT ply, player, action, move, time, nodes, depth, value, pv FROM moves"
                                " WHERE game_id = ? ORDER BY ply", (int(game_id),))
        cols = [d[0] for d in cur.description]
        rows = [dict(zip(cols, r)) for r in cur]
        for row in rows:
            try:
                row["pv"] = json.loads(row["pv"]) if row["pv"] else None
            except ValueError:  # a hand-edited database: the move is still worth showing
                row["pv"] = None
        return rows

    def scores(self) -> list[tuple[int, int, int, float]]:
        """(pairing, game index, seat-0 agent id, seat-0 score) of every finished game, by id."""
        return [(p, k, s0, float(x)) for p, k, s0, x in
                self.conn.execute("SELECT pairing, game_index, seat0, score0 FROM games ORDER BY id")]

    def games(self) -> list[dict[str, Any]]:
        """Every game as a dict of its columns (agent ids in seat0/seat1), by id."""
        cur = self.conn.execute("SELECT * FROM games ORDER BY id")
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur]

    def moves(self, columns: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Every move as a dict of its columns, by game then ply."""
        sel = ", ".join(columns) if columns else "*"
        cur = self.conn.execute(f"SELECT {sel} FROM moves ORDER BY game_id, ply")
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur]

    def export_csv(self, directory: str | os.PathLike[str]) -> tuple[Path, Path]:
        """Write games.csv and moves.csv (agent names, not ids) into ``directory``."""
        import csv

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, sql in (
            ("games", "SELECT g.id AS game_id, g.pairing, g.game_index, a0.name AS seat0, a1.name AS seat1, g.seed,"
                      " g.opening, g.result, g.score0, g.winner, g.length, g.termination, g.faulty_seat, g.error,"
                      " g.duration, g.finished_at FROM games g JOIN agents a0 ON a0.id = g.seat0"
                      " JOIN agents a1 ON a1.id = g.seat1 ORDER BY g.id"),
            ("moves", "SELECT m.game_id, m.ply, m.player, a.name AS agent, m.action, m.move, m.time, m.nodes,"
                      " m.leaves, m.cutoffs, m.tt_probes, m.tt_hits, m.depth, m.ebf, m.value, m.pv"
                      " FROM moves m JOIN agents a ON a.id = m.agent ORDER BY m.game_id, m.ply"),
        ):
            cur = self.conn.execute(sql)
            path = out / f"{name}.csv"
            with open(path, "w", newline="") as fh:
                w = csv.writer(fh)
                w.writerow([d[0] for d in cur.description])
                w.writerows(cur)
            paths.append(path)
        return paths[0], paths[1]


_KNOWN = frozenset((*STAT_COLUMNS, "pv", "action", "algorithm", "time"))
"""Statistics not kept in the blob: their own columns, or repeated elsewhere (the move's
action and time, the agent's algorithm)."""


def _json_names(names: list[str]) -> str:
    if any('"' in n or "\\" in n or not n.isprintable() for n in names):
        return json.dumps(names)
    return '["' + '", "'.join(names) + '"]' if names else "[]"


def _move_row(game_id: int, agent_id: int, m: Any) -> tuple[Any, ...]:
    st = m.stats
    if not st:
        return (game_id, m.ply, m.player, agent_id, m.action, m.move, m.time) + (None,) * 10
    pv = st.get("pv")
    rest = {k: v for k, v in st.items() if k not in _KNOWN}
    return (game_id, m.ply, m.player, agent_id, m.action, m.move, m.time,
            *[st.get(c) for c in STAT_COLUMNS],
            _json_names(pv) if pv is not None else None, json.dumps(rest) if rest else None)
