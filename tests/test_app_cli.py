"""The app's command line: Gorilla's flags as written, long options, errors with exit status 2."""

from __future__ import annotations

import pytest

from gorilla.launcher import cli
from gorilla.launcher.cli import UsageError, main, parse_args, player_spec


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("GORILLA_AUTOSAVE", str(tmp_path / "autosave.sgf"))


@pytest.mark.parametrize(
    "argv, black, white, gui",
    [
        ([], "human", "human", True),
        (["-ai_random"], "human", "random", True),
        (["-ai_monte_carlo", "7", "3"], "human", "montecarlo:7,3", True),
        (["-ai_vs_ai", "-ai_random", "-ai_random"], "random", "random", True),
        (["-ai_vs_ai", "-ai_random", "-ai_monte_carlo", "5", "5"], "random", "montecarlo:5,5", True),
        (["-ai_vs_ai", "-ai_monte_carlo", "5", "5", "-ai_random"], "montecarlo:5,5", "random", True),
        (
            ["-no_gui", "-ai_vs_ai", "-ai_random", "-ai_monte_carlo", "5", "5"],
            "random",
            "montecarlo:5,5",
            False,
        ),
        (["-eval", "10", "3"], "human", "human", True),
        (["--no-gui"], "human", "human", False),
        (["--black", "mcts:2", "--white", "human"], "mcts:time=2", "human", True),
        (["--black", "human", "--white", "montecarlo:4,0"], "human", "montecarlo:4,0", True),
        (["--white", "mcts"], "human", "mcts", True),
        (
            ["--black", "random", "--white", "mcts:time=1.5,threads=2"],
            "random",
            "mcts:time=1.5,threads=2",
            True,
        ),
        (["-ai_random", "--black", "mcts:0.5"], "mcts:time=0.5", "random", True),
    ],
)
def test_gorilla_flags_give_the_right_players(argv, black, white, gui):
    opts = parse_args(argv)
    assert (opts.black, opts.white, opts.gui) == (black, white, gui)


def test_eval_and_long_options():
    opts = parse_args(
        ["-eval", "10", "3", "--size", "13", "--komi", "5.5", "--rules", "Japanese", "--handicap", "3"]
        + ["--threads", "2", "--seed", "7", "--continuous"]
    )
    assert (opts.eval_games, opts.eval_turns) == (10, 3)
    assert (opts.size, opts.komi, opts.rules, opts.handicap) == (13, 5.5, "japanese", 3)
    assert (opts.threads, opts.seed, opts.continuous) == (2, 7, True)
    # -eval G T gives the flat evaluator its numbers; without it the net evaluates (e)
    assert opts.eval_engine == "flat"
    assert parse_args([]).eval_engine == "net"
    assert parse_args(["-eval", "10", "3", "--eval-engine", "mcts"]).eval_engine == "mcts"


def test_autosave_path_default_env_and_off(tmp_path, monkeypatch):
    assert parse_args([]).autosave == str(tmp_path / "autosave.sgf")
    assert parse_args(["--autosave", str(tmp_path / "x.sgf")]).autosave == str(tmp_path / "x.sgf")
    assert parse_args(["--no-autosave"]).autosave is None
    monkeypatch.delenv("GORILLA_AUTOSAVE")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert parse_args([]).autosave == str(tmp_path / ".local" / "share" / "gorilla" / "autosave.sgf")


