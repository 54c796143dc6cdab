"""The README is a newcomer's page: short, its tour following `PORT`, every page of `docs/`
reachable from it, and every link into it or out of it landing on a heading that exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_LINES = 300

# A Markdown link's target: `[text](target)`; images (`![alt](target)`) too.
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading (mkdocs' toc makes the same for these headings)."""
    text = heading.strip().lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    anchors, in_code = set(), False
    for line in path.read_text().splitlines():
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code and re.match(r"#{1,6} ", line):
            anchors.add(_slug(line))
    return anchors


def _links(path: Path) -> list[str]:
    return LINK.findall(path.read_text())


def _shell_blocks(path: Path) -> list[str]:
    """The lines of the ```sh blocks: what a reader pastes into a terminal."""
    lines, language = [], None
    for line in path.read_text().splitlines():
        fence = FENCE.match(line)
        if fence:
            language = None if language is not None else fence.group(1)
        elif language == "sh":
            lines.append(line)
    return lines


def test_the_readme_is_at_most_300_lines() -> None:
    count = len(README.read_text().splitlines())
    assert count <= MAX_LINES, f"README.md has {count} lines: move a section into docs/"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {
        (README.parent / target.split("#")[0]).resolve()
        for target in _links(README)
        if not target.startswith(("http:", "https:", "#"))
    }
    pages = sorted(DOCS.glob("*.md"))
    assert len(pages) >= 8
    unlinked = [page.name for page in pages if page.resolve() not in linked]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_the_readme_links_land_on_files_and_headings_that_exist() -> None:
    broken = []
    for target in _links(README):
        if target.startswith(("http:", "https:")):
            continue
        file, _, anchor = target.partition("#")
        path = (README.parent / file).resolve() if file else README
        if not path.exists() or (path.suffix == ".md" and anchor not in _anchors(path) | {""}):
            broken.append(target)
    assert not broken, f"README links to nothing: {broken}"


def test_the_tours_commands_follow_port() -> None:
    """`make run PORT=8001` and then the tour's commands: none of them may name port 8000."""
    commands = _shell_blocks(README)
    assert any("${PORT:-8000}" in line for line in commands)
    fixed = [line for line in commands if re.search(r"://(127\.0\.0\.1|localhost):\d", line)]
    assert not fixed, f"the README's commands name a fixed port: {fixed}"


def _sources() -> list[Path]:
    roots = [ROOT / "app", ROOT / "tests", DOCS]
    suffixes = {".py", ".md", ".html", ".po", ".js", ".yml", ".toml"}
    files = [p for root in roots for p in root.rglob("*") if p.suffix in suffixes]
    return [p for p in files if "node_modules" not in p.parts] + [ROOT / "Makefile"]


def test_links_into_the_readme_name_its_headings() -> None:
    """A section that moved to docs/ leaves no link to its old README heading behind, in
    code comments, tests, templates or pages."""
    readme_anchors = _anchors(README)
    stale = [
        f"{path.relative_to(ROOT)}: {anchor}"
        for path in _sources()
        for anchor in re.findall(r"README\.md#([\w-]+)", path.read_text(errors="replace"))
        if anchor not in readme_anchors
    ]
    assert not stale, f"links to README sections that are elsewhere now: {stale}"
