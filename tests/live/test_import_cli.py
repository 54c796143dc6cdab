"""`almanac import` as an operator runs it: a real command, over real HTTP, against the fake
The Events Calendar site served by uvicorn (tests/tec_source.py), into a fresh database."""

import asyncio
import contextlib
import io
import os
import subprocess
import sys
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.settings import get_settings
from app.importer.arguments import ImportArguments
from app.importer.client import site_key
from app.importer.command import cmd_import
from tests.live.harness import free_port, fresh_database
from tests.tec_source import FakeTEC, served


def almanac(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=300,
    )


async def test_import_command(database_url: str) -> None:
    tec = FakeTEC()
    music = tec.add_category("Music")
    hall = tec.add_venue("Hall")
    tec.add_event(
        "Opening &amp; Party", datetime(2027, 1, 5, 18, 0), venue=hall, categories=[music]
    )
    tec.add_event("Drafted", datetime(2027, 1, 6, 18, 0), status="draft")
    async with (
        fresh_database(database_url, "almanac_import_cli", migrated=True) as url,
        served(tec, free_port()) as site,
    ):
        no_owner = await asyncio.to_thread(almanac, url, "import", site)
        assert no_owner.returncode == 1
        assert "no administrator" in no_owner.stderr
        added = await asyncio.to_thread(
            almanac, url, "users", "add", "boss", "--role", "administrator"
        )
        assert added.returncode == 0, added.stderr

        dry = await asyncio.to_thread(almanac, url, "import", site, "--dry-run")
        assert dry.returncode == 0, dry.stderr
        assert "events: 1 would be created" in dry.stdout

        password = tec.users["admin"]
        os.environ["ALMANAC_IMPORT_PASSWORD"] = password  # kept off the command line
        try:
            first = await asyncio.to_thread(almanac, url, "import", site, "--user", "admin")
        finally:
            del os.environ["ALMANAC_IMPORT_PASSWORD"]
        assert first.returncode == 0, first.stderr
        lines = first.stdout.splitlines()
        # Not a terminal: plain progress lines, then the summary.
        assert "events: 2 to go through" in lines
        assert "  events: 2 created, 0 updated, 0 unchanged, 0 skipped" in lines

        # While another run of the same site holds its lock, a run stops at once.
        engine = create_async_engine(url)
        key = f"almanac-import:{site_key(site + '/wp-json/tribe/events/v1')}"
        lock = text("SELECT pg_advisory_lock(hashtextextended(:key, 0))")
        try:
            async with engine.connect() as holder:
                await holder.execute(lock, {"key": key})
                busy = await asyncio.to_thread(almanac, url, "import", site)
        finally:
            await engine.dispose()
        assert busy.returncode == 1
        assert "another import of 127.0.0.1" in busy.stderr

        tec.events[next(iter(tec.events))]["end_date"] = "not a date at all"
        tec.touch(tec.events[next(iter(tec.events))])
        second = await asyncio.to_thread(
            almanac, url, "import", f"{site}/wp-json/tribe/events/v1", "--user", "admin",
            "--password", password,
        )  # fmt: skip
        assert second.returncode == 1
        assert "invalid end_date" in second.stdout
        assert (
            "  venues: 0 created, 0 updated, 1 unchanged, 0 skipped" in second.stdout.splitlines()
        )


def import_command(database_url: str, source: str, **options: Any) -> tuple[int, str, str]:
    """`almanac import SOURCE --OPTION ...` in this process: its exit status, output and
    errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cmd_import(database_url, get_settings(), ImportArguments(source, **options), out)
    return status, out.getvalue(), err.getvalue()


def test_import_command_errors(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALMANAC_IMPORT_PASSWORD", raising=False)
    status, _, err = import_command(database_url, "http://tec.test", user="admin")
    assert status == 2
    assert "--user and --password" in err
    unreachable = f"http://127.0.0.1:{free_port()}/"
    status, _, err = import_command(database_url, unreachable, attempts=2)
    assert status == 1
    assert err.startswith(f"error: {unreachable}")
    refused = almanac(database_url, "import", unreachable, "--attempts", "0")
    assert refused.returncode == 2  # a usage error: tries are 1 to 20
    assert "0 is not in the range 1<=x<=20" in refused.stderr
