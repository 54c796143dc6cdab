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
from email.charset import QP, Charset
from email.encoders import encode_base64
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.policy import compat32
from email.utils import format_datetime, formataddr, parseaddr

LINE_BREAKS = re.compile(r"[\r\n\t]+")
LINES = compat32.clone(linesep="\r\n")  # as SMTP sends them
TEXT_CHARSET = Charset("utf-8")
TEXT_CHARSET.body_encoding = QP  # texts stay readable in the source, lines short


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
    multipart/related), inside a multipart/mixed when files are attached.

    Built with the email package's classic classes (compat32): the modern API parses every
    header it is given again, about 9 ms of CPU a message, in the RSVP's request."""
    alternative = MIMEMultipart("alternative")
    alternative.attach(_text(letter.text, "plain"))
    html: Message = _text(letter.html, "html")
    inline = [part for part in letter.parts if part.cid is not None]
    if inline:
        related = MIMEMultipart("related")
        related.attach(html)
        for part in inline:
            related.attach(_file(part, "inline"))
        html = related
    alternative.attach(html)
    message: Message = alternative
    attached = [part for part in letter.parts if part.cid is None]
    if attached:
        message = MIMEMultipart("mixed")
        message.attach(alternative)
        for part in attached:
            message.attach(_file(part, "attachment"))
    message["From"] = formataddr(parseaddr(sender), "utf-8")
    message["To"] = formataddr((one_line(letter.recipient_name), letter.recipient), "utf-8")
    message["Subject"] = _header(one_line(letter.subject))
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = message_id(row_id, sender)
    message["Content-Language"] = letter.language
    # Sent by the site, not a person: no auto-replies (RFC 3834).
    message["Auto-Submitted"] = "auto-generated"
    return message.as_bytes(policy=LINES)


def _header(value: str) -> str:
    """ASCII as it is; else RFC 2047 encoded words."""
    return value if value.isascii() else Header(value, "utf-8").encode()


def _text(text: str, subtype: str) -> MIMENonMultipart:
    part = MIMENonMultipart("text", subtype)
    part.set_payload(text, TEXT_CHARSET)
    return part


def _file(part: Part, disposition: str) -> MIMEBase:
    file = MIMEBase(part.maintype, part.subtype)
    file.set_payload(part.data)
    encode_base64(file)
    file.add_header("Content-Disposition", disposition, filename=part.filename)
    if part.cid is not None:
        file["Content-ID"] = part.cid
    return file
