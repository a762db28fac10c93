"""The network-guided batched search (zerosum.search.guided): PUCT and Gumbel against exact
values, batched equal to one tree at a time, repeated turns and passes, tree reuse, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from tests.search.bonus_game import Bonus
from zerosum.games import GAMES, make_game
from zerosum.games.kit import Game, GameOverError, IllegalActionError
from zerosum.search import BatchedSearch, EvaluatorError, GuidedConfig, GuidedSearchError, uniform_evaluator
from zerosum.search.guided import halving_schedule


# ---- exact values, by plain negamax over the Game API ------------------------------------------
def solve(game: Game) -> dict[bytes, tuple[np.ndarray, float]]:
    """Every reachable position's exact value from player 0's side: state bytes -> (state, value)."""
    table: dict[bytes, tuple[np.ndarray, float]] = {}

    def value0(s: np.ndarray) -> float:
        k = s.tobytes()
        if k not in table:
            if game.is_terminal(s):
                v0 = game.returns(s)[0]
            else:
                children = [value0(game.apply(s, int(a))) for a in game.legal_actions(s)]
                v0 = max(children) if game.current_player(s) == 0 else min(children)
            table[k] = (s, v0)
        return table[k][1]

    value0(game.initial_state())
    return table


def mover_value(game: Game, solved: dict, s: np.ndarray, me: int | None = None) -> float:
    """The exact value of ``s`` for ``me`` (default: its player to move)."""
    v0 = solved[s.tobytes()][1]
    me = game.current_player(s) if me is None else me
    return v0 if me == 0 else -v0


def exact_evaluator(game: Game, solved: dict[bytes, tuple[np.ndarray, float]]):
    """Uniform priors and each leaf's exact value for its mover, looked up by its planes."""
    by_obs = {game.observation(s, game.current_player(s)).tobytes(): mover_value(game, solved, s)
              for s, _ in solved.values() if not game.is_terminal(s)}
    size = int(np.prod(game.observation_shape))

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        flat = obs.reshape(len(obs), size)
        return np.zeros(mask.shape), np.array([by_obs[row.tobytes()] for row in flat])

    return evaluate


def good_moves(game: Game, solved: dict, s: np.ndarray) -> set[int]:
    """The moves that keep the position's value for its mover."""
    me = game.current_player(s)
    want = mover_value(game, solved, s)
    return {int(a) for a in game.legal_actions(s) if mover_value(game, solved, game.apply(s, int(a)), me) == want}


@pytest.fixture(scope="module")
def tictactoe():
    game = make_game("tictactoe")
    solved = solve(game)
    states = [s for s, _ in solved.values() if not game.is_terminal(s)]
    return game, solved, states


PUCT_SIMS = 48  # enough for PUCT to keep the value in every tic-tac-toe position (stated in the docs)


def test_puct_with_exact_values_keeps_the_value_in_every_tictactoe_position(tictactoe):
    game, solved, states = tictactoe
    assert len(states) == 4520
    search = BatchedSearch(game, lanes=len(states), config=GuidedConfig(rule="puct"), seed=0)
    for lane, s in enumerate(states):
        search.set_root(lane, s)
    res = search.run(exact_evaluator(game, solved), sims=PUCT_SIMS)
    wrong = [i for i, s in enumerate(states) if int(res.action[i]) not in good_moves(game, solved, s)]
    assert wrong == []
    assert all(st.simulations == PUCT_SIMS for st in res.stats)


