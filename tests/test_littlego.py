"""Little-Go: the tournament file protocol, the move cap, partial-area scoring and the alpha-beta player."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gorilla.ai.agent import make_agent
from gorilla.ai.alphabeta import AlphaBetaAgent
from gorilla.littlego.protocol import (
    INPUT,
    OUTPUT,
    STATE,
    ProtocolError,
    Turn,
    format_move,
    infer_position,
    parse_input,
    parse_move,
    run_turn,
    write_input,
)
from gorilla.rules import BLACK, PASS, WHITE, Game, Position
from gorilla.rules.coords import to_index


def grid(text: str) -> np.ndarray:
    return np.array([[int(ch) for ch in row.strip()] for row in text.strip().splitlines()], dtype=np.int8)


def rc(r: int, c: int, n: int = 5) -> int:
    return to_index(c, n - 1 - r, n)


KO_BEFORE = grid("""
01200
10120
01200
00000
00000
""")
KO_AFTER = grid("""
01200
12020
01200
00000
00000
""")


def test_ko_and_capture_inferred_from_the_two_boards(tmp_path: Path) -> None:
    turn = parse_input(
        "\n".join(
            ["1", *("".join(map(str, r)) for r in KO_BEFORE), *("".join(map(str, r)) for r in KO_AFTER)]
        )
    )
    pos, last = infer_position(turn)
    assert last == rc(1, 1)
    assert pos.captures(WHITE) == 1
    assert pos.to_move == BLACK
    assert pos.check(rc(1, 2), BLACK) == "ko"  # the immediate retake is forbidden
    assert pos.check(rc(3, 3), BLACK) is None

    write_input(tmp_path, BLACK, KO_BEFORE, KO_AFTER)
    answer = run_turn(tmp_path, "alphabeta:time=0.2")
    assert (tmp_path / OUTPUT).read_text().strip() == answer
    assert answer != "1,2"
    move = parse_move(answer, 5)
    assert move == PASS or pos.is_legal(move, BLACK)


def test_round_trip_across_turns_keeps_the_move_count(tmp_path: Path) -> None:
    empty = np.zeros((5, 5), dtype=np.int8)
    write_input(tmp_path, BLACK, empty, empty)
    first = parse_move(run_turn(tmp_path, "random:seed=3"), 5)
    state = (tmp_path / STATE).read_text()
    assert '"moves": 1' in state
    after_black = Position(5)
    after_black.play(first, BLACK)
    # the host shows Black the board after its own move, then after White's reply
    reply = next(p for p in after_black.legal_moves(WHITE))
    after_white = after_black.played(reply, WHITE)
    write_input(tmp_path, BLACK, after_black.grid(), after_white.grid())
    run_turn(tmp_path, "random:seed=4")
    assert '"moves": 3' in (tmp_path / STATE).read_text()


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("3\n" + "00000\n" * 10, "colour must be 1 or 2"),
        ("1\n" + "00000\n" * 9, "two square boards"),
        ("1\n" + "00000\n" * 4 + "00300\n" + "00000\n" * 5, "line 6"),
        ("1\n" + "0000\n" * 10, "expected 5 digits"),
    ],
)
def test_malformed_input_gives_one_line_and_no_output(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / INPUT).write_text(text)
    (tmp_path / OUTPUT).write_text("2,2\n")  # a stale answer from an earlier move must not survive
    with pytest.raises(ProtocolError, match=message):
        run_turn(tmp_path, "random")
    assert not (tmp_path / OUTPUT).exists()


def test_command_line_agent(tmp_path: Path) -> None:
    write_input(tmp_path, WHITE, np.zeros((5, 5), np.int8), grid("00000\n00000\n00100\n00000\n00000"))
    done = subprocess.run(
        [sys.executable, "-m", "gorilla", "little-go-agent", "--ai", "greedy", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    move = parse_move((tmp_path / OUTPUT).read_text(), 5)
    assert move != rc(2, 2)
    (tmp_path / INPUT).write_text("garbage\n")
    bad = subprocess.run(
        [sys.executable, "-m", "gorilla", "little-go-agent", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1
    assert len(bad.stderr.strip().splitlines()) == 1
    assert not (tmp_path / OUTPUT).exists()


def test_format_and_parse_moves() -> None:
    for p in [rc(0, 0), rc(4, 4), rc(1, 3), PASS]:
        assert parse_move(format_move(p, 5), 5) == p
    for bad in ["5,0", "a,b", "1;2", ""]:
        with pytest.raises(ValueError):
            parse_move(bad, 5)


def test_move_cap_and_partial_area_score() -> None:
    game = Game.new(rules="little-go")
    assert game.size == 5 and game.komi == 2.5
    rng = random.Random(7)
    while not game.over:
        moves = game.legal_moves()
        game.play(rng.choice(moves) if moves else PASS)
    assert game.end_reason in ("move cap", "passes")
    if game.end_reason == "move cap":
        assert game.move_number == 24
    pos = game.position
    black, white = len(pos.stones(BLACK)), len(pos.stones(WHITE))
    s = game.score()
    assert (s.black, s.white) == (black, white + 2.5)
    assert game.result == ("B+" if black > white + 2.5 else "W+") + f"{abs(black - white - 2.5):g}"


def test_known_end_position_scores_stones_only() -> None:
    # Little-Go counts stones only (empty points count for nobody): 12 black, 8 white
    pos = Position.from_diagram("""
        XXXO.
        XX.O.
        XXXOO
        XXOO.
        X.XOO
    """)
    game = Game.from_position(pos, "little-go", move_offset=22)
    game.pass_move()
    game.pass_move()
    assert game.end_reason == "passes"
    assert game.score().black == 12 and game.score().white == 8 + 2.5
    assert game.result == "B+1.5"


def _exact_minimax_value(game: Game) -> int:
    agent = AlphaBetaAgent(depth=game.moves_left, prune=False)
    _, value, _ = agent.search(game, None)
    return value


def test_alphabeta_finds_the_capture_that_wins() -> None:
    # one move left: Black wins only by taking the three white stones in atari
    pos = Position.from_diagram("""
        .OOOX
        XXXXX
        .....
        ..O..
        .O...
    """)
    pos.to_move = BLACK
    game = Game.from_position(pos, "little-go", move_offset=23)
    assert game.moves_left == 1
    move, value, _ = AlphaBetaAgent(time=2).search(game, 2.0)
    assert move == rc(0, 0)
    assert value == 100 * (7 - 2) - 250  # 7 black stones against 2 white, komi 2.5


@pytest.mark.parametrize("seed", range(6))
def test_alphabeta_equals_exhaustive_minimax_near_the_cap(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(rules="little-go")
    while game.move_number < 19 and not game.over:
        moves = game.legal_moves(reasonable=True)
        game.play(rng.choice(moves) if moves else PASS)
    if game.over:
        pytest.skip("random game ended early")
    exact = _exact_minimax_value(game)
    ab = AlphaBetaAgent(depth=game.moves_left)
    move, value, pv = ab.search(game, None)
    assert value == exact
    # the move it picks really achieves that value: replay it and search the rest exhaustively
    after = Game.from_position(game.position, "little-go", move_offset=game.move_number)
    after.play(move)
    if not after.over:
        assert -_exact_minimax_value(after) == exact
    assert pv and pv[0] == move


def test_baselines_play_legal_moves_to_the_end() -> None:
    for spec in ("greedy:seed=1", "aggressive:seed=2", "minimax:depth=1"):
        game = Game.new(rules="little-go")
        agent = make_agent(spec)
        while not game.over:
            m = agent.select_move(game)
            assert m == PASS or game.is_legal(m)
            game.play(m)
        assert game.result is not None


def test_greedy_takes_the_biggest_capture() -> None:
    pos = Position.from_diagram("""
        OX...
        .....
        ..XXX
        .XOOO
        .XOO.
    """)
    pos.to_move = BLACK
    game = Game.from_position(pos, "little-go")
    assert make_agent("greedy:seed=0").select_move(game) == rc(4, 4)
    assert make_agent("aggressive:seed=0").select_move(game) == rc(4, 4)  # captures come first


# --- the agent command end to end -------------------------------------------------------------------------
def _agent(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gorilla", "little-go-agent", "--dir", str(folder), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_infers_ko_from_the_boards(tmp_path: Path) -> None:
    # White's 1,1 just took the black stone at 1,2: retaking it is the only capture greedy could
    # make, so greedy plays it unless the ko is inferred from the previous board
    write_input(tmp_path, BLACK, KO_BEFORE, KO_AFTER)
    done = _agent(tmp_path, "--ai", "greedy:seed=0")
    assert done.returncode == 0, done.stderr
    answer = (tmp_path / OUTPUT).read_text().strip()
    pos, _ = infer_position(parse_input((tmp_path / INPUT).read_text()))
    move = parse_move(answer, 5)
    assert answer != "1,2" and (move == PASS or pos.is_legal(move, BLACK))
    # the same boards without the history (previous = current): the retake is then a legal capture
    write_input(tmp_path, BLACK, KO_AFTER, KO_AFTER)
    (tmp_path / STATE).unlink()
    done = _agent(tmp_path, "--ai", "greedy:seed=0")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / OUTPUT).read_text().strip() == "1,2"


def test_captures_and_passes_inferred_from_the_boards() -> None:
    # White's 1,1 captures the three black stones in the corner (no ko)
    before = grid("""
        11200
        10200
        20000
        00000
        00000
    """)
    after = grid("""
        00200
        02200
        20000
        00000
        00000
    """)
    pos, last = infer_position(Turn(BLACK, before, after))
    assert last == rc(1, 1)
    assert pos.captures(WHITE) == 3 and not pos.stones(BLACK)
    assert pos.check(rc(0, 1), BLACK) is None and pos.check(rc(1, 0), BLACK) is None
    # equal boards: the opponent passed, so passing now ends the game
    pos, last = infer_position(Turn(BLACK, after, after))
    assert last == PASS and pos.passes == 1 and pos.to_move == BLACK
    empty = np.zeros((5, 5), np.int8)
    pos, last = infer_position(Turn(BLACK, empty, empty))  # the opening move: nobody passed
    assert last is None and pos.passes == 0
    pos, last = infer_position(Turn(WHITE, empty, empty))  # Black opened with a pass
    assert last == PASS and pos.passes == 1 and pos.to_move == WHITE


def test_command_rejects_an_inconsistent_board(tmp_path: Path) -> None:
    (tmp_path / INPUT).write_text("2\n" + "00000\n" * 5 + "0000\n" + "00000\n" * 4)
    (tmp_path / OUTPUT).write_text("1,1\n")
    bad = _agent(tmp_path, "--ai", "random")
    assert bad.returncode != 0
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "line 7" in lines[0]
    assert not (tmp_path / OUTPUT).exists()


# --- gorilla match with file agents -------------------------------------------------------------------------
RANDOM_FILE_AGENT = """
import os, random, sys
L = open("input.txt").read().split()
me, n = int(L[0]), 5
prev = [[int(ch) for ch in r] for r in L[1:6]]
cur = [[int(ch) for ch in r] for r in L[6:11]]
random.seed(" ".join(L))

