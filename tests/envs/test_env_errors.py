"""The env's errors are as good as ``zerosum play``'s: an illegal action names the rules' reason
(the game's ``illegal_reason``, which ``Game.apply`` and the terminal give too), and a bad
``reset`` seed is named."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.envs import go_v0, make, othello_v0
from zerosum.games import IllegalActionError

# Go 9x9 (point = 9 * (row - 1) + column, columns a-j without i)
B3, C3, A2, D2, B1, C1, C2, B2 = 19, 20, 9, 12, 1, 2, 11, 10
KO = [B3, C3, A2, D2, B1, C1, C2, B2]  # white's b2 takes c2; black may not retake c2 at once
SUICIDE = [B1, 40, A2]  # then white's a1 (0) would have no liberty


def _reasons(module, moves: list[int], bad: int) -> tuple[str, str, str]:  # type: ignore[no-untyped-def]
    """What raw_env raises, what env() puts in the info, and what the game's apply says, for ``bad``."""
    raw, safe = module.raw_env(), module.env()
    for e in (raw, safe):
        e.reset()
        for m in moves:
            e.step(m)
    with pytest.raises(IllegalActionError) as caught:
        raw.step(bad)
    with pytest.raises(IllegalActionError) as applied:
        raw.game.apply(raw.state, bad)
    mover = safe.agent_selection
    safe.step(bad)
    assert safe.rewards[mover] == -1.0 and safe.infos[mover]["illegal_action"] == bad
    return str(caught.value), safe.infos[mover]["reason"], str(applied.value)


@pytest.mark.parametrize(("module", "moves", "bad", "why"), [
    (go_v0, SUICIDE, 0, "a stone on a1 would have no liberty (suicide)"),
    (go_v0, KO, C2, "ko"),
    (go_v0, [40], 40, "e5 is occupied"),
    (othello_v0, [], 0, "a disc on a1 would turn no disc over"),
    (othello_v0, [19], 19, "d3 is occupied"),
], ids=["go-suicide", "go-ko", "go-occupied", "othello-no-disc-turned", "othello-occupied"])
def test_an_illegal_action_names_the_rules_reason(module, moves, bad, why):
    raised, info, applied = _reasons(module, moves, bad)
    assert why in raised and why in info and why in applied
    assert raised == info and "legal:" in raised


def test_the_reason_is_the_games_own():
    env = go_v0.raw_env()
    env.reset()
    for m in KO:
        env.step(m)
    why = env.game.illegal_reason(C2, env.state)
    assert "ko" in why
    with pytest.raises(IllegalActionError, match=rf"action {C2} \(c2\) is not legal: {why}; legal: "):
        env.step(np.array(C2))


@pytest.mark.parametrize("seed", ["abc", 1.5, True, [1], b"1"])
def test_reset_with_a_seed_that_is_not_an_int_is_named(seed):
    env = make("tictactoe_v0")
    with pytest.raises(TypeError, match=r"reset\(seed=.*\): a seed is an int or None; got "):
        env.reset(seed=seed)
    for good in (None, 0, 7, np.int64(3), 2 ** 70):
        env.reset(seed=good)
        assert env.agents == ["player_0", "player_1"]
