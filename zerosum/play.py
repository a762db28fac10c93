"""Play and watch: ``zerosum play`` (a person against an engine) and ``zerosum replay``.

``zerosum play GAME --opponent SPEC`` draws the board with ``game.render`` (the same text
as the environments' ``render_mode="ansi"``), reads moves in the game's readable form
(``b2``, ``p2x3``, ``a1-d1``, ``x d7``, ...) and answers a typo or an illegal move with the
reason and the prompt again. Besides moves the person may type::

    help [PREFIX]   the legal moves (those starting with PREFIX), and these commands
    hint            the engine's suggestion for this position, with its analysis
    undo            take back your last move and the engine's reply
    board           draw the board again
    quit            leave the game

After every engine move the engine's analysis is shown: value, depth, nodes, principal
variation and time. Nothing assumes that the players alternate: the loop always asks
``game.current_player`` (in Nine Men's Morris a mill gives the same player a second turn).

``zerosum replay DB GAME_ID`` shows a stored tournament game move by move, or writes an
animated GIF (``--gif out.gif``) of the environment's rgb_array drawings: one frame for the
start position plus one per move.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zerosum.agents.base import Agent
from zerosum.games.base import Game, IllegalActionError, Outcome, State, ZerosumError

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

DEFAULT_OPPONENT = "alphabeta(time=1)"
DEFAULT_HINT = "alphabeta(time=1)"
COMMANDS_HELP = ("commands: help [PREFIX] lists the legal moves (starting with PREFIX); hint asks the engine; "
                 "undo takes back your last move and the engine's reply; board redraws; quit leaves")


class UsageError(ZerosumError, ValueError):
    """A bad command line: an unknown game, a malformed variant or agent spec, a bad option."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


# ---- command-line values --------------------------------------------------------------
def parse_value(text: str) -> Any:
    """A variant value from text: ints, floats, booleans, ``none``, tuples (``3,4,5``), else the text.

    >>> parse_value("3,4,5"), parse_value("true"), parse_value("0.5"), parse_value("(2,)")
    ((3, 4, 5), True, 0.5, (2,))
    """
    t = text.strip()
    if t.startswith(("(", "[")) and t.endswith((")", "]")):
        inner = t[1:-1].strip()
        return tuple(parse_value(p) for p in inner.split(",") if p.strip()) if inner else ()
    if "," in t:
        return tuple(parse_value(p) for p in t.split(",") if p.strip())
    low = t.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    if low == "none":
        return None
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    return t


def parse_variant(items: Sequence[str]) -> dict[str, Any]:
    """``["piles=3,4,5", "misere=true"]`` -> ``{"piles": (3, 4, 5), "misere": True}``."""
    variant: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier() or not value.strip():
            raise UsageError(f"bad --variant {item!r}: write key=value, e.g. piles=3,4,5 or misere=true")
        if key in variant:
            raise UsageError(f"--variant {key} given twice")
        variant[key] = parse_value(value)
    return variant


def build_game(name: str, variant: Mapping[str, Any]) -> Game:
    """``make_game`` with every failure turned into a one-line UsageError."""
    from zerosum.games import GAMES, make_game

    if name not in GAMES:
        raise UsageError(f"unknown game {name!r}; available: {', '.join(sorted(GAMES))}")
    try:
        defaults = make_game(name).variant
        variant = {k: (v,) if isinstance(defaults.get(k), tuple) and not isinstance(v, tuple) else v
                   for k, v in variant.items()}  # piles=5 means one pile of 5
        return make_game(name, **variant)
    except (ZerosumError, ValueError, TypeError) as exc:
        text = str(exc)
        raise UsageError(text if text.startswith("bad variant") else f"bad variant for {name}: {text}") from None


def build_agent(spec: str, game: Game, rng: Any, what: str = "--opponent") -> Agent:
    """An agent from its spec, checked against the game before play starts."""
    from zerosum.agents import make_agent

    try:
        agent = make_agent(spec, rng=rng)
        agent.reset()
        agent.prepare(game)
    except (ZerosumError, ValueError, TypeError) as exc:
        raise UsageError(f"bad {what} {spec!r}: {exc}") from None
    return agent


