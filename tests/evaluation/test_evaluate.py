"""zerosum.evaluate: any policy in one call; counts, seats, intervals, faults, models and checkpoints."""

import doctest
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import zerosum
import zerosum.evaluation.evaluate as evaluate_mod
from zerosum.agents import Agent, RandomAgent, make_agent
from zerosum.evaluation.evaluate import EvaluationError, evaluate
from zerosum.evaluation.match import ERROR, ILLEGAL
from zerosum.evaluation.stats import wilson_interval
from zerosum.games import make_game


def first_legal(obs):
    """Always the lowest-numbered legal action."""
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_first_legal_against_random_counts_seats_and_intervals():
    report = zerosum.evaluate(first_legal, "tictactoe_v0", opponents=["random"], games=40, seed=0)
    r = report["random"]
    assert r.total.games == 40 == r.total.wins + r.total.draws + r.total.losses
    assert r.first.games == r.second.games == 20  # seats alternate
    assert (r.first.wins + r.second.wins, r.first.draws + r.second.draws) == (r.total.wins, r.total.draws)
    assert [g.seat for g in report.games] == [k % 2 for k in range(40)]
    points = r.total.wins + 0.5 * r.total.draws
    assert r.total.interval == pytest.approx(wilson_interval(points, 40))
    # Wilson's interval by hand for these counts
    p, n, z = points / 40, 40, 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert r.total.interval == pytest.approx((centre - half, centre + half))
    # every game's outcome from the policy's side agrees with the counts
    assert sum(g.outcome == "win" for g in report.games) == r.total.wins
    assert not report.faults and r.mean_length >= 5
    row = report.as_rows()[0]
    assert (row["games"], row["wins"], row["first_games"]) == (40, r.total.wins, 20)


