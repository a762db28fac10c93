"""Chess: perft against the published tables, python-chess and OpenSpiel move by move, PettingZoo's
chess_v6 observation by observation, FEN, UCI and SAN, scripted rules, the conformance kit."""

import numpy as np
import pytest

from zerosum.games import GameOverError, IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.chess import START_FEN
from zerosum.games.chess.perft import perft
from zerosum.testing import check_game, check_heuristic, openspiel_chess_moves

chess = pytest.importorskip("chess")

G = make_game("chess")
ARISE = make_game("chess", draws="arise")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# The chessprogramming wiki's perft positions 1-6 and their published counts (depth 1 first).
PERFT = [
    (START_FEN, [20, 400, 8_902, 197_281]),
    (KIWIPETE, [48, 2_039, 97_862, 4_085_603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2_812, 43_238, 674_624]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9_467, 422_333]),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", [6, 264, 9_467, 422_333]),  # 4 mirrored
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1_486, 62_379, 2_103_487]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", [46, 2_079, 89_890]),
]
# Endgames where random play meets repetition, the fifty-move rule, promotion and en passant.
ENDGAMES = ["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
            "4k3/3q4/8/8/8/8/3Q4/4K3 w - - 0 1", "4k3/pp6/8/3pP3/8/8/6PP/4K3 w - d6 0 1",
            "8/8/4k3/8/8/3K4/8/R7 w - - 95 80", "8/P6k/8/8/8/8/6Kp/8 w - - 0 1"]
RESULT = {"1-0": Outcome.P0_WINS, "0-1": Outcome.P1_WINS, "1/2-1/2": Outcome.DRAW}


@pytest.mark.parametrize(("fen", "counts"), PERFT, ids=[f"position{i + 1}" for i in range(len(PERFT))])
def test_perft_matches_the_published_counts(fen, counts):
    s = G.from_fen(fen)
    assert [perft(s, d) for d in range(1, len(counts) + 1)] == counts


def chess_v6_outcome(board):
    """How PettingZoo's chess_v6 ends a game: python-chess's claimable draws, at once."""
    if not any(board.generate_legal_moves()) or board.is_insufficient_material() or board.can_claim_draw():
        return RESULT[board.result(claim_draw=True)]
    return Outcome.ONGOING


def test_python_chess_at_every_step_of_random_games():
    """Legal moves, FEN, SAN (written and read back) and the result, against python-chess
    with chess_v6's draw rule, at every step."""
    rng = np.random.default_rng(0)
    steps, reasons = 0, set()
    for fen in [START_FEN, *ENDGAMES[1::2]]:  # bench/chess_oracles.py plays many more
        s, board = G.from_fen(fen), chess.Board(fen)
        while True:
            steps += 1
            outcome = chess_v6_outcome(board)
            assert G.outcome(s) == outcome, (board.fen(), [m.uci() for m in board.move_stack])
            assert G.to_fen(s) == board.fen()
            mine = sorted(G.action_to_string(a, s) for a in G.legal_actions(s))
            assert mine == ([] if outcome else sorted(m.uci() for m in board.legal_moves)), board.fen()
            if outcome:
                reasons.add(G.result_reason(s))
                break
            legal = G.legal_actions(s)
            a = int(legal[rng.integers(len(legal))])
            move = chess.Move.from_uci(G.action_to_string(a, s))
            assert G.san(a, s) == board.san(move)
            assert G.string_to_action(board.san(move), s) == a
            board.push(move)
            s = G.apply(s, a)
    assert steps > 300
    assert len(reasons) >= 2, reasons


def test_openspiel_at_every_step_of_random_games():
    """draws="arise" against OpenSpiel's chess: legal moves (as UCI), the position, the end and the returns."""
    pyspiel = pytest.importorskip("pyspiel")

    game = pyspiel.load_game("chess")
    rng = np.random.default_rng(1)
    steps = 0
    for fen in [START_FEN, *ENDGAMES]:
        s, o = ARISE.from_fen(fen), game.new_initial_state(fen)
        while True:
            steps += 1
            assert ARISE.is_terminal(s) == o.is_terminal(), str(o)
            if o.is_terminal():
                assert ARISE.returns(s) == tuple(o.returns())[::-1]  # OpenSpiel's player 0 is black
                break
            mine, theirs = openspiel_chess_moves(ARISE, s, o)
            assert set(mine) == set(theirs), str(o)
            assert ARISE.to_fen(s).split()[:3] == str(o).split()[:3]
            uci = sorted(mine)[rng.integers(len(mine))]
            s = ARISE.apply(s, mine[uci])
            o.apply_action(theirs[uci])
    assert steps > 500
    # a mate (random play above ends in draws): OpenSpiel orders the returns black, white
    mate = "3k1R2/2r1n2r/B1P4p/1P6/7P/3Pp1p1/8/Q5K1 b - - 6 66"
    s, o = ARISE.from_fen(mate), game.new_initial_state(mate)
    assert ARISE.is_terminal(s) and o.is_terminal() and ARISE.result_reason(s) == "checkmate"
    assert ARISE.returns(s) == (1.0, -1.0) and tuple(o.returns()) == (-1.0, 1.0)


