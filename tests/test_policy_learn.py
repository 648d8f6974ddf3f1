"""Learning the move model (gorilla.ai.policy.learn) and reading game records.

The main test plays games with a synthetic policy whose feature strengths are
known, then checks that MM finds them again from the games alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from gorilla.ai.policy import features as F
from gorilla.ai.policy.cli import learn_main, predict_main
from gorilla.ai.policy.learn import train
from gorilla.ai.policy.model import load_model, offsets
from gorilla.ai.policy.records import GameRecord, RecordError, is_validation, read_records, sgf_point
from gorilla.rules.board import BLACK, MAX_POINTS, PASS, WHITE, ZOBRIST, new_board, place, play_pass

# the synthetic policy's gammas: the tactical groups, the distance to the last move and the edge
TRUE = {
    F.G_PASS: [0.02, 1.0],
    F.G_CAPTURE: [6.0, 10.0, 4.0],
    F.G_SELFATARI: [0.3, 0.1],
    F.G_DIST1: [8.0, 5.0, 3.0, 2.0, 1.5] + [1.0] * 11,
    F.G_EDGE: [0.2, 0.8, 1.6, 1.2, 1.0],
}


def synthetic_games(games: int, moves: int, seed: int) -> list[GameRecord]:
    """Games on 9x9 whose every move is drawn from the team strengths TRUE."""
    rng = np.random.default_rng(seed)
    lg = np.zeros(sum(F.FIXED_LEVELS) + 2)
    offs = offsets((*F.FIXED_LEVELS, 0, 0))
    for g, gammas in TRUE.items():
        lg[offs[g] : offs[g] + len(gammas)] = np.log(gammas)
    pidx = np.full(F.PAT3_CODES, -1, dtype=np.int32)
    dkeys = np.empty(0, dtype=np.int64)
    cand = np.empty(MAX_POINTS + 1, dtype=np.int64)
    feats = np.empty((MAX_POINTS + 1, F.NGROUPS), dtype=np.int32)
    out = []
    for i in range(games):
        b, st = new_board(9, False)
        record = []
        c = BLACK
        for _ in range(moves):
            n = F.position_features(b, st, ZOBRIST, c, pidx, dkeys, cand, feats)
            logit = np.array([sum(lg[offs[g] + f] for g, f in enumerate(row) if f >= 0) for row in feats[:n]])
            prob = np.exp(logit - logit.max())
            p = int(cand[rng.choice(n, p=prob / prob.sum())])
            record.append((c, p))
            if p == PASS:
                play_pass(st)
            else:
                place(b, st, ZOBRIST, p, c)
            c = WHITE if c == BLACK else BLACK
        out.append(GameRecord(f"synthetic-{i}", 9, [], record))
    return out


@pytest.mark.slow
def test_mm_recovers_known_strengths():
    games = synthetic_games(120, 70, seed=5)
    model = train(games, fraction=1.0, iterations=40, seed=1, shapes=False)
    assert model.info["positions"] == 120 * 70
    gamma = np.exp(model.loggamma.astype(float))
    offs = model.offs
    # the edge group is only known up to a common factor: compare ratios to its last level
    edge = gamma[offs[F.G_EDGE] : offs[F.G_EDGE + 1]]
    true_edge = np.array(TRUE[F.G_EDGE])
    np.testing.assert_allclose(edge / edge[-1], true_edge / true_edge[-1], rtol=0.2)
    # the distance levels are near-constant beyond 6; compare the close ones to level 5 (d = 7)
    dist = gamma[offs[F.G_DIST1] : offs[F.G_DIST1 + 1]]
    true_dist = np.array(TRUE[F.G_DIST1])
    np.testing.assert_allclose(dist[:4] / dist[5], true_dist[:4] / true_dist[5], rtol=0.2)
    # features that are absent from most moves have an absolute strength: captures, self-ataris
    assert 3.0 < gamma[offs[F.G_CAPTURE]] < 12.0
    assert gamma[offs[F.G_SELFATARI]] < 0.7
    # the same games and seed give the same model
    again = train(games, fraction=1.0, iterations=40, seed=1, shapes=False)
    assert np.array_equal(model.loggamma, again.loggamma)


def test_learn_and_predict_commands_on_a_kifu_file(tmp_path, capsys):
    games = synthetic_games(12, 30, seed=2)
    letters = "abcdefghijklmnopqrs"

    def sgf(p: int) -> str:
        return "" if p == PASS else letters[p % 11 - 1] + letters[p // 11 - 1]

    lines = [
        f"{g.name}\t" + "".join(f";{'B' if c == BLACK else 'W'}[{sgf(p)}]" for c, p in g.moves) for g in games
    ]
    kifu = tmp_path / "games.txt"
    kifu.write_text("\n".join(lines) + "\n")
    # the kifu lines are read at 19x19; the 9x9 coordinates still name the same points on it
    read = list(read_records([kifu]))
    assert [len(r.moves) for r in read] == [len(g.moves) for g in games]
    assert read[0].moves[0][1] == sgf_point(sgf(games[0].moves[0][1]), 19)
    out = tmp_path / "m.gpol"
    assert (
        learn_main([str(kifu), "-o", str(out), "--fraction", "1", "--iterations", "3", "--min-seen", "5"])
        == 0
    )
    model = load_model(out)
    train_games = sum(not is_validation(g.name) for g in games)
    assert model.info["games"] == train_games
    assert model.info["sizes"] == [19]  # kifu lines are 19x19 games
    assert predict_main([str(kifu), "--model", str(out)]) == 0
    report = capsys.readouterr().out
    assert f"{len(games)} games" in report and "top-5" in report and "moves 1-30" in report


def test_sgf_files_are_read_with_their_moves(tmp_path):
    path = tmp_path / "g.sgf"
    path.write_text("(;GM[1]SZ[9]KM[7]AB[cc];W[gg];B[cg];W[];B[gc])")
    (rec,) = read_records([path])
    assert rec.size == 9 and rec.setup == [(sgf_point("cc", 9), BLACK)]
    assert rec.moves == [
        (WHITE, sgf_point("gg", 9)),
        (BLACK, sgf_point("cg", 9)),
        (WHITE, PASS),
        (BLACK, sgf_point("gc", 9)),
    ]


def test_bad_record_files_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1\t;B[pd]\nno tab here\n")
    with pytest.raises(RecordError, match="line 2"):
        list(read_records([bad]))
    assert learn_main([str(bad), "-o", str(tmp_path / "x.gpol")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "line 2" in err
    assert not (tmp_path / "x.gpol").exists()
    assert predict_main([str(tmp_path / "missing.sgf")]) == 2
    assert "no such file" in capsys.readouterr().err