# ---- describing searches ---------------------------------------------------------------
def describe_value(value: float) -> str:
    """A search value in words: a proven win/loss in N plies, or the heuristic score."""
    from zerosum.search.result import WIN, WIN_BOUND

    v = float(value) + 0.0  # no "-0"
    if abs(v) >= WIN_BOUND:
        plies = int(round(WIN - abs(v)))
        return f"{'win' if v > 0 else 'loss'} in {plies} {'ply' if plies == 1 else 'plies'}"
    return f"{v:+.3g}"


def move_name(game: Game, action: int, state: State | None) -> str:
    """The readable name of ``action`` played in ``state`` (games may name a move by its position:
    a Morris removal is ``x d7``)."""
    named = getattr(game, "action_name", None)
    return named(int(action), state) if named is not None else game.action_to_string(int(action))


def join_moves(names: Sequence[str]) -> str:
    """Moves separated by spaces, or by commas when a move's name has spaces (``c4 q2 cw``)."""
    return (", " if any(" " in n for n in names) else " ").join(names)


def wrap_moves(names: Sequence[str], width: int = 78) -> str:
    """Comma-separated moves in indented lines of at most ``width``, never splitting a move."""
    lines, line = [], "  "
    for i, name in enumerate(names):
        item = name + ("," if i < len(names) - 1 else "")
        if len(line) + len(item) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = "  "
        line += item + " "
    lines.append(line.rstrip())
    return "\n".join(lines)


def pv_text(game: Game, state: State, pv: Sequence[int]) -> str:
    """The principal variation as readable moves (stopping at the first move not legal)."""
    names = []
    s = state
    for a in pv:
        a = int(a)
        if game.is_terminal(s) or a not in set(int(x) for x in game.legal_actions(s)):
            break
        names.append(move_name(game, a, s))
        s = game.apply_unchecked(s, a)
    return join_moves(names) if names else "-"


def describe_search(game: Game, state: State, result: Any, elapsed: float, whom: str = "the engine") -> str:
    """One line of what a search thought, from ``agent.last_stats`` (a SearchResult) if present.

    The value is from the side of the player to move in ``state`` (``whom``).
    """
    stats = getattr(result, "stats", None)
    if stats is None:
        return f"time {elapsed:.3f} s"
    parts = [f"value {describe_value(result.value)} for {whom}", f"depth {stats.depth}", f"nodes {stats.nodes:,}",
             f"time {stats.time:.3f} s", f"pv {pv_text(game, state, result.pv)}"]
    return ", ".join(parts)


def result_in_words(game: Game, state: State, humans: set[int], plies: int) -> str:
    """The final result, said from the person's side."""
    outcome = game.outcome(state)
    moves = f"after {plies} {'move' if plies == 1 else 'moves'}"
    if outcome == Outcome.DRAW:
        return f"Result: a draw {moves}."
    winner = outcome.winner
    if winner is None:
        return f"Result: the game is not over ({outcome.name})."
    if len(humans) == 1:
        who = "You win" if winner in humans else "The engine wins"
        return f"Result: {who} (player {winner}) {moves}."
    return f"Result: player {winner} wins {moves}."


