"""``check_game``: a game's rules, keys, observations, text and search over seeded random games."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from zerosum.games.kit import GameOverError, IllegalActionError, MoveCountError, Outcome
from zerosum.games.kit import Game, State
from zerosum.testing.positions import fail, random_lines

ILLEGAL_SAMPLES = 4
"""In-range illegal actions tried at each position (besides -1 and num_actions)."""


@dataclass(frozen=True)
class GameReport:
    """What :func:`check_game` saw; every check passed."""

    game: str
    """The game's name."""
    games: int
    """Random games played."""
    positions: int
    """Positions checked (finished ones included)"""
    lengths: tuple[int, ...]
    """Moves per game."""
    outcomes: Mapping[str, int]     # "p0_wins", "p1_wins", "draws"
    """Games by result: ``p0_wins``, ``p1_wins``, ``draws``."""
    distinct: int
    """Distinct positions among them."""
    transpositions: int
    """Visits of a position already reached by another move order."""
    searched: int
    """Positions where alpha-beta was compared with minimax."""


class _Keys:
    """Positions seen so far (by their state bytes) and their keys, to check that equal
    positions have equal keys and different positions different keys."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.by_state: dict[bytes, tuple[int, tuple[int, ...]]] = {}
        self.by_key: dict[int, tuple[bytes, tuple[int, ...]]] = {}
        self.transpositions = 0

    def visit(self, state: State, line: tuple[int, ...]) -> None:
        g = self.game
        key = g.state_key(state)
        if not isinstance(key, int) or not -(1 << 63) <= key < 1 << 63:
            fail(g, line, f"state_key gave {key!r}; a key is an int64", state)
        raw = g.position_bytes(state)
        seen = self.by_state.get(raw)
        if seen is not None:
            if seen[0] != key:
                fail(g, line, f"equal positions have different keys: {key} here, {seen[0]} after "
                              f"{list(seen[1])}", state)
            self.transpositions += seen[1] != line
            return
        self.by_state[raw] = (key, line)
        other = self.by_key.get(key)
        if other is not None:
            fail(g, line, f"two different positions share key {key}: this one (state {state.tolist()}) and the "
                          f"one after {list(other[1])} (state {np.frombuffer(other[0], np.int64).tolist()}); "
                          "the key must depend on the whole position", state)
        self.by_key[key] = (raw, line)


def _transpose(game: Game, keys: _Keys, before: State, line: tuple[int, ...]) -> None:
    """Play the last three moves (a, b, c) from ``before`` as (c, b, a), where legal: when a
    and c are the same player's, this often reaches the same position by another order."""
    a, b, c = line[-3:]
    state = before
    for x in (c, b, a):
        if game.is_terminal(state) or not game.legal_mask(state)[x]:
            return
        state = game.apply(state, x)
    keys.visit(state, (*line[:-3], c, b, a))


def _check_value(game: Game) -> None:
    """A game is a value: equal, hashable, picklable by (name, variant); a fresh start each time."""
    copy = pickle.loads(pickle.dumps(game))
    if copy != game or hash(copy) != hash(game) or copy.spec != game.spec:
        fail(game, None, f"a pickled copy is {copy!r} with spec {copy.spec}, not equal to the game (spec {game.spec})")
    again = type(game)(**dict(game.variant))
    if again != game:
        fail(game, None, f"{type(game).__name__}(**variant) gives {again!r}, not an equal game")
    first = game.initial_state()
    pristine = first.copy()
    if first.flags.writeable:
        first += 1
    if not np.array_equal(game.initial_state(), pristine):
        fail(game, None, "initial_state() returns a shared array: changing one changed the next")


def _check_observations(game: Game, state: State, line: tuple[int, ...]) -> None:
    before = state.copy()
    for player in (0, 1):
        obs = game.observation(state, player)
        if not isinstance(obs, np.ndarray) or obs.dtype != np.int8 or obs.shape != game.observation_shape:
            fail(game, line, f"observation for player {player} is {type(obs).__name__} "
                             f"{getattr(obs, 'dtype', '')} {np.shape(obs)}; declared int8 {game.observation_shape}",
                 state)
        if obs.size and (obs.min() < 0 or obs.max() > 1):
            fail(game, line, f"observation for player {player} has values {obs.min()}..{obs.max()}; "
                             "the env declares Box(0, 1)", state)
    if not np.array_equal(state, before):
        fail(game, line, "observation() modified the state", state)


