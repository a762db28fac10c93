"""The working arrays of the compiled searches, each search's bundle one record.

A record is a numba structref: a reference to a struct of arrays, passed to compiled code
as one argument (by reference, like a pointer) and read there by field name
(``w.tt[slot, TT_KEY]``). The Python drivers build a record once per searcher from numpy
arrays they keep: the record and the driver share the arrays' memory, so the driver sets
the configuration and reads the statistics through its own numpy arrays. (A named tuple
of arrays would do the same, but numba counts a reference on each of its arrays whenever
it is handed to an inlined helper: 14 atomic operations a call instead of one.)
``NegamaxArrays`` also holds the heuristic, set once per searcher: a first-class function
passed as an argument is unboxed at each call from Python, about 5 us.

``NegamaxArrays`` serves the depth-first searches (alpha-beta and minimax),
``TreeArrays`` serves MCTS, ``GuidedArrays`` the network-guided search (B trees at once).
A new array for a search is one field here, one argument of
the constructor, and one line of its body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.experimental import structref
from numba.extending import intrinsic, overload

from zerosum.games.kit.kernels import HEURISTIC, F64Array, I64Array
from zerosum.games.kit.movebuf import moves_buffer
from zerosum.search._flags import N_CFG, N_STATS, TT_COLUMNS

ArrayT = TypeVar("ArrayT", bound=np.ndarray)
I1, I2, I3 = types.int64[::1], types.int64[:, ::1], types.int64[:, :, ::1]
B2 = types.int8[:, ::1]
U1 = types.uint64[::1]
D1, D2 = types.float64[::1], types.float64[:, ::1]
HEUR = types.FunctionType(HEURISTIC)


@structref.register
class NegamaxArraysType(types.StructRef):
    """The numba type of :class:`NegamaxArrays`."""


@structref.register
class TreeArraysType(types.StructRef):
    """The numba type of :class:`TreeArrays`."""


@structref.register
class GuidedArraysType(types.StructRef):
    """The numba type of :class:`GuidedArrays`."""


NEGAMAX_FIELDS = (
    ("stack", I2),    # the state at each ply (row 0: the root)
    ("moves", I2),    # the legal moves at each ply
    ("scores", D2),   # their ordering scores
    ("pv", I2),       # triangular principal-variation table
    ("pvlen", I1),    # its lengths per ply
    ("tt", I2),       # transposition table, an entry a row of 32 bytes (one cache line to read) ...
    ("tt_values", D2),  # ... the same memory as float64: [slot, TT_VALUE] (columns: zerosum.search._flags)
    ("killers", I2),  # two killer moves per ply
    ("history", D1),  # history score per action
    ("forced", I2),   # the forcing moves at each ply (late-move reductions spare them), count last
    ("noise", D1),    # root tie-breaking noise per action (seeded searches)
    ("root_values", D1),  # each root move's value in the last iteration (a seeded root's order)
    ("cfg", I1),      # configuration slots C_* (zerosum.search._flags)
    ("stats", I1),    # statistics slots NODES, LEAVES, ... (zerosum.search._flags)
    ("heur", HEUR),   # the heuristic (a compiled function): unboxed when set, not at every call
)
TREE_FIELDS = (
    ("states", I2),   # the position at each tree node (node 0: the root)
    ("parent", I1),   # parent node (-1 at the root)
    ("action", I1),   # the move into the node
    ("first", I1),    # first child (-1: not expanded); children are contiguous
    ("count", I1),    # number of children
    ("visits", I1),   # simulations through the node
    ("wins", D1),     # their reward for the player who chose the move into the node
    ("mover", I1),    # the player to move at an expanded node
    ("scratch", I2),  # two rows for rollouts
    ("moves", I1),    # a move buffer (the game's max_moves)
    ("path", I1),     # the nodes of the current simulation, root first
    ("icfg", I1),     # integer configuration slots MC_* (zerosum.search._flags)
    ("fcfg", D1),     # float configuration slots MC_* (zerosum.search._flags)
    ("stats", I1),    # statistics slots TREE_SIZE, SIMULATIONS, ... (zerosum.search._flags)
)
GUIDED_FIELDS = (  # lanes x nodes; row `lanes` of each node array is scratch (a subtree being moved)
    ("states", I3),   # the position at each node, computed when the node is first reached
    ("parent", I2),   # parent node (-1 at the root, which is node 0)
    ("action", I2),   # the move into the node
    ("first", I2),    # first child (children are contiguous), or UNEXPANDED / EVALUATED
    ("count", I2),    # number of children
    ("visits", I2),   # simulations backed up through the node
    ("vloss", I2),    # simulations in flight through the node (virtual losses)
    ("w0", D2),       # sum of the backed-up values, from player 0's side
    ("logit", D2),    # the evaluator's logit for the move into the node
    ("prior", D2),    # its prior (softmax over the siblings; the root's children noised)
    ("raw0", D2),     # the evaluator's value of the node, from player 0's side
    ("mover", I2),    # the player to move (-1: the state is not computed yet)
    ("term", I2),     # the rules' status of the node's state (ONGOING, P0_WINS, ...)
    ("size", I1),     # nodes in use per lane
    ("remaining", I1),  # simulations still to launch per lane in this search
    ("start", I2),    # root children's visits when this search began (lane, child offset)
    ("gumbel", D2),   # root children's Gumbel noise (lane, child offset)
    ("rng", U1),      # a splitmix64 state per lane: a lane's draws never depend on the others
    ("schedule", I2),  # Gumbel's sequential halving: visits considered at [considered actions, simulation]
    ("obs", B2),      # the leaves' observation planes, flattened, one row a leaf
    ("mask", B2),     # their legal-action masks
    ("pend_lane", I1),  # each pending leaf's lane ...
    ("pend_node", I1),  # ... and node
    ("moves", I1),    # a move buffer (the game's max_moves)
    ("work", I1),     # a node buffer (one lane's nodes): the map used when a subtree moves
    ("icfg", I1),     # integer configuration slots G_* (zerosum.search._flags)
    ("fcfg", D1),     # float configuration slots G_*
    ("stats", I2),    # per-lane statistics slots G_SIMULATIONS, ...
)
NEGAMAX_ARRAYS = NegamaxArraysType(list(NEGAMAX_FIELDS))  # type: ignore[no-untyped-call]  # numba's, unannotated
TREE_ARRAYS = TreeArraysType(list(TREE_FIELDS))  # type: ignore[no-untyped-call]
GUIDED_ARRAYS = GuidedArraysType(list(GUIDED_FIELDS))  # type: ignore[no-untyped-call]


@intrinsic
def _unowned(typingctx: Any, arr: Any) -> Any:
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ary = context.make_array(sig.args[0])(context, builder, value=args[0])
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)  # type: ignore[no-untyped-call]  # numba's
        ary.parent = cgutils.get_null_value(ary.parent.type)  # type: ignore[no-untyped-call]
        return ary._getvalue()
    return arr(arr), codegen


def unowned(arr: ArrayT) -> ArrayT:
    """``arr`` as a view that holds no reference to its memory (no meminfo, no parent);
    in Python, ``arr`` itself.

    numba counts a reference, with an atomic instruction, each time compiled code takes an
    array out of a record or a row out of an array, and again when it lets go: a search
    node takes several, and on Connect Four's depth-2 opponent in the vector env these
    counts were 60% of the time (perf). A view without a meminfo skips them. The memory
    must outlive the view: a record's proxy keeps its numpy arrays (``_Record._build``), and
    a compiled call that takes views of its arguments uses them only while it runs."""
    return arr


@overload(unowned, inline="always")
def _unowned_compiled(arr):  # type: ignore[no-untyped-def]
    if isinstance(arr, types.Array):
        return lambda arr: _unowned(arr)  # type: ignore[call-arg]  # numba passes typingctx to an intrinsic
    return None


class _Record(structref.StructRefProxy):
    """A structref whose fields are also plain attributes: the driver's numpy arrays."""

    FIELDS: tuple[tuple[str, types.Type], ...] = ()

    @classmethod
    def _build(cls, new: Callable[..., Any], arrays: dict[str, Any]) -> _Record:
        missing = {name for name, _ in cls.FIELDS} ^ set(arrays)
        if missing:
            raise TypeError(f"{cls.__name__} takes exactly the fields {[n for n, _ in cls.FIELDS]}; "
                            f"wrong: {sorted(missing)}")
        record: _Record = new(*(arrays[name] for name, _ in cls.FIELDS))
        record.__dict__.update(arrays)  # the same memory, read and written from Python
        return record


