"""The per-game test files' playout check, now zerosum.testing's ``check_game`` (rules, keys,
text, observations over seeded random games) and ``perft``: no copy of the checks lives here;
and the batched search's check that each of its lanes answers a legal move."""

from __future__ import annotations

from zerosum.games import Game, State
from zerosum.testing import check_game, perft

__all__ = ["batched_search_moves_are_legal", "check_random_playouts", "perft"]


def check_random_playouts(game: Game, games: int, seed: int = 0) -> list[int]:
    """``check_game`` over ``games`` seeded random games, without the search and env parts
    (their own test files cover those); returns the game lengths."""
    return list(check_game(game, games=games, seed=seed, search_depth=0, env=False).lengths)


def batched_search_moves_are_legal(game: Game, states: list[State], sims: int = 16) -> None:
    """A BatchedSearch with one lane a state and the uniform evaluator: each lane's move is
    legal in its state."""
    from zerosum.search import BatchedSearch, uniform_evaluator

    search = BatchedSearch(game, lanes=len(states))
    for lane, s in enumerate(states):
        search.set_root(lane, s, seed=lane)
    out = search.run(uniform_evaluator, sims=sims)
    for lane, s in enumerate(states):
        assert int(out.action[lane]) in {int(a) for a in game.legal_actions(s)}, (lane, out.action[lane])
