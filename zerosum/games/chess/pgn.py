"""PGN (Portable Game Notation) for chess games played on zerosum: the seven-tag roster,
``FEN``/``SetUp`` for a game that did not start from the standard position, and the moves
in SAN with move numbers, wrapped at 80 columns (the PGN standard's export format), and
:func:`parse_pgn`, which reads the tags and the SAN moves of a PGN game back (comments,
variations and annotations skipped). :mod:`zerosum.games.records` keeps games with them:
``zerosum play chess --save game.pgn``, ``zerosum replay DB ID --pgn out.pgn`` (one stored
game, ``... all --pgn`` every game of a tournament or match), ``zerosum replay game.pgn``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from zerosum.games.kit import DRAW, ONGOING, P0_WINS, Game, State

_RESULTS = {P0_WINS: "1-0", DRAW: "1/2-1/2", ONGOING: "*"}
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_GAME_END = ("1-0", "0-1", "1/2-1/2", "*")


def _quote(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def to_pgn(game: Game, actions: Sequence[int], *, white: str = "?", black: str = "?", result: str | None = None,
           start: State | None = None, tags: Mapping[str, object] | None = None) -> str:
    """The PGN of a game of ``game`` (chess) played as ``actions`` from ``start`` (the
    standard position when None). ``result`` defaults to the result of the final position
    (``*`` while it goes on); ``tags`` adds or overrides tags (Event, Site, Date, Round, ...).
    Raises IllegalActionError for an illegal move."""
    if game.name != "chess":
        raise ValueError(f"PGN records chess games; got {game.name}")
    state = game.initial_state() if start is None else start
    to_fen = game.to_fen  # type: ignore[attr-defined]  # Chess's own
    san = game.san  # type: ignore[attr-defined]
    first_fen = to_fen(state)
    tokens: list[str] = []
    fen_fields = first_fen.split()
    number, black_to_move = int(fen_fields[5]), fen_fields[1] == "b"
    if black_to_move and actions:
        tokens.append(f"{number}...")
    for a in actions:
        if not black_to_move:
            tokens.append(f"{number}.")
        tokens.append(san(int(a), state))
        state = game.apply(state, int(a))
        if black_to_move:
            number += 1
        black_to_move = not black_to_move
    if result is None:
        result = _RESULTS.get(int(game.outcome(state)), "0-1")
    roster = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": white, "Black": black,
              "Result": result}
    if start is not None and first_fen != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":
        roster.update({"SetUp": "1", "FEN": first_fen})
    roster.update({k: str(v) for k, v in (tags or {}).items()})
    lines = [f'[{k} "{_quote(v)}"]' for k, v in roster.items()]
    lines.append("")
    text = ""
    for tok in [*tokens, result]:
        if text and len(text) + 1 + len(tok) > 80:
            lines.append(text)
            text = tok
        else:
            text = f"{text} {tok}" if text else tok
    lines.append(text)
    return "\n".join(lines) + "\n"


def parse_pgn(text: str) -> tuple[dict[str, str], list[str]]:
    """The tags and the SAN moves (main line) of the first game in a PGN text; ValueError when
    there is none. Comments (``{...}``, ``;`` to the end of the line), variations (``(...)``),
    NAGs (``$1``), move numbers and ``!``/``?`` annotations are skipped."""
    tags: dict[str, str] = {}
    lines = text.lstrip("\ufeff").splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith(("[", "%"))):
        for name, value in _TAG.findall(lines[i]):
            tags.setdefault(name, re.sub(r"\\(.)", r"\1", value))
        i += 1
    if not tags and i >= len(lines):
        raise ValueError("no PGN game in the text (no tags, no moves)")
    sans: list[str] = []
    depth, comment = 0, False
    for line in lines[i:]:
        if not comment and depth == 0 and line.startswith("["):  # the next game's tags
            break
        for token in re.findall(r"\{|\}|\(|\)|;.*|[^\s{}();]+", line):
            if comment:
                comment = token != "}"
            elif token == "{":
                comment = True
            elif token.startswith(";"):
                continue
            elif token == "(":
                depth += 1
            elif token == ")":
                depth = max(0, depth - 1)
            elif depth == 0 and not token.startswith("$"):
                if token in _GAME_END:
                    return tags, sans
                move = _MOVE_NUMBER.sub("", token).rstrip("!?")
                if move:
                    sans.append(move)
    return tags, sans


__all__ = ["parse_pgn", "to_pgn"]