def tt_arrays(n: int) -> dict[str, np.ndarray]:
    """A transposition table of ``n`` entries: its rows and their float64 view (one memory)."""
    tt = np.zeros((n, TT_COLUMNS), np.int64)
    return {"tt": tt, "tt_values": tt.view(np.float64)}


class NegamaxArrays(_Record):
    """The arrays of one alpha-beta or minimax searcher (fields: :data:`NEGAMAX_FIELDS`)."""

    FIELDS = NEGAMAX_FIELDS
    stack: I64Array
    moves: I64Array
    scores: F64Array
    pv: I64Array
    pvlen: I64Array
    tt: I64Array
    tt_values: F64Array
    killers: I64Array
    history: F64Array
    forced: I64Array
    noise: F64Array
    root_values: F64Array
    cfg: I64Array
    stats: I64Array
    heur: Any

    def __new__(cls, **arrays: Any) -> NegamaxArrays:
        return cls._build(_new_negamax_arrays, arrays)  # type: ignore[return-value]

    def set_heuristic(self, heur: Any) -> None:
        """Make ``heur`` (a first-class compiled heuristic) the one ``negamax_root`` calls.
        Unboxing one costs about 5 us, so the record keeps it rather than each call taking it."""
        if self.__dict__.get("heur") is not heur:
            _set_heuristic(self, heur)
            self.__dict__["heur"] = heur

    @classmethod
    def sized(cls, state_size: int, max_moves: int, num_actions: int, max_depth: int, heur: Any,
              **kept: np.ndarray) -> NegamaxArrays:
        """Per-ply arrays for ``max_depth`` plies, searching with heuristic ``heur``; the arrays in
        ``kept`` (a searcher's table, history, configuration, statistics) are used as given,
        the others made minimal."""
        d = max_depth + 2
        # The moves kernels' rows, and their scores, with room past max_moves (kit.movebuf): the
        # search compares each count with max_moves (the rows' width) and stops above it.
        arrays = {
            "stack": np.zeros((d, state_size), np.int64), "moves": moves_buffer(max_moves, num_actions, d),
            "scores": moves_buffer(max_moves, num_actions, d, np.float64), "pv": np.zeros((d, d), np.int64),
            "pvlen": np.zeros(d, np.int64), "killers": np.full((d, 2), -1, np.int64),
            "forced": moves_buffer(max_moves, num_actions, d, extra=1),
            **tt_arrays(1), "history": np.zeros(num_actions, np.float64),
            "noise": np.zeros(num_actions, np.float64), "root_values": np.zeros(num_actions, np.float64),
            "cfg": np.zeros(N_CFG, np.int64),
            "stats": np.zeros(N_STATS, np.int64), "heur": heur}
        arrays.update(kept)
        return cls(**arrays)


