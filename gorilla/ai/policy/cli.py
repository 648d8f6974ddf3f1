"""``gorilla learn`` (fit a move model on game records) and ``gorilla predict`` (measure one).

Both read zips of kifu lines, kifu files and SGF files
(:mod:`gorilla.ai.policy.records`). ``learn`` never trains on the validation
split; ``predict --split validation`` measures on it. Bad input (a missing or
malformed file, a damaged model, a bad flag) is one line on stderr, status 2.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Iterator, Sequence

from gorilla.ai.policy.learn import bar, train
from gorilla.ai.policy.model import DEFAULT_MODEL, ModelError, load_model
from gorilla.ai.policy.predict import evaluate
from gorilla.ai.policy.records import GameRecord, RecordError, is_validation, read_records


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)


def _games(files: list[str], split: str, limit: int | None) -> Iterator[GameRecord]:
    recs = read_records(files)
    if split == "train":
        recs = (r for r in recs if not is_validation(r.name))
    elif split == "validation":
        recs = (r for r in recs if is_validation(r.name))
    return itertools.islice(recs, limit) if limit else recs


def learn_main(argv: Sequence[str] | None = None) -> int:
    """``gorilla learn FILE... -o MODEL``: fit the feature strengths with MM."""
    ap = _Parser(prog="gorilla learn", description="Fit a move-pattern model (MM) on game records.")
    ap.add_argument("files", nargs="+", help="zips of kifu lines, kifu files, SGF files")
    ap.add_argument(
        "-o", "--out", default="policy.gpol", help="the model file to write (default: %(default)s)"
    )
    ap.add_argument("--games", type=int, default=None, help="at most this many training games")
    ap.add_argument("--fraction", type=float, default=0.1, help="share of each game's positions sampled")
    ap.add_argument("--iterations", type=int, default=20, help="MM iterations (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="the sampling seed (default: %(default)s)")
    ap.add_argument("--min-played", type=int, default=2, help="keep 3x3 shapes played this often")
    ap.add_argument("--min-seen", type=int, default=50, help="or seen this often among candidates")
    ap.add_argument("--min-diamond", type=int, default=5, help="keep diamond patterns played this often")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    if not 0.0 < args.fraction <= 1.0 or args.iterations < 1 or (args.games is not None and args.games < 1):
        ap.error("--fraction must lie in (0, 1], --iterations and --games must be positive")
    try:
        games = list(_games(args.files, "train", args.games))
        t0 = time.monotonic()
        model = train(
            games,
            fraction=args.fraction,
            iterations=args.iterations,
            seed=args.seed,
            min_played=args.min_played,
            min_seen=args.min_seen,
            min_diamond=args.min_diamond,
            progress=_throttled(),
        )
        model.save(args.out)
    except (RecordError, OSError) as e:
        print(f"gorilla learn: {e}", file=sys.stderr)
        return 2
    info = model.info
    print(
        f"{len(games)} games, {info['positions']:,} positions, {info['candidates']:,} candidates, "
        f"{len(model.pat_codes):,} 3x3 shapes, {len(model.dkeys):,} diamonds; {time.monotonic() - t0:.0f} s; "
        f"training log-likelihood {info['train_log_likelihood']}; wrote {args.out}"
    )
    return 0


def _throttled():
    last = [0.0]

    def progress(stage: str, done: int, total: int, note: str) -> None:
        now = time.monotonic()
        if stage == "fit" or done >= total or now - last[0] > 0.5:
            last[0] = now
            bar(stage, done, total, note)

    return progress


NET_SUFFIXES = (".bin.gz", ".txt.gz", ".bin", ".txt", ".gz")


def is_net_file(name: str) -> bool:
    """Whether ``--net``'s argument names a net rather than a game: a KataGo model's name
    (``.bin.gz``, ``.gz``, ``.bin``, ...) or a gzip file, and not an ``.sgf``."""
    lower = name.lower()
    if lower.endswith(".sgf"):
        return False
    if lower.endswith(NET_SUFFIXES):
        return True
    try:
        with open(name, "rb") as f:
            return f.read(2) == b"\x1f\x8b"
    except OSError:
        return False


def predict_main(argv: Sequence[str] | None = None) -> int:
    """``gorilla predict FILE... [--model MODEL | --net [FILE]]``: top-1, top-5, log-likelihood by phase."""
    ap = _Parser(
        prog="gorilla predict", description="Measure how well a move model predicts the moves of games."
    )
    ap.add_argument("files", nargs="*", help="SGF files, kifu files, zips of kifu lines")
    ap.add_argument("--model", default=str(DEFAULT_MODEL), help="the model file (default: the shipped one)")
    ap.add_argument(
        "--split", choices=("all", "train", "validation"), default="all", help="which games count"
    )
    ap.add_argument("--games", type=int, default=None, help="at most this many games")
    ap.add_argument(
        "--net",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="rank the moves by a KataGo net's policy instead (no FILE: the shipped net; a game file "
        "after --net, such as an .sgf, is a game: --net games/*.sgf uses the shipped net)",
    )
    ap.add_argument("--komi", type=float, default=7.5, help="the komi the net is told (default 7.5)")
    ap.add_argument(
        "--symmetry",
        choices=[*map(str, range(8)), "random", "all"],
        default="0",
        help="with --net: the orientation the net sees (default 0, the identity; all: the eight averaged)",
    )
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.net and not is_net_file(args.net):
        args.files.insert(0, args.net)  # --net games/*.sgf: the first game is not the net
        args.net = ""
    if not args.files:
        ap.error("the following arguments are required: files")
    try:
        records = _games(args.files, args.split, args.games)
        if args.net is not None:
            from gorilla.ai.net import NetError, load_net
            from gorilla.ai.policy.predict import evaluate_net

            try:
                net = load_net(args.net or None)
            except NetError as e:
                print(f"gorilla predict: {e}", file=sys.stderr)
                return 2
            sym = int(args.symmetry) if args.symmetry.isdigit() else args.symmetry
            result = evaluate_net(net, records, komi=args.komi, symmetry=sym)
        else:
            result = evaluate(load_model(args.model), records)
    except (ModelError, RecordError) as e:
        print(f"gorilla predict: {e}", file=sys.stderr)
        return 2
    print(result.report())
    return 0