def test_gumbel_improved_policy_puts_at_least_the_priors_mass_on_the_best_moves(tictactoe):
    """With exact values and random priors, and as many simulations as moves (each considered
    move visited once, so its Q is exact), the improved policy softmax(logits + sigma(Q)) gives
    the value-keeping moves at least the mass the prior gave them, in every position."""
    game, solved, states = tictactoe
    exact, noisy = exact_evaluator(game, solved), hashed_evaluator(game.num_actions)

    def evaluate(obs, mask):
        return noisy(obs, mask)[0], exact(obs, mask)[1]

    by_moves: dict[int, list[np.ndarray]] = {}
    for s in states:
        by_moves.setdefault(len(game.legal_actions(s)), []).append(s)
    for n, group in by_moves.items():
        search = BatchedSearch(game, lanes=len(group), config=GuidedConfig(rule="gumbel", gumbel_k=16), seed=n)
        for lane, s in enumerate(group):
            search.set_root(lane, s)
        res = search.run(evaluate, sims=n)
        logits = evaluate(np.stack([game.observation(s, game.current_player(s)) for s in group]),
                          np.stack([game.legal_mask(s) for s in group]))[0]
        for i, s in enumerate(group):
            legal, good = game.legal_actions(s), sorted(good_moves(game, solved, s))
            assert res.visits[i, legal].tolist() == [1] * n
            prior = np.exp(logits[i, legal] - logits[i, legal].max())
            prior_mass = prior[np.isin(legal, good)].sum() / prior.sum()
            assert res.policy[i, good].sum() >= prior_mass - 1e-9, game.render(s)
            assert abs(res.policy[i].sum() - 1.0) < 1e-9 and res.policy[i][game.legal_mask(s) == 0].sum() == 0
            assert int(res.action[i]) in legal


def test_halving_schedule_visits_the_considered_moves_in_turns():
    t = halving_schedule(4, 16)
    assert t[4].tolist() == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert t[1].tolist() == list(range(16))
    assert t[2, :4].tolist() == [0, 0, 1, 1]


# ---- batched equals one tree at a time ---------------------------------------------------------
def hashed_evaluator(num_actions: int):
    """A deterministic evaluator that depends on each leaf alone (pseudo-random in its planes)."""
    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = np.zeros(mask.shape), np.zeros(len(obs))
        for i, row in enumerate(obs.reshape(len(obs), -1)):
            rng = np.random.default_rng(int.from_bytes(row.tobytes()[-16:], "little") ^ hash(row.tobytes()) & 0xFFFF)
            logits[i] = rng.normal(size=num_actions)
            values[i] = rng.uniform(-1, 1)
        return logits, values
    return evaluate


@pytest.mark.parametrize("config", [
    GuidedConfig(rule="puct", dirichlet_fraction=0.25, temperature=1.0),
    GuidedConfig(rule="puct", leaves=4),
    GuidedConfig(rule="gumbel", gumbel_k=4),
    GuidedConfig(rule="gumbel", gumbel_k=8, leaves=3),
], ids=["puct-noise-temperature", "puct-leaves4", "gumbel-k4", "gumbel-leaves3"])
def test_batched_search_equals_one_tree_at_a_time(config):
    game = make_game("connect_four")
    rng = np.random.default_rng(7)
    states = []
    for _ in range(5):
        s = game.initial_state()
        for _ in range(int(rng.integers(0, 8))):
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
        states.append(s)
    evaluate = hashed_evaluator(game.num_actions)
    batched = BatchedSearch(game, lanes=len(states), config=config)
    for lane, s in enumerate(states):
        batched.set_root(lane, s, seed=100 + lane)
    together = batched.run(evaluate, sims=40)
    for lane, s in enumerate(states):
        alone = BatchedSearch(game, lanes=1, config=config)
        alone.set_root(0, s, seed=100 + lane)
        one = alone.run(evaluate, sims=40)
        assert one.action[0] == together.action[lane]
        assert np.array_equal(one.visits[0], together.visits[lane])
        assert np.allclose(one.policy[0], together.policy[lane]) and one.value[0] == together.value[lane]
        a, b = one.stats[0], together.stats[lane]
        assert (a.nodes, a.simulations, a.evaluations, a.depth) == (b.nodes, b.simulations, b.evaluations, b.depth)


