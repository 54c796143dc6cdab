"""`make docs`: the documentation site builds from docs/ with `mkdocs build --strict`, so a
link between its pages to a page or heading that is not there fails (about a second)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    mkdocs = Path(sys.executable).parent / "mkdocs"
    built = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    site = tmp_path / "site"
    for page in sorted((ROOT / "docs").glob("*.md")):
        name = "index.html" if page.stem == "index" else f"{page.stem}/index.html"
        assert (site / name).is_file(), f"{page.name} is not in the site"
    assert "Configuration" in (site / "configuration" / "index.html").read_text()
