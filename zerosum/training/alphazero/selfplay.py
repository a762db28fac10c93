"""AlphaZero self-play: many games at once on the batched search, one lane per game.

:func:`play_games` plays ``games`` games on a :class:`~zerosum.search.BatchedSearch` with
``lanes`` trees, the network as its evaluator, and returns their positions as arrays
(:class:`~zerosum.training.alphazero.data.Positions`): the observation planes from the mover's side,
the mask, the search's policy target, and the final result from the mover's side as the value
target.

Per move, each lane's search runs ``sims`` simulations (PUCT or Gumbel as the config says;
root noise in PUCT). With playout-cap randomisation (``full_search_prob`` < 1, KataGo) a
move gets the full search with that probability and is recorded; the others get
``cheap_sims`` simulations and are played but not recorded. The first
``temperature_moves`` plies of a game are drawn in proportion to the root visits (PUCT) or
from the improved policy (Gumbel); later plies take the search's own move.

A self-play worker (:mod:`zerosum.training.alphazero.workers`) calls it with the weights the
learner sent.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.alphazero.config import SelfPlayConfig
from zerosum.training.alphazero.data import Positions


def batched_search(game: Game, cfg: SelfPlayConfig, seed: int) -> Any:
    """The :class:`~zerosum.search.BatchedSearch` of self-play: ``cfg.lanes`` trees, the root rule
    and noise of ``cfg``, no temperature (:func:`play_games` draws the early moves itself)."""
    from zerosum.search import BatchedSearch, GuidedConfig

    guided = GuidedConfig(rule=cfg.rule, c_puct=cfg.c_puct, dirichlet_alpha=cfg.dirichlet_alpha,
                          dirichlet_fraction=cfg.dirichlet_fraction if cfg.rule == "puct" else 0.0,
                          temperature=0.0, gumbel_k=cfg.gumbel_k, leaves=1)
    return BatchedSearch(game, lanes=cfg.lanes, config=guided, seed=seed)


def play_games(game: Game, search: Any, evaluator: Any, cfg: SelfPlayConfig, rng: np.random.Generator,
               games: int) -> Positions:
    """Play ``games`` self-play games on ``search`` (:func:`batched_search`) with ``evaluator`` (the
    network), drawing the early moves and the full searches from ``rng``, and return them."""
    g, bs = game, search
    lanes = cfg.lanes
    start = time.perf_counter()
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    pols: list[np.ndarray] = []
    movers: list[int] = []
    game_of: list[int] = []
    results: list[float] = []  # per game: player 0's return
    states: list[Any] = [None] * lanes
    lane_game = [-1] * lanes
    plies = [0] * lanes
    started = 0
    for lane in range(min(lanes, games)):
        states[lane] = g.initial_state()
        bs.set_root(lane, states[lane])
        lane_game[lane] = started
        results.append(0.0)
        started += 1
    sims_total = moves = 0
    outcomes = [0, 0, 0]
    while True:
        active = [i for i in range(lanes) if lane_game[i] >= 0]
        if not active:
            break
        full_prob = cfg.full_search_prob
        full = [i for i in active if full_prob >= 1.0 or rng.random() < full_prob]
        cheap = [i for i in active if i not in set(full)]
        chosen: dict[int, int] = {}
        for group, sims, record in ((full, cfg.sims, True), (cheap, cfg.cheap_sims, False)):
            if not group:
                continue
            res = bs.run(evaluator, sims=sims, lanes=np.asarray(group, dtype=np.int64))
            sims_total += sims * len(group)
            for row, lane in enumerate(group):  # the results' rows follow the lanes given
                s = states[lane]
                policy = np.asarray(res.policy[row], np.float64)
                if record:
                    obs.append(np.asarray(g.observation(s, g.current_player(s)), np.int8))
                    masks.append(np.asarray(g.legal_mask(s), np.int8))
                    pols.append(policy.astype(np.float32))
                    movers.append(g.current_player(s))
                    game_of.append(lane_game[lane])
                if plies[lane] < cfg.temperature_moves:
                    weights_ = np.asarray(res.visits[row], np.float64) if cfg.rule == "puct" else policy
                    weights_ = weights_ * np.asarray(g.legal_mask(s), np.float64)
                    if weights_.sum() <= 0:
                        weights_ = np.asarray(g.legal_mask(s), np.float64)
                    chosen[lane] = int(rng.choice(g.num_actions, p=weights_ / weights_.sum()))
                else:
                    chosen[lane] = int(res.action[row])
        for lane, a in chosen.items():
            s = g.apply(states[lane], a)
            moves += 1
            plies[lane] += 1
            if g.is_terminal(s):
                r0 = float(g.returns(s)[0])
                results[lane_game[lane]] = r0
                outcomes[0 if r0 > 0 else 2 if r0 < 0 else 1] += 1
                if started < games:
                    states[lane] = g.initial_state()
                    bs.set_root(lane, states[lane])
                    lane_game[lane] = started
                    results.append(0.0)
                    plies[lane] = 0
                    started += 1
                else:
                    lane_game[lane] = -1
            else:
                states[lane] = s
                bs.advance(lane, a)
    res0 = np.asarray(results, np.float32)
    mover = np.asarray(movers, np.int64)
    z = res0[np.asarray(game_of, np.int64)] if game_of else np.zeros(0, np.float32)
    z = np.where(mover == 0, z, -z).astype(np.float32)
    return Positions.stack(g, obs, masks, pols, list(z), games=games, moves=moves, simulations=sims_total,
                           seconds=time.perf_counter() - start, outcomes=(outcomes[0], outcomes[1], outcomes[2]))


__all__ = ["batched_search", "play_games"]
