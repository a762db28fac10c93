"""Network checkpoints: the torch state dict (``NAME.pt``) and a JSON sidecar (``NAME.json``).

The sidecar holds::

    format, format_version     "zerosum-alphazero", 1
    game, variant              e.g. "connect_four", {"rows": 6, "columns": 7, "x_in_row": 4}
    observation_shape          the env's observation planes, e.g. [6, 7, 3]
    env                        the env serving the game, whose version names the observation
                               format (e.g. "connect_four_v0"; None for a game without an env)
    num_actions                the game's number of actions
    net                        the NetConfig as a dict (``NetConfig.to_dict``)
    train_steps                learner steps that trained it (0 for an untrained network)
    command                    what trained it (a command line), or None
    evaluation                 what evaluated it (a dict; empty until something does)
    zerosum_version, torch_version, created

plus whatever the trainer adds through ``metadata``. Both files are written atomically
(a temporary file, then ``os.replace``). ``path`` may be the ``.pt``, its ``.json``, the
stem without a suffix, or ``zoo:NAME`` for a network shipped in ``zerosum/nets/zoo/``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from zerosum.games.kit import Game
from zerosum.games.registry import env_name
from zerosum.nets.config import NetConfig
from zerosum.nets.modules import network_for
from zerosum.nets.errors import CheckpointError, NetConfigError, import_torch

FORMAT = "zerosum-alphazero"
"""The sidecar's ``format``."""
FORMAT_VERSION = 1
"""The sidecar's ``format_version``: this zerosum reads up to this one."""
ZOO = Path(__file__).resolve().parent / "zoo"
"""Where ``zoo:NAME`` checkpoints live (``NAME.pt`` + ``NAME.json``)."""
RESERVED = ("format", "format_version", "game", "variant", "observation_shape", "num_actions", "net")
"""Sidecar keys every checkpoint has, which save_network writes itself; ``metadata`` may not set them
(nor ``env``)."""


def zoo_names() -> list[str]:
    """The names of the checkpoints shipped in the zoo (``zoo:NAME``), sorted."""
    return sorted(p.stem for p in ZOO.glob("*.pt") if p.with_suffix(".json").is_file())


def checkpoint_path(path: str | os.PathLike[str]) -> Path:
    """The ``.pt`` for a path (the ``.pt``, its ``.json``, the stem, or ``zoo:NAME``)."""
    text = os.fspath(path)
    if isinstance(text, str) and text.startswith("zoo:"):
        name = text[4:]
        names = zoo_names()
        if name not in names:
            raise CheckpointError(f"no network {name!r} in the zoo ({ZOO}); available: "
                                  f"{', '.join(names) if names else 'none yet'}")
        return ZOO / f"{name}.pt"
    p = Path(text)
    if p.suffix == ".json":
        return p.with_suffix(".pt")
    return p if p.suffix == ".pt" else p.with_name(p.name + ".pt")


def jsonable_variant(game: Game) -> dict[str, Any]:
    """The game's variant as plain JSON values (tuples become lists)."""
    text = json.dumps(dict(game.variant), default=lambda v: v.tolist() if hasattr(v, "tolist") else list(v))
    plain: dict[str, Any] = json.loads(text)
    return plain


