"""The outbox against real servers: `almanac serve` processes on one database and a real
mail server (aiosmtpd, tests/mail_receiver.py).

- None lost: the server is killed (SIGKILL) after an RSVP's commit, while its worker is in
  the middle of handing the confirmation over (the mail server accepted the connection and
  says nothing); started again with a working mail server, it sends it, once.
- None twice: two instances polling the same outbox send each message of an organiser's
  message to all (one request queues one per attendee) once."""

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from tests.attendees import add_attendee, add_ticket
from tests.factories import API, basic, make_event
from tests.live.harness import add_user, free_port, fresh_database, wait_until_serving
from tests.mail_receiver import MailReceiver, mail_receiver

ENV = {"MAIL_POLL_INTERVAL": "0.1", "MAIL_FROM": "Calendar <calendar@example.org>"}


@dataclass
class Server:
    """One `almanac serve` with one worker process (a kill kills its mail worker too)."""

    database: str
    env: dict[str, str]
    base: str = ""
    process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        port = free_port()
        self.process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "1"),
            env={**os.environ, "DATABASE_URL": self.database, "LOG_LEVEL": "warning", **self.env},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{port}"
        await wait_until_serving(self.base, self.process)

    async def stop(self, sig: int = signal.SIGTERM) -> None:
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            process.send_signal(sig)
            await process.wait()


@dataclass
class Silent:
    """A mail server that takes connections and never answers: a worker sending to it is
    caught between the commit that queued its messages and their sending."""

    port: int = field(default_factory=free_port)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    server: asyncio.Server | None = None

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connected.set()
        await reader.read()  # until the other side goes
        writer.close()

    async def __aenter__(self) -> "Silent":
        self.server = await asyncio.start_server(self._hold, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self.server is not None
        self.server.close()


@dataclass
class Site:
    url: str  # the database
    author: dict[str, str]
    event: int
    ticket: int


async def site_with_attendees(url: str, count: int) -> Site:
    """An author's published event with `count` going attendees, committed."""
    author_id, password = await add_user(url, "author", "author")
    engine = create_async_engine(url)
    try:
        async with AsyncSession(engine, expire_on_commit=False) as db:
            event = await make_event(db, author_id=author_id, title="Concert")
            ticket = await add_ticket(db, event)
            for n in range(count):
                await add_attendee(db, ticket, f"Guest {n}", f"guest{n}@example.org")
    finally:
        await engine.dispose()
    return Site(url, basic("author", password), event, ticket)


async def message_all(server: Server, site: Site, subject: str) -> None:
    payload = {"event": site.event, "subject": subject, "body": "See you there."}
    async with httpx.AsyncClient(timeout=30) as http:
        sent = await http.post(
            f"{server.base}{API}/attendees/message", json=payload, headers=site.author
        )
    assert sent.status_code == 200, sent.text


async def answer(server: Server, site: Site, email: str) -> None:
    """An anonymous RSVP, going."""
    payload = {"name": "Ada", "email": email, "quantity": 2}
    async with httpx.AsyncClient(timeout=30) as http:
        answered = await http.post(f"{server.base}{API}/tickets/{site.ticket}/rsvp", json=payload)
    assert answered.status_code == 201, answered.text


async def outbox_states(url: str) -> list[tuple[int, bool]]:
    """(attempts, sent) of every message."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT attempts, sent_at IS NOT NULL FROM mail_outbox ORDER BY id")
            )
            return [(row[0], row[1]) for row in rows]
    finally:
        await engine.dispose()


async def until_all_sent(url: str, count: int) -> None:
    """Until the outbox holds `count` messages, all recorded as sent (bounded)."""
    for _ in range(300):
        states = await outbox_states(url)
        if len(states) == count and all(sent for _, sent in states):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not all of {count} recorded as sent")


def recipients(receiver: MailReceiver) -> list[str]:
    return sorted(r for taken in receiver.taken for r in taken.recipients)


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[str]:
    async with fresh_database(database_url, "almanac_mail_test", migrated=True) as url:
        yield url


async def test_none_lost_when_the_server_is_killed_between_commit_and_send(
    database: str,
) -> None:
    site = await site_with_attendees(database, 0)
    async with Silent() as silent:
        env = {**ENV, "SMTP_URL": f"smtp://127.0.0.1:{silent.port}", "MAIL_TIMEOUT": "60"}
        server = Server(database, env)
        await server.start()
        try:
            await answer(server, site, "ada@example.org")  # committed: the 201 came
            await asyncio.wait_for(silent.connected.wait(), 30)  # the worker is sending
        finally:
            await server.stop(signal.SIGKILL)
    # Killed holding its claim: the confirmation waits, untried (the claim went with the
    # connection), not sent.
    assert await outbox_states(database) == [(0, False)]
    with mail_receiver() as receiver:
        server = Server(database, {**ENV, "SMTP_URL": receiver.url})
        await server.start()
        try:
            await receiver.wait_for(1)
            await until_all_sent(database, 1)
            await asyncio.sleep(0.5)  # several more looks into the outbox: nothing again
            async with httpx.AsyncClient() as http:
                metrics = (await http.get(f"{server.base}/metrics")).text
        finally:
            await server.stop()
    assert 'almanac_mail_messages_total{outcome="sent"} 1.0' in metrics
    assert 'outcome="retry"' not in metrics
    assert recipients(receiver) == ["ada@example.org"]
    (message,) = receiver.messages()
    assert message["Subject"] == "Your ticket: Concert"
    assert await outbox_states(database) == [(1, True)]


async def test_two_instances_send_each_message_once(database: str) -> None:
    count = 30
    site = await site_with_attendees(database, count)
    with mail_receiver(delay=0.02) as receiver:
        env = {**ENV, "SMTP_URL": receiver.url}
        servers = [Server(database, env), Server(database, env)]
        await asyncio.gather(*(server.start() for server in servers))
        try:
            # The request on one queues the messages; both look into the outbox.
            await message_all(servers[0], site, "Programme")
            await receiver.wait_for(count)
            await until_all_sent(database, count)
            await asyncio.sleep(0.5)  # several more looks into the outbox: nothing again
        finally:
            await asyncio.gather(*(server.stop() for server in servers))
    assert recipients(receiver) == sorted(f"guest{n}@example.org" for n in range(count))
    ids = [m["Message-ID"] for m in receiver.messages()]
    assert len(set(ids)) == count
    assert await outbox_states(database) == [(1, True)] * count