def test_pettingzoo_observations_at_every_step():
    """chess_v0 against PettingZoo's chess_v6: both players' observations and masks, the
    rewards and the end, at every step of random games."""
    chess_v6 = pytest.importorskip("pettingzoo.classic.chess_v6")
    from zerosum.envs import chess_v0

    rng = np.random.default_rng(2)
    steps = 0
    for seed in range(1):
        theirs, mine = chess_v6.env(), chess_v0.env()
        theirs.reset(seed=seed)
        mine.reset(seed=seed)
        for agent in theirs.agent_iter():
            obs, _, done, _, _ = theirs.last()
            if done:
                assert all(mine.terminations.values()) and mine.rewards == theirs.rewards
                break
            assert agent == mine.agent_selection and not any(mine.terminations.values())
            for who in mine.possible_agents:
                a, b = theirs.observe(who), mine.observe(who)
                assert np.array_equal(a["observation"], b["observation"]), (steps, who, theirs.unwrapped.board.fen())
                assert np.array_equal(a["action_mask"], b["action_mask"])
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            theirs.step(action)
            mine.step(action)
            steps += 1
    assert steps > 100


def test_scripted_rules():
    s = G.initial_state()
    for move in ["f3", "e5", "g4", "Qh4#"]:  # fool's mate
        s = G.apply(s, G.string_to_action(move, s))
    assert G.outcome(s) == Outcome.P1_WINS and G.returns(s) == (-1.0, 1.0) and G.result_reason(s) == "checkmate"
    with pytest.raises(GameOverError):
        G.apply(s, 0)
    s = G.from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    assert G.outcome(s) == Outcome.DRAW and G.result_reason(s) == "stalemate"
    s = G.from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")  # en passant, then the pawn is gone
    s = G.apply(s, G.string_to_action("exd6", s))
    assert G.to_fen(s) == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1"
    s = G.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert G.string_to_action("O-O", s) == G.string_to_action("e1g1", s) == (4 * 8 + 0) * 73 + 14
    s = G.apply(s, G.string_to_action("O-O-O", s))
    assert G.to_fen(s) == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"
    s = G.from_fen("8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")  # under-promotion: plane 64 + 3*1 + 0
    a = G.string_to_action("b8=N", s)
    assert a == (1 * 8 + 6) * 73 + 67 and G.action_to_string(a, s) == "b7b8n"
    assert G.to_fen(G.apply(s, a)) == "1N6/6k1/8/8/8/8/6K1/8 b - - 0 1"
    assert G.to_fen(G.apply(s, G.string_to_action("b7b8", s))).startswith("1Q6")
    # black's moves are mirrored: e7e5 is white's e2e4 action
    s = G.apply(G.initial_state(), G.string_to_action("e2e4"))
    assert G.string_to_action("e5", s) == G.string_to_action("e2e4") == (4 * 8 + 1) * 73 + 12


def test_draw_rules_claim_and_arise():
    knights = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    s, t = G.initial_state(), ARISE.initial_state()
    for i, move in enumerate(knights):
        assert not G.is_terminal(s), i
        s, t = G.apply(s, G.string_to_action(move, s)), ARISE.apply(t, ARISE.string_to_action(move, t))
    # black could now play Ng8 and repeat the start a third time: chess_v6 ends the game here
    assert G.outcome(s) == Outcome.DRAW and G.result_reason(s) == "threefold repetition"
    assert not ARISE.is_terminal(t)
    t = ARISE.apply(t, ARISE.string_to_action("Ng8", t))
    assert ARISE.outcome(t) == Outcome.DRAW
    s = G.from_fen("8/8/4k3/8/8/3K4/8/R7 w - - 98 80")
    assert not G.is_terminal(s)
    s = G.apply(s, G.string_to_action("Ra2", s))  # 99: a quiet move would make it 100
    assert G.is_terminal(s) and G.result_reason(s) == "fifty-move rule"
    assert G.is_terminal(G.from_fen("8/8/4k3/8/8/3K4/8/1B6 w - - 0 1"))  # king and bishop against king


def test_fen_round_trip_and_errors():
    for fen, _ in PERFT:
        assert G.to_fen(G.from_fen(fen)) == fen
    assert G.position(KIWIPETE).tolist() == G.from_fen(KIWIPETE).tolist()
    bad = [("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
           ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9' on rank 6"),
           ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X'"),
           ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "white has 0 kings"),
           (START_FEN.replace(" w ", " x "), "'w' or 'b'"),
           (START_FEN.replace("KQkq", "KX"), "castling rights"),
           (START_FEN.replace(" - 0", " e4 0"), "en-passant square"),
           (START_FEN.replace("0 1", "x 1"), "integers"),
           ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "side not to move \\(black\\) is in check"),
           ("rnbqkbnr", "6 fields")]
    for fen, words in bad:
        with pytest.raises(PositionError, match=words):
            G.from_fen(fen)
    with pytest.raises(VariantError):
        make_game("chess", draws="never")


