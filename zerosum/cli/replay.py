"""``zerosum replay DB GAME_ID``: a stored tournament or match game, move by move, as a GIF, or as PGN
(chess) or SGF (the games in SGF's list); ``zerosum replay GAME.pgn|.sgf|.json``: a game kept in a file
(``zerosum play GAME --save PATH`` writes one), shown the same way.

The game comes from the Store API (:meth:`~zerosum.evaluation.store.Store.game_record`
and :meth:`~zerosum.evaluation.store.Store.game_moves`): every position is rebuilt and
checked against the rules, and drawn by ``game.render`` with each agent's search
statistics; ``--gif out.gif`` writes an animation of the environment's rgb_array drawings,
one frame for the start position plus one per move.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zerosum.cli.common import Parser, UsageError, build_game, run_command
from zerosum.cli.describe import describe_stored_move
from zerosum.cli.terminal import for_terminal
from zerosum.games import Game, Outcome, State, ZerosumError
from zerosum.games.records import SUFFIXES, TERMINATIONS, GameRecord, RecordError, read_record


@dataclass(frozen=True)
class Replay:
    """A stored game made ready to show: every position, who played, what they thought.

    Built from a ``StoredGame`` (game name, variant, agents in seat order, opening, every
    action from the start, result) and the per-ply descriptions of the agents' searches.
    """

    game: Game
    game_id: Any
    actions: tuple[int, ...]
    agents: tuple[str, str]
    opening: int
    result: str | None
    termination: str | None
    error: str | None
    states: tuple[State, ...]
    thoughts: Mapping[int, str] = field(default_factory=dict)

    @classmethod
    def from_record(cls, record: Any, thoughts: Mapping[int, str] | None = None) -> Replay:
        """Rebuild every position of a stored game, checking each move against the rules."""
        game = build_game(str(record.game), dict(record.variant))
        actions = tuple(int(a) for a in record.actions)
        states = [game.initial_state()]
        for i, a in enumerate(actions):
            try:
                states.append(game.apply(states[-1], a))
            except (ZerosumError, ValueError) as exc:
                raise UsageError(f"stored game {record.game_id} has an illegal move {i + 1} ({a}): {exc}") from None
        return cls(game, record.game_id, actions, (str(record.agents[0]), str(record.agents[1])),
                   len(record.opening), record.result, record.termination, record.error, tuple(states),
                   dict(thoughts or {}))

    def caption(self, ply: int) -> str:
        """A one-line caption for position ``ply`` (0 = the start)."""
        if ply == 0:
            return f"game {self.game_id}: start"
        before = self.states[ply - 1]
        mover = self.game.current_player(before)
        who = "opening" if ply <= self.opening else self.agents[mover]
        return f"{ply}. player {mover} ({who}) {self.game.move_name(self.actions[ply - 1], before)}"

    @classmethod
    def from_game_record(cls, record: GameRecord, where: str) -> Replay:
        """A game kept in a file (PGN, SGF or JSON): its players, result and termination."""
        try:
            states = record.states()
        except RecordError as exc:
            raise UsageError(f"{where}: {exc}") from None
        return cls(record.game, where, record.actions, record.players, 0, record.final_result(),
                   record.final_termination(), None, tuple(states))

    def final_words(self) -> str:
        """The stored result in words (a forfeit says why)."""
        outcome = self.game.outcome(self.states[-1])
        winner = {"1-0": 0, "0-1": 1}.get(self.result or "", outcome.winner if self.result is None else None)
        words = f"player {winner} ({self.agents[winner]}) wins" if winner is not None else "a draw"
        if self.result is None and outcome == Outcome.ONGOING:
            words = "unfinished"
        if self.result == "*":
            words = "unfinished"
        text = f"Result: {self.result + ', ' if self.result else ''}{words} after {len(self.actions)} moves"
        if self.termination and self.termination not in ("end", "normal"):
            how = self.termination if self.termination in TERMINATIONS else f"ended by {self.termination}"
            text += f" ({how}{': ' + self.error if self.error else ''})"
        return text + "."

    def text(self) -> str:
        """The whole game as text, move by move, each position drawn by ``game.render``."""
        g = self.game
        variant = ", ".join(f"{k}={v}" for k, v in g.variant.items())
        lines = [f"game {self.game_id}: {g.name}{f' ({variant})' if variant else ''}",
                 f"player 0: {self.agents[0]}", f"player 1: {self.agents[1]}"]
        if self.opening:
            lines.append(f"opening: the first {self.opening} moves were given (random plies), not chosen")
        lines += ["", "start", g.render(self.states[0])]
        for ply in range(1, len(self.states)):
            lines += ["", self.caption(ply)]
            if ply - 1 in self.thoughts:
                lines.append(f"  {self.thoughts[ply - 1]}")
            lines.append(g.render(self.states[ply]))
        lines += ["", self.final_words()]
        return "\n".join(lines)

    def frames(self) -> list[Any]:
        """PIL images: the start position and one per move, each with its caption below."""
        import importlib

        from PIL import Image, ImageDraw

        from zerosum.games.registry import ENVS, env_name

        name = env_name(self.game.name)
        if name is None:
            raise UsageError(f"no environment draws {self.game.name}; environments: {', '.join(sorted(ENVS))}")
        draw = importlib.import_module(ENVS[name][0]).draw  # the newest version of the game's env
        images = []
        for ply, state in enumerate(self.states):
            board = Image.fromarray(draw(self.game, state)).convert("RGB")
            bar = 22
            img = Image.new("RGB", (max(board.width, 240), board.height + bar), (255, 255, 255))
            img.paste(board, (0, 0))
            ImageDraw.Draw(img).text((6, board.height + 5), self.caption(ply), fill=(0, 0, 0))
            images.append(img)
        return images

    def write_gif(self, path: str, fps: float = 2.0) -> int:
        """Write the animation; returns the number of frames (the start position + one per move)."""
        images = self.frames()
        duration = [max(20, round(1000 / fps))] * len(images)
        duration[-1] = max(duration[-1], 2000)  # linger on the final position
        images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=duration,
                       loop=0, optimize=False)
        return len(images)


def load_replay(db: str, game_id: str) -> Replay:
    """Read one game and its agents' statistics from a tournament or match database."""
    from zerosum.evaluation.store import Store

    if not os.path.isfile(db):
        raise UsageError(f"no tournament database at {db!r}")
    try:
        key = int(game_id)
    except ValueError:
        raise UsageError(f"a game id is an integer; got {game_id!r}") from None
    with Store(db) as store:
        record = store.game_record(key)
        thoughts = {int(m["ply"]): describe_stored_move(m) for m in store.game_moves(key)}
    return Replay.from_record(record, thoughts)


