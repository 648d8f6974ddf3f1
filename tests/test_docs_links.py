"""The README and the docs/ pages link each other by relative paths (the README is a first screen
that links the manual's pages): every such link names a file that exists, a link into a Markdown
page with an anchor names one of its headings, and every docs/ page can be reached from the README."""

from __future__ import annotations

import re
from pathlib import Path

from test_results_anchors import anchors

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)\)")


def pages(root: Path = ROOT) -> list[Path]:
    """The README and every docs/ page."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def targets(page: Path) -> list[tuple[str, Path, str]]:
    """Each relative link of a page: the link as written, the file it names, its anchor."""
    out = []
    for link in LINK.findall(page.read_text(encoding="utf-8")):
        if not re.match(r"[a-z]+:", link):
            path, _, anchor = link.partition("#")
            out.append((link, (page.parent / path).resolve() if path else page.resolve(), anchor))
    return out


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of one page whose file or heading does not exist."""
    out = []
    for link, target, anchor in targets(page):
        if not target.exists():
            out.append(f"{page.relative_to(root)}: {link} (no such file)")
        elif anchor and target.suffix == ".md" and anchor not in anchors(target.read_text(encoding="utf-8")):
            out.append(f"{page.relative_to(root)}: {link} (no such heading)")
    return out


def unreachable(root: Path = ROOT) -> set[str]:
    """The docs/ pages that no chain of links from the README reaches."""
    seen, todo = set(), [(root / "README.md").resolve()]
    while todo:
        page = todo.pop()
        if page not in seen and page.suffix == ".md" and page.exists():
            seen.add(page)
            todo += [target for _, target, _ in targets(page)]
    return {p.name for p in pages(root)[1:] if p.resolve() not in seen}


def test_the_checks_find_a_missing_page_a_missing_heading_and_a_lone_page(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("[a](docs/a.md) [web](https://x.org/n.md)")
    (tmp_path / "docs" / "a.md").write_text("# A\n## Two words\n[ok](#two-words) [b](b.md#two) [c](c.md)")
    (tmp_path / "docs" / "b.md").write_text("# B\n## Two\n")
    (tmp_path / "docs" / "lone.md").write_text("# Lone\n")
    assert broken(tmp_path / "docs" / "a.md", tmp_path) == ["docs/a.md: c.md (no such file)"]
    (tmp_path / "docs" / "b.md").write_text("# B\n## Three\n")
    assert broken(tmp_path / "docs" / "a.md", tmp_path)[0] == "docs/a.md: b.md#two (no such heading)"
    assert unreachable(tmp_path) == {"lone.md"}


def test_every_relative_link_of_the_readme_and_docs_resolves() -> None:
    missing = [line for page in pages() for line in broken(page)]
    assert missing == [], "broken links:\n" + "\n".join(missing)


def test_every_docs_page_is_reached_from_the_readme() -> None:
    assert unreachable() == set(), "docs pages no link from the README leads to"
