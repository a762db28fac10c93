"""``zerosum play``: a person against an engine in the terminal.

``zerosum play GAME --opponent SPEC`` draws the board with ``game.render`` (the same text
as the environments' ``render_mode="ansi"``) and reads moves through
:class:`~zerosum.agents.HumanAgent` in the game's readable form (``b2``, ``p2x3``,
``a1-d1``, ``x d7``, ...), answering a typo or an illegal move with the reason and the
prompt again. Besides moves the person may type::

    help [PREFIX]   the legal moves (those starting with PREFIX), and these commands
    hint            the engine's suggestion for this position, with its analysis
    undo            take back your last move and the engine's reply
    board           draw the board again
    resign          give the game up: it ends with the opponent's win
    quit            leave the game (unfinished)

The engine is the game's ``default_opponent`` unless ``--opponent`` names another. Moves are
shown, listed and read in the game's notation (``Game.move_name``: SAN in chess); a move of
several actions may be typed whole (a checkers multi-jump, ``21x14x7``). The board is drawn
in whatever encoding the terminal has (ASCII pieces where it lacks chess's figurines).

After every engine move the engine's analysis is shown: value, depth, nodes, principal
variation and time. ``--save PATH`` keeps the game in a file as it goes (after every move and
take-back, so a game left or finished is on disk): ``.pgn`` for chess, ``.sgf`` for the games
in SGF's list (Go, Othello, Gomoku, Nine Men's Morris, Hex, ...), ``.json`` for any game
(:mod:`zerosum.games.records`); ``zerosum replay PATH`` shows it again.
Nothing assumes that the players alternate: the loop always asks
``game.current_player`` (in Nine Men's Morris a mill gives the same player a second turn).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from zerosum.agents.base import Agent
from zerosum.agents.human import HumanAgent
from zerosum.cli.common import (
    Parser, UsageError, add_variant, build_agent, build_game, parse_variant, run_command, silence_stdout,
)
from zerosum.cli.describe import describe_search, join_moves
from zerosum.cli.terminal import for_terminal
from zerosum.games import Game, Outcome, State, ZerosumError
from zerosum.games.records import GameRecord, RecordError, check_path, today, write_record

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

COMMANDS_HELP = ("commands: help [PREFIX] lists the legal moves (starting with PREFIX); hint asks the engine; "
                 "undo takes back your last move and the engine's reply; board redraws; resign gives the game "
                 "up; quit leaves")


class _Leave(Exception):
    """The person typed quit."""


class _Resign(Exception):
    """The person typed resign."""


class _TookBack(Exception):
    """The person took moves back: the turn starts again from an earlier position."""


def result_in_words(game: Game, state: State, humans: set[int], plies: int, resigned: int | None = None) -> str:
    """The final result, said from the person's side, with how the game ended where the game
    says (``Game.result_reason``: a draw by repetition, the fifty-move rule, ...); ``resigned``:
    the player who gave the game up."""
    moves = f"after {plies} {'move' if plies == 1 else 'moves'}"
    if resigned is not None:
        winner, how = 1 - resigned, f"player {resigned} resigned"
        if len(humans) == 1:
            how = "you resigned" if resigned in humans else "the engine resigned"
    else:
        outcome = game.outcome(state)
        reason = game.result_reason(state)
        if outcome == Outcome.DRAW:
            return f"Result: a draw{f' by {reason}' if reason else ''} {moves}."
        if outcome.winner is None:
            return f"Result: the game is not over ({outcome.name})."
        winner, how = outcome.winner, reason
    said = f" ({how})" if how else ""
    if len(humans) == 1:
        who = "You win" if winner in humans else "The engine wins"
        return f"Result: {who} (player {winner}) {moves}{said}."
    return f"Result: player {winner} wins {moves}{said}."


def _bare(action: Callable[[], None]) -> Callable[[str], bool]:
    """A command word that takes nothing after it (``undo x`` is read as a move, not as undo)."""
    def command(rest: str) -> bool:
        if rest:
            return False
        action()
        return True
    return command


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
    save_path: str | None = None
    """Where the game is kept as it goes (``--save``), or None."""
    _hint_agent: Agent | None = None
    _date: str = field(default_factory=today)

    def __post_init__(self) -> None:
        if not self.history:
            self.history = [self.game.initial_state()]
        commands = {"hint": _bare(self._hint), "undo": _bare(self._undo_command), "board": _bare(self._board)}
        commands.update(dict.fromkeys(("quit", "exit"), self._leave))
        commands["resign"] = _bare(self._resign)
        self.human = HumanAgent(self.input_fn, self.output_fn, prompt=self._prompt, commands=commands,
                                help_text=COMMANDS_HELP)

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
                if player not in self.humans:
                    self._engine_turn(player)
                    show_board = True
                    continue
                if show_board:
                    self.say(g.render(self.state))
                outcome = self._human_turn()
                if outcome == "quit":
                    self.save(termination="abandoned")
                    self.say("You left the game.")
                    return 0
                if outcome == "resign":
                    loser = g.current_player(self.state)
                    self.save(result="0-1" if loser == 0 else "1-0", termination="normal")
                    self.say(result_in_words(g, self.state, self.humans, len(self.actions), resigned=loser))
                    self.say("Moves: " + join_moves(self._names(0)))
                    return 0
                if outcome == "eof":
                    self.save(termination="abandoned")
                    self.say("\nEnd of input: the game is left unfinished.")
                    return 0
                show_board = outcome != "undo"
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
        if len(self.humans) == 1 and self.opponent is not None:
            me = next(iter(self.humans))
            first = "you move first" if g.current_player(self.state) == me else "the engine moves first"
            self.say(f"You are player {me}, the engine {self.opponent.name} is player {1 - me}; {first}.")
        else:
            self.say(f"Two people take turns at this terminal; player {g.current_player(self.state)} moves first.")
        legal = g.legal_actions(self.state)
        example = g.move_name(int(legal[0]), self.state) if len(legal) else "?"
        self.say(f"Type a move such as {example!r}. {COMMANDS_HELP}.")

    def _prompt(self, game: Game, state: State) -> str:
        return f"[move {len(self.actions) + 1}] player {game.current_player(state)}, your move> "

    def _human_turn(self) -> str:
        """One move read through the HumanAgent; returns 'move', 'undo', 'quit' or 'eof'."""
        here = len(self.history) - 1
        if (not self.decision_points or self.decision_points[-1] != here) and not self.human.typed_ahead(self.state):
            self.decision_points.append(here)  # the rest of a move typed whole is no decision: undo takes it all
        try:
            action = self.human.act(self.game, self.state)
        except EOFError:
            return "eof"
        except _Leave:
            return "quit"
        except _Resign:
            return "resign"
        except _TookBack:
            return "undo"
        self._push(action, self.game.apply(self.state, action))
        return "move"

    def _leave(self, rest: str) -> bool:
        raise _Leave

    def _resign(self) -> None:
        raise _Resign

    def _board(self) -> None:
        self.say(self.game.render(self.state))

    def _undo_command(self) -> None:
        if self._undo():
            raise _TookBack

    def _names(self, start: int) -> list[str]:
        """Readable names of the moves played from ply ``start`` on."""
        return [self.game.move_name(a, self.history[i]) for i, a in enumerate(self.actions) if i >= start]

    def _push(self, action: int, child: State) -> None:
        self.actions.append(int(action))
        self.history.append(child)
        self.save()

    def record(self, result: str | None = None, termination: str | None = None) -> GameRecord:
        """The game so far as a record: the players, today's date, the moves, the result (the
        final position's unless given)."""
        g = self.game
        names = tuple("you" if p in self.humans and len(self.humans) == 1 else
                      f"person {p}" if p in self.humans else
                      (self.opponent.name if self.opponent is not None else "engine") for p in (0, 1))
        first = self.history[0]
        start = None if np.array_equal(first, g.initial_state()) else first
        return GameRecord(g, tuple(self.actions), players=(names[0], names[1]), date=self._date, result=result,
                          termination=termination, event="zerosum play", start=start)

    def save(self, result: str | None = None, termination: str | None = None) -> None:
        """Keep the game at ``save_path`` (nothing without one); ``termination`` as PGN's values
        (``abandoned`` for a game left), else by the final position."""
        if self.save_path is None:
            return
        try:
            write_record(self.save_path, self.record(result, termination))
        except OSError as exc:
            self.say(f"cannot save the game to {self.save_path!r}: {exc.strerror or exc}")

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
        self.save()
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
        self.say(f"hint: {g.move_name(action, state)}   ({self._hint_agent.name}: {detail})")

    def _engine_turn(self, player: int) -> None:
        g, state = self.game, self.state
        if self.opponent is None:
            raise ZerosumError(f"player {player} is not a person and there is no engine to play it")
        start = time.perf_counter()
        action = int(self.opponent.act(g, state))
        elapsed = time.perf_counter() - start
        child = g.apply(state, action)  # an engine's illegal move is a bug: let it raise
        self.say(f"engine (player {player}) plays {g.move_name(action, state)}")
        self.say(f"  {describe_search(g, state, self.opponent.last_stats, elapsed)}")
        self._push(action, child)


