"""Scripted Nine Men's Morris games as data, one or more per rule.

Each case: a variant, an optional start position (keyword arguments of
``NineMensMorris.position``; None is the initial position), and a script of
``(move, expectations after the move)`` pairs. Expectations may name:

- ``to_move``, ``removal_due``, ``turns``, ``in_hand`` (pair), ``outcome`` (an Outcome name);
- ``x`` / ``o``: the exact set of points of player 0 / player 1;
- ``legal``: the exact legal actions as names (points for placements and removals);
- ``legal_count``, ``legal_has``, ``legal_lacks``: partial checks of the legal actions;
- ``illegal``: moves that must raise IllegalActionError here.

A move of None checks the start position without moving. Cases marked ``openspiel``
start from the initial position under the default rules and are replayed in OpenSpiel.
"""

from __future__ import annotations

# The 18 placements of a game (found by a seeded random search) that leaves X, to move
# first in the moving phase, with no legal move.
BLOCKADE_PLACEMENTS = ["d7", "f4", "f6", "e5", "g4", "d2", "d5", "c5", "e3", "a7", "e4", "g1",
                       "b2", "c3", "d3", "d6", "g7", "b4"]

CASES = [
    {
        "name": "mill gives the same player a removal turn",
        "variant": {}, "openspiel": True,
        "script": [
            ("a7", {}), ("b6", {}), ("d7", {}), ("b4", {"turns": 4}),
            ("g7", {"to_move": 0, "removal_due": True, "turns": 4, "legal": ["b6", "b4"],
                    "illegal": ["d5", "x a7", "a7-a4"]}),
            ("x b6", {"to_move": 1, "removal_due": False, "turns": 5, "in_hand": (6, 7),
                      "x": {"a7", "d7", "g7"}, "o": {"b4"}, "outcome": "ONGOING"}),
        ],
    },
    {
        "name": "closing two mills at once removes one man",
        "variant": {}, "openspiel": True,
        "script": [
            ("a7", {}), ("b4", {}), ("g7", {}), ("f4", {}), ("d6", {}), ("b2", {}), ("d5", {}),
            ("f2", {}),
            ("d7", {"to_move": 0, "removal_due": True, "legal": ["b4", "f4", "b2", "f2"]}),
            ("x b4", {"to_move": 1, "removal_due": False, "in_hand": (4, 5), "o": {"f4", "b2", "f2"},
                      "legal_count": 16}),
        ],
    },
    {
        "name": "men in a mill are protected",
        "variant": {}, "openspiel": True,
        "script": [
            ("a7", {}), ("b6", {}), ("d7", {}), ("d6", {}), ("c3", {}),
            ("f6", {"to_move": 1, "removal_due": True, "legal": ["a7", "d7", "c3"]}),
            ("x c3", {"to_move": 0}), ("e3", {}), ("a1", {}),
            ("g7", {"to_move": 0, "removal_due": True, "legal": ["a1"], "illegal": ["x b6", "x d6", "x f6"]}),
            ("x a1", {"o": {"b6", "d6", "f6"}}),
        ],
    },
    {
        "name": "without protect_mills any man can be removed",
        "variant": {"protect_mills": False},
        "script": [
            ("a7", {}), ("b6", {}), ("d7", {}), ("d6", {}), ("c3", {}), ("f6", {}), ("x c3", {}),
            ("e3", {}), ("a1", {}),
            ("g7", {"removal_due": True, "legal": ["b6", "d6", "f6", "a1"]}),
            ("x d6", {"o": {"b6", "f6", "a1"}, "to_move": 1}),
        ],
    },
    {
        "name": "men in mills can be removed when all the opponent's men are in mills",
        "variant": {}, "openspiel": True,
        "script": [
            ("a7", {}), ("b6", {}), ("d7", {}), ("d6", {}), ("c3", {}), ("f6", {}), ("x c3", {}),
            ("g7", {"removal_due": True, "legal": ["b6", "d6", "f6"]}),
            ("x f6", {"o": {"b6", "d6"}, "in_hand": (5, 6)}),
        ],
    },
    {
        "name": "a player with three men flies",
        "variant": {},
        "start": {"x": ["a7", "d7", "b4"], "o": ["g1", "d1", "f2", "c3"], "to_move": 0},
        "script": [
            (None, {"legal_count": 3 * 17, "legal_has": ["a7-g4", "b4-e5", "d7-g7"]}),
            ("a7-g4", {"to_move": 1, "x": {"d7", "b4", "g4"},
                       "legal": ["d1-a1", "d1-d2", "f2-d2", "f2-f4", "c3-c4", "c3-d3"]}),
        ],
    },
    {
        "name": "without flying a player with three men still moves to adjacent points",
        "variant": {"flying": False},
        "start": {"x": ["a7", "d7", "b4"], "o": ["g1", "d1", "f2", "c3"], "to_move": 0},
        "script": [
            (None, {"legal": ["a7-a4", "d7-g7", "d7-d6", "b4-b6", "b4-a4", "b4-c4", "b4-b2"],
                    "illegal": ["a7-g4"]}),
        ],
    },
    {
        "name": "a player reduced to two men loses",
        "variant": {},
        "start": {"x": ["a7", "d7", "b4"], "o": ["a1", "d1", "g4", "f2"], "to_move": 1},
        "script": [
            ("g4-g1", {"to_move": 1, "removal_due": True, "legal": ["a7", "d7", "b4"]}),
            ("x b4", {"outcome": "P1_WINS", "legal": [], "x": {"a7", "d7"}}),
        ],
    },
    {
        "name": "a player with no legal move loses (blockade after the placing phase)",
        "variant": {}, "openspiel": True,
        "script": [(m, {}) for m in BLOCKADE_PLACEMENTS[:-1]] + [
            (BLOCKADE_PLACEMENTS[-1], {"to_move": 0, "in_hand": (0, 0), "outcome": "P1_WINS", "legal": []}),
        ],
    },
    {
        "name": "blockade in the moving phase",
        "variant": {},
        "start": {"x": ["a7", "g1", "d1", "f2"], "o": ["d7", "g4", "a1", "d2", "f4", "b4"], "to_move": 1},
        "script": [
            ("b4-a4", {"to_move": 0, "outcome": "P1_WINS", "legal": []}),
        ],
    },
    {
        "name": "draw when the turn counter reaches max_turns",
        "variant": {"max_turns": 6},
        "script": [
            ("a7", {}), ("b6", {}), ("d7", {}), ("d6", {}), ("a1", {"outcome": "ONGOING", "turns": 5}),
            ("d1", {"outcome": "DRAW", "turns": 6, "legal": []}),
        ],
    },
    {
        "name": "a mill and its removal are one turn for the cap",
        "variant": {"max_turns": 5},
        "script": [
            ("a7", {}), ("b6", {}), ("d7", {}), ("b4", {}),
            ("g7", {"outcome": "ONGOING", "turns": 4, "removal_due": True}),
            ("x b6", {"outcome": "DRAW", "turns": 5}),
        ],
    },
    {
        "name": "the cap does not save a blockaded player",
        "variant": {"max_turns": 18},
        "script": [(m, {}) for m in BLOCKADE_PLACEMENTS[:-1]] + [
            (BLOCKADE_PLACEMENTS[-1], {"turns": 18, "outcome": "P1_WINS"}),
        ],
    },
    {
        "name": "no_return: a man may not move straight back to the point it left",
        "variant": {"no_return": True},
        "start": {"x": ["a4", "b6", "c5", "e3"], "o": ["g7", "g1", "f2", "d1"], "to_move": 0},
        "script": [
            ("a4-a7", {}),
            ("g1-g4", {"to_move": 0, "legal_lacks": ["a7-a4"], "legal_has": ["b6-b4"], "illegal": ["a7-a4"]}),
            ("b6-b4", {"to_move": 1, "legal_lacks": ["g4-g1"], "legal_has": ["f2-f4"]}),
            ("f2-f4", {"to_move": 0, "legal_has": ["a7-a4"], "legal_lacks": ["b4-b6"]}),
            ("a7-a4", {"to_move": 1, "x": {"a4", "b4", "c5", "e3"}}),
        ],
    },
    {
        "name": "without no_return the man may move straight back",
        "variant": {},
        "start": {"x": ["a4", "b6", "c5", "e3"], "o": ["g7", "g1", "f2", "d1"], "to_move": 0},
        "script": [
            ("a4-a7", {}),
            ("g1-g4", {"to_move": 0, "legal_has": ["a7-a4", "b6-b4"]}),
        ],
    },
    {
        "name": "no_return: when the return is the only move, the player has none and loses",
        "variant": {"no_return": True},
        "start": {"x": ["a7", "g1", "d1", "f2"], "o": ["d7", "g4", "a1", "d2", "f4"], "to_move": 0,
                  "no_return": {0: ("a4", "a7")}},
        "script": [(None, {"outcome": "P1_WINS", "legal": []})],
    },
    {
        "name": "the same position without no_return has the one move",
        "variant": {},
        "start": {"x": ["a7", "g1", "d1", "f2"], "o": ["d7", "g4", "a1", "d2", "f4"], "to_move": 0},
        "script": [(None, {"outcome": "ONGOING", "legal": ["a7-a4"]})],
    },
    {
        "name": "no_return applies to flying too",
        "variant": {"no_return": True},
        "start": {"x": ["a7", "d7", "b4"], "o": ["g1", "d1", "f2", "c3"], "to_move": 0},
        "script": [
            ("a7-g4", {}), ("c3-c4", {}),
            (None, {"legal_lacks": ["g4-a7"], "legal_has": ["g4-d6", "d7-a7"], "legal_count": 3 * 17 - 1}),
        ],
    },
]
