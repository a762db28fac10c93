"""Slots and flags shared by the compiled search kernels and their Python drivers.

Each search's configuration and statistics are int64 (or float64) arrays in its record
(:mod:`zerosum.search._arrays`); these names are their slots.
"""

NO_LIMIT = 1 << 62
"""A node budget no search reaches: "no limit"."""
INF = 1e18
"""Beyond every value a search returns (the initial alpha-beta window)."""

# ---- alpha-beta (and minimax) ----
# flags (cfg[C_FLAGS]): which enhancements are on
F_TT, F_TT_MOVE, F_HINT, F_KILLERS, F_HISTORY = 1, 2, 4, 8, 16
F_PVS, F_LMR, F_QUIESCE = 32, 64, 128  # principal variation search, late-move reductions, quiescence
F_EVAL_ORDER = 256  # order the moves of nodes EVAL_ORDER_DEPTH or more plies deep by their children's values
EVAL_ORDER_DEPTH = 3
FORCED_DEPTH = 3  # nodes this deep list their forcing moves (for ordering and reductions): min of the two above
LMR_DEPTH, LMR_MOVES = 3, 4  # late-move reductions: at nodes this deep, after this many moves
# cfg slots: flags, history increment (0: 2^depth, 1: depth^2), node budget, TT generation, seeded root,
# quiescence plies (how far past the horizon forcing moves are followed), the TT epoch (entries
# stored before generation C_EPOCH are another searcher's, or cleared: never read), and the move a
# seeded root tries first (-1: none; the driver sets it from this search's own results), and the
# table entries this search uses (a power of two: the first ones; a shallow search fits in cache)
C_FLAGS, C_HIST_MODE, C_NODE_LIMIT, C_GEN, C_SEEDED, C_QS_PLIES, C_EPOCH, C_ROOT_FIRST, C_TT_SLOTS = range(9)
N_CFG = 9
# stats slots (minimax counts NODES and LEAVES only): ... quiescence nodes (counted in NODES too),
# reduced searches, re-searches (PVS fail-high or a reduced move that beat alpha); then, for a moves
# kernel that listed more than max_moves (the search stops, ABORTED set, and the driver raises), the
# count and the kernel's code (zerosum.games.kit.movebuf.MOVE_KERNELS)
NODES, LEAVES, CUTOFFS, PROBES, HITS, ABORTED, QNODES, REDUCED, RESEARCHED = 0, 1, 2, 3, 4, 5, 6, 7, 8
MOVES_OVER, MOVES_KERNEL = 9, 10
N_STATS = 11
# TT bounds
EXACT, LOWER, UPPER = 0, 1, 2
# TT columns (a row an entry): the mixed key (0: empty), the best move, depth | bound << 8 |
# generation << 16, and (read through the float64 view) the value, wins re-based to the node
TT_KEY, TT_MOVE, TT_META, TT_VALUE = 0, 1, 2, 3
TT_COLUMNS = 4

# ---- MCTS ----
# integer cfg slots (icfg): simulations to run, rollout policy, rollout depth, seed, the
# game's max_game_length (no rollout plays longer: a game that never ends stops there)
MC_SIMS, MC_ROLLOUT, MC_ROLLOUT_DEPTH, MC_SEED, MC_MAX_LENGTH = 0, 1, 2, 3, 4
N_MC_ICFG = 5
ROLLOUT_RANDOM, ROLLOUT_GREEDY = 0, 1  # icfg[MC_ROLLOUT]
TO_THE_END = -1  # icfg[MC_ROLLOUT_DEPTH]: rollouts play to the end of the game
KEEP_SEED = -1  # icfg[MC_SEED]: continue the generator's sequence (later chunks of one search)
# float cfg slots (fcfg): exploration constant, greedy rollouts' random-move rate, heuristic scale
MC_C_UCT, MC_EPSILON, MC_SCALE = 0, 1, 2
N_MC_FCFG = 3
# stats slots: tree nodes in use, simulations run, rollout plies played, deepest tree path,
# rollouts stopped at MC_MAX_LENGTH plies with the game still going (the caller raises), the count
# of a legal kernel that listed more than max_moves (the search stops; the caller raises)
TREE_SIZE, SIMULATIONS, ROLLOUT_PLIES, MAX_DEPTH, OVERLONG, MC_MOVES_OVER = 0, 1, 2, 3, 4, 5
N_MC_STATS = 6

# ---- network-guided search (PUCT, Gumbel) ----
# integer cfg slots (icfg): selection rule, leaves a tree selects per step, simulations this search,
# Gumbel's considered actions (k), whether the root gets Dirichlet noise
G_RULE, G_LEAVES, G_SIMS, G_GUMBEL_K, G_NOISE = range(5)
N_G_ICFG = 5
RULE_PUCT, RULE_GUMBEL = 0, 1  # icfg[G_RULE]
# float cfg slots (fcfg): PUCT's exploration constant, Dirichlet alpha and fraction, Gumbel's
# c_visit and c_scale (sigma(q) = (c_visit + max visits) * c_scale * q), the PUCT temperature
G_C_PUCT, G_DIR_ALPHA, G_DIR_FRAC, G_C_VISIT, G_C_SCALE, G_TEMPERATURE = range(6)
N_G_FCFG = 6
# per-lane stats slots (stats[lane, ...]): simulations, leaves sent to the evaluator, leaves
# dropped because another pending leaf of the same step had reached them, deepest path, terminal
# leaves scored by the rules, evaluator calls that held a leaf of the lane
G_SIMULATIONS, G_EVALUATIONS, G_COLLISIONS, G_MAX_DEPTH, G_TERMINALS, G_BATCHES = range(6)
N_G_STATS = 6
# a node's `first` before it has children: not yet evaluated, or evaluated with no room to expand
UNEXPANDED, EVALUATED = -1, -2
