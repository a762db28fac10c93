"""``zerosum play``: the CLI driven through a pipe as a person would type.

The interactive tests read the program's output up to each prompt, keep their own copy
of the game from what the engine says it played, and choose what to type from that, so
they check the transcript against the rules rather than against a recorded transcript.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zerosum.agents import Agent
from zerosum.cli.describe import describe_value, join_moves
from zerosum.cli.play import PlaySession, play_main
from zerosum.envs import make
from zerosum.games import make_game

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "your move> "
GAME_OVER = "Enter to leave> "
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}


def run_cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """The real command line, ``python -m zerosum ...``."""
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=ENV)


class Terminal:
    """A ``zerosum play`` process behind pipes: read up to the prompt, type a line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "zerosum", "play", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
        self.transcript = ""

    def read(self, timeout: float = 90) -> str:
        """Output up to the next prompt (or to the end); returns it."""
        fd, chunks, deadline = self.proc.stdout.fileno(), [], time.monotonic() + timeout
        while True:
            text = b"".join(chunks).decode()
            if text.endswith((PROMPT, GAME_OVER)):
                break
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                self.proc.kill()
                raise AssertionError(f"no prompt within {timeout} s; output so far:\n{self.transcript}{text}")
            data = os.read(fd, 65536)
            if not data:
                break
            chunks.append(data)
        self.transcript += text
        return text

    def type(self, line: str) -> str:
        """Type a line and return what the program answers, up to the next prompt."""
        self.transcript += line + "\n"
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return self.read()

    def finish(self) -> int:
        self.proc.stdin.close()
        rest = self.proc.stdout.read().decode()
        self.transcript += rest
        err = self.proc.stderr.read().decode()
        code = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        self.proc.stderr.close()
        assert "Traceback" not in err, err
        return code


def engine_moves(text: str) -> list[str]:
    return re.findall(r"^engine \(player \d\) plays (.+)$", text, re.M)


def test_tictactoe_full_game_through_a_pipe():
    """Typo, illegal move, help, hint and undo along the way; the final board and result checked."""
    game = make_game("tictactoe")
    state = game.initial_state()
    term = Terminal("tictactoe", "--opponent", "alphabeta(depth=9, tie_break=off)", "--first", "--seed", "0")
    out = term.read()
    assert "You are player 0" in out and game.render(state) in out

    out = term.type("zz")
    assert "cannot read move 'zz'" in out and "help" in out
    out = term.type("help")
    assert "legal moves (9 of 9):" in out and "a1, b1, c1, a2, b2, c2, a3, b3, c3" in out
    out = term.type("hint")
    hint = re.search(r"^hint: (\S+)\s+\(alphabeta\(depth=9, tie_break=off\): value \+0 for you, depth 9, nodes [\d,]+, "
                     r"time [\d.]+ s, pv ", out, re.M)
    assert hint, out
    game.string_to_action(hint.group(1), state)  # a readable, legal move
    out = term.type("undo")
    assert "Nothing to undo" in out

    played: list[str] = []

    def play(move: str) -> str:
        nonlocal state
        state = game.apply(state, game.string_to_action(move, state))
        answer = term.type(move)
        replies = engine_moves(answer)
        assert len(replies) == (0 if game.is_terminal(state) else 1), answer
        played.append(move)
        for reply in replies:
            state = game.apply(state, game.string_to_action(reply, state))
            played.append(reply)
        assert re.search(r"value (\+0|[+-][\d.]+|win in \d+ pl\w+|loss in \d+ pl\w+) for the engine, depth \d+, "
                         r"nodes [\d,]+, time [\d.]+ s, pv \w", answer) or game.is_terminal(state), answer
        return answer

    play("a1")  # a corner: the engine must answer in the centre
    assert (state[1] >> 4) & 1, "the perfect engine answers a corner opening in the centre"
    taken = game.action_to_string(4)
    out = term.type(taken)
    assert "is not legal here" in out and "legal:" in out
    before = state.copy()
    out = play(next(game.action_to_string(int(a)) for a in game.legal_actions(state)))
    out = term.type("undo")
    assert "Took back 2 moves" in out and game.render(before) in out
    state = before
    del played[-2:]
    for attempt in range(2):  # play to the end, take the last move back at the game-over prompt, play again
        while not game.is_terminal(state):
            out = play(game.action_to_string(int(game.legal_actions(state)[-1 - attempt])))
        end = out.rsplit(PROMPT, 1)[-1]
        assert game.render(state) in end
        words = {0: "You win (player 0)", 1: "The engine wins (player 1)", None: "a draw"}[game.outcome(state).winner]
        assert f"Result: {words} after {len(played)} moves." in end
        assert "Moves: " + " ".join(played) + "\n" in end and end.endswith(GAME_OVER)
        if attempt == 0:
            last_mine = max(i for i in range(len(played)) if i % 2 == 0)
            out = term.type("undo")
            assert f"Took back {len(played) - last_mine} move" in out, out
            del played[last_mine:]
            state = game.initial_state()
            for name in played:
                state = game.apply(state, game.string_to_action(name, state))
            assert game.render(state) in out
    assert term.finish() == 0


