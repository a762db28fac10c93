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

So white's ``e2e4`` is (4*8 + 1)*73 + 12 = 2421 and black's ``e7e5`` is the same action.
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

from zerosum.games.chess import knowledge, rules
from zerosum.games.chess.rules import (
    GEN_ALL, GEN_ANY, MAX_MOVES, NUM_ACTIONS, OBS_PLANES, POSITION_SIZE, S_CASTLE, S_EP, S_FRAMES, S_FULL, S_HALF,
    S_KEY, S_REP, S_RING, S_STM, STATE_SIZE,
)
from zerosum.games.chess.tables import DIR_FILE, DIR_RANK, KNIGHT_FILE, KNIGHT_RANK
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, P1_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant,
    check_action, i64,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, forcing=knowledge.forcing, is_legal=rules.is_legal)
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
"""The standard starting position."""
MAX_GAME_LENGTH = 12_826
"""A bound on the plies of any game: at most 96 pawn moves and 30 captures reset the
halfmove clock, and at most 100 plies pass between two resets (12,826 = 126 + 127 * 100)."""
_FILES = "abcdefgh"
_LETTERS = "pnbrqk"
_UNICODE = {"P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
            "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚"}
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbn]?)$")
_SAN_CLEAN = re.compile(r"[+#!?]+$")


def square_name(sq: int) -> str:
    """``e4`` for square 28 (square = 8*rank + file)."""
    return f"{_FILES[sq % 8]}{sq // 8 + 1}"


def decode(action: int, black: bool) -> tuple[int, int, str]:
    """The from-square, to-square and promotion piece ('' none, else 'n', 'b', 'r'; a queen
    promotion is read from the board) of ``action`` for the side to move; the to-square
    may be off the board (-1) for an action no piece can play."""
    fidx, plane = divmod(int(action), 73)
    file, rank = fidx >> 3, fidx & 7
    promo = ""
    if plane < 56:
        m = plane // 8 + 1
        df, dr = int(DIR_FILE[plane % 8]) * m, int(DIR_RANK[plane % 8]) * m
    elif plane < 64:
        df, dr = int(KNIGHT_FILE[plane - 56]), int(KNIGHT_RANK[plane - 56])
    else:
        df, dr = (plane - 64) // 3 - 1, 1
        promo = "nbr"[(plane - 64) % 3]
    tf, tr = file + df, rank + dr
    if black:
        rank, tr = 7 - rank, 7 - tr
    frm = 8 * rank + file
    to = 8 * tr + tf if 0 <= tf < 8 and 0 <= tr < 8 else -1
    return frm, to, promo


def encode(frm: int, to: int, promo: str, black: bool) -> int:
    """The action that moves from ``frm`` to ``to`` (under-promoting to ``promo`` in 'nbr'),
    for the side to move; -1 when no piece moves that way."""
    f0, r0, f1, r1 = frm % 8, frm // 8, to % 8, to // 8
    if black:
        r0, r1 = 7 - r0, 7 - r1
    df, dr = f1 - f0, r1 - r0
    base = (f0 * 8 + r0) * 73
    if promo in ("n", "b", "r"):
        if dr != 1 or abs(df) > 1:
            return -1
        return base + 64 + 3 * (df + 1) + "nbr".index(promo)
    if (df, dr) == (0, 0):
        return -1
    if df == 0 or dr == 0 or abs(df) == abs(dr):
        m = max(abs(df), abs(dr))
        sx, sy = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        c = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)].index((sx, sy))
        return base + (m - 1) * 8 + c
    jumps = list(zip(KNIGHT_FILE.tolist(), KNIGHT_RANK.tolist()))
    return base + 56 + jumps.index((df, dr)) if (df, dr) in jumps else -1


def _new_state(boards: list[int], stm: int, castle: int, ep: int, half: int, full: int, frames: int) -> np.ndarray:
    s = np.zeros(STATE_SIZE, np.int64)
    s[:8] = [i64(b) for b in boards]
    s[S_STM], s[S_CASTLE], s[S_EP], s[S_HALF], s[S_FULL] = stm, castle, ep, half, full
    s[S_KEY] = rules.zobrist(s)
    s[S_REP] = 1
    s[S_FRAMES] = frames
    s[S_RING + min(half, rules.RING - 1)] = s[S_KEY]
    return s