def _check_finished(game: Game, state: State, line: tuple[int, ...]) -> Outcome:
    outcome = game.outcome(state)
    if outcome == Outcome.ONGOING:
        fail(game, line, "is_terminal() is True but outcome() is ONGOING", state)
    if len(game.legal_actions(state)) or game.legal_mask(state).any():
        fail(game, line, f"a finished game ({outcome.name}) has legal actions "
                         f"{game.legal_actions(state).tolist()}", state)
    r0, r1 = game.returns(state)
    want = {Outcome.P0_WINS: (1.0, -1.0), Outcome.P1_WINS: (-1.0, 1.0), Outcome.DRAW: (0.0, 0.0)}[outcome]
    if r0 + r1 != 0 or (r0, r1) != want:
        fail(game, line, f"returns are {(r0, r1)} for {outcome.name}; zero-sum {want} expected", state)
    if game.current_player(state) not in (0, 1):
        fail(game, line, f"current_player is {game.current_player(state)!r}", state)
    try:
        game.apply(state, 0)
    except (GameOverError, IllegalActionError):
        pass
    else:
        fail(game, line, "apply() accepted a move in a finished game", state)
    return outcome


def _check_moves(game: Game, state: State, line: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Legal actions, the mask, every legal action (apply, no mutation, text) and some illegal ones."""
    n = game.num_actions
    try:
        legal = game.legal_actions(state)
    except MoveCountError as exc:  # a legal kernel listing more than max_moves
        fail(game, line, str(exc), state)
    if not isinstance(legal, np.ndarray) or legal.ndim != 1 or legal.dtype.kind not in "iu":
        fail(game, line, f"legal_actions gave {legal!r}; a 1-D int array is expected", state)
    if not 0 < len(legal) <= game.max_moves:
        fail(game, line, f"an unfinished game has {len(legal)} legal actions; 1 to max_moves={game.max_moves} "
                         "expected", state)
    if np.any(np.diff(legal) <= 0) or legal[0] < 0 or legal[-1] >= n:
        fail(game, line, f"legal actions {legal.tolist()} are not ascending, distinct and in [0, {n})", state)
    mask = game.legal_mask(state)
    if not isinstance(mask, np.ndarray) or mask.dtype != np.int8 or mask.shape != (n,) \
            or not np.array_equal(np.flatnonzero(mask), legal) or mask.max() != 1:
        marked = np.flatnonzero(mask).tolist() if isinstance(mask, np.ndarray) else mask
        fail(game, line, f"the mask marks {marked}; the legal actions are {legal.tolist()}", state)
    if game.outcome(state) != Outcome.ONGOING or game.returns(state) != (0.0, 0.0):
        fail(game, line, f"unfinished, yet outcome {game.outcome(state)!r}, returns {game.returns(state)}", state)
    if game.current_player(state) not in (0, 1):
        fail(game, line, f"current_player is {game.current_player(state)!r}", state)
    before, raw = state.copy(), state.tobytes()
    for a in (int(x) for x in legal):
        try:
            child = game.apply(state, a)
        except Exception as e:  # noqa: BLE001 - any error is the finding
            fail(game, line, f"legal action {a} raised {e!r}", state)
        if state.tobytes() != raw:
            fail(game, line, f"apply(state, {a}) modified its input: {before.tolist()} became {state.tolist()}",
                 before)
        if not isinstance(child, np.ndarray) or child.dtype != np.int64 or child.shape != (game.state_size,):
            fail(game, line, f"apply(state, {a}) gave {child!r}; an int64 vector of {game.state_size}", state)
        if game.apply_unchecked(state, a).tobytes() != child.tobytes():
            fail(game, line, f"apply_unchecked(state, {a}) differs from apply(state, {a})", state)
        _check_text(game, state, line, a)
        if state.tobytes() != raw:
            fail(game, line, f"apply_unchecked or the text calls for action {a} modified the state", before)
    mask_free = np.unique(rng.integers(0, n, 2 * ILLEGAL_SAMPLES))
    illegal = [int(a) for a in mask_free[mask[mask_free] == 0][:ILLEGAL_SAMPLES]]
    _check_illegal(game, state, line, [*illegal, -1, n], before)
    return legal


def _check_text(game: Game, state: State, line: tuple[int, ...], a: int) -> None:
    name = game.action_to_string(a, state)
    if not isinstance(name, str) or not name.strip():
        fail(game, line, f"action_to_string({a}) gave {name!r}; a non-empty name expected", state)
    back = game.string_to_action(name, state)
    if back != a or isinstance(back, bool):
        fail(game, line, f"string_to_action({name!r}) gave {back!r}; action_to_string({a}) wrote it", state)


def _check_illegal(game: Game, state: State, line: tuple[int, ...], actions: list[int], before: State) -> None:
    is_legal = game.kernels.is_legal
    for a in actions:
        if is_legal is not None and 0 <= a < game.num_actions and is_legal(game.params, state.copy(), a):
            fail(game, line, f"the is_legal kernel says {a} is legal; legal_actions does not list it", state)
        try:
            game.apply(state, a)
        except IllegalActionError:
            pass
        except Exception as e:  # noqa: BLE001 - the wrong error is the finding
            fail(game, line, f"illegal action {a} raised {e!r}, not IllegalActionError", state)
        else:
            fail(game, line, f"illegal action {a} was accepted (legal: {game.legal_actions(state).tolist()})", state)
        if state.tobytes() != before.tobytes():
            fail(game, line, f"apply(state, {a}) with an illegal action modified the state", before)
    for a in (-1, game.num_actions):
        try:
            game.apply_unchecked(state, a)
        except IllegalActionError:
            pass
        else:
            fail(game, line, f"apply_unchecked accepted action {a}, out of range [0, {game.num_actions})", state)


GUARD = 64
"""Slots past num_actions (and max_moves) in the buffers the move kernels are given here: a
kernel that lists more than max_moves is refused with the count (every caller checks it:
zerosum.games.kit.movebuf), and one that writes further than it says is caught here."""
_UNTOUCHED = -(1 << 62)


def _guarded_moves(game: Game, state: State, line: tuple[int, ...], name: str) -> np.ndarray:
    """The moves kernel ``name`` writes, into a buffer with GUARD slots past max_moves that
    must stay as they were (and a count of at most max_moves)."""
    out = np.full(max(game.max_moves, game.num_actions) + GUARD, _UNTOUCHED, np.int64)
    n = int(getattr(game.kernels, name)(game.params, state.copy(), out))
    end = max(n, game.max_moves)
    past = np.flatnonzero(out[end:] != _UNTOUCHED)
    if not 0 <= n <= game.max_moves or len(past):
        fail(game, line, f"the {name} kernel returned {n} moves and wrote "
                         f"{'slot ' + str(end + int(past[0])) if len(past) else 'no slot'} past "
                         f"max_moves={game.max_moves}: a kernel must write at most max_moves moves", state)
    return out[:n]


def _check_distinct_kernel(game: Game, state: State, line: tuple[int, ...], legal: np.ndarray) -> None:
    """The ``distinct`` actions: ascending legal ones that reach every child the legal ones reach."""
    moves = _guarded_moves(game, state, line, "distinct")
    n = len(moves)
    if n < 1 or np.any(np.diff(moves) <= 0) or not set(moves.tolist()) <= set(legal.tolist()):
        fail(game, line, f"the distinct kernel gave {moves.tolist()}: ascending legal actions (legal: "
                         f"{legal.tolist()}) expected", state)
    reached = {game.apply(state, int(a)).tobytes(): int(a) for a in moves}
    for a in legal:
        if game.apply(state, int(a)).tobytes() not in reached:
            fail(game, line, f"the distinct kernel's actions {moves.tolist()} miss the position legal action "
                             f"{int(a)} reaches", state)


def _check_legal_kernel(game: Game, state: State, line: tuple[int, ...], legal: np.ndarray) -> None:
    written = _guarded_moves(game, state, line, "legal")
    if not np.array_equal(written, legal):
        fail(game, line, f"the legal kernel wrote {written.tolist()}; legal_actions gave {legal.tolist()}", state)
    forcing = _guarded_moves(game, state, line, "forcing")
    if not set(forcing.tolist()) <= set(legal.tolist()):
        fail(game, line, f"the forcing kernel gave {forcing.tolist()}, not all legal (legal: {legal.tolist()})",
             state)
    if game.kernels.distinct is not None:
        _check_distinct_kernel(game, state, line, legal)
    if game.kernels.is_legal is None:
        return
    for a in legal:
        if not game.kernels.is_legal(game.params, state.copy(), int(a)):
            fail(game, line, f"the is_legal kernel says legal action {int(a)} is illegal", state)


def _check_search(game: Game, depth: int, count: int, seed: int) -> int:
    """Alpha-beta (every exact enhancement on, the selective ones off) gives minimax's value
    on random positions; with the selective ones on too it still plays a legal move."""
    from zerosum.search import alphabeta, minimax

    lines = random_lines(game, count, seed, max_plies=min(game.max_game_length, 40))
    for state, line in lines:
        expected = minimax(game, state, depth)
        got = alphabeta(game, state, depth=depth, lmr=False, quiescence=False)
        if got.value != expected.value:
            fail(game, line, f"alphabeta(depth={depth}) gives {got.value}, minimax {expected.value} "
                             f"(heuristic {game.default_heuristic!r})", state)
        if got.action not in game.legal_actions(state):
            fail(game, line, f"alphabeta chose {got.action}, not a legal action", state)
        selective = alphabeta(game, state, depth=depth, lmr=depth >= 3 or None,
                              quiescence=game.kernels.has_forcing or None)
        if selective.action not in game.legal_actions(state):
            fail(game, line, f"alphabeta (lmr, quiescence) chose {selective.action}, not a legal action", state)
    return len(lines)


def check_game(game: Game, games: int = 20, seed: int = 0, *, search_depth: int = 2, search_positions: int = 8,
               env: bool = True, env_cycles: int = 100) -> GameReport:
    """Check ``game`` against the Game protocol over ``games`` seeded random games.

    At every position of every game:

    * the legal actions are ascending, distinct, in range and at most ``max_moves``; the
      mask marks exactly them (and the ``is_legal`` kernel, if any, agrees; the ``distinct``
      kernel's actions, if any, are legal and reach every position the legal ones reach;
      the forcing moves are legal; no moves kernel writes past ``max_moves``);
    * every legal action applies without error (``apply`` and ``apply_unchecked`` agree),
      and never modifies the state it is given; illegal actions in range and the actions
      -1 and ``num_actions`` raise IllegalActionError;
    * text round-trips: ``string_to_action(action_to_string(a, s), s) == a`` for every
      legal action;
    * observations for both players have the declared shape, int8 and values in [0, 1];
    * the key is a function of the position: a position reached again (by another move
      order too: the last three moves are also tried in reverse order) has the same key,
      and different positions have different keys;
    * unfinished positions have returns (0, 0); finished ones have no legal action,
      returns (+1, -1), (-1, +1) or (0, 0) matching the outcome, and refuse a move;
    * every game ends within ``max_game_length`` moves.

    Then alpha-beta equals minimax to ``search_depth`` on ``search_positions`` random
    positions (``search_depth=0`` skips it), and with ``env=True`` the game's environment
    passes PettingZoo's api, seed and render tests (:func:`zerosum.testing.check_env`).
    The game is also checked to be a value (equal and picklable by its variant).
    States are taken to be canonical: equal positions are equal vectors.
    """
    if not isinstance(game, Game):
        raise TypeError(f"check_game takes a Game (e.g. make_game('nim')); got {type(game).__name__}")
    _check_value(game)
    rng = np.random.default_rng(seed)
    keys = _Keys(game)
    lengths: list[int] = []
    outcomes = {Outcome.P0_WINS: 0, Outcome.P1_WINS: 0, Outcome.DRAW: 0}
    positions = 0
    for _ in range(games):
        state: State = game.initial_state()
        line: tuple[int, ...] = ()
        recent = [state]
        while True:
            positions += 1
            keys.visit(state, line)
            if len(line) >= 3:
                _transpose(game, keys, recent[-4], line)
            _check_observations(game, state, line)
            if not isinstance(game.render(state), str):
                fail(game, line, "render() must return a str", state)
            if game.is_terminal(state):
                outcomes[_check_finished(game, state, line)] += 1
                break
            if len(line) >= game.max_game_length:
                fail(game, line, f"the game goes on after max_game_length={game.max_game_length} moves", state)
            legal = _check_moves(game, state, line, rng)
            _check_legal_kernel(game, state, line, legal)
            a = int(legal[rng.integers(len(legal))])
            state, line = game.apply(state, a), (*line, a)
            recent = [*recent[-3:], state]
        lengths.append(len(line))
    searched = _check_search(game, search_depth, search_positions, seed) if search_depth > 0 else 0
    if env:
        from zerosum.testing.env import check_env

        check_env(game, cycles=env_cycles, seed=seed)
    return GameReport(game.name, games, positions, tuple(lengths),
                      {"p0_wins": outcomes[Outcome.P0_WINS], "p1_wins": outcomes[Outcome.P1_WINS],
                       "draws": outcomes[Outcome.DRAW]},
                      len(keys.by_state), keys.transpositions, searched)