def load_file(path: str) -> Replay:
    """A game kept in a ``.pgn``, ``.sgf`` or ``.json`` file, every move checked."""
    try:
        record = read_record(path)
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    return Replay.from_game_record(record, path)


def stored_game_record(stored: Any) -> GameRecord:
    """A stored game as a record: players, the day it ended, the result, the ending in PGN's words."""
    from zerosum.games.records import STORE_TERMINATIONS

    game = build_game(str(stored.game), dict(stored.variant))
    day = str(getattr(stored, "finished_at", "") or "")[:10]
    date = day.replace("-", ".") if len(day) == 10 else "????.??.??"
    return GameRecord(game, tuple(int(a) for a in stored.actions), players=(str(stored.agents[0]),
                      str(stored.agents[1])), date=date, result=stored.result,
                      termination=STORE_TERMINATIONS.get(str(stored.termination), "unterminated"),
                      event="zerosum", round=str(stored.game_id))


def write_pgn(db: str, game_id: str, path: str) -> int:
    """Write stored chess games as PGN (one game, or every game when ``game_id`` is
    ``all``); returns how many. ``-`` writes to standard output."""
    return write_stored(db, game_id, path, "pgn")


def write_stored(db: str, game_id: str, path: str, fmt: str) -> int:
    """Write stored games as ``pgn`` (chess) or ``sgf`` (a game in SGF's list): one game, or every
    game when ``game_id`` is ``all``; returns how many. ``-`` writes to standard output."""
    from zerosum.evaluation.store import Store
    from zerosum.games.records import record_suffix, to_text

    if not os.path.isfile(db):
        raise UsageError(f"no tournament database at {db!r}")
    if game_id != "all" and not game_id.isdigit():
        raise UsageError(f"a game id is an integer, or 'all' with --{fmt}; got {game_id!r}")
    texts = []
    with Store(db) as store:
        for key in store.game_ids() if game_id == "all" else [int(game_id)]:
            record = stored_game_record(store.game_record(key))
            if record_suffix(record.game) != f".{fmt}":
                what = "chess" if fmt == "pgn" else "the games of SGF's list"
                raise UsageError(f"--{fmt} writes {what}; game {key} is {record.game.name}, kept as "
                                 f"{record_suffix(record.game)}")
            texts.append(to_text(record, fmt))
    text = "\n".join(texts)
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as fh:
            fh.write(text)
    return len(texts)


