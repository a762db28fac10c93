"""A person at a terminal, behind the same Agent interface."""

from __future__ import annotations

from collections.abc import Callable

from zerosum.agents.base import Agent
from zerosum.games.base import Action, Game, IllegalActionError, State


class HumanAgent(Agent):
    """Reads moves in readable form (``b2``, ``c4 q2 cw``); ``help`` lists the legal ones.

    Input and output are injectable (``input_fn``, ``output_fn``) so that the CLI and tests
    can drive it. A typo or an illegal move gets the reason and the prompt again.
    """

    name = "human"

    def __init__(self, input_fn: Callable[[str], str] = input, output_fn: Callable[[str], None] = print,
                 rng=None) -> None:
        super().__init__(rng)
        self.input_fn, self.output_fn = input_fn, output_fn

    def act(self, game: Game, state: State) -> Action:
        legal = game.legal_actions(state)
        while True:
            text = self.input_fn("your move (help lists the legal moves): ").strip()
            if text.lower() in ("help", "?"):
                self.output_fn("legal: " + ", ".join(game.action_name(int(a), state) for a in legal))
                continue
            try:
                action = game.string_to_action(text, state)
            except IllegalActionError as exc:
                self.output_fn(str(exc))
                continue
            if action in legal:
                return int(action)
            self.output_fn(f"{text!r} is not legal here; type help for the legal moves")
