"""Oware (Awale, Ayo): the abapa rules as OpenSpiel's ``oware`` plays them.

Each player owns a row of six houses, four seeds in each at the start. A move takes every
seed of one of the mover's houses and sows them one by one into the following houses,
counterclockwise, never into the house they came from. When the last seed lands in the
opponent's row and makes 2 or 3 there, those seeds are captured, and so are the seeds of
the houses before it in that row, going back, as long as each holds 2 or 3. A capture
that would take every seed of the opponent's row (a grand slam) captures nothing. A
player whose opponent has no seeds must sow a house that reaches the opponent's row
(feed it); a move that would leave it starving is illegal. When the player to move
cannot, or a board (the player to move and the counts) comes again since the last
capture, the game ends and each player adds the seeds of its own row to its score. The
game is over once a player has captured more than half the seeds (25 of 48), or both
have half; the higher score wins. Player 0 moves first. Rules and parameters are
OpenSpiel's ``oware`` (its sources cite joansala.com's Aualé rules).

Houses and actions (OpenSpiel's: an action is a house of the mover's row, 0 to
``num_houses_per_player - 1`` from the mover's left; player 0 names them ``A``-``F``,
player 1 ``a``-``f``)::

        f  e  d  c  b  a        player 1's row (its houses 6-11 of the board, right to left)
        4  4  4  4  4  4
        4  4  4  4  4  4
        A  B  C  D  E  F        player 0's row (houses 0-5 of the board)

    sowing goes A B C D E F a b c d e f A ...: left to right along the bottom row,
    right to left along the top

Variants, as OpenSpiel's ``oware``: ``num_houses_per_player`` (1-12, default 6) and
``num_seeds_per_house`` (1-12, default 4). OpenSpiel's ``kMaxGameLength`` is 1,000: it
stops with an error at move 1,001, so here a game still going after 1,000 moves ends as
a repetition does (no game of the default board comes near it: random games last about
100 moves; on 12 houses of 12 seeds half of them reach it).

State: ``[to_move, scores, moves, the number of boards seen, the counts, the boards seen
since the last capture]`` (see :mod:`zerosum.games.oware.rules`). Observation
(2H + 2, 2HS, 2) for H houses of S seeds: the observer's houses, the opponent's, the
observer's score and the opponent's, each a row with cell ``j`` 1 when it holds more than
``j`` seeds; plane 1 all ones when the observer is to move. The boards seen (the
repetition rule) and the move count are not observed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from zerosum.games.kit import (
    Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
)
from zerosum.games.oware import knowledge, rules
from zerosum.games.oware.rules import S_HOUSES, S_MOVES, S_SCORE, S_TO_MOVE

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)

CAP = 1000
"""OpenSpiel's ``kMaxGameLength``: the most moves a game lasts."""