def parser() -> Parser:
    """The argument parser of ``zerosum replay``."""
    p = Parser(prog="zerosum replay",
               description="Show a stored tournament or match game move by move as text (each position drawn as "
                           "in zerosum play, with each agent's search statistics), or write an animated GIF of "
                           "the environment's drawings: one frame for the start position plus one per move.",
               epilog="Example: zerosum replay results/tictactoe/tournament.sqlite 3 --gif game3.gif --fps 2")
    p.add_argument("db", help="the database (SQLite) written by zerosum tournament or zerosum match, or a game "
                              "kept in a .pgn, .sgf or .json file (zerosum play GAME --save PATH)")
    p.add_argument("game_id", nargs="?", default=None,
                   help="the game's id in the database (games are numbered from 1); none for a file")
    p.add_argument("--gif", default=None, metavar="OUT.gif", help="write an animated GIF instead of text")
    p.add_argument("--fps", type=float, default=2.0, help="frames per second of the GIF (default 2)")
    p.add_argument("--pgn", default=None, metavar="OUT.pgn",
                   help="chess: write the game as PGN (game id 'all': every game of the database; '-': stdout)")
    p.add_argument("--sgf", default=None, metavar="OUT.sgf",
                   help="Go, Othello, Gomoku, Nine Men's Morris, Hex and the other games of SGF's list: write the "
                        "game as SGF (game id 'all': every game of the database; '-': stdout)")
    return p


def replay_main(argv: Sequence[str] | None = None) -> int:
    """``zerosum replay``: 0 on success, 2 on a bad command line, database or game id."""
    argv = list(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        args = parser().parse_args(argv)
        if not args.fps > 0:
            raise UsageError(f"--fps must be a positive number of frames per second; got {args.fps}")
        is_file = os.path.splitext(args.db)[1].lower() in SUFFIXES
        if args.game_id is None and not is_file:
            raise UsageError(f"{args.db!r}: give a game id after a database, or a game kept in a "
                             f"{', '.join(SUFFIXES)} file")
        if is_file and args.game_id is not None:
            raise UsageError(f"{args.db!r} is one game: no game id ({args.game_id!r}) after it")
        for fmt, out in (("pgn", args.pgn), ("sgf", args.sgf)):
            if out:
                if is_file:
                    raise UsageError(f"--{fmt} exports a game of a database; {args.db!r} is already a file")
                n = write_stored(args.db, args.game_id, out, fmt)
                if out != "-":
                    print(f"wrote {out}: {n} game{'s' if n != 1 else ''}")
                return 0
        replay = load_file(args.db) if is_file else load_replay(args.db, args.game_id)
        if not args.gif:
            print(for_terminal(replay.text()), flush=True)  # ASCII pieces on a terminal without Unicode
            return 0
        try:
            n = replay.write_gif(args.gif, args.fps)
        except OSError as exc:
            raise UsageError(f"cannot write {args.gif!r}: {exc.strerror or exc}") from None
        print(f"wrote {args.gif}: {n} frames (the start position and {n - 1} moves)")
        return 0

    return run_command("zerosum replay", body)


main = replay_main