# ---- the interactive session -----------------------------------------------------------
@dataclass
class PlaySession:
    """One game between a person (``humans`` seats) and an engine, on injectable input/output."""

    game: Game
    opponent: Agent | None
    humans: set[int]
    hint_spec: str
    seed: int | None = None
    input_fn: InputFn = input
    output_fn: OutputFn = print
    history: list[State] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    decision_points: list[int] = field(default_factory=list)
    _hint_agent: Agent | None = None

    def __post_init__(self) -> None:
        if not self.history:
            self.history = [self.game.initial_state()]

    @property
    def state(self) -> State:
        """The current position."""
        return self.history[-1]

    def say(self, text: str = "") -> None:
        """Write to the person."""
        self.output_fn(text)

    def run(self) -> int:
        """Play to the end (or until quit / end of input); returns the exit code.

        At the end the person may still type ``undo`` to take back their last move and play on.
        """
        g = self.game
        self._introduce()
        show_board = True
        while True:
            while not g.is_terminal(self.state):
                player = g.current_player(self.state)
                if player in self.humans:
                    if show_board:
                        self.say(g.render(self.state))
                    outcome = self._human_turn(player)
                    if outcome == "quit":
                        self.say("You left the game.")
                        return 0
                    if outcome == "eof":
                        self.say("\nEnd of input: the game is left unfinished.")
                        return 0
                    show_board = outcome != "undo"
                else:
                    self._engine_turn(player)
                    show_board = True
            self.say(g.render(self.state))
            self.say(result_in_words(g, self.state, self.humans, len(self.actions)))
            self.say("Moves: " + join_moves(self._names(0)))
            if not self.decision_points:
                return 0
            try:
                answer = self.input_fn("[game over] undo to take back your last move, Enter to leave> ")
            except EOFError:
                return 0
            if answer.strip().lower() != "undo" or not self._undo():
                return 0
            show_board = False

    def _introduce(self) -> None:
        g = self.game
        variant = ", ".join(f"{k}={v}" for k, v in g.variant.items())
        self.say(f"{g.name}{f' ({variant})' if variant else ''}")
        if len(self.humans) == 1:
            me = next(iter(self.humans))
            first = "you move first" if me == 0 else "the engine moves first"
            self.say(f"You are player {me}, the engine {self.opponent.name} is player {1 - me}; {first}.")
        else:
            self.say("Two people take turns at this terminal; player 0 moves first.")
        legal = g.legal_actions(self.state)
        example = move_name(g, int(legal[0]), self.state) if len(legal) else "?"
        self.say(f"Type a move such as {example!r}. {COMMANDS_HELP}.")

    def _human_turn(self, player: int) -> str:
        """Read commands until a legal move is played; returns 'move', 'undo', 'quit' or 'eof'."""
        g = self.game
        here = len(self.history) - 1
        if not self.decision_points or self.decision_points[-1] != here:
            self.decision_points.append(here)
        while True:
            try:
                text = self.input_fn(f"[move {len(self.actions) + 1}] player {player}, your move> ").strip()
            except EOFError:
                return "eof"
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("help", "?", "moves"):
                self._help(rest.strip())
            elif command in ("quit", "exit", "resign"):
                return "quit"
            elif command == "undo" and not rest:
                if self._undo():
                    return "undo"
            elif command == "hint" and not rest:
                self._hint()
            elif command == "board" and not rest:
                self.say(g.render(self.state))
            elif self._try_move(text):
                return "move"

    def _try_move(self, text: str) -> bool:
        g, state = self.game, self.state
        try:
            action = g.string_to_action(text, state)
        except Exception as exc:  # a game's parser: any failure is a typo, never a traceback
            self.say(f"{exc}\n(type help for the legal moves)" if str(exc) else
                     f"cannot read move {text!r} (type help for the legal moves)")
            return False
        try:
            child = g.apply(state, int(action))
        except (IllegalActionError, ValueError) as exc:
            reason = str(exc)
            self.say(reason if text.lower() in reason.lower() else f"{text!r}: {reason}")
            return False
        self._push(int(action), child)
        return True

    def _names(self, start: int) -> list[str]:
        """Readable names of the moves played from ply ``start`` on."""
        return [move_name(self.game, a, self.history[i]) for i, a in enumerate(self.actions) if i >= start]

    def _push(self, action: int, child: State) -> None:
        self.actions.append(action)
        self.history.append(child)

    def _help(self, prefix: str) -> None:
        g = self.game
        names = [move_name(g, int(a), self.state) for a in g.legal_actions(self.state)]
        shown = [n for n in names if n.lower().startswith(prefix.lower())] if prefix else names
        head = f"legal moves{f' starting with {prefix!r}' if prefix else ''} ({len(shown)} of {len(names)}):"
        self.say(head)
        if shown:
            self.say(wrap_moves(shown))
        self.say(COMMANDS_HELP)

    def _undo(self) -> bool:
        """Back to the person's previous decision point (their last move and all replies)."""
        here = len(self.history) - 1
        earlier = [p for p in self.decision_points if p < here]
        if not earlier:
            self.say("Nothing to undo: you have not moved yet.")
            return False
        back = earlier[-1]
        taken = self._names(back)
        del self.history[back + 1:]
        del self.actions[back:]
        self.decision_points = [p for p in self.decision_points if p <= back]
        self.say(f"Took back {len(taken)} {'move' if len(taken) == 1 else 'moves'}: {join_moves(taken)}")
        self.say(self.game.render(self.state))
        return True

    def _hint(self) -> None:
        g, state = self.game, self.state
        if self._hint_agent is None:
            rng = None if self.seed is None else self.seed + 1
            self._hint_agent = build_agent(self.hint_spec, g, rng, what="hint engine")
        start = time.perf_counter()
        action = int(self._hint_agent.act(g, state))
        elapsed = time.perf_counter() - start
        detail = describe_search(g, state, self._hint_agent.last_stats, elapsed, whom="you")
        self.say(f"hint: {move_name(g, action, state)}   ({self._hint_agent.name}: {detail})")

    def _engine_turn(self, player: int) -> None:
        g, state = self.game, self.state
        assert self.opponent is not None
        start = time.perf_counter()
        action = int(self.opponent.act(g, state))
        elapsed = time.perf_counter() - start
        child = g.apply(state, action)  # an engine's illegal move is a bug: let it raise
        self.say(f"engine (player {player}) plays {move_name(g, action, state)}")
        self.say(f"  {describe_search(g, state, self.opponent.last_stats, elapsed)}")
        self._push(action, child)


