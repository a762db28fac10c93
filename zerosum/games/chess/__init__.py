"""Chess (FIDE rules), with PettingZoo ``chess_v6``'s actions and observations.

Every rule of the game: castling (the king may not castle out of, through or into check),
en passant, promotion to a queen, rook, bishop or knight, check, mate and stalemate. The
game also ends in a draw, at once, by threefold repetition, the fifty-move rule and
insufficient material, decided as the ``draws`` variant says:

* ``draws="claim"`` (default): as PettingZoo's ``chess_v6``, which ends the game as soon as
  python-chess's ``board.can_claim_draw()`` or ``is_insufficient_material()`` holds after a
  move: a position that has occurred three times, or that one legal move would make occur
  a third time; a halfmove clock of 100, or of 99 with a legal move that keeps counting
  (and leaves the opponent a move). Mate wins even when a draw could be claimed.
* ``draws="arise"``: as OpenSpiel's ``chess``: the third occurrence of a position, the
  hundredth halfmove without a capture or pawn move, insufficient material; OpenSpiel
  checks material and repetition before mate.

Repetitions count the positions since the last capture or pawn move (pieces, side to move,
castling rights, and an en-passant square only when a legal capture exists, as
python-chess compares them). Insufficient material is python-chess's rule (no side can
mate: bare kings, a lone minor piece, bishops all on one colour).

Board and actions (PettingZoo's ``chess_v6``, the AlphaZero encoding, 8x8x73 = 4,672)::

    action = (file * 8 + rank) * 73 + plane        file a..h = 0..7, rank 1..8 = 0..7
                                                    as the mover sees the board: black's
                                                    ranks are mirrored (rank -> 7 - rank)
    plane  0-55  queen moves: (distance - 1) * 8 + direction, direction
                 0 SW, 1 W, 2 NW, 3 S, 4 N, 5 SE, 6 E, 7 NE (mover's view; castling is
                 the king's two-square move: O-O plane 14, O-O-O plane 9)
    plane 56-63  knight jumps (-2,-1) (-2,1) (-1,-2) (-1,2) (1,-2) (1,2) (2,-1) (2,1)
    plane 64-72  under-promotions: 3 * (file step + 1) + (0 knight, 1 bishop, 2 rook);
                 a pawn reaching the last rank by a queen-move plane becomes a queen

So white's ``e2e4`` is ``(4*8 + 1)*73 + 12 = 2421`` and black's ``e7e5`` is the same action.
Names: ``action_to_string`` gives UCI (``e2e4``, ``e7e8n``, ``e1g1`` for O-O);
``string_to_action`` reads UCI, SAN (``Nf3``, ``exd5``, ``e8=Q+``, ``O-O``) and a bare
action number. ``game.from_fen(fen)`` and ``game.to_fen(state)`` read and write FEN.

State: an int64 vector of 181 slots, the position (bitboards, side, castling, en passant,
clocks) and the history the draw rules and the observation need (see
:mod:`zerosum.games.chess.rules`). The key covers the position alone, so a transposition
table shares entries across move orders. Observation (8, 8, 111): PettingZoo's
``chess_v6`` planes, described on the ``chess_v0`` env page.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.chess import board, knowledge, movegen, rules
from zerosum.games.chess.board import (
    GEN_ALL, GEN_ANY, MAX_MOVES, NUM_ACTIONS, OBS_PLANES, POSITION_SIZE, S_CASTLE, S_EP, S_FULL, S_HALF, S_REP, S_STM,
)
from zerosum.games.chess.notation import FILES, PIECE_LETTERS, START_FEN, decode, encode, parse_fen, square_name
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, State, Variant,
    check_action,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, forcing=knowledge.forcing, is_legal=rules.is_legal)
MAX_GAME_LENGTH = 12_826
"""A bound on the plies of any game: at most 96 pawn moves and 30 captures reset the
halfmove clock, and at most 100 plies pass between two resets (12,826 = 126 + 127 * 100)."""
_UNICODE = {"P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
            "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚"}
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbn]?)$")
_SAN_CLEAN = re.compile(r"[+#!?]+$")
_COORDS = re.compile(r"^([a-h][1-8])\s*[-x:]?\s*([a-h][1-8])\s*=?([qrbn]?)$")
"""A move as two squares, any case, with a separator (``e2-e4``, ``E2E4``, ``e7-e8=Q``): read as UCI."""


class Chess(Game):
    """Chess under FIDE rules, PettingZoo ``chess_v6``'s action encoding and observation."""

    name = "chess"
    """The registered name: ``make_game(name)``."""
    kernels = KERNELS
    """The compiled rules."""
    variants = (
        Variant("draws", str, "claim", "how repetition and the fifty-move rule end the game: 'claim' as "
                "PettingZoo's chess_v6 (python-chess's can_claim_draw), 'arise' as OpenSpiel's chess",
                choices=("claim", "arise")),
    )
    """The rule variants, as keyword arguments (the page's variants table)."""
    heuristics = knowledge.HEURISTICS
    """The evaluations alpha-beta can use, by name."""
    default_heuristic = "pst"
    """The heuristic a search uses when none is named."""
    default_opponent = "alphabeta(time=0.1)"
    """The agent spec that plays this game best at about 0.1 s a move."""

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Params ``[draws]`` (0 claim, 1 arise); the standard start."""
        return Layout(params=[board.CLAIM if variant["draws"] == "claim" else board.ARISE],
                      initial=parse_fen(START_FEN, frames=0), num_actions=NUM_ACTIONS, max_moves=MAX_MOVES,
                      max_game_length=MAX_GAME_LENGTH, observation_shape=(8, 8, OBS_PLANES))

    # ---- FEN --------------------------------------------------------------------------
    def from_fen(self, fen: str) -> State:
        """The state of a FEN position (no earlier positions: repetitions count from here);
        PositionError naming what is wrong."""
        return parse_fen(fen)

    def to_fen(self, state: State) -> str:
        """The FEN of a state (the en-passant square only when a capture there is legal, as
        python-chess writes it)."""
        s = self._plain(state)
        rows = []
        for rank in reversed(range(8)):
            row, empty = "", 0
            for file in range(8):
                ch = self._piece(s, 8 * rank + file)
                if ch == ".":
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + ch
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        c = int(s[S_CASTLE])
        castling = "".join(ch for ch, b in (("K", 1), ("Q", 2), ("k", 4), ("q", 8)) if c & b) or "-"
        ep = int(board.legal_ep_square(s))
        return (f"{'/'.join(rows)} {'b' if s[S_STM] else 'w'} {castling} {square_name(ep) if ep >= 0 else '-'} "
                f"{int(s[S_HALF])} {int(s[S_FULL])}")

    def position(self, fen: str = START_FEN) -> State:
        """A state from a FEN string (as :meth:`from_fen`)."""
        return self.from_fen(fen)

    def position_bytes(self, state: State) -> bytes:
        """The position proper (pieces, side, castling, a legal en-passant square), as bytes:
        what the key covers (the history slots are left out)."""
        s = np.array(self._plain(state)[:POSITION_SIZE])
        s[S_EP] = board.legal_ep_square(self._plain(state))
        return s.tobytes()

    # ---- moves ------------------------------------------------------------------------
    @staticmethod
    def _piece(s: np.ndarray, sq: int) -> str:
        for t in range(6):
            if (int(s[2 + t]) >> sq) & 1:
                ch = PIECE_LETTERS[t]
                return ch.upper() if (int(s[0]) >> sq) & 1 else ch
        return "."

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The UCI name (``e2e4``, ``e7e8q``, ``e1g1``) of an action for the side to move in
        ``state`` (white when no state is given); ``?`` names a move off the board."""
        a = check_action(action, self.num_actions)
        s = self._plain(state) if state is not None else self.initial
        black = bool(s[S_STM])
        frm, to, promo = decode(a, black)
        if to < 0:
            return f"{square_name(frm)}?{a % 73}"
        if not promo and self._piece(s, frm).lower() == "p" and to // 8 in (0, 7):
            promo = "q"
        return f"{square_name(frm)}{square_name(to)}{promo}"

    def move_name(self, action: int, state: State) -> str:
        """SAN (``Nf3``, ``exd5``, ``O-O``): what zerosum play and replay show; UCI where the
        move is not legal in ``state``."""
        try:
            return self.san(action, state)
        except IllegalActionError:
            return self.action_to_string(action, state)

    def san(self, action: int, state: State) -> str:
        """The SAN of a legal action (``Nbd7``, ``exd5``, ``e8=Q+``, ``O-O``, ``Qh4#``)."""
        s = self._plain(state)
        a = check_action(action, self.num_actions)
        legal = [int(x) for x in self._moves(s)]
        if a not in legal:
            raise IllegalActionError(f"action {a} ({self.action_to_string(a, s)}) is not a legal move here")
        black = bool(s[S_STM])
        frm, to, promo = decode(a, black)
        piece = self._piece(s, frm).upper()
        if piece == "K" and abs(to % 8 - frm % 8) == 2:
            text = "O-O" if to % 8 == 6 else "O-O-O"
        else:
            capture = self._piece(s, to) != "." or (piece == "P" and to % 8 != frm % 8)
            if piece == "P":
                text = (FILES[frm % 8] + "x" if capture else "") + square_name(to)
                if to // 8 in (0, 7):
                    text += "=" + (promo or "q").upper()
            else:
                rivals = [decode(b, black)[0] for b in legal if b != a and decode(b, black)[1] == to
                          and self._piece(s, decode(b, black)[0]).upper() == piece]
                dis = ""
                if rivals:
                    if all(r % 8 != frm % 8 for r in rivals):
                        dis = FILES[frm % 8]
                    elif all(r // 8 != frm // 8 for r in rivals):
                        dis = str(frm // 8 + 1)
                    else:
                        dis = square_name(frm)
                text = piece + dis + ("x" if capture else "") + square_name(to)
        child = self.apply_unchecked(s, a)
        if board.in_check(child):
            scratch = np.empty(MAX_MOVES, np.int64)
            text += "#" if movegen.generate(child, scratch, GEN_ANY) == 0 else "+"
        return text

    def _moves(self, s: np.ndarray) -> np.ndarray:
        """The moves of the side to move, even in a game that a draw rule has ended."""
        out = np.empty(MAX_MOVES, np.int64)
        return out[: movegen.generate(s, out, GEN_ALL)]

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Read UCI (``e2e4``, ``e7e8q``, also in capitals or with ``-`` or ``x`` between the
        squares: ``e2-e4``, ``E2E4``), SAN (``e4``, ``Nf3``, ``exd5``, ``e8=Q``, ``O-O``,
        check marks optional) or an action number, for the side to move in ``state`` (the
        start when none is given). SAN needs the move to be legal; IllegalActionError names
        what was wrong."""
        raw = str(text).strip()
        s = self._plain(state) if state is not None else self.initial
        if raw.isdigit() and int(raw) < self.num_actions:
            return int(raw)
        black = bool(s[S_STM])
        coords = _COORDS.match(raw.lower()) if raw[1:2].isdigit() else None  # not "Bb5": a bishop's SAN
        if coords:
            raw = "".join(coords.groups())
        m = _UCI.match(raw.lower()) if raw[:1].islower() or raw[:1].isdigit() else None
        if m and len(raw) >= 4 and raw[1].isdigit() and raw[3:4].isdigit():
            frm = FILES.index(m.group(1)[0]) + 8 * (int(m.group(1)[1]) - 1)
            to = FILES.index(m.group(2)[0]) + 8 * (int(m.group(2)[1]) - 1)
            a = encode(frm, to, m.group(3) if m.group(3) != "q" else "", black)
            if a < 0:
                raise IllegalActionError(f"{raw!r} ({m.group(1)} to {m.group(2)}) is no move any piece makes")
            return a
        want = self._clean_san(raw)
        if not want:
            raise IllegalActionError(f"cannot read move {text!r}: write UCI (e2e4, e7e8q) or SAN (e4, Nf3, exd5, "
                                     "e8=Q, O-O)")
        legal = [int(x) for x in self._moves(s)]
        for a in legal:
            if self._clean_san(self.san(a, s)) == want:
                return a
        # a SAN without the capture mark or with more disambiguation than needed
        loose = want.replace("x", "")
        found = [a for a in legal if self._loose_match(loose, a, s)]
        if len(found) == 1:
            return found[0]
        names = ", ".join(self.san(a, s) for a in legal) or "none"
        if len(found) > 1:
            raise IllegalActionError(f"{raw!r} is ambiguous here: it fits "
                                     f"{', '.join(self.san(a, s) for a in found)}")
        raise IllegalActionError(f"{raw!r} is not a legal move for {'black' if black else 'white'} here "
                                 f"(read as SAN); legal: {names}")

    @staticmethod
    def _clean_san(text: str) -> str:
        t = _SAN_CLEAN.sub("", text.strip()).replace("0-0-0", "O-O-O").replace("0-0", "O-O")
        t = re.sub(r"e\.?p\.?$", "", t).strip()
        if re.fullmatch(r"[a-h](x[a-h])?[18][QRBNqrbn]", t):
            t = t[:-1] + "=" + t[-1].upper()
        if t.endswith(("=q", "=r", "=b", "=n")):
            t = t[:-1] + t[-1].upper()
        ok = re.fullmatch(r"O-O(-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?", t)
        return t if ok else ""

    def _loose_match(self, loose: str, a: int, s: np.ndarray) -> bool:
        m = re.fullmatch(r"([KQRBN]?)([a-h]?)([1-8]?)([a-h][1-8])(=[QRBN])?", loose)
        if not m:
            return False
        black = bool(s[S_STM])
        frm, to, promo = decode(a, black)
        piece = self._piece(s, frm).upper()
        if (m.group(1) or "P") != piece or square_name(to) != m.group(4):
            return False
        if (m.group(2) and FILES[frm % 8] != m.group(2)) or (m.group(3) and str(frm // 8 + 1) != m.group(3)):
            return False
        want_promo = (m.group(5) or "=Q")[1].lower() if piece == "P" and to // 8 in (0, 7) else ""
        return want_promo == (promo or ("q" if piece == "P" and to // 8 in (0, 7) else ""))

    def illegal_reason(self, action: int, state: State) -> str:
        """Why an action is not legal (no piece, not the mover's piece, the king left in check, ...)."""
        s = self._plain(state)
        black = bool(s[S_STM])
        frm, to, _ = decode(action, black)
        piece = self._piece(s, frm)
        if piece == ".":
            return f"no piece on {square_name(frm)}"
        if piece.isupper() == black:
            return f"the piece on {square_name(frm)} is {'white' if piece.isupper() else 'black'}'s"
        if to < 0:
            return "that move leaves the board"
        return f"the {piece.upper()} on {square_name(frm)} cannot go to {square_name(to)} here"

    # ---- text -------------------------------------------------------------------------
    def render(self, state: State) -> str:
        """The board with Unicode pieces (white's first rank at the bottom), and who is to
        move or the result."""
        s = self._plain(state)
        lines = []
        for rank in reversed(range(8)):
            row = [_UNICODE.get(self._piece(s, 8 * rank + f), "·") for f in range(8)]
            lines.append(f"{rank + 1} {' '.join(row)}")
        lines.append("  a b c d e f g h")
        st = self.outcome(s)
        said = {ONGOING: f"{'black' if s[S_STM] else 'white'} to move", DRAW: "draw",
                P0_WINS: "white wins", P1_WINS: "black wins"}[int(st)]
        return "\n".join([*lines, said])

    def result_reason(self, state: State) -> str:
        """How a finished game ended: checkmate, stalemate, insufficient material,
        threefold repetition, fifty-move rule ("" while it goes on)."""
        s = self._plain(state)
        st = self.outcome(s)
        if st == ONGOING:
            return ""
        if st != DRAW:
            return "checkmate"
        if board.insufficient(s):
            return "insufficient material"
        if len(self._moves(s)) == 0:
            return "stalemate"
        if s[S_REP] >= 3 or (self.variant["draws"] == "claim" and s[S_HALF] < 99):
            return "threefold repetition"
        return "fifty-move rule"


__all__ = ["START_FEN", "Chess", "decode", "encode", "parse_fen", "square_name"]
