"""A person at a terminal, behind the same Agent interface (``zerosum play`` seats one)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

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

    A move that takes several actions of the same player may be typed whole (a checkers
    multi-jump, ``21x14x7``: ``Game.string_to_actions``): the whole chain is checked first, then
    ``act`` returns its first action and the next calls the rest, without asking again.
    """

    name = "human"
    """Shown as ``human``."""

    def __init__(self, input_fn: Callable[[str], str] = input, output_fn: Callable[[str], None] = print,
                 rng: Rng = None, *, prompt: str | Callable[[Game, State], str] = "your move> ",
                 commands: Mapping[str, Command] | None = None, help_text: str = "") -> None:
        super().__init__(rng)
        self.input_fn, self.output_fn = input_fn, output_fn
        self.prompt, self.commands, self.help_text = prompt, dict(commands or {}), help_text
        self._queued: list[tuple[State, Action]] = []

    def typed_ahead(self, state: State) -> bool:
        """True when ``act`` at ``state`` returns the next action of a move typed whole, reading nothing."""
        return bool(self._queued) and np.array_equal(self._queued[0][0], state)

    def act(self, game: Game, state: State) -> Action:
        """Read lines until one is a legal move; return it (the state is not changed)."""
        if self._queued:  # the rest of a move typed whole, while the game is where that move left it
            expected, queued = self._queued.pop(0)
            if np.array_equal(expected, state):
                return queued
            self._queued.clear()
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
        """The legal action ``text`` names (the first of a move typed whole), or None after
        telling the person why not."""
        try:
            actions = [int(a) for a in game.string_to_actions(text, state)]
        except Exception as exc:  # noqa: BLE001 - a game's parser: any failure is a typo, never a traceback
            self.output_fn(f"{exc}\n(type help for the legal moves)" if str(exc) else
                           f"cannot read move {text!r} (type help for the legal moves)")
            return None
        if len(actions) > 1:
            return self._whole_move(game, state, text, actions)
        action = actions[0]
        if bool((game.legal_actions(state) == action).any()):
            return action
        try:  # the rules say why (a Morris removal must take a man outside a mill, ...)
            game.apply(state, action)
            reason = f"{text!r} is not legal here; type help for the legal moves"
        except (IllegalActionError, ValueError) as exc:
            reason = str(exc)
        self.output_fn(reason if text.lower() in reason.lower() else f"{text!r}: {reason}")
        return None

    def _whole_move(self, game: Game, state: State, text: str, actions: list[int]) -> Action | None:
        """Check every action of a move typed whole (each legal, all by the player to move);
        queue all but the first and return it, or None after saying which part fails."""
        mover, s = game.current_player(state), state
        chain: list[tuple[State, Action]] = []
        for i, a in enumerate(actions):
            part = game.action_to_string(a, s)
            if i and (game.is_terminal(s) or game.current_player(s) != mover):
                self.output_fn(f"{text!r}: the move ends after {game.action_to_string(*chain[-1][::-1])}; "
                               f"{part} is not part of it")
                return None
            try:
                child = game.apply(s, a)
            except (IllegalActionError, ValueError) as exc:
                self.output_fn(f"{text!r}: part {i + 1} ({part}): {exc}")
                return None
            chain.append((s, a))
            s = child
        self._queued = chain[1:]
        return chain[0][1]