def group(b, r, c):  # the group at r,c and whether it has a liberty
    col, seen, todo, free = b[r][c], {(r, c)}, [(r, c)], False
    while todo:
        y, x = todo.pop()
        for v, u in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
            if 0 <= v < n and 0 <= u < n:
                if b[v][u] == 0:
                    free = True
                elif b[v][u] == col and (v, u) not in seen:
                    seen.add((v, u))
                    todo.append((v, u))
    return seen, free

def after(r, c):  # the board after me at r,c, or None for a suicide
    b = [row[:] for row in cur]
    b[r][c] = me
    for v, u in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
        if 0 <= v < n and 0 <= u < n and b[v][u] == 3 - me:
            g, free = group(b, v, u)
            if not free:
                for y, x in g:
                    b[y][x] = 0
    return b if group(b, r, c)[1] else None

legal = [(r, c) for r in range(n) for c in range(n) if cur[r][c] == 0 and after(r, c) not in (None, prev)]
# the state kept beside input.txt must last for the game and start afresh with the next one
first = not any(map(any, prev))
if first == os.path.exists("count.txt"):
    sys.exit("count.txt " + ("left over from another game" if first else "lost"))
k = 0 if first else int(open("count.txt").read())
open("count.txt", "w").write(str(k + 1))
open("output.txt", "w").write("%d,%d" % random.choice(legal) if legal else "PASS")
"""


def _match(tmp_path: Path, *args: str) -> list[dict]:
    from gorilla.match.cli import main as match_main
    from gorilla.match.runner import load_results

    out = tmp_path / "match"
    assert match_main(["--rules", "little-go", "--out", str(out), "--seed", "1", *args]) == 0
    return sorted(load_results(out), key=lambda r: r["game"])


def test_match_file_agent_against_builtin_agent(tmp_path: Path) -> None:
    import json

    from gorilla.rules.sgf import read_sgf

    script = tmp_path / "rand_player.py"
    script.write_text(RANDOM_FILE_AGENT)
    recs = _match(tmp_path, f"file:{sys.executable} {script}", "greedy", "-n", "4", "--move-timeout", "30")
    assert [r["game"] for r in recs] == [0, 1, 2, 3]
    assert [r["black"] for r in recs] == ["A", "B", "A", "B"]  # the file agent plays both colours
    summary = json.loads((tmp_path / "match" / "summary.json").read_text())
    assert summary["games"] == 4 and not summary["forfeits"]
    assert summary["wins"]["A"] + summary["wins"]["B"] + summary["draws"] == 4
    for r in recs:
        assert r["forfeit"] is None and r["reason"] in ("move cap", "passes")
        assert r["moves"] <= 24 and (r["reason"] == "passes" or r["moves"] == 24)
        game = read_sgf(tmp_path / "match" / r["sgf"])
        assert game.size == 5 and game.ruleset.name == "little-go" and len(game.moves) == r["moves"]
        pos = game.position
        margin = len(pos.stones(BLACK)) - len(pos.stones(WHITE)) - 2.5  # stones only, komi 2.5
        assert r["result"] == ("B+" if margin > 0 else "W+") + f"{abs(margin):g}"


FORFEITING_AGENTS = {
    # plays on the first stone it sees: as White that is Black's first stone
    "illegal": (
        "L = open('input.txt').read().split()[6:11]\n"
        "p = next((r, c) for r in range(5) for c in range(5) if L[r][c] != '0')\n"
        "open('output.txt', 'w').write('%d,%d' % p)\n",
        "illegal",
        "occupied",
    ),
    "garbage": ("open('output.txt', 'w').write('e5 please')\n", "garbage", "expected 'row,col' or 'PASS'"),
    "silent": ("pass\n", "garbage", "wrote no output.txt"),
    "slow": ("import time\ntime.sleep(30)\nopen('output.txt', 'w').write('2,2')\n", "timeout", "within 1 s"),
    "crash": ("raise RuntimeError('boom')\n", "crash", "RuntimeError: boom"),
}


@pytest.mark.parametrize("name", sorted(FORFEITING_AGENTS))
def test_file_agent_forfeits(tmp_path: Path, name: str) -> None:
    code, kind, reason = FORFEITING_AGENTS[name]
    script = tmp_path / "player.py"
    script.write_text(code)
    timeout = "1" if kind == "timeout" else "30"
    (r,) = _match(
        tmp_path,
        "--white-file-agent",
        f"{sys.executable} {script}",
        "random",
        "-n",
        "1",
        "--move-timeout",
        timeout,
    )
    assert r["white"] == "B" and r["winner"] == "A"  # the file agent is White and loses at once
    assert r["moves"] == 1  # Black's first move, then the forfeit
    assert r["reason"] == "forfeit" and r["forfeit"]["player"] == "B" and r["forfeit"]["kind"] == kind
    assert reason in r["forfeit"]["reason"]
    assert r["result"] == ("B+T" if kind == "timeout" else "B+F")
    if kind == "illegal":  # the move as the agent wrote it, row,col, then as a vertex
        assert re.fullmatch(r"illegal move \d,\d \([A-E][1-5]\) \(occupied\)", r["forfeit"]["reason"])
    if kind == "timeout":
        assert r["duration"] < 10  # the sleeping program was killed, not waited for


def test_file_agent_flags_and_bad_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gorilla.match.cli import main as match_main

    out = str(tmp_path / "m")
    assert (
        match_main(["--rules", "little-go", "--black-file-agent", "no-such-program-xyz", "random", "-o", out])
        == 2
    )
    assert "not found" in capsys.readouterr().err
    assert (
        match_main(
            ["--rules", "little-go", "--black-file-agent", "python x.py", "random", "greedy", "-o", out]
        )
        == 2
    )
    assert "give 1 other player" in capsys.readouterr().err


# --- searching to the move cap ---------------------------------------------------------------------
def _winning_moves(game: Game) -> list[int]:
    """Every move (pass included) after which the side to move wins with best play (exhaustive)."""
    sgn = 1 if game.to_move == BLACK else -1
    wins = []
    for m in [*game.legal_moves(), PASS]:
        after = Game.from_position(
            game.position, "little-go", move_offset=game.move_offset + game.move_number
        )
        after.play(m)
        value = sgn * 100 * after.score().margin if after.over else -_exact_minimax_value(after)
        if value > 0:
            wins.append(m)
    return wins


@pytest.mark.parametrize(
    "diagram, win",
    [
        # four moves to the cap, Black to move: only 1,2 wins (found by exhaustive search of random games)
        ("OOO.O\nOX.X.\nXOO.X\nXXOXX\n.XX..", rc(1, 2)),
        ("X.X.X\n.XOXX\n.OOX.\n.X.OX\nOOOOX", rc(2, 0)),
    ],
)
def test_alphabeta_finds_the_only_forced_win(diagram: str, win: int) -> None:
    game = Game.from_position(Position.from_diagram(diagram, BLACK), "little-go", move_offset=20)
    assert game.moves_left == 4
    assert _winning_moves(game) == [win]  # the position really has one winning move
    agent = AlphaBetaAgent(time=2)
    move, value, pv = agent.search(game, 2.0)
    assert move == win and value > 0
    assert agent.last_depth == 4  # searched to the cap exactly
    assert pv[0] == win


def test_mcts_counts_stones_and_stops_at_the_cap() -> None:
    # one move left and Black 0.5 behind on stones: any stone that stays wins, passing loses.
    # Area counting or playouts past the cap would make most of these moves look lost.
    pos = Position.from_diagram("""
        XXXO.
        XX.O.
        XX.OO
        X..O.
        X..OO
    """)
    game = Game.from_position(pos, "little-go", move_offset=23)
    assert game.moves_left == 1 and game.score().margin == -0.5
    agent = make_agent("mcts:playouts=400,seed=1")
    cands = agent.analyze(game, None)
    move = agent.select_move(game)
    assert move != PASS and game.is_legal(move)
    top = [c for c in cands if c.visits >= 20]
    assert top and all(c.winrate == 1.0 for c in top if c.move != PASS)