def parse_fen(fen: str, frames: int = 1) -> np.ndarray:
    """A state from a FEN string (the halfmove clock and move number may be left out);
    PositionError naming the field that is wrong. ``frames``: 1 shows the position in
    the observation's first frame, 0 leaves it out (PettingZoo's start)."""
    if not isinstance(fen, str):
        raise PositionError(f"a FEN is a string; got {type(fen).__name__}")
    parts = fen.split()
    if len(parts) not in (4, 6):
        raise PositionError(f"a FEN has 6 fields (board, side, castling, en passant, halfmove clock, move number) "
                            f"or the first 4; got {len(parts)} in {fen!r}")
    board, side, castling, ep_text = parts[:4]
    half_text, full_text = parts[4:] if len(parts) == 6 else ("0", "1")
    rows = board.split("/")
    if len(rows) != 8:
        raise PositionError(f"the FEN board has 8 ranks separated by '/'; got {len(rows)} in {board!r}")
    boards = [0] * 8
    for i, row in enumerate(rows):
        rank = 7 - i
        file = 0
        for ch in row:
            if ch in "12345678":
                file += int(ch)
            elif ch.lower() in _LETTERS:
                if file > 7:
                    break
                sq = 8 * rank + file
                boards[0 if ch.isupper() else 1] |= 1 << sq
                boards[2 + _LETTERS.index(ch.lower())] |= 1 << sq
                file += 1
            else:
                raise PositionError(f"the FEN board has {ch!r} on rank {rank + 1}: pieces are PNBRQK (white) and "
                                    f"pnbrqk (black), digits 1-8 count empty squares")
        if file != 8:
            raise PositionError(f"rank {rank + 1} of the FEN board ({row!r}) covers {file} squares, not 8")
    for c, name in ((0, "white"), (1, "black")):
        kings = bin(boards[c] & boards[7]).count("1")
        if kings != 1:
            raise PositionError(f"{name} has {kings} kings; a position has one king of each colour")
    if boards[2] & (0xFF | (0xFF << 56)):
        raise PositionError("a pawn stands on the first or last rank")
    if side not in ("w", "b"):
        raise PositionError(f"the side to move is 'w' or 'b'; got {side!r}")
    stm = 0 if side == "w" else 1
    if castling != "-" and (not castling or set(castling) - set("KQkq") or len(set(castling)) != len(castling)):
        raise PositionError(f"castling rights are '-' or some of 'KQkq'; got {castling!r}")
    castle = sum(bit for ch, bit in (("K", 1), ("Q", 2), ("k", 4), ("q", 8)) if ch in castling)
    for bit_, king, rook, colour in ((1, 4, 7, 0), (2, 4, 0, 0), (4, 60, 63, 1), (8, 60, 56, 1)):
        if not ((boards[colour] & boards[7]) >> king & 1 and (boards[colour] & boards[5]) >> rook & 1):
            castle &= ~bit_  # python-chess keeps only rights whose king and rook are at home
    ep = -1
    if ep_text != "-":
        if not re.fullmatch(r"[a-h][36]", ep_text) or (ep_text[1] == "6") != (stm == 0):
            raise PositionError(f"the en-passant square is '-' or a square on rank {'6' if stm == 0 else '3'} "
                                f"(behind a pawn that has just moved two squares); got {ep_text!r}")
        ep = _FILES.index(ep_text[0]) + 8 * (int(ep_text[1]) - 1)
        pawn = ep - 8 if stm == 0 else ep + 8
        if not (boards[1 - stm] & boards[2]) >> pawn & 1:
            ep = -1  # no pawn that could just have moved two squares: python-chess ignores it too
    try:
        half, full = int(half_text), int(full_text)
    except ValueError:
        raise PositionError(f"the halfmove clock and move number are integers; got {half_text!r} and "
                            f"{full_text!r}") from None
    if half < 0 or full < 1:
        raise PositionError(f"the halfmove clock is >= 0 and the move number >= 1; got {half} and {full}")
    s = _new_state(boards, stm, castle, ep, half, full, frames)
    probe = s.copy()
    probe[S_STM] = 1 - stm
    if rules.in_check(probe):
        raise PositionError(f"the side not to move ({'black' if stm == 0 else 'white'}) is in check")
    return s


