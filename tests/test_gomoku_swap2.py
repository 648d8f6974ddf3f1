"""gorilla match --game gomoku --swap2: the Swap2 opening between built-in agents and Gomocup
brains (SWAP2BOARD), who ends up with which colour, and a brain that answers it wrongly."""

from __future__ import annotations

import io
import random
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from gorilla.gomoku import rules as R
from gorilla.gomoku import swap2
from gorilla.gomoku.agents import make_agent
from gorilla.gomoku.game import GomokuGame
from gorilla.match import cli
from gorilla.match.gomoku_games import Swap2Forfeit, swap2_opening
from gorilla.match.gomoku_players import GomokuPlayer
from gorilla.match.runner import MatchConfig, load_results, run_match

BRAIN = f"pbrain:{shlex.quote(sys.executable)} -m gorilla pbrain"


class Scripted(GomokuPlayer):
    """A player whose Swap2 answers are given in order (None: SWAP)."""

    def __init__(self, *answers: list[tuple[int, int]] | None) -> None:
        self.answers = list(answers)
        self.label = self.spec = "scripted"

    def swap2(self, game: GomokuGame, wait: float | None) -> list[tuple[int, int]] | None:
        return self.answers.pop(0)


def opening(first: Scripted, second: Scripted) -> tuple[dict[int, str], GomokuGame, list[str]]:
    game, log = GomokuGame(15, R.FREESTYLE), []
    ids = swap2_opening(game, {"A": first, "B": second}, "A", "B", None, lambda pid, ask: ask(), log)
    return ids, game, log


THREE = [(7, 7), (8, 7), (7, 9)]


@pytest.mark.parametrize(
    ("second", "then", "black", "stones"),
    [
        ([None], [], "B", 3),  # the second player takes Black: the opener plays White's fourth stone
        ([[(9, 9)]], [], "A", 4),  # the second player plays White's fourth stone
        ([[(6, 6), (9, 8)]], [None], "A", 5),  # two more stones; the opener keeps Black
        ([[(6, 6), (9, 8)]], [[(5, 5)]], "B", 6),  # two more; the opener plays White's sixth stone
    ],
)
def test_each_swap2_choice_gives_the_colours_it_names(second, then, black, stones):
    ids, game, log = opening(Scripted(THREE, *then), Scripted(*second))
    assert ids[R.BLACK] == black and ids[R.WHITE] == ("A" if black == "B" else "B")
    assert len(game.moves) == stones and [c for _, c in game.moves] == [
        R.BLACK if i % 2 == 0 else R.WHITE for i in range(stones)
    ]
    assert game.to_move == (R.WHITE if stones % 2 else R.BLACK)
    assert log[0] == "A: 7,7 8,7 7,9" and len(log) == 2 + len(then)


def test_a_swap2_stone_on_a_taken_point_forfeits():
    with pytest.raises(Swap2Forfeit) as e:
        opening(Scripted(THREE), Scripted([(8, 7)]))
    assert e.value.pid == "B" and e.value.forfeit.kind == "illegal" and "8,7" in str(e.value)


def test_a_swap2_match_between_an_agent_and_a_brain(tmp_path: Path):
    players = ["threat1", f"{BRAIN} --agent threat1"]
    cfg = MatchConfig(players=players, game="gomoku", size=15, rules="freestyle")
    cfg.swap2, cfg.games, cfg.timeout_turn, cfg.out = True, 2, 300, str(tmp_path / "m")
    summary = run_match(cfg, log=io.StringIO())
    assert not summary["forfeits"], summary["forfeits"]
    recs = sorted(load_results(cfg.out), key=lambda r: r["game"])
    for r, opener in zip(recs, ("A", "B"), strict=True):
        steps = r["swap2"]
        other = "B" if opener == "A" else "A"
        assert steps[0].startswith(f"{opener}: ") and len(steps[0].split()) == 4  # three stones
        assert steps[1].startswith(f"{other}: ")
        placed = sum(len(s.split()) - 1 for s in steps if not s.endswith("SWAP"))
        assert len(r["opening"]) == placed
        if steps[1].endswith("SWAP"):
            assert r["black"] == other
        elif len(steps) == 2:  # White's fourth stone
            assert r["white"] == other and placed == 4
        assert r["moves"] >= placed