# ---- repeated turns, passes, terminal leaves ---------------------------------------------------
def test_values_follow_the_player_to_move_through_bonus_turns_and_passes():
    game = Bonus()
    solved = solve(game)
    states = [s for s, _ in solved.values() if not game.is_terminal(s)]
    assert any(len(game.legal_actions(s)) == 1 for s in states)  # a forced pass is reached
    search = BatchedSearch(game, lanes=len(states), seed=0)
    for lane, s in enumerate(states):
        search.set_root(lane, s)
    res = search.run(uniform_evaluator, sims=400)  # the rules alone: terminal leaves decide
    for i, s in enumerate(states):
        exact = mover_value(game, solved, s)
        assert int(res.action[i]) in good_moves(game, solved, s), game.render(s)
        assert abs(res.value[i] - exact) < 0.5, (game.render(s), res.value[i], exact)


def test_a_morris_removal_turn_is_searched_from_the_same_players_side():
    game = make_game("nine_mens_morris")
    rng = np.random.default_rng(3)
    found = None
    while found is None:
        s = game.initial_state()
        while not game.is_terminal(s) and found is None:
            me = game.current_player(s)
            for a in game.legal_actions(s):
                c = game.apply(s, int(a))
                if game.is_terminal(c) or game.current_player(c) != me:
                    continue
                if any(game.is_terminal(x) and game.returns(x)[me] == 1
                       for x in (game.apply(c, int(b)) for b in game.legal_actions(c))):
                    found = (s, int(a))
                    break
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
    s, _ = found
    search = BatchedSearch(game, lanes=1, seed=0)
    search.set_root(0, s)
    res = search.run(uniform_evaluator, sims=600)
    assert res.value[0] > 0.5
    c = game.apply(s, int(res.action[0]))
    assert game.current_player(c) == game.current_player(s) or game.is_terminal(c)


# ---- the tree is kept ----------------------------------------------------------------------------
def test_advance_keeps_the_subtree_under_the_move_played():
    game = make_game("connect_four")
    search = BatchedSearch(game, lanes=1, seed=0)
    search.set_root(0, game.initial_state())
    res = search.run(uniform_evaluator, sims=200)
    a = int(res.action[0])
    kept = int(res.visits[0, a])
    search.advance(0, a)
    assert np.array_equal(search.root(0), game.apply(game.initial_state(), a))
    assert search.tree_size(0) > 1
    again = search.run(uniform_evaluator, sims=0)  # no new simulations: the kept visits only
    assert int(again.visits[0].sum()) == kept - 1
    more = search.run(uniform_evaluator, sims=50)
    assert int(more.visits[0].sum()) == kept - 1 + 50
    search.advance(0, int(more.action[0]))
    with pytest.raises(IllegalActionError, match="not legal"):
        search.advance(0, 99)


def test_a_small_search_after_a_large_one_keeps_the_room_the_kept_tree_needs():
    # playout caps alternate full and cheap searches on one tree: a cheap search beside a large
    # kept subtree once asked for less room than the lane had, and growing failed
    game = make_game("connect_four")

    def confident(obs, mask):  # a prior that favours low columns: the kept subtrees stay large
        n = obs.shape[0]
        return np.tile(-2.0 * np.arange(game.num_actions), (n, 1)), np.zeros(n)

    search = BatchedSearch(game, lanes=1, seed=0)
    s = game.initial_state()
    search.set_root(0, s)
    grown = []
    for sims in (32, 8) * 12:
        if game.is_terminal(s):
            break
        before = search.max_nodes
        res = search.run(confident, sims=sims)
        assert search.max_nodes >= before
        grown.append(search.max_nodes)
        a = int(res.action[0])
        assert a in game.legal_actions(s)
        s = game.apply(s, a)
        search.advance(0, a)
    assert len(set(grown)) > 1  # the tree did grow beside the kept subtree