def test_controller_is_built_with_the_options():
    opts = parse_args(
        ["-ai_vs_ai", "-ai_random", "-ai_random", "--size", "9", "--komi", "0.5", "--seed", "3"]
    )
    c = cli.build_controller(opts)
    try:
        assert c.game.size == 9 and c.game.komi == 0.5
        assert c.players == {1: "random", 2: "random"}
        assert c.ai_vs_ai and not c.continuous  # the window steps, as in Gorilla
        assert c.eval_games == 10 and c.eval_turns == 3  # the evaluator's defaults
    finally:
        c.close()
    c = cli.build_controller(parse_args(["--handicap", "4", "--size", "9", "-eval", "4", "2"]))
    try:
        assert len(c.game.setup) == 4 and c.game.to_move == 2
        assert (c.eval_games, c.eval_turns) == (4, 2)
    finally:
        c.close()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["-foo"], "unknown flag '-foo'"),
        (["--foo"], "--foo"),
        (["stray"], "stray"),
        (["-ai_monte_carlo", "5"], "-ai_monte_carlo needs two integers"),
        (["-ai_monte_carlo", "5", "x"], "got 'x'"),
        (["-ai_monte_carlo", "0", "5"], "at least 1"),
        (["-eval", "ten", "3"], "-eval needs two integers"),
        (["-ai_vs_ai", "-ai_random"], "-ai_vs_ai needs two AIs"),
        (["-ai_random", "-ai_random"], "without -ai_vs_ai"),
        (["--size", "40"], "--size"),
        (["--size", "nine"], "needs an integer"),
        (["--komi", "abc"], "--komi"),
        (["--komi", "0.3"], "half"),
        (["--rules", "klingon"], "unknown rules"),
        (["--handicap", "1"], "--handicap"),
        (["--handicap", "9", "--size", "8"], "--handicap"),
        (["--black", "montecarlo:5"], "montecarlo:G,T"),
        (["--white", "mcts:fast"], "mcts:SECONDS"),
        (["--white", "mcts:-1"], "seconds"),
        (["--black", "nobody"], "unknown AI 'nobody'"),
        (["--threads", "0"], "--threads"),
        (["--load", "a.sgf", "--resume"], "together"),
    ],
)
def test_bad_flags_exit_2_with_one_error_line_and_the_usage(argv, words, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1, err
    assert errors[0].startswith("gorilla: error: ")
    assert words in errors[0]
    assert "usage: gorilla" in err


def test_help_exits_0(capsys):
    assert main(["-h"]) == 0
    out = capsys.readouterr().out
    assert "-ai_monte_carlo G T" in out and "--black SPEC" in out


def test_player_spec_normalises():
    assert player_spec("Human") == "human"
    assert player_spec("monte_carlo:5,5") == "montecarlo:5,5"
    assert player_spec("mcts:2") == "mcts:time=2"
    with pytest.raises(UsageError):
        player_spec("human:3")


def test_unreadable_load_file_is_one_line_and_status_1(tmp_path, capsys):
    assert main(["--load", str(tmp_path / "missing.sgf"), "-no_gui"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such file" in err[0]
    bad = tmp_path / "bad.sgf"
    bad.write_text("this is not sgf")
    assert main(["--load", str(bad), "-no_gui"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("gorilla: error: cannot load")


def test_gui_without_a_display_suggests_no_gui(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["--no-autosave"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "-no_gui" in err[0] and "display" in err[0]


def test_top_level_command_dispatches_here(capsys):
    from gorilla.cli import main as gorilla_main

    assert gorilla_main(["-ai_vs_ai"]) == 2
    assert "-ai_vs_ai needs two AIs" in capsys.readouterr().err


def test_clock_and_gtp_players_on_the_command_line():
    from gorilla.app.clock import TimeControl

    opts = parse_args(["--clock", "10m+5x30s", "--white", "gtp:gnugo --level 3", "--seed", "2"])
    assert opts.clock == TimeControl("byoyomi", 600, period=30, periods=5)
    assert opts.white == "gtp:gnugo --level 3"
    assert cli._with_seed(opts.white, 2, cli.WHITE) == "gtp:gnugo --level 3"  # engines get no seed=


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--clock", "10q"], "--clock: bad duration '10q'"),
        (["--clock", "5m+0x30s"], "--clock: byo-yomi needs at least one period"),
        (["--white", "gtp:"], "--white: gtp: needs an engine command"),
        (["--black", "gtp:gnugo 'open"], "--black: cannot read the engine command"),
    ],
)
def test_bad_clock_and_engine_are_one_line(argv, words, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0].startswith(f"gorilla: error: {words}")
