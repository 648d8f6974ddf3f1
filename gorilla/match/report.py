"""``gorilla match --report DIR``: a short Markdown report and a PNG of the running win rate and Elo.

The plot is drawn with :mod:`gorilla.match.plot` (numpy + zlib), so reports
need no plotting library.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from gorilla.match.plot import Canvas
from gorilla.match.runner import CONFIG, load_results, player_label
from gorilla.match.sprt import Sprt, sprt_state, sprt_text
from gorilla.match.stats import elo, running, summarize

REPORT_MD = "report.md"
REPORT_PNG = "report.png"
ELO_CLIP = 800.0

BLUE = (31, 119, 180)
BAND = (198, 219, 239)
RED = (214, 39, 40)
RED_BAND = (250, 210, 205)
GRID = (225, 225, 225)
AXIS = (90, 90, 90)


def _fmt_elo(x: float | None, inf: str) -> str:
    return inf if x is None else f"{x + 0.0:+.0f}"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def plot_running(records: list[dict], title: str = "") -> Canvas:
    """Two panels: A's running win rate with its 95% band, and the Elo difference A-B with its band."""
    w, h = 900, 640
    cv = Canvas(w, h)
    left, right = 90, w - 30
    panels = [(60, 300), (370, 600)]  # (top, bottom) of each plot area
    run = running(records)
    n = max(1, len(run))

    def x_of(i: float) -> float:
        return left + (right - left) * ((i - 1) / max(1, n - 1) if n > 1 else 0.5)

    if title:
        cv.text(left, 14, title[:60], AXIS, scale=2)
    # --- win rate -----------------------------------------------------------------
    top, bot = panels[0]

    def y_rate(p: float) -> float:
        return bot - (bot - top) * p

    if run:
        xs = [x_of(i) for i, *_ in run]
        cv.band(xs, [y_rate(hi) for *_, hi in run], [y_rate(lo) for _, _, lo, _ in run], BAND)
    for p in (0.0, 0.25, 0.5, 0.75, 1.0):
        cv.hline(left, right, int(y_rate(p)), GRID if p != 0.5 else AXIS, dashed=p == 0.5)
        label = f"{int(p * 100)}%"
        cv.text(left - 12 - cv.text_width(label), int(y_rate(p)) - 7, label, AXIS)
    cv.text(left, top - 24, "A WIN RATE (95% BAND)", BLUE)
    if run:
        cv.polyline([(x_of(i), y_rate(p)) for i, p, _, _ in run], BLUE)
    # --- Elo ----------------------------------------------------------------------
    top, bot = panels[1]

    def y_elo(e: float) -> float:
        e = max(-ELO_CLIP, min(ELO_CLIP, e))
        return bot - (bot - top) * (e + ELO_CLIP) / (2 * ELO_CLIP)

    if run:
        xs = [x_of(i) for i, *_ in run]
        cv.band(xs, [y_elo(elo(hi)) for *_, hi in run], [y_elo(elo(lo)) for _, _, lo, _ in run], RED_BAND)
    for e in (-800, -400, 0, 400, 800):
        cv.hline(left, right, int(y_elo(e)), GRID if e else AXIS, dashed=e == 0)
        label = f"{e:+d}" if e else "0"
        cv.text(left - 12 - cv.text_width(label), int(y_elo(e)) - 7, label, AXIS)
    cv.text(left, top - 24, "ELO A-B (95% BAND, CLIPPED AT 800)", RED)
    if run:
        cv.polyline([(x_of(i), y_elo(elo(p))) for i, p, _, _ in run], RED)
    # --- x axis -------------------------------------------------------------------
    for t, b in panels:
        cv.vline(left, t, b, AXIS)
        cv.hline(left, right, b, AXIS)
    ticks = sorted({1, n, *range(0, n + 1, max(1, math.ceil(n / 8 / 5) * 5))} - {0})
    for i in ticks:
        x = int(x_of(i))
        cv.vline(x, panels[1][1], panels[1][1] + 5, AXIS)
        cv.text(x - cv.text_width(str(i)) // 2, panels[1][1] + 10, str(i), AXIS)
    cv.text((left + right) // 2 - cv.text_width("GAMES") // 2, h - 16, "GAMES", AXIS)
    return cv


def report_text(out: Path, records: list[dict], summary: dict, config: dict) -> str:
    """report.md's text: the players and settings, wins, win rate and Elo, times, forfeits, the games."""
    labels = summary["labels"]
    s = summary
    lines = [
        f"# Match report: {labels['A']} vs {labels['B']}",
        "",
        f"- A: `{s['players']['A']}`",
        f"- B: `{s['players']['B']}`",
    ]
    if config.get("game") == "gomoku":
        openings = config.get("openings_file")
        lines.append(
            f"- {config.get('size')}x{config.get('size')} Gomoku, {config.get('rules')}, openings "
            f"{Path(openings).name + ' (each with both colours)' if openings else 'none'}, "
            f"timeout_turn {config.get('timeout_turn')} ms, timeout_match {config.get('timeout_match')} ms, "
            f"seed {config.get('seed')}"
        )
    elif config:
        komi = config.get("komi")
        lines.append(
            f"- {config.get('size')}x{config.get('size')}, {config.get('rules')} rules, "
            f"komi {'default' if komi is None else komi}, handicap {config.get('handicap', 0)}, "
            f"{config.get('openings', 0)} random opening moves, seed {config.get('seed')}, "
            f"move timeout {config.get('move_timeout')} s"
        )
    lines.append(f"- {s['games']} of {config.get('games', s['games'])} games played")
    lo, hi = s["win_rate_A_95"]
    elo_lo, elo_hi = s["elo_A_minus_B_95"]
    point = _fmt_elo(s["elo_A_minus_B"], "-inf" if s["win_rate_A"] == 0 else "+inf")
    lines += [
        "",
        "## Result",
        "",
        "| | A | B | draws |",
        "|---|---|---|---|",
        f"| wins | {s['wins']['A']} | {s['wins']['B']} | {s['draws']} |",
        f"| as Black | {s['by_color']['A']['black']['wins']}/{s['by_color']['A']['black']['games']} "
        f"| {s['by_color']['B']['black']['wins']}/{s['by_color']['B']['black']['games']} | |",
        f"| as White | {s['by_color']['A']['white']['wins']}/{s['by_color']['A']['white']['games']} "
        f"| {s['by_color']['B']['white']['wins']}/{s['by_color']['B']['white']['games']} | |",
        "",
        f"- Win rate of A: **{_pct(s['win_rate_A'])}** (95% Wilson interval {_pct(lo)} – {_pct(hi)})",
        f"- Elo difference A − B: **{point}** (95% interval {_fmt_elo(elo_lo, '-inf')} .. "
        f"{_fmt_elo(elo_hi, '+inf')})",
        f"- Black won {s['color_wins']['black']}, White won {s['color_wins']['white']}",
        "- Games ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(s["end_reasons"].items())),
        "",
    ]
    if s.get("sprt"):
        t = s["sprt"]
        when = f"after {t['decided_at']} games" if t["decision"] else f"undecided after {s['games']} games"
        lines += [
            "## SPRT",
            "",
            f"- Trinomial GSPRT (wins, draws, losses of A), H0: Elo A-B = {t['elo0']:g}, "
            f"H1: Elo A-B = {t['elo1']:g}, alpha {t['alpha']:g}, beta {t['beta']:g}",
            f"- {sprt_text(t)}, {when}",
            "",
        ]
    lines += [
        "## Time per move",
        "",
        "| player | moves | mean (s) | max (s) |",
        "|---|---|---|---|",
    ]
    for p in ("A", "B"):
        t = s["time_per_move"][p]
        mean = "-" if t["mean"] is None else f"{t['mean']:.3f}"
        lines.append(f"| {p} ({labels[p]}) | {t['moves']} | {mean} | {t['max']:.3f} |")
    lines += ["", "## Forfeits", ""]
    if s["forfeits"]:
        for f in s["forfeits"]:
            who = f"{f['player']} ({labels[f['player']]})"
            lines.append(f"- game {f['game'] + 1}: {who} as {f['color']}: {f['reason']}")
    else:
        lines.append("None.")
    lines += ["", "## Running win rate and Elo", "", f"![running win rate and Elo]({REPORT_PNG})", ""]
    lines += ["## Games", "", "| game | Black | White | result | moves | end |", "|---|---|---|---|---|---|"]
    for r in sorted(records, key=lambda r: r["game"]):
        sgf = r.get("sgf")
        name = f"[{r['game'] + 1}]({sgf})" if sgf else str(r["game"] + 1)
        lines.append(
            f"| {name} | {r['black']} | {r['white']} | {r['result']} | {r['moves']} | {r.get('reason', '')} |"
        )
    return "\n".join(lines) + "\n"


def write_report(out_dir: str | Path) -> list[str]:
    """Write report.md and report.png into out_dir from its results.jsonl; returns their paths."""
    out = Path(out_dir)
    if not (out / "results.jsonl").exists():
        raise ValueError(f"no results.jsonl in '{out}'")
    config: dict = {}
    if (out / CONFIG).exists():
        try:
            config = json.loads((out / CONFIG).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            config = {}
    finished = load_results(out)  # in the order the games finished, which the SPRT follows
    records = sorted(finished, key=lambda r: r["game"])
    players = config.get("players") or [records[0]["black_player"] if records else "A", "B"]
    summary = summarize(records, {"A": players[0], "B": players[1]})
    if config.get("sprt"):
        summary["sprt"] = sprt_state(Sprt.from_list(config["sprt"]), finished)
    summary["labels"] = {"A": player_label(players[0]), "B": player_label(players[1])}
    md = out / REPORT_MD
    md.write_text(report_text(out, records, summary, config), encoding="utf-8")
    png = out / REPORT_PNG
    title = f"{summary['labels']['A']} VS {summary['labels']['B']}"
    plot_running(records, title).save(png)
    return [str(md), str(png)]
