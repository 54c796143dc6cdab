"""The `almanac` command: users and migrations, as an operator runs them."""

import asyncio
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.factories import API, AuthFor, basic, create_record
from tests.live.harness import add_user, almanac_server, fresh_database
from tests.media_files import picture


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
    assert "'king' is not one of 'administrator', 'editor'" in result.stderr


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


def test_bare_almanac_shows_its_commands() -> None:
    """The real entry point (every command's help: tests/unit/test_cli_help.py)."""
    bare = subprocess.run(
        [sys.executable, "-m", "app.cli"], capture_output=True, text=True, timeout=120
    )
    assert "Commands:" in bare.stdout + bare.stderr
    assert "serve" in bare.stdout + bare.stderr


def test_start_up_loads_only_what_is_used() -> None:
    """Every command and server starts a Python process (the tests start about a hundred):
    the migration tool, the webhook client, the geocoder's and the natural-date parser are
    loaded where they are used, not by every start (app/core/database/migrate.py,
    app/webhooks/sender.py, app/core/geocoding/geocoder.py, app/core/rules/dates.py)."""
    probe = (
        "import sys, app.cli, app.main; app.main.create_app(); "
        "print(' '.join(sorted({'alembic', 'aiohttp', 'geopy', 'dateparser'} & set(sys.modules))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == []


async def upload_picture(client: AsyncClient, who: AuthFor) -> dict[str, Any]:
    """An image in the media library, uploaded by `who`."""
    response = await client.post(
        f"{API}/media", files={"file": ("photo.jpg", picture(), "image/jpeg")}, headers=who.basic
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def on_a_terminal(database_url: str, answer: str, *args: str) -> tuple[int, str]:
    """`almanac ARGS` with a terminal as standard input, `answer` typed into it; the exit
    status and what it printed."""
    main, child = pty.openpty()
    try:
        os.write(main, answer.encode())
        result = subprocess.run(
            [sys.executable, "-m", "app.cli", *args],
            env={**os.environ, "DATABASE_URL": database_url},
            stdin=child,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        os.close(child)
        os.close(main)
    return result.returncode, result.stdout + result.stderr


async def test_users_remove_never_orphans_content(database_url: str, tmp_path: Path) -> None:
    """As `wp user delete` asks for --reassign: a user who wrote something is not removed
    until the content has another author or is deleted."""
    async with (
        fresh_database(database_url, "almanac_users_remove", migrated=True) as url,
        almanac_server(url, MEDIA_DIR=str(tmp_path)) as base,
        AsyncClient(base_url=base) as client,
    ):
        who = {}
        for login in ("bob", "alice", "carol", "dave"):
            user_id, password = await add_user(url, login, "editor")
            who[login] = AuthFor(user_id, login, password)
        bob, alice, carol, dave = who.values()
        event = await create_record(client, bob, "events", "Bob's concert")
        venue = await create_record(client, bob, "venues", "Bob's hall")
        organizer = await create_record(client, bob, "organizers", "Bob's club")
        image = await upload_picture(client, bob)

        # Not a terminal, no option: refused, naming what he wrote and the two ways on.
        refused = await asyncio.to_thread(almanac, url, "users", "remove", "bob")
        assert refused.returncode == 1
        assert refused.stderr == (
            "error: bob is the author of 1 event, 1 venue, 1 organizer, 1 media item: nothing "
            "removed; "
            "add --reassign-to LOGIN to give it to another user, or --delete-content to "
            "delete it\n"
        )
        assert (await client.get(f"{API}/tags", headers=bob.basic)).status_code == 200
        both = await asyncio.to_thread(
            almanac, url, "users", "remove", "bob", "--reassign-to", "alice", "--delete-content"
        )
        assert both.returncode == 2
        unknown = await asyncio.to_thread(
            almanac, url, "users", "remove", "bob", "--reassign-to", "nobody"
        )
        assert unknown.returncode == 1
        assert unknown.stderr == "error: no user 'nobody'\n"

        moved = await asyncio.to_thread(
            almanac, url, "users", "remove", "bob", "--reassign-to", "alice"
        )
        assert moved.returncode == 0, moved.stderr
        assert moved.stdout == (
            "removed user bob; 1 event, 1 venue, 1 organizer, 1 media item now by alice\n"
        )
        assert (await client.get(f"{API}/tags", headers=bob.basic)).status_code == 401
        for plural, record in (
            ("events", event),
            ("venues", venue),
            ("organizers", organizer),
            ("media", image),
        ):
            shown = await client.get(f"{API}/{plural}/{record['id']}", headers=alice.basic)
            assert shown.status_code == 200
            assert str(shown.json()["author"]) == str(alice.id), (plural, shown.json())

        # --delete-content: carol's records go with her.
        gig = await create_record(client, carol, "events", "Carol's gig")
        room = await create_record(client, carol, "venues", "Carol's room")
        photo = await upload_picture(client, carol)
        deleted = await asyncio.to_thread(
            almanac, url, "users", "remove", "carol", "--delete-content"
        )
        assert deleted.returncode == 0, deleted.stderr
        assert deleted.stdout == "removed user carol and 1 event, 1 venue, 1 media item\n"
        for plural, record in (("events", gig), ("venues", room), ("media", photo)):
            gone = await client.get(f"{API}/{plural}/{record['id']}", headers=alice.basic)
            assert gone.status_code == 404, (plural, gone.text)

        # alice has bob's content now: refused too; on a terminal she is asked, as
        # `wp user delete` asks: empty cancels, a login takes it.
        kept = await asyncio.to_thread(almanac, url, "users", "remove", "alice")
        assert kept.returncode == 1
        cancelled = await asyncio.to_thread(on_a_terminal, url, "\n", "users", "remove", "alice")
        assert cancelled[0] == 1
        assert "alice is the author of 1 event, 1 venue, 1 organizer, 1 media item." in cancelled[1]
        assert "nothing removed" in cancelled[1]
        status, shown = await asyncio.to_thread(
            on_a_terminal, url, "dave\n", "users", "remove", "alice"
        )
        assert status == 0, shown
        assert (
            "removed user alice; 1 event, 1 venue, 1 organizer, 1 media item now by dave" in shown
        )
        shown_event = await client.get(f"{API}/events/{event['id']}", headers=dave.basic)
        assert str(shown_event.json()["author"]) == str(dave.id)
        # A user who wrote nothing goes as before, without a question.
        await add_user(url, "erin", "subscriber")
        quiet = await asyncio.to_thread(almanac, url, "users", "remove", "erin")
        assert quiet.returncode == 0, quiet.stderr
        assert quiet.stdout == "removed user erin\n"


async def test_a_local_command_ignores_the_compose_env_file(
    client: AsyncClient, database_url: str, tmp_path: Path
) -> None:
    """The `.env` of docs/operations.md is Compose's (its passwords and pepper for the
    containers): a command run next to it uses the environment alone, as the server does, so
    the password it issues works on a server started from the same shell."""
    (tmp_path / ".env").write_text(
        "POSTGRES_PASSWORD=0123abcd\nAPP_PASSWORD_PEPPER=the-containers-pepper\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "APP_PASSWORD_PEPPER"}
    added = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "app.cli", "users", "add", "next-to-env", "--role", "editor"],
        env={**env, "DATABASE_URL": database_url},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert added.returncode == 0, added.stderr
    password = added.stdout.strip().splitlines()[-1]
    try:
        # The app under test has the default pepper, as `make run` without the variable.
        answer = await client.get(f"{API}/tags", headers=basic("next-to-env", password))
        assert answer.status_code == 200, answer.text
    finally:
        await asyncio.to_thread(almanac, database_url, "users", "remove", "next-to-env")