SWAP2_GARBAGE = textwrap.dedent(
    """
    import sys
    for line in sys.stdin:
        w = line.strip().upper()
        if w.startswith("START") or w == "RESTART":
            print("OK", flush=True)
        elif w == "DONE":
            print("ERROR unknown command SWAP2BOARD", flush=True)
        elif w == "END":
            break
    """
)


def test_a_brain_that_cannot_swap2_forfeits_with_one_line(tmp_path: Path):
    script = tmp_path / "brain.py"
    script.write_text(SWAP2_GARBAGE, encoding="utf-8")
    brain = f"pbrain:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    cfg = MatchConfig(players=[brain, "threat1"], game="gomoku", size=15, rules="freestyle")
    cfg.swap2, cfg.games, cfg.timeout_turn, cfg.out = True, 2, 300, str(tmp_path / "m")
    summary = run_match(cfg, log=io.StringIO())
    assert summary["wins"]["B"] == 2
    for r in load_results(cfg.out):
        f = r["forfeit"]
        assert f["player"] == "A" and f["kind"] == "garbage" and "SWAP2BOARD" in f["reason"]


def test_swap2_is_for_gomoku_and_replaces_the_openings_file(tmp_path: Path, capsys: pytest.CaptureFixture):
    base = ["threat1", "random", "-o", str(tmp_path / "x"), "--swap2"]
    assert cli.main(base) == 2
    assert "are for --game gomoku" in capsys.readouterr().err
    assert cli.main(["--game", "gomoku", *base, "--openings-file", "none"]) == 2
    assert "leave out --openings-file" in capsys.readouterr().err


def test_the_chooser_takes_black_when_white_is_behind_and_plays_white_when_it_is_ahead():
    agent = make_agent("pvs")
    black_ahead = GomokuGame(15, R.FREESTYLE)
    for x, y in [(7, 7), (0, 14), (8, 7), (14, 0), (9, 7)]:  # an open three, White's stones far away
        black_ahead.play_xy(x, y)
    assert swap2.choose(agent, black_ahead, 0.3) is None  # SWAP: take Black
    white_ahead = GomokuGame(15, R.FREESTYLE)
    for x, y in [(0, 0), (7, 7), (14, 14), (8, 7), (0, 14)]:  # Black's stones in the corners
        white_ahead.play_xy(x, y)
    move = swap2.choose(agent, white_ahead, 0.3)
    assert move is not None and white_ahead.color_at(*move) == 0


def test_the_opener_plays_the_candidate_its_search_finds_nearest_even():
    agent = make_agent("threat1")  # a deterministic score
    game = GomokuGame(15, R.FREESTYLE)
    stones = swap2.place_three(agent, game, 0.2, seed=4)
    c = game.size // 2
    pool = swap2.three_stone_openings()
    rng = random.Random(4)
    drawn = rng.sample(pool, min(swap2.CANDIDATES, len(pool)))
    # each drawn opening turned or mirrored by the same seed
    turns = [(op, rng.randrange(8)) for op in drawn]
    picks = [[swap2.symmetric(dx, dy, k) for dx, dy in op] for op, k in turns]
    assert [(x - c, y - c) for x, y in stones] in picks and not game.moves

    def score(op: list[tuple[int, int]]) -> int:
        g = game.copy()
        for dx, dy in op:
            g.play_xy(c + dx, c + dy)
        return abs(agent.select(g, 0.1).score)

    assert score([(x - c, y - c) for x, y in stones]) == min(score(op) for op in picks)
