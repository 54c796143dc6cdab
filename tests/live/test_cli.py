"""The `almanac` command: users and migrations, as an operator runs them."""

import argparse
import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.cli import build_parser
from tests.factories import API, basic
from tests.live import fresh_database


def almanac(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_users_commands(client: AsyncClient, database_url: str) -> None:
    added = await asyncio.to_thread(
        almanac, database_url, "users", "add", "cli-editor", "--role", "editor"
    )
    assert added.returncode == 0, added.stderr
    password = added.stdout.strip().splitlines()[-1]
    try:
        created = await client.post(
            f"{API}/tags", json={"name": "From CLI"}, headers=basic("cli-editor", password)
        )
        assert created.status_code == 201

        duplicate = await asyncio.to_thread(almanac, database_url, "users", "add", "CLI-editor")
        assert duplicate.returncode == 1
        # On standard output, where a script reading the password looks; nothing changed.
        assert "user 'cli-editor' already exists (role editor)" in duplicate.stdout
        assert "almanac users password cli-editor" in duplicate.stdout
        assert duplicate.stderr == ""
        still = await client.get(f"{API}/tags", headers=basic("cli-editor", password))
        assert still.status_code == 200

        listed = await asyncio.to_thread(almanac, database_url, "users", "list")
        assert ["cli-editor", "editor"] in [line.split()[1:] for line in listed.stdout.splitlines()]

        second = await asyncio.to_thread(almanac, database_url, "users", "password", "cli-editor")
        assert second.returncode == 0
        another = second.stdout.strip().splitlines()[-1]
        assert another != password
        for secret in (password, another):  # both stay valid
            response = await client.get(f"{API}/tags", headers=basic("cli-editor", secret))
            assert response.status_code == 200
    finally:
        removed = await asyncio.to_thread(almanac, database_url, "users", "remove", "cli-editor")
    assert removed.returncode == 0
    gone = await client.get(f"{API}/tags", headers=basic("cli-editor", password))
    assert gone.status_code == 401
    assert gone.json()["code"] == "incorrect_password"
    missing = await asyncio.to_thread(almanac, database_url, "users", "remove", "cli-editor")
    assert missing.returncode == 1


async def test_bad_role_is_refused(database_url: str) -> None:
    result = await asyncio.to_thread(almanac, database_url, "users", "add", "x", "--role", "king")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


async def test_concurrent_migrations_are_safe(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_migrate_test") as url:
        results = await asyncio.gather(
            *(asyncio.to_thread(almanac, url, "migrate") for _ in range(3))
        )
        assert [r.returncode for r in results] == [0, 0, 0], [r.stderr for r in results]
        engine = create_async_engine(url)
        async with engine.connect() as conn:
            version = await conn.scalar(text("SELECT version_num FROM alembic_version"))
            tables = await conn.scalar(
                text("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            )
        await engine.dispose()
        assert version
        assert tables > 10


def _commands(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """Every command and subcommand's parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield command
                yield from _commands(command)


def test_every_option_says_what_it_does_and_its_default() -> None:
    commands = list(_commands(build_parser()))
    assert len(commands) >= 10
    for command in commands:
        assert command.description or command.prog.endswith("users"), command.prog
        for action in command._actions:
            if action.help == argparse.SUPPRESS or isinstance(
                action, argparse._SubParsersAction | argparse._HelpAction
            ):
                continue
            assert action.help, (command.prog, action.dest)
            if action.option_strings:
                assert "default" in action.help, (command.prog, action.dest)
    serve = build_parser().parse_args(["serve"])
    help_text = next(c for c in commands if c.prog.endswith("serve")).format_help()
    assert (serve.host, serve.port, serve.workers) == ("127.0.0.1", 8000, 1)
    assert "(default: 8000)" in help_text
    assert "(default: 127.0.0.1)" in help_text


def test_start_up_loads_only_what_is_used() -> None:
    """Every command and server starts a Python process (the tests start about a hundred):
    the migration tool, the webhook client and the natural-date parser are loaded where they
    are used, not by every start (app/core/infra/migrate.py, app/webhooks/sender.py,
    app/core/rules/dates.py)."""
    probe = (
        "import sys, app.cli, app.main; app.main.create_app(); "
        "print(' '.join(sorted({'alembic', 'aiohttp', 'dateparser'} & set(sys.modules))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == []
