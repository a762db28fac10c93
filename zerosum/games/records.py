"""Games as players keep them: PGN for chess, SGF for the games in SGF's list, JSON for the rest.

A :class:`GameRecord` is one game: the game and its variant, the actions from the start,
the players, the date, the result and how the game ended. :func:`write_record` keeps it in
the format its game's players use, chosen by the file's suffix (:func:`record_suffix` says
which), and :func:`read_record` reads any of the three back, checking every move against
the rules:

* **PGN** (chess, :mod:`zerosum.games.chess.pgn`): the Seven Tag Roster (Event, Site, Date as
  ``YYYY.MM.DD``, Round, White, Black, Result), ``Termination`` from the standard's values
  (:data:`TERMINATIONS`), ``SetUp``/``FEN`` for a game from another position, SAN movetext.
* **SGF** (FF[4]) for a game that declares its number in SGF's ``GM`` list
  (:attr:`Game.sgf_game <zerosum.games.kit.game.Game.sgf_game>`: Go 1, Othello 2, Gomoku 4,
  Nine Men's Morris 5, Lines of Action 9, Hex 11, Amazons 18): ``GM``, ``SZ`` and ``KM``
  where the game has them (``Game.sgf_root``), ``PB``/``PW``, ``DT``, ``RE`` once the game is
  over, and the moves as ``B[...]``/``W[...]`` (``Game.sgf_move``: SGF's points for Go,
  Othello and Gomoku, the game's readable move otherwise). zerosum's own game name and
  variant ride along in the property ``ZV`` (SGF keeps a property it does not know), so a
  game of any variant reads back exactly; a file from another program without it is read
  by its ``GM`` and root properties.
* **JSON** for every other game (and for any game when asked): the game, the variant, the
  actions and their readable names, the players, the date, the result.

Results are player 0's, as everywhere in zerosum: ``1-0``, ``0-1``, ``1/2-1/2``, ``*`` while
the game goes on.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from zerosum.games.kit import DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, State, ZerosumError
from zerosum.games.registry import GAMES, game_class, make_game

TERMINATIONS = ("abandoned", "adjudication", "death", "emergency", "normal", "rules infraction", "time forfeit",
                "unterminated")
"""PGN's ``Termination`` values (the PGN standard, 9.8.1)."""
STORE_TERMINATIONS = {"end": "normal", "illegal": "rules infraction", "error": "emergency",
                      "max_length": "adjudication"}
"""How a stored game's ending (:mod:`zerosum.evaluation.match`) reads as a PGN ``Termination``."""
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Results, player 0's first; ``*`` for a game that goes on (or was left)."""
SUFFIXES = (".pgn", ".sgf", ".json")
"""The formats a record is kept in, by file suffix."""
_OUTCOME_RESULT = {P0_WINS: "1-0", P1_WINS: "0-1", DRAW: "1/2-1/2", ONGOING: "*"}


class RecordError(ZerosumError, ValueError):
    """A game record that cannot be written or read: the message says what and where."""


def today() -> str:
    """Today's date as PGN writes it, ``YYYY.MM.DD``."""
    return _dt.date.today().strftime("%Y.%m.%d")


@dataclass(frozen=True)
class GameRecord:
    """One game as kept in a file: ``game`` (its variant included) played as ``actions`` from
    ``start`` (the initial position when None; a chess game may start from a FEN)."""

    game: Game
    """The game and its variant."""
    actions: tuple[int, ...]
    """Every action from the start."""
    players: tuple[str, str] = ("?", "?")
    """Player 0's and player 1's names."""
    date: str = field(default_factory=today)
    """The day it was played, ``YYYY.MM.DD`` (PGN's form; ``?`` for a part not known)."""
    result: str | None = None
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``; None: the final position's (``*`` while it goes on)."""
    termination: str | None = None
    """One of :data:`TERMINATIONS`; None: ``normal`` for a finished game, ``unterminated`` otherwise."""
    event: str = "?"
    """PGN's Event (a tournament's name, ``zerosum play``)."""
    site: str = "?"
    """PGN's Site."""
    round: str = "?"
    """PGN's Round (a stored game's id)."""
    start: State | None = None
    """The position the game started from, when not the initial one (chess: from a FEN)."""

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise RecordError(f"result={self.result!r}: one of {', '.join(RESULTS)} (player 0's first)")
        if self.termination is not None and self.termination not in TERMINATIONS:
            raise RecordError(f"termination={self.termination!r}: one of {', '.join(TERMINATIONS)} (PGN's values)")

    def states(self) -> list[State]:
        """Every position, the start first; RecordError naming the first illegal move."""
        g = self.game
        states = [g.initial_state() if self.start is None else self.start]
        for i, a in enumerate(self.actions):
            try:
                states.append(g.apply(states[-1], int(a)))
            except (ZerosumError, ValueError) as exc:
                raise RecordError(f"move {i + 1} ({a}) of the {g.name} game is not legal: {exc}") from None
        return states

    def final_result(self) -> str:
        """The result: the one given, else the final position's."""
        if self.result is not None:
            return self.result
        return _OUTCOME_RESULT[int(self.game.outcome(self.states()[-1]))]

    def final_termination(self) -> str:
        """The termination: the one given, else ``normal`` when the rules ended the game, ``unterminated``."""
        if self.termination is not None:
            return self.termination
        return "normal" if self.game.is_terminal(self.states()[-1]) else "unterminated"

    def moves(self) -> list[str]:
        """The actions as the game names them."""
        states = self.states()
        return [self.game.action_to_string(int(a), states[i]) for i, a in enumerate(self.actions)]


def record_suffix(game: Game) -> str:
    """The suffix of the format the game's players keep: ``.pgn`` for chess, ``.sgf`` for a game
    in SGF's list, ``.json`` for every other."""
    if game.name == "chess":
        return ".pgn"
    return ".sgf" if game.sgf_game is not None else ".json"


def check_path(game: Game, path: str) -> str:
    """The format of ``path`` for ``game`` (``pgn``, ``sgf`` or ``json``); RecordError naming the
    suffixes allowed (the game's own format, and JSON for any game)."""
    suffix = os.path.splitext(path)[1].lower()
    allowed = sorted({record_suffix(game), ".json"})
    if suffix not in allowed:
        raise RecordError(f"{path!r}: {game.name} games are kept as {' or '.join(allowed)}; "
                          f"got {suffix or 'no suffix'}")
    return suffix[1:]


def to_text(record: GameRecord, fmt: str) -> str:
    """The record as ``pgn``, ``sgf`` or ``json`` text."""
    if fmt == "pgn":
        return to_pgn(record)
    if fmt == "sgf":
        return to_sgf(record)
    if fmt == "json":
        return to_json(record)
    raise RecordError(f"format {fmt!r}: one of pgn, sgf, json")


def write_record(path: str, record: GameRecord) -> None:
    """Keep ``record`` at ``path`` in the format its suffix names, replacing the file whole (a reader
    never sees half a game)."""
    text = to_text(record, check_path(record.game, path))
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".zerosum-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_record(path: str) -> GameRecord:
    """The game kept at ``path`` (``.pgn``, ``.sgf`` or ``.json``), every move checked."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise RecordError(f"{path!r}: a game record is a {', '.join(SUFFIXES)} file; got {suffix or 'no suffix'}")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise RecordError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    try:
        if suffix == ".pgn":
            return from_pgn(text)
        if suffix == ".sgf":
            return from_sgf(text)
        return from_json(text)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


# ---- PGN -------------------------------------------------------------------------------
def to_pgn(record: GameRecord) -> str:
    """The PGN of a chess record: the Seven Tag Roster, Termination, SAN movetext, the result."""
    from zerosum.games.chess.pgn import to_pgn as chess_pgn

    if record.game.name != "chess":
        raise RecordError(f"PGN keeps chess games; this is {record.game.name} "
                          f"(keep it as {record_suffix(record.game)})")
    tags = {"Event": record.event, "Site": record.site, "Date": record.date, "Round": record.round,
            "Termination": record.final_termination()}
    return chess_pgn(record.game, record.actions, white=record.players[0], black=record.players[1],
                     result=record.final_result(), start=record.start, tags=tags)


def from_pgn(text: str) -> GameRecord:
    """The first game of a PGN text (python-chess's and zerosum's), its SAN moves read by the rules."""
    from zerosum.games.chess.pgn import parse_pgn

    try:
        tags, sans = parse_pgn(text)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    game = make_game("chess")
    start = game.from_fen(tags["FEN"]) if "FEN" in tags else None  # type: ignore[attr-defined]
    state = game.initial_state() if start is None else start
    actions = []
    for i, san in enumerate(sans):
        try:
            a = game.string_to_action(san, state)
            state = game.apply(state, a)
        except (ZerosumError, ValueError) as exc:
            raise RecordError(f"move {i + 1} ({san}) is not legal: {exc}") from None
        actions.append(a)
    result = tags.get("Result", "*")
    termination = tags.get("Termination", "").lower() or None
    return GameRecord(game, tuple(actions), players=(tags.get("White", "?"), tags.get("Black", "?")),
                      date=tags.get("Date", "????.??.??"), result=result if result in RESULTS else "*",
                      termination=termination if termination in TERMINATIONS else None,
                      event=tags.get("Event", "?"), site=tags.get("Site", "?"), round=tags.get("Round", "?"),
                      start=start)


# ---- SGF -------------------------------------------------------------------------------
def sgf_point(col: int, row: int) -> str:
    """SGF's point: the column letter then the row letter, ``a`` the left column and the top row."""
    return chr(97 + col) + chr(97 + row)


def sgf_coords(value: str, columns: int, rows: int | None = None) -> tuple[int, int]:
    """``(col, row)`` of an SGF point on a board of ``columns`` x ``rows`` (row 0 the top);
    IllegalActionError naming the board for anything else."""
    rows = columns if rows is None else rows
    v = value.strip()
    if len(v) == 2 and v.isalpha() and v.islower():
        col, row = ord(v[0]) - 97, ord(v[1]) - 97
        if col < columns and row < rows:
            return col, row
    raise IllegalActionError(f"SGF point {value!r}: two letters, the column (a-{chr(96 + columns)}) then the row "
                             f"(a-{chr(96 + rows)}, a at the top)")


def _sgf_value(value: str) -> str:
    return str(value).replace("\\", "\\\\").replace("]", "\\]")


def _sgf_date(date: str) -> str | None:
    """PGN's ``YYYY.MM.DD`` as SGF's ``YYYY-MM-DD`` (None when a part is not known)."""
    parts = date.split(".")
    return "-".join(parts) if len(parts) == 3 and all(p.isdigit() for p in parts) else None


def _sgf_result(record: GameRecord, state: State) -> str | None:
    result = record.final_result()
    if result == "*":
        return None
    if result == "1/2-1/2":
        return "0"
    winner = 0 if result == "1-0" else 1
    text = f"{record.game.sgf_colours[winner]}+"
    if record.final_termination() == "normal" and record.game.sgf_game == 1:  # Go: the margin
        text += f"{abs(float(record.game.score(state))):g}"  # type: ignore[attr-defined]
    elif record.final_termination() == "time forfeit":
        text += "T"
    elif record.final_termination() != "normal":
        text += "F"
    return text


def to_sgf(record: GameRecord) -> str:
    """The SGF (FF[4]) of a record of a game in SGF's list."""
    g = record.game
    if g.sgf_game is None:
        raise RecordError(f"{g.name} has no number in SGF's GM list; keep it as {record_suffix(g)}")
    states = record.states()
    root: dict[str, str | list[str]] = {"FF": "4", "CA": "UTF-8", "GM": str(g.sgf_game), "AP": "zerosum"}
    root.update(g.sgf_root())
    root["PB" if g.sgf_colours[0] == "B" else "PW"] = record.players[0]
    root["PW" if g.sgf_colours[0] == "B" else "PB"] = record.players[1]
    date = _sgf_date(record.date)
    if date:
        root["DT"] = date
    result = _sgf_result(record, states[-1])
    if result:
        root["RE"] = result
    if record.event != "?":
        root["EV"] = record.event
    if record.round != "?":
        root["RO"] = record.round
    root["ZV"] = json.dumps({"game": g.name, "variant": _plain(g.variant)}, sort_keys=True)
    parts = [";" + "".join(f"{k}" + "".join(f"[{_sgf_value(v)}]" for v in (vals if isinstance(vals, list) else [vals]))
                           for k, vals in root.items())]
    for i, a in enumerate(record.actions):
        colour = g.sgf_colours[g.current_player(states[i])]
        parts.append(f";{colour}[{_sgf_value(g.sgf_move(int(a), states[i]))}]")
    lines, line = [], "("
    for part in parts:
        if len(line) + len(part) > 79 and line != "(":
            lines.append(line)
            line = ""
        line += part
    lines.append(line + ")")
    return "\n".join(lines) + "\n"


def parse_sgf(text: str) -> list[dict[str, list[str]]]:
    """The nodes of an SGF text's main line (its first game tree, the first variation at every
    fork), each a dict of property -> values; RecordError for text that is not SGF."""
    pos = text.find("(")
    if pos < 0:
        raise RecordError("SGF: no game tree '(;...)' in the text")
    nodes, _ = _sgf_tree(text, pos)
    if not nodes:
        raise RecordError("SGF: the game tree has no node")
    return nodes


def _sgf_tree(text: str, i: int) -> tuple[list[dict[str, list[str]]], int]:
    """The main line of the game tree that opens at ``text[i] == '('``, and where it closes."""
    i += 1
    nodes: list[dict[str, list[str]]] = []
    first_child: list[dict[str, list[str]]] | None = None
    while True:
        i = _skip_space(text, i)
        if i >= len(text):
            raise RecordError("SGF: the game tree is not closed by ')'")
        ch = text[i]
        if ch == ")":
            return nodes + (first_child or []), i + 1
        if ch == "(":
            child, i = _sgf_tree(text, i)
            if first_child is None:
                first_child = child
        elif ch == ";" and first_child is None:
            node: dict[str, list[str]] = {}
            i = _sgf_properties(text, i + 1, node)
            nodes.append(node)
        else:
            raise RecordError(f"SGF: unexpected {ch!r} at character {i}")


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _sgf_properties(text: str, i: int, node: dict[str, list[str]]) -> int:
    """Read a node's properties into ``node`` from ``text[i]``; returns where they end."""
    while True:
        i = _skip_space(text, i)
        j = i
        while j < len(text) and text[j].isalpha():
            j += 1
        if j == i:
            return i
        ident = "".join(c for c in text[i:j] if c.isupper())  # FF[3]'s lower-case letters are ignored
        i, values = _skip_space(text, j), []
        while i < len(text) and text[i] == "[":
            buf, i = [], i + 1
            while i < len(text) and text[i] != "]":
                if text[i] == "\\" and i + 1 < len(text):
                    i += 1
                    if text[i] not in "\r\n":  # an escaped line break is a soft one: dropped
                        buf.append(text[i])
                else:
                    buf.append(text[i])
                i += 1
            if i >= len(text):
                raise RecordError(f"SGF: the value of {ident} is not closed by ']'")
            values.append("".join(buf))
            i = _skip_space(text, i + 1)
        if not values:
            raise RecordError(f"SGF: property {ident!r} has no [value]")
        node.setdefault(ident, []).extend(values)


def _sgf_game_class(number: int) -> type[Game]:
    for name in GAMES:
        try:
            cls = game_class(name)
        except ImportError:  # pragma: no cover - a registered game that does not import
            continue
        if cls.sgf_game == number:
            return cls
    raise RecordError(f"GM[{number}]: no zerosum game has that number in SGF's list")


