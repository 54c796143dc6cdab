"""`almanac users set-password`, run for real: the account password from standard input,
then the desk takes it and the API does not (and `users add` still ends with the
application password)."""

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest
from httpx import AsyncClient

from tests.desk_support import sign_in
from tests.factories import API, basic


def almanac(database_url: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env={**os.environ, "DATABASE_URL": database_url},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
async def app_password(database_url: str) -> AsyncIterator[str]:
    """`desk-cli`, an editor added by the command: its application password. Removed after
    the test's transaction has ended (requested before `client`, so torn down after it: the
    test's uncommitted desk session would hold the user's row until then)."""
    added = await asyncio.to_thread(
        almanac, database_url, "users", "add", "desk-cli", "--role", "editor"
    )
    assert added.returncode == 0, added.stderr
    yield added.stdout.strip().splitlines()[-1]  # still the last line
    removed = await asyncio.to_thread(almanac, database_url, "users", "remove", "desk-cli")
    assert removed.returncode == 0, removed.stderr


async def test_set_password_from_standard_input(
    app_password: str, client: AsyncClient, database_url: str
) -> None:
    short = await asyncio.to_thread(
        almanac, database_url, "users", "set-password", "desk-cli", stdin="short\n"
    )
    assert short.returncode == 1
    assert "at least 8 characters" in short.stderr
    before = await sign_in(client, "desk-cli", "short")
    assert before.status_code == 401

    chosen = "a long and secret phrase"
    done = await asyncio.to_thread(
        almanac, database_url, "users", "set-password", "desk-cli", stdin=f"{chosen}\n"
    )
    assert done.returncode == 0, done.stderr
    assert "account password set for desk-cli" in done.stdout
    signed_in = await sign_in(client, "desk-cli", chosen)
    assert signed_in.status_code == 303
    assert (await client.get("/desk/")).status_code == 200
    # Each kind of password where it belongs only.
    api = await client.get(f"{API}/events", headers=basic("desk-cli", chosen))
    assert api.status_code == 401
    assert (await sign_in(client, "desk-cli", app_password)).status_code == 401
    assert (
        await client.get(f"{API}/events", headers=basic("desk-cli", app_password))
    ).status_code == 200

    nobody = await asyncio.to_thread(
        almanac, database_url, "users", "set-password", "no-such-user", stdin=f"{chosen}\n"
    )
    assert nobody.returncode == 1
    assert "no user 'no-such-user'" in nobody.stderr