def test_a_full_tree_still_searches_and_plays_legal_moves():
    game = make_game("connect_four")
    search = BatchedSearch(game, lanes=1, max_nodes=game.max_moves + 2, seed=0)  # room for one expansion
    s = game.initial_state()
    search.set_root(0, s)
    for _ in range(6):
        res = search.run(uniform_evaluator, sims=20)
        assert res.stats[0].simulations == 20 and search.tree_size(0) <= game.max_moves + 2
        a = int(res.action[0])
        assert a in game.legal_actions(s)
        s = game.apply(s, a)
        search.advance(0, a)


def test_every_game_and_variant_plays_legal_moves_guided_by_nothing():
    for name in sorted(GAMES):
        game = make_game(name)
        for rule in ("puct", "gumbel"):
            search = BatchedSearch(game, lanes=2, config=GuidedConfig(rule=rule, leaves=2), seed=0)
            states = [game.initial_state(), game.initial_state()]
            for lane in range(2):
                search.set_root(lane, states[lane])
            for _ in range(3):
                res = search.run(uniform_evaluator, sims=8)
                for lane in range(2):
                    a = int(res.action[lane])
                    assert a in game.legal_actions(states[lane])
                    states[lane] = game.apply(states[lane], a)
                    if game.is_terminal(states[lane]):
                        break
                    search.advance(lane, a)
                if any(game.is_terminal(s) for s in states):
                    break


# ---- bad input -------------------------------------------------------------------------------------
def test_bad_options_and_calls_say_what_is_allowed():
    game = make_game("tictactoe")
    with pytest.raises(GuidedSearchError, match="rule='alphago'.*gumbel.*puct"):
        GuidedConfig(rule="alphago")
    with pytest.raises(GuidedSearchError, match="leaves=0"):
        GuidedConfig(leaves=0)
    search = BatchedSearch(game, lanes=2)
    with pytest.raises(GuidedSearchError, match="lane 0 has no root"):
        search.run(uniform_evaluator, sims=4)
    search.set_root(0, game.initial_state())
    search.set_root(1, game.initial_state())
    with pytest.raises(GuidedSearchError, match="sims=-1"):
        search.run(uniform_evaluator, sims=-1)
    with pytest.raises(GuidedSearchError, match="lane=5"):
        search.set_root(5, game.initial_state())
    done = game.initial_state()
    for a in (0, 3, 1, 4, 2):
        done = game.apply(done, a)
    search.set_root(1, done)
    with pytest.raises(GameOverError, match="lane 1"):
        search.run(uniform_evaluator, sims=4)


@pytest.mark.parametrize(("reply", "match"), [
    (lambda o, m: (np.zeros((len(o), 5)), np.zeros(len(o))), r"logits for the batch of \d+ leaves .* shape"),
    (lambda o, m: (np.zeros(m.shape), np.zeros(len(o) + 1)), r"values for the batch .* shape"),
    (lambda o, m: (np.full(m.shape, np.nan), np.zeros(len(o))), r"NaN or infinite logit .* row 0 \(lane 0\)"),
    (lambda o, m: (np.zeros(m.shape), np.full(len(o), np.nan)), r"value nan \(a number in \[-1, 1\]"),
    (lambda o, m: (np.zeros(m.shape), np.full(len(o), 3.0)), r"value 3.0 \(a number in \[-1, 1\] is required\)"),
    (lambda o, m: (np.where(m, 0.0, -np.inf), np.zeros(len(o))), None),  # illegal moves may be -inf
])
def test_an_evaluator_that_returns_garbage_gets_an_error_naming_the_leaf_batch(reply, match):
    game = make_game("connect_four")
    search = BatchedSearch(game, lanes=3, config=GuidedConfig(leaves=2))
    for lane in range(3):
        search.set_root(lane, game.initial_state())
    if match is None:
        assert search.run(reply, sims=8).visits.sum() == 24
        return
    with pytest.raises(EvaluatorError, match=match):
        search.run(reply, sims=8)
    res = search.run(uniform_evaluator, sims=8)  # the search is usable afterwards
    assert res.visits.sum() >= 24
