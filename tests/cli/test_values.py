"""The one value grammar: the same text means the same value in --variant, agent specs and every command."""

from __future__ import annotations

import pytest

from zerosum.agents import AgentSpecError, parse_spec
from zerosum.values import (
    ValueSyntaxError,
    parse_assignments,
    parse_options,
    parse_value,
    split_top_level,
    variant_game,
)


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("On", True), ("yes", True), ("false", False), ("off", False), ("NO", False),
    ("none", None), ("null", None), ("3", 3), ("-2", -2), ("0.5", 0.5), ("1e-3", 0.001),
    ("3,4,5", (3, 4, 5)), ("3,", (3,)), ("[3,4,5]", (3, 4, 5)), ("[3, 4, 5]", (3, 4, 5)), ("(2,)", (2,)),
    ("()", ()), ("[]", ()), ("[[1, 2], [3]]", ((1, 2), (3,))), ("[on, 'a, b', x]", (True, "a, b", "x")),
    ("{a: 1, 'b': [2, 3], c=off}", {"a": 1, "b": (2, 3), "c": False}),
    ("'a, b'", "a, b"), ('"[x]"', "[x]"), ("lines", "lines"), ("runs/ttt/model.zip", "runs/ttt/model.zip"),
    ("alphabeta(depth=2, tt=on)", "alphabeta(depth=2, tt=on)"), ("  8  ", 8),
])
def test_values(text, value):
    got = parse_value(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(("text", "message"), [
    ("", "an empty value"), ("1,,2", "an empty value"), ("[1, 2", "expected ',' or ']', found the end"),
    ("'abc", "unclosed quote"), ("a)", "unexpected ')'"), ("a(b", "unbalanced '('"), ("[1] 2", "after the value"),
    ("{a 1}", "a dict entry is key: value"), ("{a: 1, a: 2}", "key 'a' given twice"),
])
def test_bad_values_say_where(text, message):
    with pytest.raises(ValueSyntaxError) as err:
        parse_value(text)
    assert message in str(err.value) and repr(text) in str(err.value)


def test_assignments_and_options():
    assert parse_assignments(["misere=true", "piles=3,4,5"]) == {"misere": True, "piles": (3, 4, 5)}
    assert parse_assignments(["piles=[3, 4,5]", "x=(1, 2)"]) == {"piles": (3, 4, 5), "x": (1, 2)}
    for items, message in ((["misere"], "write key=value"), (["=3"], "write key=value"), (["a="], "write key=value"),
                           (["2x=1"], "write key=value"), (["a=1", "a=2"], "--variant a given twice"),
                           (["a=[1"], "bad --variant 'a=\\[1'")):
        with pytest.raises(ValueSyntaxError, match=message):
            parse_assignments(items)
    assert parse_options("depth=4, heuristic=lines, tt=on, time=0.5") == {
        "depth": 4, "heuristic": "lines", "tt": True, "time": 0.5}
    assert parse_options("base=alphabeta(depth=2, tt=on), epsilon=0.1, widths=[64, 64]") == {
        "base": "alphabeta(depth=2, tt=on)", "epsilon": 0.1, "widths": (64, 64)}
    assert split_top_level("random; alphabeta(depth=1, tt=on), noisy(base='a, b')") == [
        "random", "alphabeta(depth=1, tt=on)", "noisy(base='a, b')"]


def test_agent_specs_read_values_with_the_same_grammar():
    for text in ("on", "3", "0.25", "[3, 4]", "'a, b'", "none", "lines"):
        assert parse_spec(f"x(v={text})") == ("x", {"v": parse_value(text)})
    assert parse_spec("noisy(base=alphabeta(depth=2), epsilon=0.5)")[1]["base"] == "alphabeta(depth=2)"
    with pytest.raises(AgentSpecError, match="unclosed quote"):
        parse_spec("x(v='a)")


def test_variant_game_reads_text_as_the_game_does():
    assert variant_game("nim", {"piles": 5}).variant["piles"] == (5,)  # one pile of 5
    assert variant_game("nim", {"piles": [3, 4]}).variant["piles"] == (3, 4)  # a list from a file
    with pytest.raises(ValueError, match="unknown game 'mahjong'; available: .*nim.*tictactoe"):
        variant_game("mahjong")
    with pytest.raises(ValueError, match="unknown key\\(s\\) colour; allowed: piles .*, misere"):
        variant_game("nim", {"colour": "red"})
    with pytest.raises(ValueError, match="bad variant for nim: misere='x' is not allowed"):
        variant_game("nim", {"misere": "x"})


def test_one_variant_grammar_in_every_command():
    """play, tournament, match and train read `--variant misere=true piles=3,4,5` alike."""
    from zerosum.cli import match, play, tournament, train
    from zerosum.cli.common import parse_variant

    argv = ["--variant", "misere=true", "piles=3,4,5"]
    want = {"misere": True, "piles": (3, 4, 5)}
    assert parse_variant(play.parser().parse_args(["nim", *argv]).variant) == want
    assert parse_variant(tournament.build_parser().parse_args(["--game", "nim", *argv]).variant) == want
    assert parse_variant(match.parser().parse_args(["--game", "nim", "random", "perfect_nim", *argv]).variant) == want
    cfg = train.config_from_args(train.parser().parse_args(["--game", "nim", *argv, "--variant", "x=[1, 2]"]))
    assert cfg.variant == {**want, "x": (1, 2)}


def test_help_texts_read_correctly(capsys):
    """Every command's --help exits 0 and prints no literal '%%' (argparse formats help with %)."""
    from zerosum.cli import COMMANDS, main

    for name in COMMANDS:
        assert main([name, "--help"]) == 0, name
        out = capsys.readouterr().out
        assert out.startswith(f"usage: zerosum {name}") and "%%" not in out, out
        # a ladder rates a game's default variant only (issue 56), so `zerosum ladder` has no --variant
        assert "--variant KEY=VALUE [KEY=VALUE ...]" in out or name in ("replay", "warmup", "ladder"), out
    for action in ("show", "build"):
        assert main(["ladder", action, "--help"]) == 0, action
        out = capsys.readouterr().out
        assert out.startswith(f"usage: zerosum ladder {action} [-h]") and "%%" not in out, out
    assert "95% intervals" in (main(["tournament", "--help"]), capsys.readouterr().out)[1]


def test_the_grammar_table_and_examples_in_the_docstring():
    import doctest

    import zerosum.values

    assert doctest.testmod(zerosum.values).failed == 0
