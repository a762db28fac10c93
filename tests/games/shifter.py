"""Shifter: a tiny kit game on a 64-bit board, for the kit's 64-bit helpers and for the
``max_game_length`` guard.

A token starts on bit 63 (the sign bit of the int64 board); a move shifts it 1 or 2 bits
down; the player who shifts it off the board (the board becomes 0) wins. Every game ends
within 64 moves. The variant ``logical=False`` is the natural mistake this module exists
for: it shifts with ``>>``, which is arithmetic on an int64, so the token smears into
bits 62, 61, ... and the board never becomes 0 (the perft counts stay right: two moves
everywhere). Such a game never ends: what must stop it is ``max_game_length``.

State ``[board, to_move]``; params ``[logical]``; action ``d - 1`` shifts by ``d``.
"""

from __future__ import annotations

from typing import Any

from zerosum.games.kit import (
    APPLY, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, Game, IllegalActionError, Kernels, Layout,
    PositionError, State, Variant, check_action, i64, i64_array, kernel, shr,
)

_MIX = i64(0x9E3779B97F4A7C15)


@kernel(PLAYER)
def player(params, s):  # type: ignore[no-untyped-def]
    return s[1]


@kernel(STATUS)
def status(params, s):  # type: ignore[no-untyped-def]
    if s[0] != 0:
        return ONGOING
    return P0_WINS if s[1] == 1 else P1_WINS  # the player who just moved shifted the token off


@kernel(LEGAL)
def legal(params, s, out):  # type: ignore[no-untyped-def]
    if s[0] == 0:
        return 0
    out[0] = 0
    out[1] = 1
    return 2


@kernel(APPLY)
def apply(params, s, a, child):  # type: ignore[no-untyped-def]
    d = a + 1
    child[0] = shr(s[0], d) if params[0] else s[0] >> d  # logical, or the arithmetic mistake
    child[1] = 1 - s[1]


@kernel(KEY)
def key(params, s):  # type: ignore[no-untyped-def]
    return s[0] ^ (s[1] * _MIX)


@kernel(OBSERVE)
def observe(params, s, player_, out):  # type: ignore[no-untyped-def]
    for i in range(64):
        out[i] = (s[0] >> i) & 1
    out[64] = 1 if s[1] == player_ else 0


KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe)


class Shifter(Game):
    """A token on bit 63 of a 64-bit board, shifted 1 or 2 bits down a move; shifting it off wins."""

    name = "shifter"
    kernels = KERNELS
    variants = (Variant("logical", bool, True, "shift with shr (False: with >>, a game that never ends)"),)

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Params ``[logical]``; the token on bit 63 (given as ``1 << 63``), player 0 to move."""
        return Layout(params=[int(variant["logical"])], initial=[1 << 63, 0], num_actions=2, max_moves=2,
                      max_game_length=64, observation_shape=(65,))

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``>1`` or ``>2``."""
        return f">{check_action(action, 2) + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """``>1``, ``>2``, ``1`` or ``2``."""
        t = str(text).strip().lstrip(">")
        if t in ("1", "2"):
            return int(t) - 1
        raise IllegalActionError(f"cannot read move {text!r}: write '>1' or '>2'")

    def render(self, state: State) -> str:
        """The board as 64 bits, bit 63 first, and the player to move."""
        s = self._plain(state)
        return f"{int(s[0]) & ((1 << 64) - 1):064b}\nplayer {int(s[1])} to move"

    def position(self, square: int, to_move: int = 0) -> State:
        """The token on ``square`` (0-63; -1 for an empty board) with ``to_move`` to move."""
        if not -1 <= square < 64 or to_move not in (0, 1):
            raise PositionError(f"square is -1..63 and to_move 0 or 1; got {square!r}, {to_move!r}")
        return i64_array([0 if square < 0 else 1 << square, to_move])  # 1 << 63 does not fit np.array(.., int64)

