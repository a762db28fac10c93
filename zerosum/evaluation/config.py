"""Tournament configuration: TOML files (stdlib ``tomllib``) and the same options on the command line.

A file is either one tournament::

    game = "tictactoe"
    variant = {}                       # rule variant as keyword arguments of make_game
    agents = ["random", "mcts(sims=200)", "alphabeta(depth=2)"]
    games_per_pairing = 4              # games per ordered pairing (each pair meets 2x this)
    opening_plies = 2                  # random plies from the seed before the agents play
    seed = 0
    workers = 2                        # default: the CPU count
    backend = "process"                # or "ray"
    output = "results/ttt"             # directory for the database, report, plots, CSV

or several, each a ``[[tournament]]`` table; top-level keys are defaults for every table,
and ``output`` may name ``{name}`` (the table's ``name``, by default its game), ``{game}``
and ``{hash}`` (of the configuration). An entry of
``agents`` may be a table ``{spec = "...", name = "...", prepare = "module:function",
optional = true}``: ``prepare`` is called with the spec's ``path`` option before the
tournament (to train or fetch a checkpoint); ``optional`` skips the agent with a printed
note when its extra or its name is missing. A tournament with ``optional = true`` is
skipped with a note when its game is not available.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from zerosum.games.kit import ZerosumError

BACKENDS = ("process", "ray")


class ConfigError(ZerosumError, ValueError):
    """A tournament configuration that cannot be run (said before any game starts)."""


@dataclass(frozen=True)
class AgentEntry:
    """One participant: its display name, its spec, and the optional preparation hook."""

    name: str
    spec: str
    prepare: str | None = None
    optional: bool = False


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that defines a tournament, and where its files go."""

    game: str
    """The game's name (``zerosum.games.GAMES``)."""
    agents: tuple[AgentEntry, ...]
    """The participants (at least two)."""
    variant: Mapping[str, Any] = field(default_factory=dict)
    """The rule variant, e.g. ``{"misere": True}``."""
    games_per_pairing: int = 2
    """Games per ordered pairing (each pair of agents plays this many games in each seat order)."""
    opening_plies: int = 2
    """Random plies before the agents play, for varied openings."""
    seed: int = 0
    """The tournament's seed: openings and every agent's generator."""
    workers: int | None = None
    """Games played at once (None: the CPU count)."""
    backend: str = "process"
    """``"process"`` (local worker processes) or ``"ray"``."""
    address: str | None = None
    """The Ray cluster's address (None: a local Ray instance)."""
    output: str | None = None
    """The output directory (None: ``results/<game>-<config hash>``)."""
    name: str | None = None
    """The name used in the report (None: the game's)."""
    optional: bool = False
    """Skip the tournament, with a note, when its game is not available."""

    @property
    def label(self) -> str:
        """The tournament's name (its game unless named)."""
        return self.name or self.game

    def fingerprint(self) -> dict[str, Any]:
        """What must be equal for two runs to share a database (the game count may grow)."""
        return {"game": self.game, "variant": _jsonable(dict(self.variant)),
                "agents": [[a.name, a.spec] for a in self.agents],
                "seed": self.seed, "opening_plies": self.opening_plies}

    def as_dict(self) -> dict[str, Any]:
        """The configuration as plain data (stored in the database for information)."""
        return {**self.fingerprint(), "games_per_pairing": self.games_per_pairing, "name": self.label}

    def output_dir(self) -> Path:
        """The output directory: as configured, else results/<name>-<hash of the fingerprint>.

        ``output`` may hold ``{name}``, ``{game}`` and ``{hash}`` (8 hex digits of the fingerprint).
        """
        digest = hashlib.sha1(json.dumps(self.fingerprint(), sort_keys=True).encode()).hexdigest()[:8]
        if self.output:
            return Path(self.output.replace("{name}", self.label).replace("{game}", self.game)
                        .replace("{hash}", digest))
        return Path("results") / f"{self.label}-{digest}"

    def database(self) -> Path:
        """The SQLite file of this tournament."""
        return self.output_dir() / "tournament.sqlite"

    def n_workers(self) -> int:
        """Workers to use: as configured, else the CPU count."""
        return self.workers if self.workers is not None else (os.cpu_count() or 1)


