"""How a message is made: a `Letter` (the texts, plain and HTML, with images the HTML shows
and files attached) becomes the whole MIME message the outbox stores and the worker sends
as it is (RFC 5322, CRLF lines).

The Message-ID is made from the message's row in the outbox (`message_id`), so that the
rare duplicate is recognisable: when a worker dies after the mail server took a message and
before its commit recorded it as sent, the message is sent again with the same Message-ID,
which receiving servers and clients use to drop a copy (docs/design.md#mail)."""

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr, parseaddr

LINE_BREAKS = re.compile(r"[\r\n\t]+")


@dataclass(frozen=True, slots=True)
class Part:
    """A file of the message: shown inside the HTML (`cid`: the HTML's `cid:` reference, e.g.
    a QR code), or attached under `filename` (e.g. the event's .ics)."""

    data: bytes
    maintype: str
    subtype: str
    filename: str
    cid: str | None = None  # inline when set: "<name@host>" as the Content-ID wants it


@dataclass(frozen=True, slots=True)
class Letter:
    recipient: str  # the address
    recipient_name: str
    subject: str
    text: str
    html: str
    language: str
    parts: tuple[Part, ...] = ()


def one_line(value: str) -> str:
    """A header's value: line breaks (which would start another header) become spaces."""
    return LINE_BREAKS.sub(" ", value).strip()


def sender_domain(sender: str) -> str:
    """The domain of MAIL_FROM's address (the Message-IDs' right-hand side)."""
    address = parseaddr(sender)[1]
    return address.rpartition("@")[2] or "localhost"


def message_id(row_id: int, sender: str) -> str:
    """The row's ID, and a random part: a database made anew (IDs counting from 1 again)
    never repeats an earlier message's ID."""
    return f"<outbox.{row_id}.{secrets.token_hex(6)}@{sender_domain(sender)}>"


def compose(letter: Letter, row_id: int, sender: str) -> bytes:
    """The MIME message: multipart/alternative (text, then HTML with its inline images in a
    multipart/related), inside a multipart/mixed when files are attached."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = formataddr((one_line(letter.recipient_name), letter.recipient))
    message["Subject"] = one_line(letter.subject)
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = message_id(row_id, sender)
    # Sent by the site, not a person: no auto-replies (RFC 3834).
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(letter.text, cte="quoted-printable")
    message.add_alternative(letter.html, subtype="html", cte="quoted-printable")
    html = message.get_body(("html",))
    assert isinstance(html, EmailMessage)
    for part in letter.parts:
        if part.cid is not None:
            html.add_related(
                part.data,
                part.maintype,
                part.subtype,
                cid=part.cid,
                filename=part.filename,
                disposition="inline",
            )
    for part in letter.parts:
        if part.cid is None:
            message.add_attachment(part.data, part.maintype, part.subtype, filename=part.filename)
    # After the content: setting it clears the Content-* headers.
    message["Content-Language"] = letter.language
    return message.as_bytes(policy=SMTP)
