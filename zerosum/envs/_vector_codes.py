"""The codes the vector step (:mod:`zerosum.envs._vector_template`) and its driver share:
opponent kinds and table columns, config slots, autoreset modes, error and outcome codes."""

from __future__ import annotations

# opponent kinds (opp[k, K_KIND])
RANDOM, SEARCH, PYTHON = 0, 1, 2
K_KIND, K_REC, K_DEPTH, K_ITERATIVE, K_ASPIRATION, K_TIE_BREAK, K_FOLLOW, K_SLOTS = range(8)
N_OPP = 8
# tie_break values
NO_TIES, DRAW_NOISE, GIVEN_NOISE = 0, 1, 2
# cfg slots: the seat rule (0 or 1 fixed, SEAT_RANDOM, SEAT_ALTERNATE), autoreset mode, raw (1: an
# illegal action is an error), observation size, whether observations are flat float32 rows, the
# number of board symmetries drawn from per episode (1: none)
C_SEAT, C_AUTORESET, C_RAW, C_OBS, C_FLAT, C_NSYM = range(6)
N_VCFG = 6
# fcfg slots: the illegal action's penalty, the chance of a random opening ply
F_PENALTY, F_OPENING = range(2)
SEAT_RANDOM, SEAT_ALTERNATE = 2, 3
NEXT_STEP, SAME_STEP, DISABLED = 0, 1, 2
# err slots: code, lane, value, and for ERR_MOVES the kernel (zerosum.games.kit.movebuf.MOVE_KERNELS)
ERR_NONE, ERR_ILLEGAL, ERR_NOT_RESET, ERR_NO_MOVE, ERR_OPP_ILLEGAL, ERR_MOVES = 0, 1, 2, 3, 4, 5
OVER_MAX_MOVES = -2  # an alpha-beta opponent's move when a moves kernel listed more than max_moves
# outcome codes (from the learner's side)
OUT_NONE, OUT_WIN, OUT_DRAW, OUT_LOSS, OUT_ILLEGAL = 0, 1, 2, 3, 4
# the compiled step's calls (vec_call's first argument)
CALL_STEP, CALL_RESET, CALL_RESUME = 0, 1, 2
NEW_EPISODE = -1  # the opponent-move log's mark where a lane's new episode starts
