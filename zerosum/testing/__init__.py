"""The conformance kit: check that a game keeps the promises of the Game protocol.

Every game zerosum ships is tested with it, and a game of your own should be too::

    from zerosum.games import make_game
    from zerosum.testing import check_game, check_heuristic

    game = make_game("nim", piles=(2, 3, 4))
    report = check_game(game, games=20, seed=0)   # rules, keys, text, search, env
    check_heuristic(game, "nim_sum")               # range, symmetry, compiled == plain Python

A failed check raises AssertionError naming the game, the moves that reached the
position (readable and as action numbers), what was expected and what was found, so a
failure can be replayed. The checks run seeded random games, so the same call checks the
same positions every time.

* :func:`check_game`: see its docstring for the list of checks;
* :func:`check_heuristic`: a heuristic's range, its symmetry between the players where it
  claims it, and the compiled kernel against its own source run as plain Python;
* :func:`check_env`: PettingZoo's ``api_test``, ``seed_test`` and ``render_test`` on the
  game's environment (the one part that needs PettingZoo);
* :func:`random_positions` and :func:`perft`: positions of seeded random games, and move
  path counts, for tests of your own;
* :func:`compare_with_openspiel` and :func:`openspiel_perft`: a game against OpenSpiel's
  (pyspiel's objects are passed in; nothing here imports pyspiel) at every step of seeded
  random games, and move path counts on pyspiel's side; :func:`openspiel_chess_moves`: one
  chess position's legal moves on both sides by name (OpenSpiel numbers chess's otherwise).
"""

from zerosum.testing.env import check_env
from zerosum.testing.game import GameReport, check_game
from zerosum.testing.heuristic import HeuristicReport, check_heuristic
from zerosum.testing.openspiel import OpenSpielReport, compare_with_openspiel, openspiel_chess_moves, openspiel_perft
from zerosum.testing.positions import perft, random_positions

__all__ = ["GameReport", "HeuristicReport", "OpenSpielReport", "check_env", "check_game", "check_heuristic",
           "compare_with_openspiel", "openspiel_chess_moves", "openspiel_perft", "perft", "random_positions"]
