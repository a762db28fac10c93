"""The ladder's label cache: a position met again gets its first label, without a search."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.training.alphazero.labels import LabelCache, Labeller, ladder, ladder_cache_size, ladder_labeller


class Counting:
    """A labeller that counts its searches."""

    def __init__(self, labeller):
        self.inner, self.calls = labeller, 0

    def label(self, state):
        self.calls += 1
        return self.inner.label(state)


def _positions(game, plies):
    s, out = game.initial_state(), []
    for a in plies:
        s = game.apply(s, a)
        out.append(s)
    return out


def test_a_position_met_again_gets_its_first_label_without_a_search():
    g = make_game("connect_four")
    inner = Counting(Labeller(g, depth=4))
    cache = LabelCache(inner, size=10)
    a, b = _positions(g, [3, 3])
    first = cache.label(a)
    again = cache.label(np.array(a, copy=True))  # an equal position, another array
    assert inner.calls == 1 and cache.hits == 1 and cache.misses == 1
    assert np.array_equal(again.policy, first.policy) and again.value == first.value
    assert again.nodes == 0 and first.nodes > 0
    other = cache.label(b)
    assert inner.calls == 2 and len(cache) == 2
    fresh = Labeller(g, depth=4).label(b)  # another position: its own search, not the first label again
    assert other.nodes > 0 and np.array_equal(other.policy, fresh.policy) and other.value == fresh.value


def test_the_least_recently_used_label_is_dropped_when_full():
    g = make_game("connect_four")
    inner = Counting(Labeller(g, depth=4))
    cache = LabelCache(inner, size=2)
    p, q, r = _positions(g, [0, 1, 2])
    cache.label(p)
    cache.label(q)
    cache.label(p)  # p is now the most recent: q goes first
    cache.label(r)
    assert len(cache) == 2 and inner.calls == 3
    cache.label(p)
    assert inner.calls == 3  # p was kept
    cache.label(q)
    assert inner.calls == 4  # q was dropped


@pytest.mark.parametrize("size", [0, -1, 1.5, True, "8"])
def test_a_bad_size_is_refused(size):
    g = make_game("tictactoe")
    with pytest.raises(ValueError, match="a whole number of labels >= 1"):
        LabelCache(Labeller(g, depth=4), size)


def test_the_cache_size_fits_the_memory_given():
    assert ladder_cache_size(7) > ladder_cache_size(288) > 0
    assert ladder_cache_size(7, megabytes=512) == pytest.approx(2 * ladder_cache_size(7), abs=1)


def test_ladder_rounds_with_the_cache_label_as_without_it_and_search_each_position_once():
    """Ladder rounds through the cache and without it (the second round's games repeat the
    first's, as openings do from round to round): the same positions and moves, the same
    labels (on tic-tac-toe to the end the search does not depend on its table), and through
    the cache each distinct position searched once."""
    g = make_game("tictactoe")
    cached = ladder_labeller(g, 9, {})
    assert isinstance(cached, LabelCache) and cached.size == ladder_cache_size(g.num_actions)
    plain = Labeller(g, 9)
    logits = lambda obs, mask: np.zeros(g.num_actions)  # noqa: E731 - the first legal move, or a draw
    rows = {}
    for name, lab in (("cached", cached), ("plain", plain)):
        rows[name] = []
        for seed in (1, 1):
            got, _ = ladder(g, logits, ["random"], 6, labeller=lab, seed=seed)
            rows[name] += got
    assert len(rows["cached"]) == len(rows["plain"])
    for x, y in zip(rows["cached"], rows["plain"]):
        assert np.array_equal(x.obs, y.obs) and x.move == y.move
        assert np.allclose(x.label.policy, y.label.policy) and x.label.value == y.label.value
    distinct = {r.obs.tobytes() for r in rows["plain"]}
    assert cached.misses == len(distinct) and cached.hits == len(rows["plain"]) - len(distinct)
    assert cached.hits >= len(rows["plain"]) // 2


def test_ladder_games_count_the_labels_given_from_the_cache():
    """What a run's log reports as "from the cache": a round whose games repeat an earlier one's
    gets every label from the cache; a plain labeller gives none."""
    pytest.importorskip("torch")
    from zerosum.nets import NetConfig, build_network
    from zerosum.training.alphazero.labels import ladder_games

    g = make_game("tictactoe")
    net = build_network(g, NetConfig.from_dict({"kind": "mlp", "hidden": [16]}))
    cached = ladder_labeller(g, 9, {})
    first = ladder_games(g, net, cached, 4, ["alphabeta(depth=9)"], seed=3)
    again = ladder_games(g, net, cached, 4, ["alphabeta(depth=9)"], seed=3)
    assert first.kept == cached.hits - again.kept and again.kept == len(again) == len(first) > 0
    plain = ladder_games(g, net, Labeller(g, 9), 4, ["alphabeta(depth=9)"], seed=3)
    assert plain.kept == 0 and len(plain) == len(first)


def test_the_labels_module_doctests():
    import doctest

    from zerosum.training.alphazero import labels

    assert doctest.testmod(labels).failed == 0