def _jsonable(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


_KEYS = {
    "game": str, "variant": dict, "agents": list, "games_per_pairing": int, "opening_plies": int, "seed": int,
    "workers": int, "backend": str, "address": str, "output": str, "name": str, "optional": bool,
}
_AGENT_KEYS = {"spec": str, "name": str, "prepare": str, "optional": bool}


def _check_type(where: str, key: str, value: Any, kind: type) -> None:
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise ConfigError(f"{where}: {key} = {value!r} should be a {kind.__name__}")


def _agent_entries(where: str, items: Any) -> list[dict[str, Any]]:
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{where}: agents should be a non-empty list of spec strings or tables; got {items!r}")
    out = []
    for item in items:
        if isinstance(item, str):
            out.append({"spec": item})
            continue
        if not isinstance(item, dict):
            raise ConfigError(f"{where}: an agent is a spec string or a table {{spec = ...}}; got {item!r}")
        unknown = sorted(set(item) - set(_AGENT_KEYS))
        if unknown or "spec" not in item:
            raise ConfigError(f"{where}: agent table {item!r}: needs 'spec'; allowed keys: {', '.join(_AGENT_KEYS)}")
        for k, v in item.items():
            _check_type(f"{where}: agent {item.get('spec')!r}", k, v, _AGENT_KEYS[k])
        out.append(dict(item))
    return out


def name_agents(entries: Sequence[Mapping[str, Any]]) -> tuple[AgentEntry, ...]:
    """AgentEntry records with unique names (a repeated spec gets ``#2``, ``#3``...)."""
    explicit = [e["name"] for e in entries if e.get("name")]
    dup = sorted({n for n in explicit if explicit.count(n) > 1})
    if dup:
        raise ConfigError(f"agent names must be unique; repeated: {', '.join(dup)}")
    taken = set(explicit)
    result = []
    for e in entries:
        spec = str(e["spec"]).strip()
        name = e.get("name")
        if not name:
            name, k = spec, 2
            while name in taken:
                name, k = f"{spec}#{k}", k + 1
            taken.add(name)
        result.append(AgentEntry(name, spec, e.get("prepare"), bool(e.get("optional", False))))
    return tuple(result)


def build_config(raw: Mapping[str, Any], where: str = "config") -> TournamentConfig:
    """A TournamentConfig from plain data (a TOML table or the command line), type-checked."""
    unknown = sorted(set(raw) - set(_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(_KEYS)}")
    for k, v in raw.items():
        if v is not None:
            _check_type(where, k, v, _KEYS[k])
    if not raw.get("game"):
        raise ConfigError(f"{where}: no game given (game = \"tictactoe\", or --game)")
    if "agents" not in raw:
        raise ConfigError(f"{where}: no agents given (agents = [\"random\", \"alphabeta(depth=2)\"], or --agents)")
    agents = name_agents(_agent_entries(where, raw["agents"]))
    cfg = TournamentConfig(game=raw["game"], agents=agents, **{k: v for k, v in raw.items()
                                                                  if k not in ("game", "agents") and v is not None})
    if cfg.games_per_pairing < 1:
        raise ConfigError(f"{where}: games_per_pairing = {cfg.games_per_pairing}; at least 1 is needed")
    if cfg.opening_plies < 0:
        raise ConfigError(f"{where}: opening_plies = {cfg.opening_plies}; 0 or more is needed")
    if cfg.workers is not None and cfg.workers < 1:
        raise ConfigError(f"{where}: workers = {cfg.workers}; at least 1 is needed")
    if cfg.backend not in BACKENDS:
        raise ConfigError(f"{where}: backend = {cfg.backend!r}; allowed: {', '.join(BACKENDS)}")
    if len(cfg.agents) < 2 and not any(a.optional for a in cfg.agents):
        raise ConfigError(f"{where}: a tournament needs at least two agents; got {[a.spec for a in cfg.agents]}")
    return cfg


def load_config(path: str | os.PathLike[str], overrides: Mapping[str, Any] | None = None) -> list[TournamentConfig]:
    """The tournaments of a TOML file, with ``overrides`` (command-line options) applied to each."""
    import tomllib

    p = Path(path)
    try:
        with open(p, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"no config file at {str(p)!r}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    entries = data.pop("tournament", None)
    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    if entries is None:
        return [build_config({**data, **overrides}, str(p))]
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(f"{p}: 'tournament' should be an array of tables ([[tournament]])")
    configs = []
    for i, entry in enumerate(entries):
        merged = {**data, **entry, **overrides}
        configs.append(build_config(merged, f"{p} [[tournament]] #{i + 1}"))
    labels = [c.label for c in configs]
    dup = sorted({n for n in labels if labels.count(n) > 1})
    if dup:
        raise ConfigError(f"{p}: tournaments need distinct names (set name = ...); repeated: {', '.join(dup)}")
    outs = [c.output_dir() for c in configs]
    if len(set(outs)) < len(outs):
        raise ConfigError(f"{p}: two tournaments write to the same output; put {{name}} in output")
    return configs


def without_agents(cfg: TournamentConfig, skip: Sequence[str]) -> TournamentConfig:
    """The same tournament without the named agents (optional ones that cannot take part)."""
    return replace(cfg, agents=tuple(a for a in cfg.agents if a.name not in skip))
