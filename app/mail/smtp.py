"""The mail server (SMTP_URL) and how a batch of the outbox is handed to it (aiosmtplib).

`smtp://[user:password@]host[:port]`: port 25 by default, STARTTLS when the server offers
it; `smtps://`: TLS from the start, port 465 by default. User and password are
percent-decoded (an `@` in a password is written `%40`). One connection per batch; every
message gets an outcome: taken, refused for good (a 5xx answer: the address or the message
is wrong, retrying would not help) or not taken now (a 4xx answer, no answer, no
connection: retried on MAIL_RETRY_SCHEDULE)."""

from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import parseaddr
from urllib.parse import unquote, urlsplit

import aiosmtplib

from app.mail.records import Claimed

SCHEMES = {"smtp": (25, False), "smtps": (465, True)}
PERMANENT = 500  # SMTP answers from here on refuse for good (RFC 5321 §4.2.1)


@dataclass(frozen=True, slots=True)
class SmtpTarget:
    host: str
    port: int
    tls: bool  # TLS from the start (smtps://); else STARTTLS when offered
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> "SmtpTarget":
        """SMTP_URL read; a ValueError names what is wrong with it."""
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            raise ValueError(f"SMTP_URL must start with smtp:// or smtps://, got {url!r}")
        if not parts.hostname:
            raise ValueError("SMTP_URL names no host")
        default_port, tls = SCHEMES[parts.scheme]
        return cls(
            host=parts.hostname,
            port=parts.port or default_port,
            tls=tls,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password is not None else None,
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    sent: bool
    permanent: bool = False  # refused for good: not retried
    error: str | None = None


def describe(error: BaseException) -> str:
    """An error as the outbox keeps it (`last_error`): its SMTP code and text, else its type."""
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused):
        return "; ".join(describe(refusal) for refusal in error.recipients)
    if isinstance(error, aiosmtplib.SMTPResponseException):
        return f"{error.code} {error.message}"[:500]
    return f"{type(error).__name__}: {error}"[:500]


def _permanent(error: BaseException) -> bool:
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused):
        return all(refusal.code >= PERMANENT for refusal in error.recipients)
    return isinstance(error, aiosmtplib.SMTPResponseException) and error.code >= PERMANENT


class SmtpSender:
    """Hands messages to the mail server (MAIL_TIMEOUT for each of its answers)."""

    def __init__(self, target: SmtpTarget, mail_from: str, timeout: float) -> None:
        self.target = target
        self.envelope_from = parseaddr(mail_from)[1]
        self.timeout = timeout

    def _client(self) -> aiosmtplib.SMTP:
        target = self.target
        return aiosmtplib.SMTP(
            hostname=target.host,
            port=target.port,
            username=target.username,
            password=target.password,
            use_tls=target.tls,
            start_tls=None if not target.tls else False,
            timeout=self.timeout,
        )

    async def send_all(self, messages: Sequence[Claimed]) -> list[Outcome]:
        """One outcome per message, in order. A broken connection leaves the rest of the
        batch not taken (to be retried), each with that error."""
        client = self._client()
        try:
            await client.connect()
        except (aiosmtplib.SMTPException, OSError) as error:
            return [Outcome(False, _permanent(error), describe(error))] * len(messages)
        outcomes: list[Outcome] = []
        try:
            for claimed in messages:
                try:
                    await client.sendmail(self.envelope_from, [claimed.recipient], claimed.message)
                except (aiosmtplib.SMTPRecipientsRefused, aiosmtplib.SMTPResponseException) as e:
                    outcomes.append(Outcome(False, _permanent(e), describe(e)))
                    if not client.is_connected:
                        break
                except (aiosmtplib.SMTPException, OSError) as error:
                    outcomes.append(Outcome(False, False, describe(error)))
                    break
                else:
                    outcomes.append(Outcome(True))
        finally:
            if client.is_connected:
                try:
                    await client.quit()
                except (aiosmtplib.SMTPException, OSError):
                    client.close()
        lost = outcomes[-1] if outcomes else Outcome(False, False, "not sent")
        return outcomes + [Outcome(False, False, lost.error)] * (len(messages) - len(outcomes))
