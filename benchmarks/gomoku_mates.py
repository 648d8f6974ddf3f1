"""Gomoku: the forced wins a reference engine finds, and how many of them Gorilla's search proves.

    python benchmarks/gomoku_mates.py GAMES_DIR [GAMES_DIR ...] [--positions 300] [--first 4]
        [--last 44] [--seed 7] [--judge rapfi] [--judge-ms 500] [--seconds 0.92]
        [--play-out] [--sources DIR] [--out F.jsonl]

Positions: the plies ``--first`` to ``--last`` of the 15x15 freestyle games under the folders
(as ``gomoku_regret.py`` draws them). The judge (Rapfi's classical build by default, one
thread, ``--judge-ms`` a move) values each for the side to move; Gorilla's search (the
``pvs+vct`` agent's: :func:`gorilla.gomoku.search.search` with its threat solvers,
``--seconds`` a move) searches the same position. A win is proved when the score is a mate
(a VCF, a VCT, or a PVS line whose every leaf is won). It prints how many of the judge's wins
Gorilla proves, by the length the judge gives (plies), and how many wins Gorilla claims where
the judge finds none: a search that proves more by pruning more must keep that near zero.
With ``--play-out`` each such claim is played out: Gorilla moves for the side to move
(``--seconds`` a move), the judge answers (``--judge-ms``), until a five or 60 plies. A claim
Gorilla wins was the judge's horizon; one it loses was a false proof.

Why: Rapfi finds long forced wins (17-35 plies, quiet attacking moves between the threats)
that Gorilla's solvers and its PVS do not see in time. This counts them on positions of real
games in about 3 minutes (300 positions), where a match takes 10 minutes for 80 games and
moves by 4 games in its noise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_rankfit import board_of  # noqa: E402
from gomoku_regret import judge_brain, positions  # noqa: E402
from gomoku_spar import default_sources, engine_command, load_average  # noqa: E402

from gorilla.gomoku import rules as R  # noqa: E402
from gorilla.gomoku.search import search  # noqa: E402
from gorilla.gomoku.vcf import MATE, new_state  # noqa: E402

LENGTHS = ((0, 11), (12, 19), (20, 999))  # buckets of the judge's win lengths, plies


class Judge(Protocol):
    """What the play-out needs of a judge (:class:`gomoku_regret.Brain`): its move and value."""

    def ask(self, pos: tuple[list[tuple[int, int, int]], int]) -> tuple[tuple[int, int], str | None]: ...


def mate_plies(value: str | None) -> int | None:
    """The plies of a win for the side to move in a judge's value (Rapfi's ``+M21``), else None
    (a number, a loss ``-M..``, or no value)."""
    if value is None or not value.startswith("+M"):
        return None
    return int(value[2:])


def prove(moves: list[tuple[int, int, int]], stm: int, seconds: float, S: tuple) -> tuple[bool, str, int]:
    """Whether Gorilla's search (threat solvers on) proves a win for stm within seconds; with
    the search's source (pvs, vcf, vct, forced, defence) and depth."""
    res = search(board_of(moves), S, stm, seconds, threats=True)
    return res.score >= MATE, res.source, res.depth


def play_out(
    moves: list[tuple[int, int, int]], stm: int, judge: Judge, seconds: float, S: tuple, max_plies: int = 60
) -> str | None:
    """Gorilla's search plays stm's side from the position and the judge the other: "won" when
    stm makes five, "lost" when the other side does, None when neither does within max_plies."""
    moves = list(moves)
    c = stm
    for _ in range(max_plies):
        bd = board_of(moves)
        if c == stm:
            p = search(bd, S, c, seconds, threats=True).move
            x, y = R.xy(bd, p)
        else:
            (x, y), _ = judge.ask((moves, c))
            p = R.point(bd, x, y)
        if bd[0][p] != R.EMPTY:
            raise SystemExit(f"the judge played the occupied point {x},{y}")
        if R.is_win(bd, p, c):
            return "won" if c == stm else "lost"
        moves.append((c, x, y))
        c = 3 - c
    return None


def unseen_claims(records: list[dict]) -> list[dict]:
    """The records ``{"judge": value, "proved": bool}`` where Gorilla proves a win that the
    judge does not find."""
    return [r for r in records if r["proved"] and mate_plies(r["judge"]) is None]


def tally(records: list[dict]) -> dict:
    """Counts of records ``{"judge": value, "proved": bool}``: the judge's wins by length
    bucket ``(lo, hi) -> (wins, proved)``, and Gorilla's claimed wins the judge does not find."""
    buckets = {b: [0, 0] for b in LENGTHS}
    for r in records:
        n = mate_plies(r["judge"])
        if n is None:
            continue
        for lo, hi in LENGTHS:
            if lo <= n <= hi:
                buckets[(lo, hi)][0] += 1
                buckets[(lo, hi)][1] += bool(r["proved"])
    return {"buckets": {b: tuple(v) for b, v in buckets.items()}, "unseen": len(unseen_claims(records))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="+", type=Path, help="folders of SGF games (15x15 freestyle)")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--first", type=int, default=4, help="first ply (stones on the board)")
    ap.add_argument("--last", type=int, default=44, help="last ply")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--judge", default="rapfi")
    ap.add_argument("--judge-ms", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=0.92, help="Gorilla's time a move (1 s less the margin)")
    ap.add_argument("--play-out", action="store_true", help="play out the wins the judge does not find")
    ap.add_argument("--sources", type=Path, default=default_sources())
    ap.add_argument("--out", type=Path, default=None, help="a JSON line per position")
    a = ap.parse_args(argv)
    todo = positions(a.games, a.positions, a.first, a.last, a.seed)
    if not todo:
        raise SystemExit("no positions: give folders of 15x15 Gomoku SGF games")
    judge = judge_brain(engine_command(a.judge, a.sources), None, None, a.judge_ms)
    print(f"{len(todo)} positions, plies {a.first}-{a.last}; load {load_average()}", flush=True)
    S = new_state()
    prove([(1, 7, 7), (2, 7, 8)], 1, 0.2, S)  # compiles the kernels outside the timed searches
    records = []
    t0 = time.perf_counter()
    for moves, stm in todo:
        _, value = judge.ask((moves, stm))
        proved, source, depth = prove(moves, stm, a.seconds, S)
        rec = {"moves": moves, "stm": stm, "judge": value, "proved": proved, "source": source, "depth": depth}
        records.append(rec)
    claims = unseen_claims(records)
    if a.play_out:
        for r in claims:
            r["play_out"] = play_out(r["moves"], r["stm"], judge, a.seconds, S)
    judge.close()
    t = tally(records)
    wins = sum(w for w, _ in t["buckets"].values())
    got = sum(p for _, p in t["buckets"].values())
    print(f"{len(records)} positions in {time.perf_counter() - t0:.0f} s; load {load_average()}")
    print(f"the judge ({a.judge}, {a.judge_ms} ms) finds a win for the side to move in {wins}")
    print(f"Gorilla ({a.seconds} s) proves {got} of them; by the judge's length:")
    for (lo, hi), (w, p) in t["buckets"].items():
        print(f"  {lo}-{hi if hi < 999 else ''} plies: {p} of {w}")
    print(f"wins Gorilla claims where the judge finds none: {t['unseen']}")
    if a.play_out and claims:
        outcome = [r["play_out"] for r in claims]
        print(
            f"  played out against the judge: Gorilla won {outcome.count('won')}, "
            f"lost {outcome.count('lost')}, neither in 60 plies {outcome.count(None)}"
        )
    if a.out:
        with open(a.out, "w") as fh:
            for r in records:
                fh.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