def _play_parser() -> _Parser:
    from zerosum.games import GAMES

    p = _Parser(
        prog="zerosum play",
        description="Play a game against an engine in the terminal. Type moves in readable form; "
                    "help lists the legal moves, hint asks the engine, undo takes back your last move "
                    "and the reply, board redraws, quit leaves.",
        epilog=f"games: {', '.join(sorted(GAMES))}. Agent specs: random, alphabeta(depth=4), "
               "alphabeta(time=1, heuristic=NAME), mcts(sims=500), minimax(depth=2), perfect_nim. "
               "Example: zerosum play nim --variant piles=3,4,5 --opponent perfect_nim --second",
    )
    p.add_argument("game", help="the game to play")
    p.add_argument("--variant", action="extend", nargs="+", default=[], metavar="KEY=VALUE",
                   help="a rule variant, e.g. piles=3,4,5 misere=true (repeatable)")
    p.add_argument("--opponent", default=DEFAULT_OPPONENT, metavar="SPEC",
                   help=f"the engine's agent spec (default {DEFAULT_OPPONENT}); 'human' for two people")
    p.add_argument("--hint", default=None, metavar="SPEC",
                   help=f"the agent that answers hint (default: the opponent's spec, or {DEFAULT_HINT} "
                        "when the opponent does not search)")
    seat = p.add_mutually_exclusive_group()
    seat.add_argument("--first", dest="second", action="store_false", help="you move first (default)")
    seat.add_argument("--second", dest="second", action="store_true", help="the engine moves first")
    p.set_defaults(second=False)
    p.add_argument("--seed", type=int, default=None, help="seed for the engine's random choices")
    return p


def _hint_spec(opponent_spec: str, explicit: str | None) -> str:
    if explicit:
        return explicit
    from zerosum.agents import parse_spec

    name, _ = parse_spec(opponent_spec)
    return DEFAULT_HINT if name in ("random", "human") else opponent_spec


def play_main(argv: Sequence[str] | None = None, input_fn: InputFn | None = None,
              output_fn: OutputFn | None = None) -> int:
    """``zerosum play``: returns 0 when the game ends or the person leaves, 2 on a bad command line."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in argv):
        _play_parser().print_help()
        return 0
    try:
        try:
            args = _play_parser().parse_args(argv)
        except UsageError as exc:
            raise UsageError(f"{exc} (zerosum play --help shows the options)") from None
        game = build_game(args.game, parse_variant(args.variant))
        from zerosum.agents import parse_spec

        try:
            two_people = parse_spec(args.opponent)[0] == "human"
        except ZerosumError as exc:
            raise UsageError(f"bad --opponent {args.opponent!r}: {exc}") from None
        opponent = None if two_people else build_agent(args.opponent, game, args.seed)
        hint_spec = _hint_spec(args.opponent, args.hint)
        build_agent(hint_spec, game, None, what="--hint")  # fail now, not at the first hint
    except UsageError as exc:
        print(f"zerosum play: {exc}", file=sys.stderr)
        return 2
    humans = {0, 1} if two_people else {1 if args.second else 0}
    if input_fn is None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:  # pragma: no cover - not on every platform
            pass
    out = output_fn or (lambda text: print(text, flush=True))
    session = PlaySession(game, opponent, humans, hint_spec, seed=args.seed,
                          input_fn=input_fn or input, output_fn=out)
    try:
        return session.run()
    except KeyboardInterrupt:
        out("\nInterrupted: the game is left unfinished.")
        return 130
    except BrokenPipeError:  # the output was closed (zerosum play ... | head)
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """After a broken pipe, send what is left of stdout (and its flush at exit) to devnull."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


