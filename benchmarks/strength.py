"""Strength: Gorilla's MCTS against GNU Go 3.8 over GTP (or against another built-in AI).

    python benchmarks/strength.py --games 20 --time 2
    python benchmarks/strength.py --opponent montecarlo --games 20 --time 1

Colours alternate (Gorilla is Black in even-numbered games). Our Game is the
referee: every move is checked against the rules (an illegal move forfeits),
the game ends on two passes, a resignation or the move cap, and a finished
game is counted by area with the dead stones GNU Go's ``final_status_list
dead`` reports (all stones alive against a built-in opponent). Prints one
line per game, then wins, losses, the win rate and its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gorilla.ai.agent import Agent, Budget, make_agent  # noqa: E402
from gorilla.match.gtp_client import GtpClient  # noqa: E402
from gorilla.rules.board import BLACK, RESIGN, WHITE  # noqa: E402
from gorilla.rules.coords import format_vertex, parse_vertex  # noqa: E402
from gorilla.rules.game import Game  # noqa: E402
from gorilla.rules.position import IllegalMove  # noqa: E402

GNUGO = "/usr/games/gnugo"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


class GnuGo:
    """GNU Go as an opponent over GTP."""

    def __init__(self, path: str, level: int, size: int, komi: float) -> None:
        self.gtp = GtpClient(
            [path, "--mode", "gtp", "--level", str(level), "--chinese-rules", "--komi", str(komi)]
        )
        self.size = size
        self.gtp.send(f"boardsize {size}")
        self.gtp.send(f"komi {komi}")

    def new_game(self) -> None:
        self.gtp.send("clear_board")

    def play(self, color: int, move: int) -> None:
        c = "B" if color == BLACK else "W"
        self.gtp.send(f"play {c} {format_vertex(move, self.size)}")

    def genmove(self, color: int) -> int:
        text = self.gtp.send("genmove " + ("B" if color == BLACK else "W"), None).strip().lower()
        if text == "resign":
            return RESIGN
        return parse_vertex(text, self.size)

    def dead(self) -> list[int]:
        text = self.gtp.send("final_status_list dead")
        return [parse_vertex(v, self.size) for v in text.split()]

    def close(self) -> None:
        self.gtp.close()


def play_game(
    ours: Agent, opp: GnuGo | Agent, our_color: int, size: int, komi: float, seconds: float
) -> tuple[Game, int]:
    """One game; returns the game and the winner's colour (0 = draw)."""
    game = Game.new(size, "chinese", komi)
    ours.new_game()
    if isinstance(opp, GnuGo):
        opp.new_game()
    else:
        opp.new_game()
    cap = 3 * size * size
    while not game.over and len(game.moves) < cap:
        color = game.to_move
        if color == our_color:
            move = ours.select_move(game, Budget(seconds=seconds))
            if isinstance(opp, GnuGo) and move != RESIGN:
                opp.play(color, move)
        else:
            move = (
                opp.genmove(color)
                if isinstance(opp, GnuGo)
                else opp.select_move(game, Budget(seconds=seconds))
            )
        try:
            game.play(move, color)
        except IllegalMove as e:
            who = "Gorilla" if color == our_color else "opponent"
            print(f"  illegal move by {who}: {format_vertex(move, size)} ({e})", flush=True)
            return game, 3 - color
    if game.resigned:
        return game, 3 - game.resigned
    dead = opp.dead() if isinstance(opp, GnuGo) else []
    margin = game.score(dead).margin
    return game, BLACK if margin > 0 else WHITE if margin < 0 else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument(
        "--time", type=float, default=2.0, help="seconds per move for Gorilla (and a built-in opponent)"
    )
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--level", type=int, default=10, help="GNU Go level")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--gorilla", default="mcts", help="agent spec for Gorilla (default mcts)")
    ap.add_argument("--opponent", default="gnugo", help="gnugo or an agent spec (montecarlo, random, ...)")
    ap.add_argument("--gnugo", default=GNUGO)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)

    spec = args.gorilla
    if spec.startswith("mcts") and "threads" not in spec:
        spec += ("," if ":" in spec else ":") + f"threads={args.threads}"
    if args.seed is not None:
        spec += ("," if ":" in spec else ":") + f"seed={args.seed}"
    ours = make_agent(spec)
    if args.opponent == "gnugo":
        opp: GnuGo | Agent = GnuGo(args.gnugo, args.level, args.size, args.komi)
        label = f"GNU Go level {args.level}"
    else:
        opp = make_agent(args.opponent)
        label = args.opponent
    print(
        f"Gorilla {spec} vs {label}: {args.size}x{args.size}, komi {args.komi}, {args.time} s/move",
        flush=True,
    )
    wins = losses = draws = 0
    t_start = time.time()
    try:
        for i in range(args.games):
            our_color = BLACK if i % 2 == 0 else WHITE
            t0 = time.time()
            game, winner = play_game(ours, opp, our_color, args.size, args.komi, args.time)
            if winner == our_color:
                wins += 1
            elif winner == 0:
                draws += 1
            else:
                losses += 1
            res = game.result or ("B+" if winner == BLACK else "W+") + "F"
            moves = " ".join(
                format_vertex(m.point, args.size) if m.point != RESIGN else "resign" for m in game.moves
            )
            print(
                f"game {i + 1:3d}: Gorilla {'B' if our_color == BLACK else 'W'} "
                f"{'win ' if winner == our_color else 'loss'} {res:8s} {len(game.moves):3d} moves "
                f"{time.time() - t0:5.0f} s | {moves}",
                flush=True,
            )
    finally:
        if isinstance(opp, GnuGo):
            opp.close()
        ours.close()
    n = wins + losses + draws
    lo, hi = wilson(wins, n)
    print(
        f"Gorilla wins {wins}, losses {losses}, draws {draws} of {n}: "
        f"{100 * wins / max(1, n):.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
        f"{time.time() - t_start:.0f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
