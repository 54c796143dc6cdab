"""The desk's outbox through HTTP (app/desk/tickets/outbox.py): the messages to attendees,
waiting, sent or failed, with their counts, the notice that nothing is sent before SMTP_URL
is set, "Send again" for a failed one; editors and administrators only."""

import re

from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.mail.letters import Letter
from app.mail.repository import OutboxRepository
from app.mail.service import queue
from tests.desk_support import DeskUserFactory, desk_login


async def queued(app: FastAPI, db: AsyncSession, subject: str, to: str = "ann@example.org") -> int:
    """A message in the outbox, as a writer queues it (app/mail/service.queue)."""
    settings = app_services(app).settings
    letter = Letter(to, "Ann", subject, "Hello.", "<p>Hello.</p>", "de")
    row_id = await queue(db, settings, letter, kind="message")
    await db.commit()
    return row_id


def count(html: str, label: str) -> int:
    found = re.search(rf'{label} <span class="desk-count">(\d+)</span>', html)
    assert found is not None, label
    return int(found.group(1))


async def test_the_outbox_shows_waiting_sent_and_failed_messages(
    app: FastAPI, client: AsyncClient, db: AsyncSession, desk_user: DeskUserFactory
) -> None:
    waiting = await queued(app, db, "Doors at 19:00")
    failed = await queued(app, db, "Programme", to="bob@example.org")
    await OutboxRepository(db).failed(failed, "550 mailbox unavailable")
    await db.commit()
    token = await desk_login(client, await desk_user("editor"))
    page = await client.get("/desk/outbox/")
    assert page.status_code == 200
    assert "messages wait here until mail is set up" in page.text  # no SMTP_URL in tests
    assert (count(page.text, "Waiting"), count(page.text, "Failed")) == (1, 1)
    assert "Doors at 19:00" in page.text
    assert "ann@example.org" in page.text
    assert "550 mailbox unavailable" in page.text
    assert page.text.count('action="/desk/outbox/') == 1  # the failed one's "Send again"
    only_failed = await client.get("/desk/outbox/", params={"status": "failed"})
    assert "Programme" in only_failed.text
    assert "Doors at 19:00" not in only_failed.text

    again = await client.post(f"/desk/outbox/{failed}/send-again", data={"csrf_token": token})
    assert again.status_code == 303
    after = await client.get(again.headers["location"])
    assert "The message waits to be sent again." in after.text
    assert count(after.text, "Waiting") == 2
    not_failed = await client.post(f"/desk/outbox/{waiting}/send-again", data={"csrf_token": token})
    assert not_failed.status_code == 404

    german = await client.get("/de/desk/outbox/")
    assert "Postausgang" in german.text
    assert "Nachricht an alle" in german.text


async def test_only_editors_and_administrators_see_the_outbox(
    app: FastAPI, client: AsyncClient, db: AsyncSession, desk_user: DeskUserFactory
) -> None:
    await queued(app, db, "Doors at 19:00")
    for role in ("author", "contributor", "subscriber"):
        token = await desk_login(client, await desk_user(role))
        page = await client.get("/desk/outbox/")
        assert page.status_code == 403, role
        assert "ann@example.org" not in page.text
        assert 'href="/desk/outbox/"' not in (await client.get("/desk/")).text
        post = await client.post("/desk/outbox/1/send-again", data={"csrf_token": token})
        assert post.status_code == 403
    await desk_login(client, await desk_user("administrator"))
    page = await client.get("/desk/outbox/")
    assert page.status_code == 200
    assert "ann@example.org" in page.text