def test_move_text_errors():
    s = G.initial_state()
    with pytest.raises(IllegalActionError, match="'Nf6' is not a legal move for white"):
        G.string_to_action("Nf6", s)
    with pytest.raises(IllegalActionError, match="cannot read move 'hello'"):
        G.string_to_action("hello", s)
    with pytest.raises(IllegalActionError, match="no move any piece makes"):
        G.string_to_action("a1h7", s)
    with pytest.raises(IllegalActionError, match=r"e2e5\) is not legal here: the P on e2 cannot go to e5"):
        G.apply(s, G.string_to_action("e2e5", s))
    with pytest.raises(IllegalActionError, match="no piece on e3"):
        G.apply(s, G.string_to_action("e3e4", s))
    s = G.from_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1")
    with pytest.raises(IllegalActionError, match="ambiguous"):
        G.string_to_action("Rd1", s)


def test_render_draws_unicode_pieces():
    text = G.render(G.initial_state())
    assert text.splitlines()[0] == "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜" and text.endswith("white to move")


def test_conformance():
    check_game(G, games=3, seed=0, search_positions=4, env_cycles=50)
    check_game(ARISE, games=2, seed=1, search_depth=0, env=False)
    check_heuristic(G, "pst")
    check_heuristic(G, "material")


def test_pgn_reads_back_in_python_chess():
    import io

    import chess.pgn

    from zerosum.games.chess.pgn import to_pgn

    s = G.initial_state()
    actions = []
    for move in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6", "d4", "exd4", "Nxd4", "c5"]:
        actions.append(G.string_to_action(move, s))
        s = G.apply(s, actions[-1])
    text = to_pgn(G, actions, white="alphabeta(depth=3)", black="random", tags={"Event": "test"})
    assert '[White "alphabeta(depth=3)"]' in text and '[Result "*"]' in text
    assert "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 *" in text
    read = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in read.mainline_moves()] == [G.action_to_string(a, st) for a, st in
                                                        zip(actions, _states(actions))]
    start = G.from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 30")
    a = G.string_to_action("Kd7", start)
    text = to_pgn(G, [a], start=start)
    assert '[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 30"]' in text and "30... Kd7 *" in text


def _states(actions):
    s = G.initial_state()
    out = []
    for a in actions:
        out.append(s)
        s = G.apply(s, a)
    return out


def test_replay_writes_pgn_for_stored_games(tmp_path, capsys):
    import io

    import chess.pgn

    from zerosum.agents import make_agent
    from zerosum.cli.replay import replay_main
    from zerosum.evaluation.match import play_match
    from zerosum.evaluation.store import GameTask, Store

    path = tmp_path / "t.sqlite"
    store = Store(path)
    store.init({"game": "chess", "variant": {}}, {"game": "chess"}, [("one", "random"), ("two", "random")], [(0, 1)])
    for i in range(2):
        match = play_match(G, [make_agent("random", i), make_agent("random", i + 7)], [])
        store.add_game(GameTask(0, i, (0, 1), i, ()), match)
    store.close()
    out = tmp_path / "all.pgn"
    assert replay_main([str(path), "all", "--pgn", str(out)]) == 0
    assert "2 games" in capsys.readouterr().out
    with open(out) as fh:
        games = [chess.pgn.read_game(fh) for _ in range(2)]
    assert all(g is not None and g.headers["Result"] in ("1-0", "0-1", "1/2-1/2") for g in games)
    assert replay_main([str(path), "1", "--pgn", "-"]) == 0
    first = chess.pgn.read_game(io.StringIO(capsys.readouterr().out))
    assert list(first.mainline_moves()) == list(games[0].mainline_moves())


def test_terminal_play_reads_san_and_uci_and_says_what_is_wrong(capsys):
    from zerosum.cli.play import PlaySession, play_main
    from zerosum.agents import make_agent

    out: list[str] = []
    typed = iter(["e4", "Nf6", "e2e4", "d2d4", "quit"])
    session = PlaySession(G, make_agent("random", 0), {0}, "random", input_fn=lambda p: next(typed),
                          output_fn=out.append)
    assert session.run() == 0
    text = "\n".join(out)
    assert "♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜" in text
    assert "'Nf6' is not a legal move for white" in text
    assert session.actions[0] == G.string_to_action("e2e4") and len(session.actions) == 4
    assert play_main(["chess", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], input_fn=lambda p: "quit") == 2
    err = capsys.readouterr().err
    assert "bad --fen" in err and "white has 0 kings" in err
