"""Outside engines as agents of fixed cost: Stockfish for chess (UCI), GNU Go for Go (GTP).

    stockfish(nodes=20000)            # chess: Stockfish searching a fixed number of nodes a move
    stockfish(nodes=5000, skill=3)    # with its Skill Level (0-20), which plays weaker moves on purpose
    gnugo(level=5)                    # Go: GNU Go at a level 0-10, its random choices seeded per game

They are the outside anchors of the rated ladders (:mod:`zerosum.evaluation.scale_build`):
a fixed node budget or level costs the same on every machine, unlike Stockfish's
``UCI_LimitStrength``, which is calibrated on time controls. Each agent runs its engine as a
child process (Debian's ``stockfish`` and ``gnugo`` packages; ``path=`` names another binary),
started at its first move and ended with the agent. An engine that is not installed is an
:class:`EngineNotFound` when the agent is prepared, naming the package that brings it.

The engine is shown the position, not the game's history: Stockfish a FEN (so it does not see
repetitions coming), GNU Go the stones, replayed point by point, and the ko point as its own
rule (it is not told of a ko). Stockfish with ``Threads=1`` and no Skill Level is deterministic
for a node budget; Skill Level draws from Stockfish's own generator, so those games do not
replay exactly. GNU Go is given ``--seed`` from the agent's generator.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

from zerosum.agents.base import Agent, Rng
from zerosum.games.kit import Action, Game, State, ZerosumError


class EngineNotFound(ZerosumError, RuntimeError):
    """An outside engine's binary is not on this machine; the message names the package that installs it."""


class EngineError(ZerosumError, RuntimeError):
    """An outside engine ended or answered something it should not have."""


def find_engine(name: str, path: str | None, package: str) -> str:
    """The engine's binary: ``path``, or ``name`` on PATH or in /usr/games (Debian's place for them)."""
    found = shutil.which(path) if path else (shutil.which(name) or shutil.which(name, path="/usr/games"))
    if found is None:
        where = f"{path!r} is not an executable" if path else f"no {name!r} on PATH or in /usr/games"
        raise EngineNotFound(f"{where}: install it (Debian: apt-get install {package}) or pass path=")
    return found


class EngineAgent(Agent):
    """An agent whose moves come from an engine process spoken to line by line."""

    game_name = ""
    """The game the engine plays."""

    def __init__(self, rng: Rng = None, path: str | None = None) -> None:
        super().__init__(rng)
        self.path = path
        """The engine's binary as given (None: found on PATH or in /usr/games)."""
        self.proc: subprocess.Popen[str] | None = None
        """The engine's process while it runs (None before the first move and after close)."""

    def command(self, exe: str) -> list[str]:
        """The engine's command line."""
        raise NotImplementedError

    def prepare(self, game: Game) -> None:
        """Check that the engine is installed and plays this game (nothing is started yet)."""
        self.find()
        if game.name != self.game_name:
            raise ZerosumError(f"{self.name} plays {self.game_name}, not {game.name}")

    def find(self) -> str:
        """The engine's binary, or EngineNotFound."""
        raise NotImplementedError

    def start(self) -> subprocess.Popen[str]:
        """The running engine, started on first use."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.command(self.find()), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
            self.handshake()
        return self.proc

    def handshake(self) -> None:
        """What the engine is told once it has started."""

    def send(self, line: str) -> None:
        """Send one line to the engine."""
        proc = self.start() if self.proc is None else self.proc
        assert proc.stdin is not None
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            raise EngineError(f"{self.name}: the engine ended before {line!r}") from None

    def read_line(self) -> str:
        """One line from the engine (an EngineError if it ended)."""
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line == "":
            raise EngineError(f"{self.name}: the engine ended unexpectedly")
        return line.rstrip("\n")

    def close(self) -> None:
        """End the engine process."""
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self.proc = None

    def __del__(self) -> None:
        self.close()

    def spawn(self, rng: Rng) -> Agent:
        """A fresh agent with the same options and no process (a process is never shared or copied)."""
        clone = type(self).__new__(type(self))
        clone.__dict__.update({k: v for k, v in self.__dict__.items() if k != "proc"})
        clone.proc = None
        clone.reset()
        clone.seed(rng)
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {k: (None if k == "proc" else v) for k, v in self.__dict__.items()}


class StockfishAgent(EngineAgent):
    """Chess by Stockfish at a fixed node budget a move (and optionally a Skill Level)."""

    name = "stockfish"
    """The agent's name in tournaments and logs."""
    game_name = "chess"
    """The game the engine plays."""

    def __init__(self, nodes: int = 10000, skill: int | None = None, path: str | None = None, rng: Rng = None) -> None:
        super().__init__(rng, path)
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
            raise ValueError(f"nodes is a whole number of nodes a move >= 1; got {nodes!r}")
        if skill is not None and (isinstance(skill, bool) or not isinstance(skill, int) or not 0 <= skill <= 20):
            raise ValueError(f"skill is Stockfish's Skill Level, an int from 0 to 20; got {skill!r}")
        self.nodes, self.skill = nodes, skill

    def find(self) -> str:
        """Stockfish's binary."""
        return find_engine("stockfish", self.path, "stockfish")

    def command(self, exe: str) -> list[str]:
        """Stockfish takes no arguments: everything goes over UCI."""
        return [exe]

    def wait_for(self, prefix: str) -> str:
        """Lines until one starting with ``prefix``."""
        while True:
            line = self.read_line()
            if line.startswith(prefix):
                return line

    def handshake(self) -> None:
        """UCI, one thread, the skill level, ready."""
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        if self.skill is not None:
            self.send(f"setoption name Skill Level value {self.skill}")
        self.send("isready")
        self.wait_for("readyok")

    def act(self, game: Game, state: State) -> Action:
        """Stockfish's best move after ``nodes`` nodes from the position's FEN."""
        self.start()
        self.send(f"position fen {game.to_fen(state)}")  # type: ignore[attr-defined]
        self.send(f"go nodes {self.nodes}")
        best = self.wait_for("bestmove").split()
        if len(best) < 2 or best[1] == "(none)":
            raise EngineError(f"{self.name}: no move in a position the rules say is not over")
        return int(game.string_to_action(best[1], state))


