"""Checks shared by every game's tests: random-playout invariants and perft."""

from __future__ import annotations

import numpy as np

from zerosum.games import Game, IllegalActionError


def check_random_playouts(game: Game, games: int, seed: int = 0) -> list[int]:
    """Play seeded random games and check the protocol's invariants at every step.

    Mask equals the legal actions, a legal action never raises, an illegal one does,
    the state passed in is never modified, returns sum to zero and lengths stay within
    max_game_length. Returns the game lengths.
    """
    rng = np.random.default_rng(seed)
    lengths = []
    for _ in range(games):
        s = game.initial_state()
        n = 0
        while not game.is_terminal(s):
            legal = game.legal_actions(s)
            assert len(legal) > 0, "an unfinished game must have a legal action"
            assert np.all(np.diff(legal) > 0), "legal actions are ascending and distinct"
            mask = game.legal_mask(s)
            assert np.array_equal(np.flatnonzero(mask), legal)
            assert game.current_player(s) in (0, 1)
            before = s.copy()
            a = int(legal[rng.integers(len(legal))])
            child = game.apply(s, a)
            assert np.array_equal(s, before), "apply must not modify its input"
            illegal = np.flatnonzero(mask == 0)
            if len(illegal):
                try:
                    game.apply(s, int(illegal[rng.integers(len(illegal))]))
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError("an illegal action was accepted")
            s = child
            n += 1
            assert n <= game.max_game_length, f"game longer than max_game_length={game.max_game_length}"
        assert len(game.legal_actions(s)) == 0
        r = game.returns(s)
        assert r[0] + r[1] == 0 and r[0] in (-1.0, 0.0, 1.0)
        lengths.append(n)
    return lengths


def perft(game: Game, state: np.ndarray, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` plies (finished games stop early)."""
    if depth == 0:
        return 1
    legal = game.legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(game, game.apply_unchecked(state, int(a)), depth - 1) for a in legal)
