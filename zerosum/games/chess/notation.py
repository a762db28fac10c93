"""Chess notation without a Game: square names, the action encoding both ways, FEN to a state."""

from __future__ import annotations

import re

import numpy as np

from zerosum.games.chess.board import (
    RING, S_CASTLE, S_EP, S_FRAMES, S_FULL, S_HALF, S_KEY, S_REP, S_RING, S_STM, STATE_SIZE, in_check, zobrist,
)
from zerosum.games.chess.tables import KNIGHT_FILE, KNIGHT_RANK, PLANE_FILE, PLANE_PROMOTION, PLANE_RANK
from zerosum.games.kit import PositionError, i64

FILES = "abcdefgh"
"""File letters, a to h."""
PIECE_LETTERS = "pnbrqk"
"""FEN's piece letters by type (upper case for white)."""
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
"""The standard starting position."""


def square_name(sq: int) -> str:
    """``e4`` for square 28 (square = 8*rank + file)."""
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def decode(action: int, black: bool) -> tuple[int, int, str]:
    """The from-square, to-square and promotion piece ('' none, else 'n', 'b', 'r'; a queen
    promotion is read from the board) of ``action`` for the side to move; the to-square
    may be off the board (-1) for an action no piece can play."""
    fidx, plane = divmod(int(action), 73)
    file, rank = fidx >> 3, fidx & 7
    df, dr, piece = int(PLANE_FILE[plane]), int(PLANE_RANK[plane]), int(PLANE_PROMOTION[plane])
    promo = "" if piece < 0 else "nbr"[piece - 1]
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
    s[S_KEY] = zobrist(s)
    s[S_REP] = 1
    s[S_FRAMES] = frames
    s[S_RING + min(half, RING - 1)] = s[S_KEY]
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
            elif ch.lower() in PIECE_LETTERS:
                if file > 7:
                    break
                sq = 8 * rank + file
                boards[0 if ch.isupper() else 1] |= 1 << sq
                boards[2 + PIECE_LETTERS.index(ch.lower())] |= 1 << sq
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
        ep = FILES.index(ep_text[0]) + 8 * (int(ep_text[1]) - 1)
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
    if in_check(probe):
        raise PositionError(f"the side not to move ({'black' if stm == 0 else 'white'}) is in check")
    return s


__all__ = ["FILES", "PIECE_LETTERS", "START_FEN", "decode", "encode", "parse_fen", "square_name"]
