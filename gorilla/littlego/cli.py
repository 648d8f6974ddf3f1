"""``gorilla little-go-agent``: play one move of a Little-Go tournament game through files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gorilla.ai.playout import catalog
from gorilla.littlego.protocol import ProtocolError, run_turn


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, then usage, exit 2
        """Print the message on one line and the usage to stderr, then exit with status 2."""
        print(f"gorilla little-go-agent: {message}", file=sys.stderr)
        self.print_usage(sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The ``gorilla little-go-agent`` flags."""
    p = _Parser(
        prog="gorilla little-go-agent",
        description="Read input.txt in the folder, write output.txt with 'row,col' or 'PASS'.",
    )
    p.add_argument(
        "--ai",
        default="alphabeta",
        help="agent spec (default alphabeta)",
    )
    p.add_argument("--time", type=float, default=1.0, help="seconds for the move (default 1.0)")
    p.add_argument("--dir", type=Path, default=Path("."), help="folder holding input.txt (default: current)")
    p.add_argument("--rules", default="little-go", help="ruleset (default little-go)")
    catalog.add_options(p)
    return p


def main(argv: list[str] | None = None) -> int:
    """``gorilla little-go-agent [flags]``: write output.txt and print the answer; returns the exit status.

    1 for a malformed input.txt or an unknown agent or ruleset (no output.txt is written), 2 for a
    bad pattern database; bad flags exit with status 2.
    """
    args = build_parser().parse_args(argv)
    if args.mc_list_patterns:
        print(catalog.list_text())
        return 0
    try:
        (spec,) = catalog.apply_options([args.ai], args.mc_patterns, args.mc_load_patterns)
    except catalog.PatternError as e:
        print(f"gorilla little-go-agent: {e}", file=sys.stderr)
        return 2
    try:
        answer = run_turn(args.dir, spec, args.time, args.rules)
    except (ProtocolError, ValueError) as e:
        print(f"gorilla little-go-agent: {e}", file=sys.stderr)
        return 1
    print(answer)
    return 0
