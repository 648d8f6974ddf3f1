"""Match statistics: Wilson intervals, Elo differences, and the summary of a results file.

A result record (one line of ``results.jsonl``) says which player had Black
(``black``: "A" or "B"), who won (``winner``: "A", "B" or null for a draw),
the SGF result, how the game ended, any forfeit, and per-player move times.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Z95 = 1.959963984540054


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion score/n (draws count half); (0, 1) when n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(p: float) -> float:
    """The Elo difference for an expected score p: -400 log10(1/p - 1); ±inf at 0 and 1."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def finite(x: float) -> float | None:
    """x rounded for JSON, None for ±inf/nan (JSON has no infinity)."""
    return None if not math.isfinite(x) else round(x, 1)


def _empty_times() -> dict:
    return {"moves": 0, "total": 0.0, "max": 0.0}


def summarize(records: Iterable[dict], players: dict[str, str] | None = None) -> dict:
    """The match summary: wins by player and colour, win rate of A with a 95% Wilson
    interval, Elo difference (A minus B) with its interval, time per move and forfeits."""
    recs = sorted(records, key=lambda r: r["game"])
    n = len(recs)
    wins = {"A": 0, "B": 0}
    draws = 0
    by_color = {p: {"black": {"games": 0, "wins": 0}, "white": {"games": 0, "wins": 0}} for p in ("A", "B")}
    color_wins = {"black": 0, "white": 0}
    times = {"A": _empty_times(), "B": _empty_times()}
    forfeits = []
    reasons: dict[str, int] = {}
    for r in recs:
        black = r["black"]
        white = "B" if black == "A" else "A"
        by_color[black]["black"]["games"] += 1
        by_color[white]["white"]["games"] += 1
        w = r.get("winner")
        if w in wins:
            wins[w] += 1
            col = "black" if w == black else "white"
            by_color[w][col]["wins"] += 1
            color_wins[col] += 1
        else:
            draws += 1
        reasons[r.get("reason", "?")] = reasons.get(r.get("reason", "?"), 0) + 1
        for p in ("A", "B"):
            t = r.get("times", {}).get(p)
            if t:
                times[p]["moves"] += t["moves"]
                times[p]["total"] += t["total"]
                times[p]["max"] = max(times[p]["max"], t["max"])
        if r.get("forfeit"):
            forfeits.append({"game": r["game"], **r["forfeit"]})
    score = wins["A"] + 0.5 * draws
    rate = score / n if n else None
    lo, hi = wilson(score, n)
    time_stats = {
        p: {
            "moves": t["moves"],
            "mean": round(t["total"] / t["moves"], 4) if t["moves"] else None,
            "max": round(t["max"], 4),
            "total": round(t["total"], 3),
        }
        for p, t in times.items()
    }
    return {
        "players": players or {},
        "games": n,
        "wins": wins,
        "draws": draws,
        "check": wins["A"] + wins["B"] + draws == n,
        "by_color": by_color,
        "color_wins": color_wins,
        "win_rate_A": None if rate is None else round(rate, 4),
        "win_rate_A_95": [round(lo, 4), round(hi, 4)],
        "elo_A_minus_B": None if rate is None else finite(elo(rate)),
        "elo_A_minus_B_95": [finite(elo(lo)), finite(elo(hi))],
        "time_per_move": time_stats,
        "end_reasons": reasons,
        "forfeits": forfeits,
    }


def running(records: Iterable[dict]) -> list[tuple[int, float, float, float]]:
    """(games, win rate of A, low, high) after each game, in game order of finishing."""
    out = []
    score = 0.0
    for i, r in enumerate(records, 1):
        w = r.get("winner")
        score += 1.0 if w == "A" else 0.0 if w == "B" else 0.5
        lo, hi = wilson(score, i)
        out.append((i, score / i, lo, hi))
    return out