class GnuGoAgent(EngineAgent):
    """Go by GNU Go at a fixed level (0-10), Chinese (area) rules, the game's komi."""

    name = "gnugo"
    """The agent's name in tournaments and logs."""
    game_name = "go"
    """The game the engine plays."""

    def __init__(self, level: int = 10, path: str | None = None, rng: Rng = None) -> None:
        super().__init__(rng, path)
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 10:
            raise ValueError(f"level is GNU Go's level, an int from 0 to 10; got {level!r}")
        self.level = level
        """GNU Go's ``--level``, 0 to 10."""

    def find(self) -> str:
        """GNU Go's binary."""
        return find_engine("gnugo", self.path, "gnugo")

    def command(self, exe: str) -> list[str]:
        """GTP mode at the level, Chinese rules, seeded from the agent's generator, and
        ``--capture-all-dead``: the game is scored as it stands after two passes (Tromp-Taylor, as
        OpenSpiel's Go), so dead stones must be captured before GNU Go passes, or they count as alive."""
        seed = int(self.rng.integers(1, 2**31 - 1))
        return [exe, "--mode", "gtp", "--level", str(self.level), "--chinese-rules", "--capture-all-dead",
                "--seed", str(seed)]

    def gtp(self, command: str) -> str:
        """One GTP command and its answer (an EngineError for a ``?`` answer)."""
        self.send(command)
        lines: list[str] = []
        while True:
            line = self.read_line().strip()
            if not line and lines:
                break
            if line:
                lines.append(line)
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise EngineError(f"{self.name} answered {answer!r} to {command!r}")
        return answer[1:].strip()

    def act(self, game: Game, state: State) -> Action:
        """GNU Go's move for the player to move, its board set to the position's stones."""
        self.start()
        n = int(game.board_size)  # type: ignore[attr-defined]
        self.gtp(f"boardsize {n}")
        self.gtp("clear_board")
        self.gtp(f"komi {game.komi}")  # type: ignore[attr-defined]
        for a in range(n * n):
            colour = game.stone(state, a)  # type: ignore[attr-defined]
            if colour >= 0:
                self.gtp(f"play {'black' if colour == 0 else 'white'} {game.action_to_string(a)}")
        me = "black" if game.current_player(state) == 0 else "white"
        move = self.gtp(f"genmove {me}").lower()
        if move == "resign":
            return int(game.pass_action)  # type: ignore[attr-defined]
        action = int(game.string_to_action(move, state))
        if action not in {int(x) for x in game.legal_actions(state)}:  # a ko it was not told of
            return int(game.pass_action)  # type: ignore[attr-defined]
        return action


__all__ = ["EngineAgent", "EngineError", "EngineNotFound", "GnuGoAgent", "StockfishAgent", "find_engine"]
