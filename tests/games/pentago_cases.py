"""Scripted Pentago games as data: the moves, the board they must leave and the outcome.

Boards are six rows from the top, ``X`` player 0, ``O`` player 1. ``variants`` lists the
``win_before_rotation`` settings under which the case holds. Turning an empty quadrant
changes nothing, so most moves below turn one to keep the story readable.
"""

from __future__ import annotations

WBR = (True,)
OPENSPIEL = (False,)
BOTH = (True, False)

_FIVE_IN_ROW_1 = ["a1 q2 cw", "a4 q2 cw", "b1 q2 cw", "b4 q2 cw", "c1 q2 cw", "c4 q2 cw",
                  "d1 q2 cw", "a5 q2 cw"]

SCRIPTED_GAMES = [
    {
        "name": "win by placement: the game ends and the quadrant is not turned",
        "variants": WBR,
        "moves": [*_FIVE_IN_ROW_1, "e1 q1 cw"],
        "board": ["XXXXX.", "......", "......", "OOO...", "O.....", "......"],
        "outcome": "P0_WINS",
    },
    {
        "name": "OpenSpiel's rule: the same move turns q1 and breaks the five",
        "variants": OPENSPIEL,
        "moves": [*_FIVE_IN_ROW_1, "e1 q1 cw"],
        "board": ["XXX..X", ".....X", "......", "OOO...", "O.....", "......"],
        "outcome": "ONGOING",
        "to_move": 1,
    },
    {
        "name": "OpenSpiel's rule: a five that the turn leaves alone wins",
        "variants": BOTH,
        "moves": [*_FIVE_IN_ROW_1, "e1 q2 cw"],
        "board": ["XXXXX.", "......", "......", "OOO...", "O.....", "......"],
        "outcome": "P0_WINS",
    },
    {
        "name": "the mover wins by the turn (d3, d2 turn to d1, e1)",
        "variants": BOTH,
        "moves": ["a1 q2 cw", "a4 q2 cw", "b1 q2 cw", "b4 q2 cw", "c1 q2 cw", "c4 q2 cw",
                  "d2 q2 cw", "a5 q2 cw", "d3 q1 cw"],
        "board": ["XXXXX.", "......", "......", "OOO...", "O.....", "......"],
        "outcome": "P0_WINS",
    },
    {
        "name": "a turn that gives the opponent five loses",
        "variants": BOTH,
        "moves": ["a1 q1 cw", "a4 q1 cw", "c1 q1 cw", "b4 q1 cw", "b2 q1 cw", "c4 q1 cw",
                  "a3 q1 cw", "d5 q1 cw", "c3 q1 cw", "d6 q1 cw", "f1 q2 cw"],
        "board": ["X.X..X", ".X....", "X.X...", "OOOOO.", "......", "......"],
        "outcome": "P1_WINS",
    },
    {
        "name": "five for both after a turn is a draw",
        "variants": BOTH,
        "moves": ["a4 q1 cw", "a6 q1 cw", "b4 q1 cw", "b6 q1 cw", "c4 q1 cw", "c6 q1 cw",
                  "d5 q1 cw", "f5 q1 cw", "d6 q1 cw", "f6 q1 cw", "f1 q2 cw"],
        "board": [".....X", "......", "......", "XXXXX.", "......", "OOOOO."],
        "outcome": "DRAW",
    },
    {
        "name": "a full board without five is a draw",
        "variants": BOTH,
        "moves": ["b2 q0 ccw", "a5 q3 cw", "d5 q2 ccw", "c6 q3 ccw", "d2 q3 cw", "a1 q1 ccw",
                  "f6 q0 ccw", "f5 q3 ccw", "a4 q3 ccw", "d6 q3 ccw", "c1 q1 ccw", "f3 q3 cw",
                  "c4 q3 cw", "f1 q3 cw", "a2 q2 ccw", "a4 q1 ccw", "c3 q2 ccw", "f3 q3 ccw",
                  "d2 q2 cw", "e3 q1 cw", "e2 q2 ccw", "b5 q3 cw", "e5 q2 ccw", "e4 q1 cw",
                  "f4 q0 ccw", "a2 q3 cw", "b1 q0 cw", "f5 q0 ccw", "f6 q1 ccw", "b4 q0 cw",
                  "d1 q1 cw", "b3 q0 cw", "d2 q3 cw", "b4 q1 ccw", "c1 q1 ccw", "a5 q3 ccw"],
        "board": ["OXXOXO", "OXOXXX", "XXXXOO", "XOOOOX", "OOOXXO", "OOXXOX"],
        "outcome": "DRAW",
    },
]

# Positions for the search tests (X = player 0; the mover follows from the stone count
# unless given). Each lists what a correct search must do there.
WIN_IN_ONE = [
    # an open four on row 1: placing e1 wins (before any turn under the default rule)
    {"board": ["XXXX..", "......", "......", "OOO...", "O.....", "......"], "variants": BOTH},
    # a diagonal four b2-e5 with a1 and f6 empty
    {"board": ["......", ".X....", "..X...", "...X..", "....X.", "OOO..O"], "variants": BOTH},
    # column f, four from f2 down
    {"board": ["OO....", "O....X", "O....X", ".....X", ".....X", "......"], "variants": BOTH},
]
