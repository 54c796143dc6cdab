"""The Makefile as a newcomer meets it: a bare `make` lists the targets, and the first
install says what it does without an error that is not one."""

import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_bare_make_and_make_help_list_the_targets_one_line_each() -> None:
    bare, helped = make(), make("help")
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout == helped.stdout
    lines = helped.stdout.splitlines()
    assert lines[0] == "make TARGET, one of:"
    listed = {line.split()[0]: line for line in lines[1:]}
    for target in ("help", "install", "run", "test", "test-fast", "lint", "clean", "system-deps"):
        assert target in listed, helped.stdout
    assert "serve on http://127.0.0.1:8000" in listed["run"]
    assert "installs system tools" in listed["test"]
    assert all(len(line.split(maxsplit=1)) == 2 for line in lines[1:])  # each says what
    assert "pytest" not in bare.stderr  # nothing ran


def _script(path: Path, body: str) -> None:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_first_install_hides_the_offline_attempts_error(tmp_path: Path) -> None:
    """uv's cache alone cannot resolve on a first install: its "No solution found" is the
    expected way to the index, not a failure to show (uv and Python are stand-ins here)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _script(bin_dir / "python", 'case "$*" in *" list "*) printf "a==1\\nb==2\\nc==3\\n";; esac')
    _script(
        bin_dir / "uv",
        'case "$*" in *--offline*) echo "error: No solution found when resolving '
        'dependencies" >&2; exit 1;; esac',
    )
    stamp = tmp_path / "stamp"
    result = make(
        str(stamp),
        f"VENV={tmp_path}",
        f"BIN={bin_dir}",
        f"PYTHON={bin_dir / 'python'}",
        f"STAMP={stamp}",
        f"UV={bin_dir / 'uv'}",
    )
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "No solution found" not in output
    assert output.splitlines() == [
        f"installing almanac and its packages into {tmp_path} (a minute or two the first time)",
        "downloading the packages uv has not cached from the package index",
        f"installed: 3 packages in {tmp_path}",
    ]
    assert stamp.exists()


def test_system_tools_are_named_before_they_are_installed() -> None:
    """`make test` says which packages apt will install, and why, before its steps start
    side by side (whose output comes when each is done); `system-deps` says it again just
    before it installs. apt is a stand-in here (`APT_INSTALL`), the tool one that is missing."""
    planned = make("system-deps-plan", "SYSTEM_TOOLS=no-such-tool-here chromedriver")
    assert planned.returncode == 0, planned.stderr
    first = planned.stdout.splitlines()[0]
    assert first.startswith("the live tests run these tools for real; installing from")
    assert first.endswith("apt-get install): no-such-tool-here") or first.endswith(
        "apt-get install): no-such-tool-here docker-compose-plugin"
    ), first
    installed = make(
        "system-deps", "SYSTEM_TOOLS=no-such-tool-here", "APT_INSTALL=echo apt-get would install"
    )
    assert installed.returncode == 0, installed.stderr
    lines = installed.stdout.splitlines()
    assert lines[0] == first
    assert lines[-1].startswith("apt-get would install no-such-tool-here")
    dry_run = make("-n", "test")
    assert "system-deps-plan" in dry_run.stdout.split("pytest")[0]


def test_map_assets_never_stop_make_run(tmp_path: Path) -> None:
    """Leaflet is an enhancement: without npm, or when its install fails, `make map-assets`
    (which `make run` reaches) says so and succeeds; the pages then show the map view's
    list. The target's folder is a temporary one, npm a stand-in that fails."""
    assert "map-assets" in make("-n", "run").stdout
    make_path = shutil.which("make") or "make"  # found here: the runs below have another PATH

    def map_assets(path: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [make_path, "--no-print-directory", "-C", str(ROOT), "map-assets",
             f"MAP_ASSETS_DIR={tmp_path / 'leaflet'}"],
            capture_output=True, text=True, timeout=60, check=False, env={"PATH": path},
        )  # fmt: skip

    without = map_assets(str(tmp_path / "empty"))
    assert without.returncode == 0, without.stderr
    assert without.stdout.startswith("npm not found: the map view shows its list")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _script(bin_dir / "npm", "echo 'npm: no registry here' >&2; exit 1")
    failing = map_assets(f"{bin_dir}:/usr/bin:/bin")
    assert failing.returncode == 0, failing.stderr
    assert "Leaflet could not be installed: the map view shows its list" in failing.stdout
    assert not (tmp_path / "leaflet").exists()
