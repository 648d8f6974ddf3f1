"""A GTP engine as the app's player is told the game's rules: GNU Go by its command-line flags
(restarted when a new game changes them), any engine by ``kata-set-rules`` or ``kgs-rules``."""

from __future__ import annotations

import sys
import textwrap

import pytest

from gorilla.app.go.gtp_player import GtpEngineAgent, command_for_rules
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.rulesets import CHINESE, JAPANESE, LITTLE_GO, TROMP_TAYLOR


def walls(rules: str) -> Game:
    """Black's wall on column F (and a stone inside, at H5), White's on E, komi 0, White to move.

    Area counting: Black 36, White 45 (W+9); territory counting: Black 26, White 36 (W+10).
    """
    game = Game.new(9, rules, komi=0)
    for row in range(1, 10):
        game.play(parse_vertex(f"F{row}", 9), BLACK)
        game.play(parse_vertex(f"E{row}", 9), WHITE)
    game.play(parse_vertex("H5", 9), BLACK)
    return game


def test_command_for_rules_adds_gnu_gos_flag_unless_one_is_given() -> None:
    assert (
        command_for_rules("/usr/games/gnugo --mode gtp", CHINESE)
        == "/usr/games/gnugo --mode gtp --chinese-rules"
    )
    assert command_for_rules("gnugo --mode gtp", JAPANESE) == "gnugo --mode gtp --japanese-rules"
    assert command_for_rules("gnugo --mode gtp", TROMP_TAYLOR).endswith("--chinese-rules")
    assert command_for_rules("gnugo --mode gtp", LITTLE_GO).endswith("--chinese-rules")
    kept = "gnugo --mode gtp --japanese-rules --level 3"
    assert command_for_rules(kept, CHINESE) == kept  # the user's own choice stays
    assert command_for_rules("pachi -t 5", CHINESE) == "pachi -t 5"  # unknown flags: GTP tells it
    assert command_for_rules("gnugo 'open", CHINESE) == "gnugo 'open"  # unreadable: kept as typed


@pytest.mark.gnugo
def test_gnugo_counts_by_the_games_rules(gnugo_path) -> None:
    agent = GtpEngineAgent(f"gtp:{gnugo_path} --mode gtp --level 0")
    try:
        scores = {}
        for rules in ("chinese", "japanese", "chinese"):
            game = walls(rules)
            move = agent.select_move(game)
            assert game.is_legal(move) or move < 0
            assert agent.client.command.endswith(f"--{rules}-rules")
            scores[rules] = agent.client.send("final_score")
        assert scores == {"chinese": "W+9.0", "japanese": "W+10.0"}
    finally:
        agent.close()


LOGGER = textwrap.dedent(
    """
    import sys
    KNOWN = sys.argv[2].split(",")
    for line in sys.stdin:
        with open(sys.argv[1], "a") as log:
            log.write(line)
        word = line.split()[0] if line.split() else ""
        if word == "quit":
            print("=\\n", flush=True)
            break
        if word == "list_commands":
            names = ["boardsize", "clear_board", "komi", "play", "genmove", *KNOWN]
            print("= " + "\\n".join(names) + "\\n", flush=True)
        elif word == "genmove":
            print("= pass\\n", flush=True)
        else:
            print("=\\n", flush=True)
    """
)


@pytest.mark.parametrize(
    "known, rules, expected",
    [
        ("kata-set-rules,kgs-rules", "japanese", "kata-set-rules japanese"),
        ("kgs-rules", "chinese", "kgs-rules chinese"),
        ("kgs-rules", "tromp-taylor", "kgs-rules new_zealand"),
        ("name", "chinese", None),
    ],
)
def test_any_engine_hears_the_rules_over_gtp(tmp_path, known, rules, expected) -> None:
    script, log = tmp_path / "engine.py", tmp_path / "log.txt"
    script.write_text(LOGGER)
    agent = GtpEngineAgent(f"gtp:{sys.executable} {script} {log} {known}")
    try:
        agent.select_move(Game.new(9, rules))
    finally:
        agent.close()
    sent = [ln.strip() for ln in log.read_text().splitlines()]
    rules_lines = [ln for ln in sent if ln.split()[0] in ("kata-set-rules", "kgs-rules")]
    assert rules_lines == ([expected] if expected else [])
    if expected:
        assert sent.index(expected) < sent.index("genmove b")
