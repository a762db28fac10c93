"""Slots and flags shared by the compiled search kernels and their Python drivers."""

# alpha-beta flags
F_TT, F_TT_MOVE, F_HINT, F_KILLERS, F_HISTORY = 1, 2, 4, 8, 16
# alpha-beta stats slots
NODES, LEAVES, CUTOFFS, PROBES, HITS, ABORTED = 0, 1, 2, 3, 4, 5
N_STATS = 6
# alpha-beta cfg slots
C_FLAGS, C_HIST_MODE, C_NODE_LIMIT, C_GEN, C_SEEDED = 0, 1, 2, 3, 4
# TT bounds
EXACT, LOWER, UPPER = 0, 1, 2
INF = 1e18