def parser() -> Parser:
    """The argument parser of ``zerosum play``."""
    from zerosum.values import available_games

    p = Parser(
        prog="zerosum play",
        description="Play a game against an engine in the terminal. Type moves in readable form; "
                    "help lists the legal moves, hint asks the engine, undo takes back your last move "
                    "and the reply, board redraws, quit leaves.",
        epilog=f"games: {', '.join(available_games())}. Agent specs: random, alphabeta(depth=4), "
               "alphabeta(time=1, heuristic=NAME), mcts(sims=500), minimax(depth=2), perfect_nim.\n"
               "Example: zerosum play nim --variant piles=3,4,5 misere=true --opponent perfect_nim --second",
    )
    p.add_argument("game", help="the game to play")
    add_variant(p)
    p.add_argument("--opponent", default=None, metavar="SPEC",
                   help="the engine's agent spec (default: the game's default_opponent, what plays it best at "
                        "about 0.1 s a move); 'human' for two people")
    p.add_argument("--hint", default=None, metavar="SPEC",
                   help="the agent that answers hint (default: the opponent's spec, or the game's default_opponent "
                        "when the opponent does not search)")
    seat = p.add_mutually_exclusive_group()
    seat.add_argument("--first", dest="second", action="store_false", help="you move first (default)")
    seat.add_argument("--second", dest="second", action="store_true", help="the engine moves first")
    p.set_defaults(second=False)
    p.add_argument("--seed", type=int, default=None, help="seed for the engine's random choices")
    p.add_argument("--fen", default=None, metavar="FEN", help="chess: start from this position")
    p.add_argument("--save", default=None, metavar="PATH",
                   help="keep the game in this file as it goes: .pgn for chess, .sgf for Go, Othello, Gomoku, "
                        "Nine Men's Morris, Hex and the other games of SGF's list, .json for any game; "
                        "zerosum replay PATH shows it")
    return p