class Chess(Game):
    """Chess under FIDE rules, PettingZoo ``chess_v6``'s action encoding and observation."""

    name = "chess"
    kernels = KERNELS
    variants = (
        Variant("draws", str, "claim", "how repetition and the fifty-move rule end the game: 'claim' as "
                "PettingZoo's chess_v6 (python-chess's can_claim_draw), 'arise' as OpenSpiel's chess",
                choices=("claim", "arise")),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "pst"
    default_opponent = "alphabeta(time=0.1)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Params ``[draws]`` (0 claim, 1 arise); the standard start."""
        return Layout(params=[rules.CLAIM if variant["draws"] == "claim" else rules.ARISE],
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
        ep = int(rules.legal_ep_square(s))
        return (f"{'/'.join(rows)} {'b' if s[S_STM] else 'w'} {castling} {square_name(ep) if ep >= 0 else '-'} "
                f"{int(s[S_HALF])} {int(s[S_FULL])}")

    def position(self, fen: str = START_FEN) -> State:
        """A state from a FEN string (as :meth:`from_fen`)."""
        return self.from_fen(fen)

    def position_bytes(self, state: State) -> bytes:
        """The position proper (pieces, side, castling, a legal en-passant square), as bytes:
        what the key covers (the history slots are left out)."""
        s = np.array(self._plain(state)[:POSITION_SIZE])
        s[S_EP] = rules.legal_ep_square(self._plain(state))
        return s.tobytes()

    # ---- moves ------------------------------------------------------------------------
    @staticmethod
    def _piece(s: np.ndarray, sq: int) -> str:
        for t in range(6):
            if (int(s[2 + t]) >> sq) & 1:
                ch = _LETTERS[t]
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
                text = (_FILES[frm % 8] + "x" if capture else "") + square_name(to)
                if to // 8 in (0, 7):
                    text += "=" + (promo or "q").upper()
            else:
                rivals = [decode(b, black)[0] for b in legal if b != a and decode(b, black)[1] == to
                          and self._piece(s, decode(b, black)[0]).upper() == piece]
                dis = ""
                if rivals:
                    if all(r % 8 != frm % 8 for r in rivals):
                        dis = _FILES[frm % 8]
                    elif all(r // 8 != frm // 8 for r in rivals):
                        dis = str(frm // 8 + 1)
                    else:
                        dis = square_name(frm)
                text = piece + dis + ("x" if capture else "") + square_name(to)
        child = self.apply_unchecked(s, a)
        if rules.in_check(child):
            scratch = np.empty(MAX_MOVES, np.int64)
            text += "#" if rules.generate(child, scratch, GEN_ANY) == 0 else "+"
        return text

    def _moves(self, s: np.ndarray) -> np.ndarray:
        """The moves of the side to move, even in a game that a draw rule has ended."""
        out = np.empty(MAX_MOVES, np.int64)
        return out[: rules.generate(s, out, GEN_ALL)]

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Read UCI (``e2e4``, ``e7e8q``), SAN (``e4``, ``Nf3``, ``exd5``, ``e8=Q``, ``O-O``,
        check marks optional) or an action number, for the side to move in ``state`` (the
        start when none is given). SAN needs the move to be legal; IllegalActionError names
        what was wrong."""
        raw = str(text).strip()
        s = self._plain(state) if state is not None else self.initial
        if raw.isdigit() and int(raw) < self.num_actions:
            return int(raw)
        black = bool(s[S_STM])
        m = _UCI.match(raw.lower()) if raw[:1].islower() or raw[:1].isdigit() else None
        if m and len(raw) >= 4 and raw[1].isdigit() and raw[3:4].isdigit():
            frm = _FILES.index(m.group(1)[0]) + 8 * (int(m.group(1)[1]) - 1)
            to = _FILES.index(m.group(2)[0]) + 8 * (int(m.group(2)[1]) - 1)
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
        if (m.group(2) and _FILES[frm % 8] != m.group(2)) or (m.group(3) and str(frm // 8 + 1) != m.group(3)):
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
        if rules.insufficient(s):
            return "insufficient material"
        if len(self._moves(s)) == 0:
            return "stalemate"
        if s[S_REP] >= 3 or (self.variant["draws"] == "claim" and s[S_HALF] < 99):
            return "threefold repetition"
        return "fifty-move rule"


__all__ = ["START_FEN", "Chess", "decode", "encode", "parse_fen", "square_name"]
