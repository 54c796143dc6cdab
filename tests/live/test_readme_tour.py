"""The README's five-minute tour, run literally: its shell blocks, as a newcomer pastes them
into a second terminal, against `almanac serve` on another port than 8000 (so the tour's
URLs must follow `PORT`), with the demo data."""

import asyncio
import os
import re
import sys
from pathlib import Path

from tests.live.harness import almanac_server, fresh_database

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def tour_commands() -> str:
    """The ```sh blocks of "The five-minute tour", but `make run` (the first terminal's)."""
    text = README.read_text()
    section = text.split("\n## The five-minute tour\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    lines = [line for block in blocks for line in block.splitlines()]
    return "\n".join(line for line in lines if not line.startswith("make run"))


async def test_the_readmes_tour_runs_as_written(database_url: str, tmp_path: Path) -> None:
    script = tour_commands()
    assert ".venv/bin/almanac seed --demo" in script
    assert "${PORT:-8000}" in script
    almanac = ROOT / ".venv" / "bin" / "almanac"
    if not almanac.exists():  # a venv elsewhere: the same command
        script = script.replace(".venv/bin/almanac", f"{sys.executable} -m app.cli")
    async with fresh_database(database_url, "almanac_readme_tour", migrated=True) as url:
        data = {"ALMANAC_DATA_DIR": str(tmp_path)}  # the demo's images, not in ./.almanac
        async with almanac_server(url, **data) as base:
            port = base.rsplit(":", 1)[1]
            assert port != "8000"
            env = {**os.environ, **data, "DATABASE_URL": url, "PORT": port}
            process = await asyncio.create_subprocess_exec(
                "bash", "-e", "-o", "pipefail", "-c", script,
                cwd=ROOT, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    output = out.decode()
    # Every curl reached this server (curl exits 7 where nothing listens: bash -e stops).
    assert process.returncode == 0, f"{output}\n{err.decode()}"
    assert output.count('"events":[') >= 3  # the list, in German, filtered
    assert '"venues":[' in output
    assert '"title":"Rooftop Jazz"' in output  # alice's event, created
    assert '"code":"rest_invalid_param"' in output  # the bad request, explained
    assert '"page":"page must be greater than or equal to 1."' in output