class TreeArrays(_Record):
    """The tree and buffers of one MCTS search (fields: :data:`TREE_FIELDS`)."""

    FIELDS = TREE_FIELDS
    states: I64Array
    parent: I64Array
    action: I64Array
    first: I64Array
    count: I64Array
    visits: I64Array
    wins: F64Array
    mover: I64Array
    scratch: I64Array
    moves: I64Array
    path: I64Array
    icfg: I64Array
    fcfg: F64Array
    stats: I64Array

    def __new__(cls, **arrays: np.ndarray) -> TreeArrays:
        return cls._build(_new_tree_arrays, arrays)  # type: ignore[return-value]


structref.define_boxing(NegamaxArraysType, NegamaxArrays)  # type: ignore[no-untyped-call]
structref.define_boxing(TreeArraysType, TreeArrays)  # type: ignore[no-untyped-call]


class GuidedArrays(_Record):
    """The trees and buffers of a network-guided search over B lanes (fields: :data:`GUIDED_FIELDS`)."""

    FIELDS = GUIDED_FIELDS
    states: I64Array
    parent: I64Array
    action: I64Array
    first: I64Array
    count: I64Array
    visits: I64Array
    vloss: I64Array
    w0: F64Array
    logit: F64Array
    prior: F64Array
    raw0: F64Array
    mover: I64Array
    term: I64Array
    size: I64Array
    remaining: I64Array
    start: I64Array
    gumbel: F64Array
    rng: Any
    schedule: I64Array
    obs: Any
    mask: Any
    pend_lane: I64Array
    pend_node: I64Array
    moves: I64Array
    work: I64Array
    icfg: I64Array
    fcfg: F64Array
    stats: I64Array

    def __new__(cls, **arrays: np.ndarray) -> GuidedArrays:
        return cls._build(_new_guided_arrays, arrays)  # type: ignore[return-value]