def _hint_spec(game: Game, opponent_spec: str, explicit: str | None) -> str:
    if explicit:
        return explicit
    from zerosum.agents import parse_spec

    name, _ = parse_spec(opponent_spec)
    return game.default_opponent if name in ("random", "human") else opponent_spec


def _session(argv: Sequence[str], input_fn: InputFn | None, output_fn: OutputFn | None) -> PlaySession:
    """Everything checked before the game starts: the game, the variant, both agent specs."""
    args = parser().parse_args(argv)
    game = build_game(args.game, parse_variant(args.variant))
    from zerosum.agents import parse_spec

    opponent_spec = game.default_opponent if args.opponent is None else args.opponent  # one source: the game
    try:
        two_people = parse_spec(opponent_spec)[0] == "human"
    except ZerosumError as exc:
        raise UsageError(f"bad --opponent {opponent_spec!r}: {exc}") from None
    opponent = None if two_people else build_agent(opponent_spec, game, args.seed)
    hint_spec = _hint_spec(game, opponent_spec, args.hint)
    build_agent(hint_spec, game, None, what="--hint")  # fail now, not at the first hint
    humans = {0, 1} if two_people else {1 if args.second else 0}
    out = output_fn or (lambda text: print(for_terminal(text), flush=True))  # any terminal encoding
    start = []
    if args.fen is not None:
        if not hasattr(game, "from_fen"):
            raise UsageError(f"--fen sets a chess position; {game.name} has no FEN")
        try:
            start = [game.from_fen(args.fen)]
        except ZerosumError as exc:
            raise UsageError(f"bad --fen {args.fen!r}: {exc}") from None
    if args.save is not None:
        try:
            check_path(game, args.save)
        except RecordError as exc:
            raise UsageError(f"bad --save: {exc}") from None
    session = PlaySession(game, opponent, humans, hint_spec, seed=args.seed, input_fn=input_fn or input,
                          output_fn=out, history=start, save_path=args.save)
    if args.save is not None:
        try:  # the file exists from the first move on, and a path that cannot be written fails now
            write_record(args.save, session.record())
        except (OSError, RecordError) as exc:
            raise UsageError(f"cannot save the game to {args.save!r}: {getattr(exc, 'strerror', None) or exc}") \
                from None
    return session


def play_main(argv: Sequence[str] | None = None, input_fn: InputFn | None = None,
              output_fn: OutputFn | None = None) -> int:
    """``zerosum play``: returns 0 when the game ends or the person leaves, 2 on a bad command line."""
    argv = list(sys.argv[1:] if argv is None else argv)
    sessions: list[PlaySession] = []
    code = run_command("zerosum play", lambda: sessions.append(_session(argv, input_fn, output_fn)))
    if not sessions:
        return code
    session = sessions[0]
    if input_fn is None and sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (line editing and history for input())
    try:
        return session.run()
    except KeyboardInterrupt:
        session.save(termination="abandoned")
        session.say("\nInterrupted: the game is left unfinished.")
        return 130
    except BrokenPipeError:  # the output was closed (zerosum play ... | head)
        silence_stdout()
        return 0


main = play_main
