"""``gorilla little-go-agent``: play one move of a Little-Go tournament game through files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gorilla.littlego.protocol import ProtocolError, run_turn


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, then usage, exit 2
        print(f"gorilla little-go-agent: {message}", file=sys.stderr)
        self.print_usage(sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
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
    pat = p.add_mutually_exclusive_group()
    pat.add_argument("--mc-patterns", metavar="NAME", default=None, help="mcts: pattern playouts (NAME)")
    pat.add_argument("--mc-load-patterns", metavar="FILE", default=None, help="mcts: patterns from FILE")
    p.add_argument("--mc-list-patterns", action="store_true", help="list the shipped pattern databases")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.mc_list_patterns:
        from gorilla.ai.playout.catalog import list_text

        print(list_text())
        return 0
    spec = args.ai
    if args.mc_patterns is not None or args.mc_load_patterns is not None:
        from gorilla.ai.agent import parse_spec
        from gorilla.ai.playout.catalog import PatternError, option_value, with_patterns

        try:
            value = option_value(args.mc_patterns, args.mc_load_patterns)
            if parse_spec(spec)[0] != "mcts":
                raise PatternError("--mc-patterns/--mc-load-patterns apply to --ai mcts only")
        except PatternError as e:
            print(f"gorilla little-go-agent: {e}", file=sys.stderr)
            return 2
        spec = with_patterns(spec, value)
    try:
        answer = run_turn(args.dir, spec, args.time, args.rules)
    except (ProtocolError, ValueError) as e:
        print(f"gorilla little-go-agent: {e}", file=sys.stderr)
        return 1
    print(answer)
    return 0