def from_sgf(text: str) -> GameRecord:
    """The main line of an SGF game of a game in SGF's list, every move checked by the rules."""
    nodes = parse_sgf(text)
    root = {k: v[0] for k, v in nodes[0].items()}
    if "ZV" in root:
        try:
            kept = json.loads(root["ZV"])
            game = make_game(str(kept["game"]), **_variant_back(kept["variant"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise RecordError(f"SGF: ZV[{root['ZV']}] is not zerosum's game and variant: {exc}") from None
    else:
        try:
            number = int(root.get("GM", "1"))
        except ValueError:
            raise RecordError(f"SGF: GM[{root['GM']}] is not a number") from None
        cls = _sgf_game_class(number)
        try:
            game = cls(**cls.sgf_variant(root))
        except ZerosumError as exc:
            raise RecordError(f"SGF: the root {root} gives no {cls.name} game: {exc}") from None
    if game.sgf_game is None:
        raise RecordError(f"SGF: {game.name} is not kept as SGF")
    state = game.initial_state()
    actions: list[int] = []
    for node in nodes:
        moves = [(c, node[c][0]) for c in ("B", "W") if c in node]
        if not moves:
            continue
        colour, value = moves[0]
        mover = game.current_player(state)
        if colour != game.sgf_colours[mover]:
            raise RecordError(f"SGF: move {len(actions) + 1} is {colour}[{value}] but {game.sgf_colours[mover]} "
                              "is to move")
        try:
            a = game.sgf_action(value, state)
            state = game.apply(state, a)
        except (ZerosumError, ValueError) as exc:
            raise RecordError(f"SGF: move {len(actions) + 1} {colour}[{value}] is not legal: {exc}") from None
        actions.append(a)
    black_first = game.sgf_colours[0] == "B"
    players = (root.get("PB" if black_first else "PW", "?"), root.get("PW" if black_first else "PB", "?"))
    re_ = root.get("RE", "")
    result = "*"
    if re_ in ("0", "Draw", "D"):
        result = "1/2-1/2"
    elif re_[:2] in ("B+", "W+"):
        result = "1-0" if re_[0] == game.sgf_colours[0] else "0-1"
    termination = None
    if re_.endswith(("+R", "+Resign", "+F", "+Forfeit")):
        termination = "rules infraction" if re_.endswith(("F", "Forfeit")) else "normal"
    elif re_.endswith(("+T", "+Time")):
        termination = "time forfeit"
    date = root.get("DT", "")[:10]
    return GameRecord(game, tuple(actions), players=players,
                      date=date.replace("-", ".") if len(date) == 10 else "????.??.??",
                      result=result, termination=termination, event=root.get("EV", "?"), round=root.get("RO", "?"))


# ---- JSON ------------------------------------------------------------------------------
def _plain(variant: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in variant.items()}


def to_json(record: GameRecord) -> str:
    """The record as JSON: game, variant, players, date, result, termination, actions and moves."""
    if record.start is not None:
        raise RecordError("a game from a set-up position is kept as PGN (chess) only")
    data = {"format": "zerosum game", "version": 1, "game": record.game.name, "variant": _plain(record.game.variant),
            "players": list(record.players), "date": record.date, "event": record.event, "site": record.site,
            "round": record.round, "result": record.final_result(), "termination": record.final_termination(),
            "actions": [int(a) for a in record.actions], "moves": record.moves()}
    return json.dumps(data, indent=1) + "\n"


def from_json(text: str) -> GameRecord:
    """A record written by :func:`to_json`."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "zerosum game":
        raise RecordError('not a zerosum game record (no "format": "zerosum game")')
    try:
        game = make_game(str(data["game"]), **_variant_back(data.get("variant", {})))
        actions = tuple(int(a) for a in data["actions"])
    except KeyError as exc:
        raise RecordError(f"the record has no {exc.args[0]!r}") from None
    except (ZerosumError, TypeError, ValueError) as exc:
        raise RecordError(str(exc)) from None
    players = ([str(p) for p in data.get("players") or []] + ["?", "?"])[:2]
    record = GameRecord(game, actions, players=(players[0], players[1]),
                        date=str(data.get("date", "????.??.??")), result=data.get("result"),
                        termination=data.get("termination"), event=str(data.get("event", "?")),
                        site=str(data.get("site", "?")), round=str(data.get("round", "?")))
    record.states()  # every move checked now
    return record


def _variant_back(variant: Mapping[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in variant.items()}


__all__ = ["RESULTS", "STORE_TERMINATIONS", "SUFFIXES", "TERMINATIONS", "GameRecord", "RecordError", "check_path",
           "from_json", "from_pgn", "from_sgf", "parse_sgf", "read_record", "record_suffix", "sgf_coords",
           "sgf_point", "to_json", "to_pgn", "to_sgf", "to_text", "today", "write_record"]