def test_the_policy_sees_what_the_env_shows_the_mover():
    from zerosum.envs import make

    seen = []

    def spy(obs):
        seen.append(obs)
        return first_legal(obs)

    evaluate(spy, "nim_v0", opponents="random", games=2, seed=3, variant={"piles": (2, 3)})
    env = make("nim_v0", piles=(2, 3))
    env.reset()
    ref = env.observe(env.agent_selection)
    assert set(seen[0]) == {"observation", "action_mask"}
    assert seen[0]["observation"].shape == ref["observation"].shape
    assert seen[0]["observation"].dtype == ref["observation"].dtype
    assert seen[0]["action_mask"].dtype == ref["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(seen[0]["action_mask"], ref["action_mask"])  # game 0: the policy moves first


def test_results_do_not_depend_on_workers_and_repeat_with_the_seed():
    kw = {"opponents": ["random", "alphabeta(depth=2)"], "games": 6, "seed": 11, "opening_plies": 1}
    one = evaluate(first_legal, "tictactoe_v0", workers=1, **kw)
    two = evaluate(lambda obs: first_legal(obs), "tictactoe_v0", workers=2, **kw)  # a lambda: forked workers
    again = evaluate(first_legal, "tictactoe_v0", workers=1, **kw)
    assert [g.match.actions for g in one.games] == [g.match.actions for g in two.games]
    assert [g.match.actions for g in one.games] == [g.match.actions for g in again.games]
    # games 2j and 2j+1 share their opening, with the seats swapped
    openings = [g.match.opening for g in one.games[:6]]
    assert openings[0] == openings[1] and openings[2] == openings[3] and len(openings[0]) == 1


def test_spec_strings_and_agents_as_policies():
    by_spec = evaluate("alphabeta(depth=9)", "tictactoe", opponents=["random"], games=10, seed=0)
    assert by_spec.policy == "alphabeta(depth=9)" and by_spec["random"].total.losses == 0
    by_agent = evaluate(make_agent("alphabeta(depth=9)"), "tictactoe", opponents=[RandomAgent()], games=10, seed=0)
    assert by_agent["random"].total.losses == 0
    # the opponents' search cost is reported per move
    r = evaluate(first_legal, "pentago_v0", opponents=["alphabeta(depth=1)"], games=2, seed=0)
    cost = r["alphabeta(depth=1)"].cost
    assert cost.nodes["mean"] > 30 and cost.depth["mean"] >= 1 and cost.moves == cost.searched > 0


def test_variants_pass_through():
    report = evaluate(first_legal, "nine_mens_morris_v0", opponents=["random"], games=2, seed=0,
                      variant={"no_return": True, "max_turns": 40})
    assert report.variant["no_return"] is True and report.variant["max_turns"] == 40
    assert "no_return=True" in str(report)


class Raiser(Agent):
    name = "raiser"

    def act(self, game, state):
        raise RuntimeError("policy bug")


def test_illegal_and_raising_policies_are_reported_not_crashed():
    report = evaluate(lambda obs: 99, "tictactoe_v0", opponents=["random", "alphabeta(depth=1)"], games=4, seed=0)
    assert report.total.losses == 8 and len(report.faults) == 8
    f = report.faults[0]
    assert f["termination"] == ILLEGAL and "illegal action 99" in f["error"] and "legal: a1" in f["error"]
    assert "8 game(s) lost by the policy's faults" in str(report)
    assert "illegal action 99" in report.to_markdown()
    raised = evaluate(Raiser(), "tictactoe_v0", opponents="random", games=2, seed=0)
    assert [f["termination"] for f in raised.faults] == [ERROR, ERROR]
    assert "RuntimeError: policy bug" in raised.faults[0]["error"]
    # a policy that errs only sometimes (with exactly two moves left): the good games still count
    def errs(mask):
        return mask.sum() == 2

    flaky = evaluate(lambda obs: 4 if obs["action_mask"][4] else first_legal(obs) + 100 * errs(obs["action_mask"]),
                     "tictactoe_v0", opponents="random", games=6, seed=2)
    faulted = {f["game"] for f in flaky.faults}
    assert flaky.total.games == 6 and 0 < len(faulted) < 6 and len(faulted) == len(flaky.faults)
    assert sum(g.outcome == "win" for g in flaky.games) == flaky.total.wins
    game = make_game("tictactoe")
    for g in flaky.games:  # replay: a game is lost by a fault exactly when the policy met a position it errs in
        state, met = game.initial_state(), None
        for ply, a in enumerate([*g.match.actions, None]):
            if game.is_terminal(state):
                break
            if game.current_player(state) == g.seat and errs(game.legal_mask(state)):
                met = ply
                break
            state = game.apply(state, a)
        assert (g.index in faulted) == (met is not None), g.index
        if met is not None:
            assert met == g.match.length and g.outcome == "loss" and g.match.termination == ILLEGAL


@pytest.mark.parametrize("call, message", [
    (lambda: evaluate(first_legal, "mahjong_v0"), "unknown env 'mahjong_v0'; available: .*tictactoe_v0"),
    (lambda: evaluate(first_legal, "nim_v0", variant={"pile": 3}), "unknown variant option|pile"),
    (lambda: evaluate(first_legal, "tictactoe_v0", opponents=["alphabeta(dept=2)"]),
     "opponent 'alphabeta\\(dept=2\\)'"),
    (lambda: evaluate(first_legal, "tictactoe_v0", opponents=["random", "random"]), "given twice"),
    (lambda: evaluate(first_legal, "tictactoe_v0", opponents=[]), "opponents is empty"),
    (lambda: evaluate(first_legal, "tictactoe_v0", games=0), "games is the number of games per opponent"),
    (lambda: evaluate(first_legal, "tictactoe_v0", workers=0), "workers is an int >= 1"),
    (lambda: evaluate(42, "tictactoe_v0"), "cannot evaluate 42 of type int: a policy is an Agent"),
    (lambda: evaluate("alphabet(depth=2)", "tictactoe_v0"), "neither an agent spec .* nor a checkpoint path"),
    (lambda: evaluate("runs/none/model.zip", "tictactoe_v0"), "no checkpoint at 'runs/none/model.zip'"),
    (lambda: evaluate("perfect_nim", "tictactoe_v0"), "plays Nim only"),
])
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_report_views(tmp_path):
    report = evaluate(first_legal, "tictactoe_v0", opponents=["random", "alphabeta(depth=2)"], games=4, seed=0)
    text = str(report)
    assert text.splitlines()[1].split()[:4] == ["opponent", "games", "W/D/L", "score"]
    assert "alphabeta(depth=2)" in text and "overall" in text
    md = report.to_markdown()
    assert md.count("\n| ") >= 3 and "95% Wilson" in md
    games = report.as_rows("games")
    assert len(games) == 8 and {"opponent", "seat", "score", "actions", "termination"} <= set(games[0])
    moves = report.as_rows("moves")
    assert {m["mover"] for m in moves} == {"policy", "opponent"}
    assert all(m["nodes"] is not None for m in moves if m["mover"] == "opponent" and m["opponent"] != "random")
    with pytest.raises(ValueError, match="level='x' is not allowed"):
        report.as_rows("x")
    fig = report.plot(tmp_path / "eval.png")
    assert (tmp_path / "eval.png").stat().st_size > 1000 and len(fig.axes) == 2
    pd = pytest.importorskip("pandas")
    df = report.to_dataframe()
    assert isinstance(df, pd.DataFrame) and list(df["opponent"]) == ["random", "alphabeta(depth=2)"]
    assert len(report.to_dataframe("games")) == 8


def test_evaluate_plays_tournament_tasks_through_the_backends():
    """One engine: evaluate's games are gauntlet tasks, seeded like a tournament's, played by play_task."""
    from zerosum.agents.policies import CallableAgent
    from zerosum.evaluation.backends import play_task
    from zerosum.evaluation.tournament import game_seed, gauntlet

    game = make_game("tictactoe")
    tasks = gauntlet(game, 2, games=4, seed=7, opening_plies=1)
    assert [(t.pairing, t.game_index, t.seats) for t in tasks[:4]] == [
        (0, 0, (0, 1)), (0, 1, (1, 0)), (0, 2, (0, 1)), (0, 3, (1, 0))]
    assert [t.seats for t in tasks[4:6]] == [(0, 2), (2, 0)]
    assert all(t.seed == game_seed(7, t.pairing, t.game_index) for t in tasks)
    report = evaluate(first_legal, game, ["random", "alphabeta(depth=1)"], games=4, seed=7, opening_plies=1)
    assert [(g.seed, g.match.opening) for g in report.games] == [(t.seed, list(t.opening)) for t in tasks]
    payload = {"game": "tictactoe", "variant": {}, "names": ["first_legal", "random", "alphabeta(depth=1)"],
               "specs": [CallableAgent(first_legal), "random", "alphabeta(depth=1)"]}
    for task, g in zip(tasks, report.games):  # each game again from its task alone
        assert play_task(payload, task)[1].actions == g.match.actions


def test_agents_held_in_memory_need_a_backend_that_can_run_them(monkeypatch):
    from zerosum.agents.policies import CallableAgent
    from zerosum.evaluation import backends

    payload = {"game": "tictactoe", "variant": {}, "names": ["f", "random"],
               "specs": [CallableAgent(lambda obs: first_legal(obs)), "random"]}
    assert backends.holds_objects(payload) and not backends.holds_objects({**payload, "specs": ["random"] * 2})
    assert backends.InlineBackend.in_memory and not backends.RayBackend.in_memory
    if backends.ProcessBackend.in_memory:  # where the platform forks, the workers inherit the objects
        assert isinstance(backends.make_backend("process", 2, payload=payload), backends.ProcessBackend)
    monkeypatch.setattr(backends.ProcessBackend, "in_memory", False)  # a platform without fork
    with pytest.warns(RuntimeWarning, match="cannot run agents held in memory"):
        assert isinstance(backends.make_backend("process", 2, payload=payload), backends.InlineBackend)
    pickles = {**payload, "specs": [CallableAgent(first_legal), "random"]}  # sent to spawned workers instead
    assert isinstance(backends.make_backend("process", 2, payload=pickles), backends.ProcessBackend)
    assert isinstance(backends.make_backend("process", 1, payload=payload), backends.InlineBackend)


def test_process_workers_get_short_games_in_batches(monkeypatch):
    """One game at a time until a batch is timed, then BATCH_SECONDS' worth, shrinking near the end."""
    from zerosum.evaluation import backends

    monkeypatch.setattr(backends, "BATCH_SECONDS", 0.05)
    assert backends.batch_size(None, 1000, 2) == 1  # not timed yet
    assert backends.batch_size(0.001, 1000, 2) == 50  # 1 ms games: 50 ms of play
    assert backends.batch_size(0.001, 100, 2) == 25  # a quarter of what is left, with two workers
    assert backends.batch_size(0.001, 3, 2) == 1
    assert backends.batch_size(2.0, 1000, 2) == 1  # long games one by one
    assert backends.batch_size(1e-9, 10**6, 2) == backends.MAX_BATCH

    sizes = []

    class Worker:  # a worker process's end of the pipe: plays what it is sent at 1 ms a game
        def __init__(self):
            self.sent = []

        def send(self, batch):
            sizes.append(len(batch))
            self.sent.append(batch)

        def recv(self):
            batch = self.sent.pop(0)
            return 0.001 * len(batch), [(task, None) for task in batch]

    workers = [Worker(), Worker()]
    monkeypatch.setattr(backends, "wait", lambda conns: [c for c in conns if c.sent][:1])
    out = [task for task, _ in backends.drain(workers, list(range(300)))]
    assert sorted(out) == list(range(300)) and sum(sizes) == 300
    assert sizes[:4] == [1, 1, 1, 1] and max(sizes) == 50 and sizes[-1] == 1


def test_a_worker_that_fails_stops_the_run_with_its_error():
    from zerosum.evaluation.backends import ProcessBackend, WorkerError
    from zerosum.evaluation.store import GameTask

    payload = {"game": "tictactoe", "variant": {}, "names": ["a", "b"], "specs": ["random", "random"]}
    bad = [GameTask(0, k, (0, 1), k, (0, 1, 3, 4, 6)) for k in range(3)]  # the opening already ends the game
    with pytest.raises(ValueError, match="already ends the game"):
        list(ProcessBackend(2).run(payload, bad))

    class Dies(Agent):
        name = "dies"

        def act(self, game, state):
            os._exit(3)

    if ProcessBackend.in_memory:  # a worker that dies (killed, out of memory) ends the run instead of hanging it
        tasks = [GameTask(0, k, (0, 1), k, ()) for k in range(4)]
        with pytest.raises(WorkerError, match="a worker process died"):
            list(ProcessBackend(2).run({**payload, "specs": [Dies(), "random"]}, tasks))


def test_a_script_without_a_main_guard_is_told_what_to_do(tmp_path):
    """Workers started by forkserver import the calling script again; one that plays at its top
    level then kills them, and the error says why and what to write."""
    script = tmp_path / "no_guard.py"
    script.write_text("import zerosum\n"
                      "zerosum.evaluate('random', 'tictactoe_v0', opponents=['random'], games=4, seed=0, workers=2)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600, check=False,
                         cwd=tmp_path)
    assert out.returncode != 0
    assert "WorkerError" in out.stderr and 'if __name__ == "__main__":' in out.stderr


def test_module_doctest():
    assert doctest.testmod(evaluate_mod).failed == 0


# ---- learned policies: a model object and its checkpoint ------------------------------------------


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    from zerosum.training.ppo.train import TrainConfig, train

    out = tmp_path_factory.mktemp("eval_ttt")
    return train(TrainConfig(steps=256, n_envs=2, algo_kwargs={"n_steps": 64, "batch_size": 64, "n_epochs": 1},
                             eval_games=1, out=str(out)))


def test_a_model_and_its_checkpoint_give_the_same_results(trained):
    kw = {"opponents": ["random", "alphabeta(depth=1)"], "games": 6, "seed": 4}
    from_model = evaluate(trained.model, "tictactoe_v0", **kw)
    from_path = evaluate(str(trained.checkpoint), "tictactoe_v0", **kw)
    from_pathlib = evaluate(trained.checkpoint, "tictactoe_v0", workers=2, **kw)
    actions = [g.match.actions for g in from_model.games]
    assert actions == [g.match.actions for g in from_path.games] == [g.match.actions for g in from_pathlib.games]
    assert from_model.policy == "MaskablePPO" and from_path.policy.startswith("maskable_ppo(")
    assert not from_model.faults  # a maskable model gets the mask: never illegal


def test_a_model_for_another_game_is_refused(trained):
    with pytest.raises(EvaluationError, match="does not fit nim"):
        evaluate(trained.model, "nim_v0", games=2)
    from zerosum.agents.learned import CheckpointError

    with pytest.raises(CheckpointError, match="cannot play nim"):
        evaluate(trained.checkpoint, "nim_v0", games=2)


def test_training_evaluation_uses_evaluate(trained):
    rows = trained.eval_rows
    assert {(r["opponent"], r["seat"], r["games"]) for r in rows} == {("random", 0, 1), ("random", 1, 1)}
