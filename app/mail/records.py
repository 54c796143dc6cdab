"""What the outbox's service returns (app/mail/service.py): typed records, no SQL. The desk
reads them (its outbox screen); `almanac attendees export` writes them out."""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

# waiting: not sent yet (never tried, or to be tried again at `next_attempt_at`); sent: the
# mail server took it; failed: every retry of MAIL_RETRY_SCHEDULE (or a permanent refusal)
# is behind it, it is sent no more.
OutboxStatus = Literal["waiting", "sent", "failed"]
OUTBOX_STATUSES: tuple[OutboxStatus, ...] = ("waiting", "sent", "failed")


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """One message of the outbox, without its MIME body."""

    id: int
    kind: str  # an attendee's mail (app/tickets/mailing.py AttendeeMail) or "message"
    recipient: str
    language: str
    subject: str
    attendee_id: int | None
    event_id: int | None
    created_at: datetime
    attempts: int
    next_attempt_at: datetime
    sent_at: datetime | None
    failed_at: datetime | None
    last_error: str | None

    @property
    def status(self) -> OutboxStatus:
        if self.sent_at is not None:
            return "sent"
        return "failed" if self.failed_at is not None else "waiting"


@dataclass(frozen=True, slots=True)
class OutboxCounts:
    waiting: int
    sent: int
    failed: int

    @property
    def total(self) -> int:
        return self.waiting + self.sent + self.failed


@dataclass(frozen=True, slots=True)
class Queued:
    """A message to write into the outbox: its MIME bytes are made with its row's ID (the
    Message-ID), so the ID is drawn first (`OutboxRepository.next_id`)."""

    id: int
    kind: str
    recipient: str
    language: str
    subject: str
    message: bytes
    attendee_id: int | None
    event_id: int | None


@dataclass(frozen=True, slots=True)
class Claimed:
    """A due message the worker holds (its row locked) while it sends it."""

    id: int
    recipient: str
    message: bytes
    attempts: int  # before this one
