"""Strength: Gorilla's MCTS against GNU Go 3.8 over GTP (or against another built-in AI).

    python benchmarks/strength.py --games 20 --time 2
    python benchmarks/strength.py --opponent montecarlo --games 20 --time 1

Colours alternate (Gorilla is Black in even-numbered games). Our Game is the
referee: every move is checked against the rules (an illegal move forfeits),
the game ends on two passes, a resignation or the move cap, and a finished
game is counted by area with the dead stones GNU Go's ``final_status_list
dead`` reports (all stones alive against a built-in opponent). Prints one
line per game, then wins, losses, the win rate (draws count half) with its 95%
Wilson interval and the Elo difference, from :func:`gorilla.match.stats.summarize`.
"""

from __future__ import annotations

import sys
import time

from common import need_gnugo, parser

from gorilla.ai.agent import Agent, Budget, make_agent
from gorilla.match.gtp_client import GtpClient
from gorilla.match.stats import elo, summarize
from gorilla.rules.board import BLACK, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove


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


def warm_up(agent: Agent, size: int, komi: float) -> None:
    """One small search, so that numba compiling does not eat the first timed move."""
    agent.new_game()
    agent.select_move(Game.new(size, "chinese", komi), Budget(playouts=50))


def play_game(
    ours: Agent, opp: GnuGo | Agent, our_color: int, size: int, komi: float, seconds: float
) -> tuple[Game, int]:
    """One game; returns the game and the winner's colour (0 = draw)."""
    game = Game.new(size, "chinese", komi)
    ours.new_game()
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
    ap = parser(__doc__)
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
    ap.add_argument("--gnugo", default=None, help="path of gnugo (default: found on PATH or in /usr/games)")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)

    spec = args.gorilla
    if spec.startswith("mcts") and "threads" not in spec:
        spec += ("," if ":" in spec else ":") + f"threads={args.threads}"
    if args.seed is not None:
        spec += ("," if ":" in spec else ":") + f"seed={args.seed}"
    ours = make_agent(spec)
    if args.opponent == "gnugo":
        opp: GnuGo | Agent = GnuGo(need_gnugo(args.gnugo), args.level, args.size, args.komi)
        label = f"GNU Go level {args.level}"
    else:
        opp = make_agent(args.opponent)
        label = args.opponent
    print(
        f"Gorilla {spec} vs {label}: {args.size}x{args.size}, komi {args.komi}, {args.time} s/move",
        flush=True,
    )
    # the first search of a process compiles or loads numba's kernels: not inside game 1's clock
    warm_up(ours, args.size, args.komi)
    if not isinstance(opp, GnuGo):
        warm_up(opp, args.size, args.komi)
    records = []  # one per game, as gorilla.match.stats.summarize reads them: Gorilla is "A"
    t_start = time.time()
    try:
        for i in range(args.games):
            our_color = BLACK if i % 2 == 0 else WHITE
            t0 = time.time()
            game, winner = play_game(ours, opp, our_color, args.size, args.komi, args.time)
            outcome = "A" if winner == our_color else None if winner == 0 else "B"
            records.append({"game": i, "black": "A" if our_color == BLACK else "B", "winner": outcome})
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
    print(summary_line(summarize(records), time.time() - t_start), flush=True)
    return 0


def summary_line(s: dict, seconds: float) -> str:
    """Wins, losses, draws, win rate with its 95% Wilson interval and the Elo difference with its own."""
    lo, hi = s["win_rate_A_95"]
    rate = s["win_rate_A"] or 0.0
    e = [f"{elo(p) + 0.0:+.0f}" for p in (rate, lo, hi)]  # + 0.0: no "-0"
    elo_text = f"Elo {e[0]} ({e[1]} to {e[2]})" if s["games"] else "Elo n/a"
    return (
        f"Gorilla wins {s['wins']['A']}, losses {s['wins']['B']}, draws {s['draws']} of {s['games']}: "
        f"{100 * rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), {elo_text}, {seconds:.0f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