def read_sidecar(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The checkpoint's sidecar; CheckpointError if either file is missing or the sidecar is not ours."""
    pt = checkpoint_path(path)
    sidecar = pt.with_suffix(".json")
    if not pt.is_file():
        raise CheckpointError(f"no network checkpoint at {os.fspath(path)!r}: {pt} does not exist "
                              "(a network checkpoint is NAME.pt with NAME.json beside it, or zoo:NAME)")
    if not sidecar.is_file():
        raise CheckpointError(f"network checkpoint {pt} has no sidecar {sidecar.name} next to it; "
                              "zerosum network checkpoints are the .pt plus a .json of the same name")
    try:
        meta = json.loads(sidecar.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"corrupt sidecar {sidecar}: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
        raise CheckpointError(f"{sidecar} is not a network checkpoint's sidecar: format {found!r}, "
                              f"expected {FORMAT!r}")
    version = meta.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise CheckpointError(f"{sidecar} has format version {version!r}; this zerosum reads 1 to "
                              f"{FORMAT_VERSION}: upgrade zerosum")
    missing = [k for k in RESERVED if k not in meta]
    if missing:
        raise CheckpointError(f"corrupt sidecar {sidecar}: missing {', '.join(missing)}")
    return meta


def check_network_game(meta: dict[str, Any], game: Game, where: str = "network checkpoint") -> None:
    """CheckpointError unless the checkpoint was made for this game, variant, observation shape
    and number of actions; the message names what it was made for and what was given."""
    problems = []
    if meta["game"] != game.name:
        problems.append(f"game {meta['game']!r}, not {game.name!r}")
    else:
        variant = jsonable_variant(game)
        if meta["variant"] != variant:
            problems.append(f"variant {meta['variant']}, not {variant}")
        if tuple(meta["observation_shape"]) != tuple(game.observation_shape):
            problems.append(f"observation shape {tuple(meta['observation_shape'])}, "
                            f"not {tuple(game.observation_shape)}")
        if meta["num_actions"] != game.num_actions:
            problems.append(f"{meta['num_actions']} actions, not {game.num_actions}")
        env = env_name(game.name)
        if meta.get("env") is not None and env is not None and meta["env"] != env:
            problems.append(f"env {meta['env']}, but this zerosum serves {game.name} as {env} "
                            "(the observations may differ: retrain)")
    if problems:
        raise CheckpointError(f"{where} was made for {meta['game']} {meta['variant']} and cannot play "
                              f"{game.name} {jsonable_variant(game)}: " + "; ".join(problems))


def _check_weights(state: dict[str, Any], reference: dict[str, Any], what: str, num_actions: int) -> None:
    """CheckpointError/NetConfigError naming the tensors whose names or shapes differ."""
    missing = sorted(set(reference) - set(state))
    extra = sorted(set(state) - set(reference))
    wrong = [f"{k} {tuple(state[k].shape)} instead of {tuple(reference[k].shape)}"
             for k in reference if k in state and tuple(state[k].shape) != tuple(reference[k].shape)]
    if not (missing or extra or wrong):
        return
    head = [k for k in wrong if k.startswith("policy_head")]
    hint = (f"its policy head does not give the {num_actions} actions of the game: " if head else "")
    parts = ([f"shapes {', '.join(wrong)}"] if wrong else []) + ([f"missing {', '.join(missing)}"] if missing else []) \
        + ([f"unexpected {', '.join(extra)}"] if extra else [])
    raise CheckpointError(f"{what} does not match its network config: {hint}{'; '.join(parts)}")


def save_network(path: str | os.PathLike[str], net: Any, game: Game, config: NetConfig,
                 metadata: dict[str, Any] | None = None) -> Path:
    """Write ``net`` (its state dict) and the sidecar; returns the ``.pt`` path.

    ``net`` must be what ``build_network(game, config)`` builds (same tensors and shapes),
    so :func:`load_network` can rebuild it; a network whose output size is not the game's
    number of actions is refused. ``metadata`` adds keys to the sidecar (``train_steps``,
    ``command``, ``evaluation``, anything else) but may not set those in :data:`RESERVED`.
    """
    import zerosum

    torch = import_torch()
    if not isinstance(config, NetConfig):
        raise NetConfigError(f"config is the NetConfig the network was built with; got {config!r}")
    if not isinstance(net, torch.nn.Module):
        raise NetConfigError(f"net is a torch.nn.Module; got {type(net).__name__}")
    metadata = dict(metadata or {})
    clash = sorted(set(metadata) & {*RESERVED, "env"})
    if clash:
        raise CheckpointError(f"metadata may not set {', '.join(clash)}: save_network writes them from the game "
                              "and the config")
    pt = checkpoint_path(path)
    state = {k: v.detach().to("cpu") for k, v in net.state_dict().items()}
    reference = network_for(tuple(game.observation_shape), game.num_actions, config).state_dict()
    _check_weights(state, reference, f"the network given for {game.name} ({type(net).__name__})", game.num_actions)
    meta = {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "game": game.name, "variant": jsonable_variant(game),
        "observation_shape": list(game.observation_shape), "num_actions": int(game.num_actions),
        "env": env_name(game.name),
        "net": config.to_dict(),
        "train_steps": 0, "command": None, "evaluation": {},
        "zerosum_version": zerosum.__version__, "torch_version": torch.__version__,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **metadata,
    }
    text = json.dumps(meta, indent=2, default=str) + "\n"
    pt.parent.mkdir(parents=True, exist_ok=True)
    tmp_pt = pt.with_name(f".{pt.name}.{os.getpid()}.tmp")
    tmp_json = pt.with_name(f".{pt.stem}.json.{os.getpid()}.tmp")
    try:
        torch.save(state, tmp_pt)
        tmp_json.write_text(text)
        os.replace(tmp_pt, pt)
        os.replace(tmp_json, pt.with_suffix(".json"))
    finally:
        for tmp in (tmp_pt, tmp_json):
            tmp.unlink(missing_ok=True)
    return pt


def load_network(path: str | os.PathLike[str], game: Game | None = None,
                 device: str = "cpu") -> tuple[Any, dict[str, Any]]:
    """The network (in evaluation mode, on ``device``) and its sidecar dict.

    With ``game`` given, a checkpoint made for another game, variant, observation shape or
    number of actions is refused (CheckpointError); without it, the network is built from the
    sidecar's observation shape and number of actions.
    """
    from zerosum.nets.evaluator import resolve_device

    torch = import_torch()
    meta = read_sidecar(path)
    pt = checkpoint_path(path)
    if game is not None:
        check_network_game(meta, game, where=f"network checkpoint {pt}")
    try:
        config = NetConfig.from_dict(meta["net"])
        net = network_for(tuple(meta["observation_shape"]), int(meta["num_actions"]), config)
    except (NetConfigError, TypeError, ValueError) as exc:
        raise CheckpointError(f"corrupt sidecar {pt.with_suffix('.json')}: its net {meta['net']!r} "
                              f"cannot be built ({exc})") from None
    dev = resolve_device(device)
    try:
        state = torch.load(pt, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a damaged file
        raise CheckpointError(f"corrupt network checkpoint {pt}: cannot read it as a state dict "
                              f"({type(exc).__name__}: {exc})") from None
    if not isinstance(state, dict):
        raise CheckpointError(f"corrupt network checkpoint {pt}: it holds a {type(state).__name__}, not a state dict")
    _check_weights(state, net.state_dict(), f"network checkpoint {pt}", int(meta["num_actions"]))
    net.load_state_dict(state)
    return net.to(dev).eval(), meta
