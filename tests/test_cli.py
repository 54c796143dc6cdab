"""The `almanac` command: users and migrations, as an operator runs them."""

import asyncio
import os
import subprocess
import sys

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

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
        assert "already exists" in duplicate.stderr

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
    assert gone.json()["code"] == "invalid_username"
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
