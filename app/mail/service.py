"""The mail outbox's service: what writers call to queue a message (inside their own
transaction), and what the desk and the attendees' commands read and do (`Outbox`).

Every message is a row of `mail_outbox` holding the whole MIME message (app/mail/letters.py),
written in the transaction of what caused it: committed with it, or not at all. The worker
(app/mail/worker.py) sends it after the commit; without SMTP_URL it waits in the outbox,
which the desk shows, and goes out once mail is set up (docs/design.md#mail)."""

from app.core.database.engine import Session
from app.core.rules.paging import Page
from app.core.settings import Settings
from app.mail.letters import Letter, compose
from app.mail.records import OutboxCounts, OutboxEntry, OutboxStatus, Queued
from app.mail.repository import OutboxRepository

# Set on a session that queued a message: its after-commit hook wakes this process's worker
# (app/mail/worker.py MailWorker.after_write), which sends it at once rather than at its
# next look (MAIL_POLL_INTERVAL).
MAIL_QUEUED = "mail_queued"


async def queue(
    session: Session,
    settings: Settings,
    letter: Letter,
    *,
    kind: str,
    attendee_id: int | None = None,
    event_id: int | None = None,
) -> int:
    """Write `letter` into the outbox on `session` (the caller's transaction); its ID."""
    repo = OutboxRepository(session)
    row_id = await repo.next_id()
    await repo.insert(
        Queued(
            id=row_id,
            kind=kind,
            recipient=letter.recipient,
            language=letter.language,
            subject=letter.subject,
            message=compose(letter, row_id, settings.mail_from),
            attendee_id=attendee_id,
            event_id=event_id,
        )
    )
    session.info[MAIL_QUEUED] = True
    return row_id


class Outbox:
    """The outbox as people see it (the desk's outbox screen; `almanac attendees forget` and
    `export`). It checks no permission: its callers decide who may see it (the desk:
    editors and administrators).

    - `page(status, page)`: a page of messages, newest first, of one status ("waiting",
      "sent", "failed"; None: all) and the total of that status;
    - `counts()`: messages waiting, sent and failed (`OutboxCounts`);
    - `send_again(id)`: a failed message waits again, its retries anew (False if it is not
      a failed one);
    - `forget(email)`: deletes every message to that address (any case); how many;
    - `export(email)`: every message to that address, oldest first (their subjects, kinds,
      dates and states; no bodies).

    Writes happen on the caller's session: the caller's transaction commits them."""

    def __init__(self, session: Session) -> None:
        self.repo = OutboxRepository(session)

    async def page(self, status: OutboxStatus | None, page: Page) -> tuple[list[OutboxEntry], int]:
        entries = await self.repo.entries(status, page.offset, page.size)
        return entries, await self.repo.count(status)

    async def counts(self) -> OutboxCounts:
        return await self.repo.counts()

    async def send_again(self, message_id: int) -> bool:
        again = await self.repo.send_again(message_id)
        if again:
            self.repo.session.info[MAIL_QUEUED] = True
        return again

    async def forget(self, email: str) -> int:
        return await self.repo.forget(email)

    async def export(self, email: str) -> list[OutboxEntry]:
        return await self.repo.of_recipient(email)