class Oware(Game):
    """Oware with ``num_houses_per_player`` houses a player, ``num_seeds_per_house`` seeds
    in each at the start."""

    name = "oware"
    kernels = KERNELS
    variants = (
        Variant("num_houses_per_player", int, 6, "houses in each player's row", range=(1, 12)),
        Variant("num_seeds_per_house", int, 4, "seeds in each house at the start", range=(1, 12)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "seeds_in_play"
    default_opponent = "alphabeta(time=0.1)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """One action a house of the mover's row; a game lasts at most CAP moves."""
        h, seeds = variant["num_houses_per_player"], variant["num_seeds_per_house"]
        total = 2 * h * seeds
        initial = np.zeros(rules.state_size(h, CAP), np.int64)
        initial[S_HOUSES:S_HOUSES + 2 * h] = seeds
        return Layout(params=[h, seeds, total, CAP], initial=initial, num_actions=h, max_moves=h, max_game_length=CAP,
                      observation_shape=(2 * h + 2, total, 2))

    @property
    def houses(self) -> int:
        """Houses in each player's row."""
        return int(self.variant["num_houses_per_player"])

    @property
    def total_seeds(self) -> int:
        """All the seeds of the game."""
        return 2 * self.houses * int(self.variant["num_seeds_per_house"])

    # ---- reading a state ------------------------------------------------------------------
    def seeds(self, state: State) -> list[int]:
        """The counts of the houses, OpenSpiel's order: player 0's row from its left, then
        player 1's from its left."""
        return [int(x) for x in self._plain(state)[S_HOUSES:S_HOUSES + 2 * self.houses]]

    def scores(self, state: State) -> tuple[int, int]:
        """The seeds each player has captured (and collected, at the end)."""
        s = self._plain(state)
        return int(s[S_SCORE]), int(s[S_SCORE + 1])

    def position_bytes(self, state: State) -> bytes:
        """The player to move, the scores and the counts: what the key covers (the moves
        and the boards seen are left out)."""
        s = self._plain(state)
        return s[:S_MOVES].tobytes() + s[S_HOUSES:S_HOUSES + 2 * self.houses].tobytes()

    # ---- text -------------------------------------------------------------------------------
    def _mover(self, state: State | None) -> int:
        return 0 if state is None else int(self._plain(state)[S_TO_MOVE])

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """The house's letter as OpenSpiel names it: ``A``.. for player 0, ``a``.. for
        player 1 (the player to move in ``state``; player 0 when no state is given)."""
        a = check_action(action, self.num_actions)
        return chr((ord("a") if self._mover(state) == 1 else ord("A")) + a)

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse a house letter of the mover's row, in either case (``C`` or ``c``: its
        third house from its left)."""
        t = str(text).strip().lower().removeprefix("house").strip()
        if len(t) == 1 and "a" <= t < chr(ord("a") + self.houses):
            return ord(t) - ord("a")
        last = chr(ord("a") + self.houses - 1)
        raise IllegalActionError(f"cannot read move {text!r}: write the letter of one of your houses, a-{last} "
                                 f"from your left (player 0 writes them A-{last.upper()}, player 1 a-{last})")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move: an empty house, or a move that
        leaves the starving opponent without seeds."""
        s = self._plain(state)
        p = int(s[S_TO_MOVE])
        name = self.action_to_string(action, s)
        house = p * self.houses + action
        seeds = int(s[S_HOUSES + house])
        if seeds == 0:
            return f"house {name} is empty"
        return (f"player {1 - p} has no seeds, and a move must give it some: house {name}'s {seeds} "
                f"seed{'s' if seeds > 1 else ''} stay in player {p}'s row (the rule against starving the opponent)")

    def render(self, state: State) -> str:
        """OpenSpiel's text of the board: player 1's score, its row (letters and counts, right
        to left), player 0's row and its letters, player 0's score; ``[PLAYING]`` marks the
        player to move and ``[FINISHED]`` heads a finished game."""
        s = self._plain(state)
        h = self.houses
        seeds = self.seeds(s)
        done = self.is_terminal(s)
        p = int(s[S_TO_MOVE])

        def score(q: int) -> str:
            return f"Player {q} score = {int(s[S_SCORE + q])}" + (" [PLAYING]" if not done and p == q else "")

        lines = ["[FINISHED]"] if done else []
        lines += [score(1), "".join(f"{chr(ord('a') + a):>3}" for a in reversed(range(h))),
                  "".join(f"{seeds[i]:>3}" for i in reversed(range(h, 2 * h))),
                  "".join(f"{seeds[i]:>3}" for i in range(h)),
                  "".join(f"{chr(ord('A') + a):>3}" for a in range(h)), score(0)]
        return "\n".join(lines) + "\n"

    def position(self, seeds: Sequence[int], scores: tuple[int, int] = (0, 0), to_move: int = 0) -> State:
        """A state from the counts of the houses (OpenSpiel's order: player 0's row from its
        left, then player 1's), the scores and the player to move, with no capture behind it
        (no board seen before it), as OpenSpiel's ``OwareBoard``. PositionError for
        counts that are not ``2 * houses`` non-negative ints, seeds that do not add up to
        the game's, or a player to move without a legal move in an unfinished game."""
        h = self.houses
        counts = [int(x) for x in seeds] if isinstance(seeds, (list, tuple, np.ndarray)) else []
        if len(counts) != 2 * h or min(counts) < 0:
            raise PositionError(f"an Oware board of {h} houses a player is {2 * h} non-negative counts "
                                f"(player 0's row from its left, then player 1's); got {seeds!r}")
        if len(scores) != 2 or min(scores) < 0 or sum(counts) + sum(scores) != self.total_seeds:
            raise PositionError(f"the counts and the scores hold all {self.total_seeds} seeds; got {sum(counts)} "
                                f"on the board and scores {tuple(scores)!r}")
        if to_move not in (0, 1):
            raise PositionError(f"to_move={to_move!r}: 0 or 1")
        s = np.zeros(self.state_size, np.int64)
        s[S_TO_MOVE] = to_move
        s[S_SCORE], s[S_SCORE + 1] = scores
        s[S_HOUSES:S_HOUSES + 2 * h] = counts
        if not self.is_terminal(s) and len(self.legal_actions(s)) == 0:
            raise PositionError(f"player {to_move} is to move but has no legal move: OpenSpiel ends such a game "
                                "(each player collects its row) before it is reached")
        return s
