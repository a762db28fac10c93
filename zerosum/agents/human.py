"""A person at a terminal, behind the same Agent interface (``zerosum play`` seats one)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from zerosum.agents.base import Agent, Rng
from zerosum.games.kit import Action, Game, IllegalActionError, State

Command = Callable[[str], bool]
"""A word the person may type besides moves: called with the rest of the line; True when it
was handled (read the next line), False to read the line as a move. It may raise to end
``act`` (the play session's ``undo`` and ``quit`` do)."""


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


def legal_moves_text(game: Game, state: State, prefix: str = "") -> str:
    """``legal moves (N of M):`` and the legal moves' names (those starting with ``prefix``), in the
    game's notation (``Game.move_name``: SAN in chess)."""
    names = [game.move_name(int(a), state) for a in game.legal_actions(state)]
    shown = [n for n in names if n.lower().startswith(prefix.lower())] if prefix else names
    head = f"legal moves{f' starting with {prefix!r}' if prefix else ''} ({len(shown)} of {len(names)}):"
    return head + ("\n" + wrap_moves(shown) if shown else "")


class HumanAgent(Agent):
    """Reads moves in readable form (``b2``, ``c4 q2 cw``); ``help [PREFIX]`` lists the legal ones.

    Input and output are injectable (``input_fn``, ``output_fn``) so that the CLI and tests
    can drive it. A typo or an illegal move gets the game's reason and the prompt again;
    an empty line is ignored; the end of input (EOFError from ``input_fn``) propagates.
    ``prompt`` is a text or ``prompt(game, state)``; ``commands`` adds words besides moves
    (see :data:`Command`), and ``help_text`` is shown after the legal moves.
    """

    name = "human"
    """Shown as ``human``."""

    def __init__(self, input_fn: Callable[[str], str] = input, output_fn: Callable[[str], None] = print,
                 rng: Rng = None, *, prompt: str | Callable[[Game, State], str] = "your move> ",
                 commands: Mapping[str, Command] | None = None, help_text: str = "") -> None:
        super().__init__(rng)
        self.input_fn, self.output_fn = input_fn, output_fn
        self.prompt, self.commands, self.help_text = prompt, dict(commands or {}), help_text

    def act(self, game: Game, state: State) -> Action:
        """Read lines until one is a legal move; return it (the state is not changed)."""
        while True:
            prompt = self.prompt(game, state) if callable(self.prompt) else self.prompt
            text = self.input_fn(prompt).strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("help", "?", "moves"):
                more = f"\n{self.help_text}" if self.help_text else ""
                self.output_fn(legal_moves_text(game, state, rest.strip()) + more)
                continue
            handler = self.commands.get(command)
            if handler is not None and handler(rest.strip()):
                continue
            action = self.read_move(game, state, text)
            if action is not None:
                return action

    def read_move(self, game: Game, state: State, text: str) -> Action | None:
        """The legal action ``text`` names, or None after telling the person why not."""
        try:
            action = int(game.string_to_action(text, state))
        except Exception as exc:  # noqa: BLE001 - a game's parser: any failure is a typo, never a traceback
            self.output_fn(f"{exc}\n(type help for the legal moves)" if str(exc) else
                           f"cannot read move {text!r} (type help for the legal moves)")
            return None
        if bool((game.legal_actions(state) == action).any()):
            return action
        try:  # the rules say why (a Morris removal must take a man outside a mill, ...)
            game.apply(state, action)
            reason = f"{text!r} is not legal here; type help for the legal moves"
        except (IllegalActionError, ValueError) as exc:
            reason = str(exc)
        self.output_fn(reason if text.lower() in reason.lower() else f"{text!r}: {reason}")
        return None
