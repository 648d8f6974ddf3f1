"""Code and docs cite benchmarks/RESULTS.md by anchored headings
(``benchmarks/RESULTS.md#playouts-per-second``): every anchor cited, in the code, the docs and
RESULTS.md's own first page of current figures, names a heading there (GitHub's anchors: lower
case, punctuation dropped, spaces to hyphens, a repeated heading's anchor with -1, -2...); and
that first table reads in one screen, one short line per benchmark."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
CITE = re.compile(r"RESULTS\.md#([\w\-]+)")
LINK = re.compile(r"\]\(#([\w\-]+)\)")


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading's text."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every heading's anchor in markdown, repeated ones numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    out = set()
    for line in markdown.splitlines():
        m = re.match(r"#{1,6} (.*)", line)
        if not m:
            continue
        a = anchor(m.group(1))
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else f"{a}-{n}")
    return out


def citing_files() -> list[Path]:
    """The code, benchmarks and docs that may cite RESULTS.md."""
    return [
        *sorted((ROOT / "gorilla").rglob("*.py")),
        *sorted((ROOT / "benchmarks").glob("*.py")),
        *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "README.md",
    ]


def test_anchor_follows_github() -> None:
    assert anchor("2026-11-22, evening: whole-game analysis (`python benchmarks/review.py`)") == (
        "2026-11-22-evening-whole-game-analysis-python-benchmarksreviewpy"
    )
    assert anchors("# A\n## B, c\n## B, c\n") == {"a", "b-c", "b-c-1"}


def test_every_cited_anchor_is_a_heading() -> None:
    known = anchors(RESULTS.read_text(encoding="utf-8"))
    missing = []
    for path in citing_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            missing += [f"{path.relative_to(ROOT)}:{n} #{a}" for a in CITE.findall(line) if a not in known]
    for n, line in enumerate(RESULTS.read_text(encoding="utf-8").splitlines(), 1):
        missing += [f"RESULTS.md:{n} #{a}" for a in LINK.findall(line) if a not in known]
    assert missing == [], "anchors with no heading:\n" + "\n".join(missing)


def test_the_code_cites_results_with_an_anchor() -> None:
    bare = []
    for path in sorted((ROOT / "gorilla").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "RESULTS.md" in line and not CITE.search(line):
                bare.append(f"{rel}:{n}")
    assert bare == [], "RESULTS.md cited without an anchor:\n" + "\n".join(bare)


def first_table(markdown: str) -> list[list[str]]:
    """The cells of each row of the first table under "## Current figures" (header and rule left out)."""
    lines = markdown[markdown.index("## Current figures") :].splitlines()[1:]
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return rows


def test_the_first_table_reads_in_one_screen() -> None:
    """One short line per benchmark (what, figure, peer, date), the date a link to its section."""
    rows = first_table(RESULTS.read_text(encoding="utf-8"))
    assert 10 <= len(rows) <= 50
    for cells in rows:
        shown = re.sub(r"\]\(#[\w\-]+\)", "]", " | ".join(cells))
        assert len(cells) == 4 and len(shown) <= 200, f"a row too long or not four cells: {shown}"
        assert re.fullmatch(r"\[[^\]]+\]\(#[\w\-]+\)", cells[3]), f"the date is not one link: {cells[3]}"
