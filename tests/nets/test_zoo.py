"""The networks shipped in zerosum/nets/zoo: each loads, plays legal moves, and says how it was made."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from zerosum.agents import make_agent
from zerosum.games import make_game
from zerosum.nets import ZOO, CheckpointError, load_network, zoo_names


def test_the_zoo_ships_networks_of_at_most_5_mb_with_their_command_and_scores():
    names = zoo_names()
    assert "tictactoe" in names
    for name in names:
        assert (ZOO / f"{name}.pt").stat().st_size <= 5 * 2**20
        _, meta = load_network(f"zoo:{name}")
        assert meta["command"].startswith("zerosum train --algo alphazero")
        assert meta["measured"]["rows"] and meta["measured"]["command"].startswith("zerosum evaluate ")
        for command in (meta["command"], meta["measured"]["command"]):  # product commands, no scripts
            assert "python " not in command and "bench/" not in command, command


def commands(meta: object, path: str = "") -> list[tuple[str, str]]:
    """Every (where, command) of a sidecar: each field named ``command``, at any depth."""
    if isinstance(meta, dict):
        return [c for k, v in meta.items() for c in ([(f"{path}.{k}", v)] if k == "command" else [])
                + commands(v, f"{path}.{k}")]
    if isinstance(meta, list):
        return [c for i, v in enumerate(meta) for c in commands(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("name", zoo_names())
def test_every_command_in_a_sidecar_is_one_a_user_can_paste(name):
    import importlib
    import json
    import shlex

    from zerosum.cli import COMMANDS

    raw = (ZOO / f"{name}.json").read_text()
    assert "measured_by" not in raw and "bench/alphazero_eval" not in raw  # a script that is gone
    found = commands(json.loads(raw))
    assert {where for where, _ in found} >= {".command", ".measured.command"}
    for where, command in found:
        for part in command.split(" && "):  # each a zerosum command the CLI's own parser reads
            words = shlex.split(part)
            assert words[:1] == ["zerosum"] and words[1] in COMMANDS, (where, part)
            assert not any(w.startswith(("/", "~")) or "=/" in w for w in words), (where, part)  # no machine path
            module = importlib.import_module(COMMANDS[words[1]][0])
            parser = getattr(module, "parser", None) or module.build_parser
            parser().parse_args(words[2:])  # prose or a bad flag: UsageError (or argparse's SystemExit)


@pytest.mark.parametrize("name", zoo_names())
@pytest.mark.parametrize("sims", [0, 8])
def test_a_zoo_network_plays_legal_moves_alone_and_with_search(name, sims):
    _, meta = load_network(f"zoo:{name}")
    game = make_game(meta["game"], **meta["variant"])
    agent = make_agent(f"alphazero(path=zoo:{name}, sims={sims})")
    agent.prepare(game)
    rng = np.random.default_rng(0)
    for _ in range(2):
        agent.reset()
        s = game.initial_state()
        while not game.is_terminal(s):
            if game.current_player(s) == 0:
                a = agent.act(game, s)
                assert a in game.legal_actions(s).tolist()
            else:
                a = int(rng.choice(game.legal_actions(s)))
            s = game.apply(s, a)


def test_the_tictactoe_network_alone_never_loses():
    from zerosum.evaluation.exhaustive import worst_case

    for seat in (0, 1):
        walk = worst_case("alphazero(path=zoo:tictactoe, sims=0)", "tictactoe", seat)
        assert walk.losses == 0 and walk.lines > 0


def test_an_unknown_zoo_name_lists_those_that_exist():
    with pytest.raises(CheckpointError, match="available: .*tictactoe"):
        load_network("zoo:no_such_net")
