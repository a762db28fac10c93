"""The Game class: one game under one rule variant, the protocol every part of zerosum uses.

A game is declared once, as a subclass that names its rules and its variants::

    class Nim(Game):
        \"\"\"Docstring: the rules, the board, the action layout.\"\"\"

        name = "nim"
        kernels = KERNELS                      # the compiled rules (zerosum.games.kit.kernels)
        variants = (Variant("piles", "ints", (1, 3, 5, 7), "...", range=(1, 1000), length=(1, 16)),
                    Variant("misere", bool, False, "..."))
        heuristics = {"nim_sum": Heuristic("nim_sum", nim_sum, "...", symmetric=True)}
        default_heuristic = "nim_sum"

        def layout(self, v):                   # sizes, params and start from the variant
            ...
            return Layout(params=..., initial=..., num_actions=..., max_moves=...,
                          max_game_length=..., observation_shape=...)

        def action_to_string(self, action, state=None): ...
        def string_to_action(self, text, state=None): ...
        def render(self, state): ...
        def position(self, ...): ...          # a state from a readable description

The kit checks the declaration when the class is created (a missing kernel, a kernel of
the wrong signature, a bad variant schema), validates every variant a user passes, and
builds the rest: the fast Game methods below (through the hot calls of
:mod:`zerosum.games.kit.hot`), the frozen :class:`GameSpec`, equality, hashing and
pickling by (name, variant). Every method is pure: states are never modified in place.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from zerosum.games.kit.errors import (
    GameLengthError, GameOverError, IllegalActionError, KernelError, MoveCountError, PositionError,
)
from zerosum.games.kit.heuristics import ZERO, Heuristic
from zerosum.games.kit.hot import RETURNS, EntryPointCalls, HotCalls, compiled_rules, entry_point, hot_calls
from zerosum.games.kit.kernels import ONGOING, P0_WINS, P1_WINS, Action, Kernels, Outcome, Player, State
from zerosum.games.kit.movebuf import moves_buffer, moves_error
from zerosum.games.kit.spec import GameSpec, Layout, check_action
from zerosum.games.kit.toolkit import i64_array
from zerosum.games.kit.variants import Variant, resolve

_INT64 = np.dtype(np.int64)
_ONE_D = (8,)
# Game method -> the C module's call bound over it (see Game.__init__)
_BOUND = {"initial_state": "initial_state", "legal_actions": "legal", "apply": "apply",
          "apply_unchecked": "apply_unchecked", "is_terminal": "terminal", "current_player": "player",
          "returns": "returns"}


def _rebuild(cls: type[Game], variant: dict[str, Any]) -> Game:
    return cls(**variant)


class Game:
    """One game under one rule variant: the protocol used by envs, search, agents and evaluation.

    Frozen after construction; equal, hashable and picklable by (name, variant).
    """

    name: ClassVar[str] = ""
    """The game's registered name (``make_game(name)``), e.g. ``"tictactoe"``."""
    kernels: ClassVar[Kernels]
    """The compiled rules (:class:`~zerosum.games.kit.kernels.Kernels`) the envs, the search and the agents call."""
    variants: ClassVar[tuple[Variant, ...]] = ()
    """The rule variants the game accepts as keyword arguments, with their defaults and allowed values."""
    heuristics: ClassVar[Mapping[str, Heuristic]] = MappingProxyType({})
    """The game's evaluation functions by name; ``heuristic="name"`` picks one in the search and the agents."""
    default_heuristic: ClassVar[str] = ZERO.name
    """The heuristic the search uses when none is given."""
    default_opponent: ClassVar[str] = "alphabeta(time=0.1)"
    """The agent spec that plays this game best at about 0.1 s a move: the engine ``zerosum play``
    and the strength benchmarks use when no opponent is named."""
    quiescence: ClassVar[bool] = True
    """Whether alpha-beta's quiescence search is on by default (for a game whose kernels
    supply forcing moves): False where it measured weaker at equal time."""
    sgf_game: ClassVar[int | None] = None
    """The game's number in SGF's ``GM`` list (Go 1, Othello 2, Gomoku 4, Nine Men's Morris 5,
    Lines of Action 9, Hex 11, Amazons 18): its games are saved as SGF
    (:mod:`zerosum.games.records`); None: as JSON (chess: PGN)."""
    sgf_colours: ClassVar[tuple[str, str]] = ("B", "W")
    """The SGF move properties of players 0 and 1: ``B`` for the player who moves first, in
    most games; ``("W", "B")`` where player 0 is white (Nine Men's Morris)."""

    value_scale: ClassVar[float] = 10.0
    """The value of the game's default heuristic that a training label maps to tanh(1) = 0.76
    (AlphaZero's alpha-beta teacher, :class:`~zerosum.training.alphazero.labels.Labeller`):
    about the median size of the values its searches give."""

    variant: Mapping[str, Any]
    """Set once by __init__ (the game is frozen after it)"""
    params: np.ndarray
    """The variant's parameter vector, the first argument of every kernel."""
    initial: np.ndarray
    """The starting state (``initial_state()`` returns a copy)."""
    spec: GameSpec
    """The game and variant as one frozen record (name, sizes, variant)."""
    num_actions: int
    """How many actions there are: actions are ints in [0, num_actions)."""
    max_moves: int
    """The most legal moves any position has (the size of a moves buffer)."""
    max_game_length: int
    """The most plies a game can last under this variant."""
    observation_shape: tuple[int, ...]
    """The shape of ``observe(state, player)``: planes of 0/1 from the player's point of view."""
    state_size: int
    """The length of a state vector (int64)."""
    _calls: HotCalls
    _legal: Any  # the kernels' machine-code entry points (hot.entry_point): numba's, untyped
    _apply: Any
    _status: Any
    _player: Any
    _observe: Any
    _key: Any
    _obs_size: int
    _hash: int

    # ---- declaration ------------------------------------------------------------------
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            return  # an abstract intermediate class
        where = f"game class {cls.__qualname__}"
        if not isinstance(cls.name, str) or not cls.name.isidentifier():
            raise KernelError(f"{where}: name must be an identifier such as 'connect_four'; got {cls.name!r}")
        if not isinstance(getattr(cls, "kernels", None), Kernels):
            raise KernelError(f"{where}: kernels must be a Kernels record (zerosum.games.kit.Kernels(legal=..., "
                              f"apply=..., status=..., player=..., key=..., observe=...)); got "
                              f"{type(getattr(cls, 'kernels', None)).__name__}")
        cls.variants = tuple(cls.variants)
        names = [v.name for v in cls.variants]
        if not all(isinstance(v, Variant) for v in cls.variants) or len(set(names)) != len(names):
            raise KernelError(f"{where}: variants must be distinct Variant(...) entries; got {cls.variants!r}")
        if not all(isinstance(h, Heuristic) and h.name == k for k, h in cls.heuristics.items()):
            raise KernelError(f"{where}: heuristics must map each name to a Heuristic of that name")
        cls.heuristics = MappingProxyType(dict(cls.heuristics))
        if cls.default_heuristic not in {*cls.heuristics, ZERO.name}:
            raise KernelError(f"{where}: default_heuristic {cls.default_heuristic!r} is not one of its heuristics")
        for method in ("layout", "action_to_string", "string_to_action", "render", "position"):
            if getattr(cls, method) is getattr(Game, method):
                raise KernelError(f"{where} must define {method}() (see zerosum.games.kit.game)")
        cls.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter(v.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v.default)
             for v in cls.variants])

    def __init__(self, *args: Any, **variant: Any) -> None:
        v = resolve(self.name, self.variants, args, variant)
        lay = self.layout(dict(v))
        if lay.variant is not None:
            v = {k: lay.variant.get(k, v[k]) for k in v}
        params = i64_array(lay.params if len(lay.params) else [0])  # bit 63 may be given as 1 << 63
        params.flags.writeable = False
        initial = i64_array(lay.initial)
        initial.flags.writeable = False
        size = int(initial.shape[0])
        spec = GameSpec(self.name, int(lay.num_actions), int(lay.max_moves), size, tuple(lay.observation_shape),
                        int(lay.max_game_length), tuple(v.items()))
        k = self.kernels
        calls = hot_calls(k, params, size, spec.max_moves, spec.num_actions, fallback=self, initial=initial)
        fields = {
            "variant": MappingProxyType(v), "params": params, "initial": initial, "spec": spec,
            "num_actions": spec.num_actions, "max_moves": spec.max_moves, "max_game_length": spec.max_game_length,
            "observation_shape": spec.observation_shape, "state_size": size, "_calls": calls,
            "_legal": entry_point(k.legal), "_apply": entry_point(k.apply), "_status": entry_point(k.status),
            "_player": entry_point(k.player), "_observe": entry_point(k.observe), "_key": entry_point(k.key),
            "_obs_size": int(np.prod(spec.observation_shape)), "_hash": hash((self.name, spec.variant)),
        }
        if not isinstance(calls, EntryPointCalls):  # the C calls answer everything (see hot.py): bind them
            fields.update({m: getattr(calls, c) for m, c in _BOUND.items()  # unless a subclass overrides m
                           if getattr(type(self), m) is getattr(Game, m)})
        self.__dict__.update(fields)

    def layout(self, variant: dict[str, Any]) -> Layout:
        """The params, starting state and sizes for a validated variant (each game defines it)."""
        raise NotImplementedError

    # ---- a value ----------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make a new game, e.g. make_game({self.name!r}, ...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other.spec.variant == self.spec.variant

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), dict(self.variant))

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.variant.items())
        return f"{type(self).__name__}({args})"

    # ---- the protocol's hot calls -----------------------------------------------------
    # self._calls answers in one compiled call for a contiguous int64 state of the right
    # length (and an int action in range); anything else, and an illegal action, takes the
    # generic path (_*_generic), which converts the input or raises the error. With the C
    # module, __init__ binds its calls over these methods, and they call _*_generic.
    def initial_state(self) -> State:
        """The starting position."""
        return self.initial.copy()

    def legal_actions(self, state: State) -> np.ndarray:
        """The legal actions, ascending (empty in a finished game)."""
        out = self._calls.legal(state)
        return out if out is not None else self._legal_generic(state)

    def _legal_generic(self, state: State) -> np.ndarray:
        plain = self._plain(state)
        out = moves_buffer(self.max_moves, self.num_actions)  # room past max_moves (kit.movebuf)
        n = self._legal(self.params, plain, out)
        if n > self.max_moves:
            raise self.moves_error("legal", n, "legal_actions")
        return out[:n]

    def legal_mask(self, state: State) -> np.ndarray:
        """An int8 vector of length num_actions with 1 at every legal action."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_actions(state)] = 1
        return mask

    def apply(self, state: State, action: Action) -> State:
        """The position after ``action``; raises IllegalActionError for an illegal one."""
        child = self._calls.apply(state, action)
        return child if child is not None else self._apply_generic(state, action)

    def _apply_generic(self, state: State, action: Action) -> State:
        a = check_action(action, self.num_actions)
        plain = self._plain(state)
        legal = self.legal_actions(plain)
        if a not in legal:
            if self._status(self.params, plain) != ONGOING:
                raise GameOverError(f"the game is over ({self.outcome(plain).name}); no action is legal")
            raise IllegalActionError.deferred(functools.partial(self._illegal_message, a, plain.copy(), legal))
        return self.apply_unchecked(plain, a)

    def _illegal_message(self, a: int, state: State, legal: np.ndarray) -> str:
        """What an IllegalActionError for ``a`` says (written when read: see ZerosumError.deferred)."""
        why = self.illegal_reason(a, state)
        return (f"action {a} ({self.action_to_string(a, state)}) is not legal here{': ' + why if why else ''}; "
                f"legal: {self.describe_actions(legal, state)}")

    def apply_unchecked(self, state: State, action: Action) -> State:
        """``apply`` without the legality check, for callers that took the action from
        legal_actions (an action out of range is still refused)."""
        child = self._calls.apply_unchecked(state, action)
        return child if child is not None else self._apply_unchecked_generic(state, action)

    def _apply_unchecked_generic(self, state: State, action: Action) -> State:
        a = check_action(action, self.num_actions)
        plain = self._plain(state)
        child = np.empty(self.state_size, np.int64)
        self._apply(self.params, plain, a, child)
        return child

    def is_terminal(self, state: State) -> bool:
        """True when the game is over."""
        done = self._calls.terminal(state)
        return done if done is not None else self._terminal_generic(state)

    def _terminal_generic(self, state: State) -> bool:
        return bool(self._status_generic(state) != ONGOING)

    def current_player(self, state: State) -> Player:
        """The player to move (0 or 1; in a finished game, the one who would move next)."""
        p = self._calls.player(state)
        return p if p is not None else self._player_generic(state)

    def _player_generic(self, state: State) -> Player:
        return int(self._player(self.params, self._plain(state)))

    def outcome(self, state: State) -> Outcome:
        """ONGOING, P0_WINS, P1_WINS or DRAW."""
        st = self._calls.status(state)
        return Outcome(st if st is not None else self._status_generic(state))

    def _status_generic(self, state: State) -> int:
        return int(self._status(self.params, self._plain(state)))

    def returns(self, state: State) -> tuple[float, float]:
        """+1/-1/0 for players 0 and 1 (0, 0 while the game goes on or for a draw)."""
        r = self._calls.returns(state)
        return r if r is not None else self._returns_generic(state)

    def _returns_generic(self, state: State) -> tuple[float, float]:
        return RETURNS[self._status_generic(state)]

    def observation(self, state: State, player: Player) -> np.ndarray:
        """Observation planes (int8, shape observation_shape) from ``player``'s side."""
        if player not in (0, 1):
            raise ValueError(f"player is 0 or 1; got {player!r}")
        out = np.zeros(self._obs_size, dtype=np.int8)
        self._observe(self.params, self._plain(state), int(player), out)
        return out.reshape(self.observation_shape)

    def state_key(self, state: State) -> int:
        """A 64-bit hash of the position (equal positions, equal keys)."""
        return int(self._key(self.params, self._plain(state)))

    def position_bytes(self, state: State) -> bytes:
        """The position proper as bytes: two states with equal bytes are one position, with
        one key. The whole state by default; a game whose state also keeps history that the
        key leaves out (chess: earlier positions, for repetition and the observation) gives
        the part its key covers."""
        return self._plain(state).tobytes()

    def board_symmetries(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The board's symmetries, for training on every orientation of a position: ``(cells,
        actions)``, int arrays ``[k, rows*columns]`` and ``[k, num_actions]``: symmetry ``i`` maps
        the observation's cell ``c`` (``row * columns + col``) to ``cells[i, c]`` and action ``a``
        to ``actions[i, a]``, so that playing ``actions[i, a]`` in the mapped position reaches the
        mapped position of playing ``a``; symmetry 0 is the identity
        (:mod:`zerosum.games.kit.symmetry` has the square's and the mirror's). None (the
        default): none declared."""
        return None

    def heuristic(self, name: str | None = None) -> Heuristic:
        """A built-in heuristic by name (the game's default when name is None).

        ``zero`` (no knowledge: search sees only wins, losses and draws) serves every game.
        """
        key = name or self.default_heuristic
        found = self.heuristics.get(key)
        if found is not None:
            return found
        if key == ZERO.name:
            return ZERO
        raise ValueError(f"unknown heuristic {key!r} for {self.name}; available: "
                         f"{sorted({*self.heuristics, ZERO.name})}")

    def random_playouts(self, state: State, games: int, seed: int = 0) -> dict[str, int]:
        """``games`` uniformly random games from ``state`` in compiled code: moves and results."""
        results = np.zeros(5, np.int64)  # by status, then a count over max_moves
        moves = compiled_rules(self.kernels).random_playouts(
            self.params, np.array(self._plain(state)), int(games), int(seed),
            moves_buffer(self.max_moves, self.num_actions), self.max_game_length, results)
        if results[4]:
            raise self.moves_error("legal", int(results[4]), "random_playouts")
        if results[ONGOING]:
            raise self.length_error(f"{int(results[ONGOING])} of {games} random playouts")
        return {"moves": int(moves), "p0_wins": int(results[P0_WINS]), "p1_wins": int(results[P1_WINS]),
                "draws": int(results[3])}

    def length_error(self, where: str) -> GameLengthError:
        """The error for a game that went on past ``max_game_length`` moves (``where``: what
        was playing it), naming the game and the limit."""
        return GameLengthError(
            f"{self!r} went on past its max_game_length={self.max_game_length} moves in {where}: its rules do not "
            f"end the game (a board that uses bit 63 shifted with an arithmetic >> is a usual cause: use "
            f"zerosum.games.kit.shr), or max_game_length is too small")

    def moves_error(self, kernel: int | str, count: int, where: str) -> MoveCountError:
        """The error for a moves kernel (``"legal"``, ``"distinct"``, ``"forcing"``, or its code in
        :data:`zerosum.games.kit.movebuf.MOVE_KERNELS`) that listed ``count`` moves, more than
        ``max_moves``, in ``where`` (what called it), naming the game and the bound."""
        return moves_error(self, kernel, count, where)

    def as_state(self, state: Any) -> np.ndarray:
        """``state`` as a contiguous int64 vector of this game's length (a copy only when it is
        not one already: treat it as read-only); ValueError for anything that cannot be one.
        A game's own methods that accept a state as given (a list, a bitboard with bit 63 as
        an int >= 2**63) read it through this."""
        if isinstance(state, np.ndarray) and state.dtype is _INT64 and state.strides == _ONE_D \
                and state.shape == (self.state_size,):
            return state
        try:
            arr = np.ascontiguousarray(state, dtype=np.int64)
        except OverflowError:  # a bitboard with bit 63 given as an int >= 2**63
            try:
                arr = i64_array(state)
            except (TypeError, ValueError):
                arr = np.zeros(0, np.int64)
        except (TypeError, ValueError):
            arr = np.zeros(0, np.int64)
        if arr.ndim != 1 or arr.shape[0] != self.state_size:
            raise ValueError(f"a {self.name} state is an int64 vector of length {self.state_size}; "
                             f"got {type(state).__name__} of shape {np.shape(state)}")
        return arr

    _plain = as_state  # the kit's own name for it

    # ---- text and positions (each game defines these) ---------------------------------
    def action_to_string(self, action: Action, state: State | None = None) -> str:
        """A readable name for an action (the inverse of string_to_action). ``state`` is the
        position the action is played in, for games whose names depend on it."""
        raise NotImplementedError

    def string_to_action(self, text: str, state: State | None = None) -> Action:
        """Parse a readable move; raises IllegalActionError naming the accepted forms."""
        raise NotImplementedError

    def render(self, state: State) -> str:
        """The position as text (the same drawing serves ansi rendering and the CLI)."""
        raise NotImplementedError

    def sgf_move(self, action: Action, state: State) -> str:
        """``action`` as the value of an SGF move (``B[...]``): the readable move, unless the
        game writes SGF's own points (Go, Othello, Gomoku)."""
        return self.action_to_string(action, state)

    def sgf_action(self, value: str, state: State) -> Action:
        """The action of an SGF move's value (the inverse of :meth:`sgf_move`)."""
        return self.string_to_action(value, state)

    def sgf_root(self) -> dict[str, str | list[str]]:
        """The SGF root properties the variant sets besides ``GM`` (``SZ``, ``KM``, ...): none by default."""
        return {}

    @classmethod
    def sgf_variant(cls, root: Mapping[str, str]) -> dict[str, Any]:
        """The variant an SGF file's root properties (``SZ``, ``KM``, ...) give, for a file written
        by another program: the defaults unless the game reads them."""
        return {}

    def position(self, *args: Any, **kwargs: Any) -> State:
        """A state from a readable description; raises PositionError saying what is wrong."""
        raise PositionError(f"{self.name} has no position builder")

    def illegal_reason(self, action: Action, state: State) -> str:
        """Why ``action`` is not legal in the unfinished ``state``, in a few words for the
        error message (e.g. "c4 is occupied"); "" when the list of legal moves says enough."""
        return ""

    def move_name(self, action: Action, state: State) -> str:
        """A legal move as players write it, what ``zerosum play`` and ``replay`` show and ``help``
        lists: ``action_to_string`` unless the game has a notation of its own (chess: SAN).
        ``string_to_action`` reads it back."""
        return self.action_to_string(action, state)

    def result_reason(self, state: State) -> str:
        """How a finished game ended, in a few words where the rules name it (chess: "checkmate",
        "stalemate", "threefold repetition", "fifty-move rule", "insufficient material"); "" when
        the result says enough, or while the game goes on."""
        return ""

    def string_to_actions(self, text: str, state: State | None = None) -> list[Action]:
        """A move typed whole, as the actions that make it: one, unless the game's moves take
        several actions of the same player (a checkers multi-jump typed ``21x14x7``)."""
        return [self.string_to_action(text, state)]

    def describe_actions(self, actions: Sequence[int] | np.ndarray, state: State | None = None,
                         limit: int = 24) -> str:
        """A readable list of actions (at most ``limit``, then how many in all)."""
        names = [self.action_to_string(int(a), state) for a in list(actions)[:limit]]
        more = f" ... ({len(actions)} in all)" if len(actions) > limit else ""
        return ", ".join(names) + more