# ---- replay ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Replay:
    """A stored tournament game made ready to show: every position, who played, what they thought.

    Built from :meth:`zerosum.evaluation.store.Store.game_record` (a ``StoredGame``: game
    name, variant, agents in seat order, opening, every action from the start, result).
    """

    game: Game
    game_id: Any
    actions: tuple[int, ...]
    agents: tuple[str, str]
    opening: int
    result: str | None
    termination: str | None
    error: str | None
    states: tuple[State, ...]
    thoughts: Mapping[int, str] = field(default_factory=dict)

    @classmethod
    def from_record(cls, record: Any, thoughts: Mapping[int, str] | None = None) -> Replay:
        """Rebuild every position of a stored game, checking each move against the rules."""
        variant = {k: tuple(v) if isinstance(v, list) else v for k, v in dict(record.variant).items()}
        game = build_game(str(record.game), variant)
        actions = tuple(int(a) for a in record.actions)
        states = [game.initial_state()]
        for i, a in enumerate(actions):
            try:
                states.append(game.apply(states[-1], a))
            except (ZerosumError, ValueError) as exc:
                raise UsageError(f"stored game {record.game_id} has an illegal move {i + 1} ({a}): {exc}") from None
        return cls(game, record.game_id, actions, (str(record.agents[0]), str(record.agents[1])),
                   len(record.opening), record.result, record.termination, record.error, tuple(states),
                   dict(thoughts or {}))

    def caption(self, ply: int) -> str:
        """A one-line caption for position ``ply`` (0 = the start)."""
        if ply == 0:
            return f"game {self.game_id}: start"
        mover = self.game.current_player(self.states[ply - 1])
        who = "opening" if ply <= self.opening else self.agents[mover]
        return f"{ply}. player {mover} ({who}) {move_name(self.game, self.actions[ply - 1], self.states[ply - 1])}"

    def final_words(self) -> str:
        """The stored result in words (a forfeit says why)."""
        outcome = self.game.outcome(self.states[-1])
        winner = outcome.winner
        if self.result == "1-0":
            winner = 0
        elif self.result == "0-1":
            winner = 1
        elif self.result is not None:
            winner = None
        words = f"player {winner} ({self.agents[winner]}) wins" if winner is not None else "a draw"
        if self.result is None and outcome == Outcome.ONGOING:
            words = "unfinished"
        text = f"Result: {self.result + ', ' if self.result else ''}{words} after {len(self.actions)} moves"
        if self.termination and self.termination != "end":
            text += f" (ended by {self.termination}{': ' + self.error if self.error else ''})"
        return text + "."

    def text(self) -> str:
        """The whole game as text, move by move, each position drawn by ``game.render``."""
        g = self.game
        variant = ", ".join(f"{k}={v}" for k, v in g.variant.items())
        lines = [f"game {self.game_id}: {g.name}{f' ({variant})' if variant else ''}",
                 f"player 0: {self.agents[0]}", f"player 1: {self.agents[1]}"]
        if self.opening:
            lines.append(f"opening: the first {self.opening} moves were given (random plies), not chosen")
        lines += ["", "start", g.render(self.states[0])]
        for ply in range(1, len(self.states)):
            lines += ["", self.caption(ply)]
            if ply - 1 in self.thoughts:
                lines.append(f"  {self.thoughts[ply - 1]}")
            lines.append(g.render(self.states[ply]))
        lines += ["", self.final_words()]
        return "\n".join(lines)

    def frames(self) -> list[Any]:
        """PIL images: the start position and one per move, each with its caption below."""
        from PIL import Image, ImageDraw

        from zerosum.envs import ENVS, env_module

        env_names = sorted(n for n, (_, game_name) in ENVS.items() if game_name == self.game.name)
        if not env_names:
            raise UsageError(f"no environment draws {self.game.name}; environments: {', '.join(sorted(ENVS))}")
        draw = env_module(env_names[-1]).draw  # the newest version of the game's env
        images = []
        for ply, state in enumerate(self.states):
            board = Image.fromarray(draw(self.game, state)).convert("RGB")
            bar = 22
            img = Image.new("RGB", (max(board.width, 240), board.height + bar), (255, 255, 255))
            img.paste(board, (0, 0))
            ImageDraw.Draw(img).text((6, board.height + 5), self.caption(ply), fill=(0, 0, 0))
            images.append(img)
        return images

    def write_gif(self, path: str, fps: float = 2.0) -> int:
        """Write the animation; returns the number of frames (the start position + one per move)."""
        images = self.frames()
        duration = [max(20, int(round(1000 / fps)))] * len(images)
        duration[-1] = max(duration[-1], 2000)  # linger on the final position
        images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=duration,
                       loop=0, optimize=False)
        return len(images)