structref.define_boxing(GuidedArraysType, GuidedArrays)  # type: ignore[no-untyped-call]


@njit(NEGAMAX_ARRAYS(*(t for _, t in NEGAMAX_FIELDS)), cache=True)
def _new_negamax_arrays(stack: I64Array, moves: I64Array, scores: F64Array, pv: I64Array,  # pragma: no cover
                        pvlen: I64Array, tt: I64Array, tt_values: F64Array,
                        killers: I64Array, history: F64Array, forced: I64Array, noise: F64Array,
                        root_values: F64Array, cfg: I64Array, stats: I64Array, heur: Any) -> NegamaxArrays:
    w: NegamaxArrays = structref.new(NEGAMAX_ARRAYS)  # type: ignore[call-arg]  # numba passes typingctx
    # Views without reference counts (the proxy keeps the arrays alive: unowned).
    w.stack, w.moves, w.scores = unowned(stack), unowned(moves), unowned(scores)
    w.pv, w.pvlen = unowned(pv), unowned(pvlen)
    w.tt, w.tt_values = unowned(tt), unowned(tt_values)
    w.killers, w.history, w.forced = unowned(killers), unowned(history), unowned(forced)
    w.noise, w.cfg, w.stats = unowned(noise), unowned(cfg), unowned(stats)
    w.root_values = unowned(root_values)
    w.heur = heur
    return w


@njit(types.void(NEGAMAX_ARRAYS, HEUR), cache=True)
def _set_heuristic(w: NegamaxArrays, heur: Any) -> None:  # pragma: no cover - compiled
    w.heur = heur


@njit(TREE_ARRAYS(*(t for _, t in TREE_FIELDS)), cache=True)
def _new_tree_arrays(states: I64Array, parent: I64Array, action: I64Array, first: I64Array,  # pragma: no cover
                     count: I64Array, visits: I64Array, wins: F64Array, mover: I64Array, scratch: I64Array,
                     moves: I64Array, path: I64Array, icfg: I64Array, fcfg: F64Array, stats: I64Array) -> TreeArrays:
    t: TreeArrays = structref.new(TREE_ARRAYS)  # type: ignore[call-arg]  # numba passes typingctx
    t.states, t.parent, t.action, t.first, t.count, t.visits = states, parent, action, first, count, visits
    t.wins, t.mover, t.scratch, t.moves, t.path = wins, mover, scratch, moves, path
    t.icfg, t.fcfg, t.stats = icfg, fcfg, stats
    return t


@njit(GUIDED_ARRAYS(*(t for _, t in GUIDED_FIELDS)), cache=True)
def _new_guided_arrays(  # pragma: no cover - compiled
        states: Any, parent: Any, action: Any, first: Any, count: Any, visits: Any, vloss: Any, w0: Any,
        logit: Any, prior: Any, raw0: Any, mover: Any, term: Any, size: Any, remaining: Any, start: Any,
        gumbel: Any, rng: Any, schedule: Any, obs: Any, mask: Any, pend_lane: Any, pend_node: Any,
        moves: Any, work: Any, icfg: Any, fcfg: Any, stats: Any) -> GuidedArrays:
    g: GuidedArrays = structref.new(GUIDED_ARRAYS)  # type: ignore[call-arg]  # numba passes typingctx
    g.states = states
    g.parent = parent
    g.action = action
    g.first = first
    g.count = count
    g.visits = visits
    g.vloss = vloss
    g.w0 = w0
    g.logit = logit
    g.prior = prior
    g.raw0 = raw0
    g.mover = mover
    g.term = term
    g.size = size
    g.remaining = remaining
    g.start = start
    g.gumbel = gumbel
    g.rng = rng
    g.schedule = schedule
    g.obs = obs
    g.mask = mask
    g.pend_lane = pend_lane
    g.pend_node = pend_node
    g.moves = moves
    g.work = work
    g.icfg = icfg
    g.fcfg = fcfg
    g.stats = stats
    return g