def test_nim_played_by_the_hints_is_won():
    """Following perfect_nim's hints from a winning position wins against perfect_nim."""
    game = make_game("nim", piles=(3, 4, 5))
    term = Terminal("nim", "--variant", "piles=3,4,5", "--opponent", "perfect_nim", "--seed", "1")
    out = term.read()
    assert "nim (piles=(3, 4, 5), misere=False)" in out
    state = game.initial_state()
    while True:
        hint = re.search(r"^hint: (\S+)", term.type("hint"), re.M).group(1)
        state = game.apply(state, game.string_to_action(hint, state))
        if game.is_terminal(state):
            break
        out = term.type(hint)
        (reply,) = engine_moves(out)
        state = game.apply(state, game.string_to_action(reply, state))
    term.proc.stdin.write((hint + "\n").encode())
    assert term.finish() == 0
    assert "Result: You win (player 0)" in term.transcript


def test_end_of_input_and_quit_leave_cleanly():
    r = run_cli("play", "nim", "--variant", "piles=3,4", "--opponent", "random", stdin="")
    assert r.returncode == 0 and "End of input" in r.stdout and not r.stderr
    r = run_cli("play", "tictactoe", "--opponent", "random", stdin="help c\nquit\n")
    assert r.returncode == 0 and "legal moves starting with 'c' (3 of 9):" in r.stdout
    assert "You left the game." in r.stdout


class Scripted(Agent):
    """Plays the first legal move of its list (for a scripted Nine Men's Morris game)."""

    name = "scripted"

    def __init__(self, moves: list[str]) -> None:
        super().__init__(0)
        self.moves = moves

    def act(self, game, state):
        legal = {int(a) for a in game.legal_actions(state)}
        for m in self.moves:
            a = game.string_to_action(m, state)
            if a in legal:
                return a
        return min(legal)


def test_repeated_turns_and_undo_to_the_previous_decision_point():
    """Closing a mill gives the person a second turn; undo steps back one decision point at a time."""
    game = make_game("nine_mens_morris")
    typed = iter(["a7", "d7", "g7", "undo", "undo", "d7", "g7", "x g7", "x b2", "quit"])
    out: list[str] = []
    session = PlaySession(game, Scripted(["b2", "f2", "d2"]), {0}, "alphabeta(depth=1)",
                          input_fn=lambda prompt: (out.append(prompt), next(typed))[1], output_fn=out.append)
    assert session.run() == 0
    text = "\n".join(out)
    assert "Took back 1 move: g7" in text  # from the removal turn back to the mill-closing move
    assert "Took back 2 moves: d7 f2" in text  # then the person's move and the engine's reply
    assert "must remove a man" in text
    expected, state = [], game.initial_state()
    for name in ["a7", "b2", "d7", "f2", "g7", "x b2", "b2"]:
        expected.append(game.string_to_action(name, state))
        state = game.apply(state, expected[-1])
    assert session.actions == expected
    assert "x g7" in text and "not legal" in text


def test_every_landed_game_starts_and_takes_a_typed_move():
    """Whatever games are registered, play works through the protocol alone."""
    from zerosum.games import GAMES

    for name in GAMES:
        game = make_game(name)
        first = game.action_to_string(int(game.legal_actions(game.initial_state())[0]))
        out: list[str] = []
        typed = iter([first, "quit"])
        session = PlaySession(game, Scripted([]), {0}, "random", input_fn=lambda p: next(typed), output_fn=out.append)
        assert session.run() == 0, name
        assert session.actions[0] == game.string_to_action(first, game.initial_state()), name
        assert game.render(game.initial_state()) in out, name


def test_the_cli_board_is_the_ansi_render():
    env = make("tictactoe_v0", render_mode="ansi")
    env.reset(seed=0)
    r = run_cli("play", "tictactoe", "--opponent", "random", stdin="quit\n")
    assert env.render() in r.stdout


@pytest.mark.parametrize(("argv", "message"), [
    (["mahjong"], "unknown game 'mahjong'; available:"),
    (["nim", "--variant", "piles"], "bad --variant 'piles': write key=value"),
    (["nim", "--variant", "colour=red"], "bad variant for nim"),
    (["nim", "--variant", "piles=0"], "piles=(0,) is not allowed"),
    (["nim", "--opponent", "alphabeta(depth=2"], "malformed agent spec"),
    (["nim", "--opponent", "bogus"], "unknown agent 'bogus'"),
    (["tictactoe", "--opponent", "perfect_nim"], "perfect_nim plays Nim only"),
    (["tictactoe", "--opponent", "alphabeta(heuristic=nope)"], "unknown heuristic 'nope'"),
    (["tictactoe", "--hint", "mcts(sims=0)"], "bad --hint"),
    (["tictactoe", "--first", "--second"], "not allowed with argument --first"),
    (["tictactoe", "--seed", "x"], "invalid int value: 'x'"),
    ([], "the following arguments are required: game"),
])
def test_bad_play_arguments_are_one_line_errors(argv, message, capsys):
    assert play_main(argv, input_fn=lambda p: "quit") == 2
    err = capsys.readouterr().err
    assert err.startswith("zerosum play: ") and message in err and err.count("\n") == 1, err


def test_bad_arguments_through_the_command():
    r = run_cli("play", "tictactoe", "--variant", "size=4")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("zerosum play: bad variant for tictactoe")
    r = run_cli("replay", "no/such.sqlite", "1")
    assert r.returncode == 2 and r.stderr == "zerosum replay: no tournament database at 'no/such.sqlite'\n"


def test_values_and_moves_in_words():
    assert describe_value(0.0) == "+0" and describe_value(-0.0) == "+0"
    assert describe_value(1_000_000.0 - 3) == "win in 3 plies" and describe_value(-(1_000_000.0 - 1)) == "loss in 1 ply"
    assert join_moves(["b2", "a1"]) == "b2 a1" and join_moves(["c4 q2 cw", "a1 q0 ccw"]) == "c4 q2 cw, a1 q0 ccw"