def _stored_thoughts(store: Any, record: Any) -> dict[int, str]:
    """Per-ply search statistics from the store's moves table (empty if it has none)."""
    import json
    import sqlite3

    try:
        rows = store.conn.execute("SELECT ply, time, nodes, depth, value, pv FROM moves WHERE game_id = ? "
                                  "ORDER BY ply", (int(record.game_id),)).fetchall()
    except (sqlite3.Error, ZerosumError, ValueError):
        return {}
    out = {}
    for ply, seconds, nodes, depth, value, pv in rows:
        if nodes is None and value is None:
            out[int(ply)] = f"time {seconds:.3f} s"
            continue
        parts = []
        if value is not None:
            parts.append(f"value {describe_value(value)}")
        if depth is not None:
            parts.append(f"depth {depth}")
        if nodes is not None:
            parts.append(f"nodes {int(nodes):,}")
        parts.append(f"time {seconds:.3f} s")
        if pv:
            try:
                parts.append(f"pv {join_moves([str(m) for m in json.loads(pv)])}")
            except (ValueError, TypeError):
                pass
        out[int(ply)] = ", ".join(parts)
    return out


def load_replay(db: str, game_id: str) -> Replay:
    """Read one game from a tournament database (``Store(db).game_record(game_id)``)."""
    import os

    from zerosum.evaluation.store import Store

    if not os.path.isfile(db):
        raise UsageError(f"no tournament database at {db!r}")
    try:
        key = int(game_id)
    except ValueError:
        raise UsageError(f"a game id is an integer; got {game_id!r}") from None
    store = Store(db)
    try:
        record = store.game_record(key)
        thoughts = _stored_thoughts(store, record)
    except (ZerosumError, ValueError, LookupError) as exc:
        raise UsageError(str(exc)) from None
    finally:
        store.close()
    return Replay.from_record(record, thoughts)


def _replay_parser() -> _Parser:
    p = _Parser(prog="zerosum replay",
                description="Show a stored tournament game move by move as text (each position drawn as in "
                            "zerosum play, with each agent's search statistics), or write an animated GIF of "
                            "the environment's drawings: one frame for the start position plus one per move.",
                epilog="Example: zerosum replay results/tictactoe/tournament.sqlite 3 --gif game3.gif --fps 2")
    p.add_argument("db", help="the tournament database (SQLite) written by zerosum tournament")
    p.add_argument("game_id", help="the game's id in the database (games are numbered from 1)")
    p.add_argument("--gif", default=None, metavar="OUT.gif", help="write an animated GIF instead of text")
    p.add_argument("--fps", type=float, default=2.0, help="frames per second of the GIF (default 2)")
    return p


def replay_main(argv: Sequence[str] | None = None) -> int:
    """``zerosum replay``: 0 on success, 2 on a bad command line, database or game id."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in argv):
        _replay_parser().print_help()
        return 0
    try:
        try:
            args = _replay_parser().parse_args(argv)
        except UsageError as exc:
            raise UsageError(f"{exc} (zerosum replay --help shows the options)") from None
        if not args.fps > 0:
            raise UsageError(f"--fps must be a positive number of frames per second; got {args.fps}")
        replay = load_replay(args.db, args.game_id)
        if args.gif:
            n = replay.write_gif(args.gif, args.fps)
            print(f"wrote {args.gif}: {n} frames (the start position and {n - 1} moves)")
        else:
            print(replay.text(), flush=True)
    except BrokenPipeError:  # zerosum replay ... | head
        _silence_stdout()
        return 0
    except UsageError as exc:
        print(f"zerosum replay: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"zerosum replay: cannot write {args.gif!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
