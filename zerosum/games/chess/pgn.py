"""PGN (Portable Game Notation) for chess games played on zerosum: the seven-tag roster,
``FEN``/``SetUp`` for a game that did not start from the standard position, and the moves
in SAN with move numbers, wrapped at 80 columns (the PGN standard's export format).
``zerosum replay DB ID --pgn out.pgn`` writes one stored game, ``... all --pgn`` every game
of a tournament or match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zerosum.games.kit import DRAW, ONGOING, P0_WINS, Game, State

_RESULTS = {P0_WINS: "1-0", DRAW: "1/2-1/2", ONGOING: "*"}


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


__all__ = ["to_pgn"]
