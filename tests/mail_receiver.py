"""A mail server for the tests: aiosmtpd on a local port (its own thread and event loop, in
this process), keeping every message it takes, refusing the addresses it is told to
(550), taking its time when told (`delay`), and asking for a login when given one."""

import asyncio
import email
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.live.harness import free_port


@dataclass
class Taken:
    sender: str
    recipients: list[str]
    data: bytes

    @property
    def message(self) -> EmailMessage:
        parsed = email.message_from_bytes(self.data, policy=default)
        assert isinstance(parsed, EmailMessage)
        return parsed


@dataclass
class MailReceiver:
    port: int = field(default_factory=free_port)
    refused: set[str] = field(default_factory=set)
    delay: float = 0.0
    login: tuple[str, str] | None = None
    taken: list[Taken] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)
    # Set when a message's data starts coming (before `delay`).
    receiving: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    # ---- aiosmtpd's handler hooks ----

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address.lower() in self.refused:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.receiving.set()
        if self.delay:
            await asyncio.sleep(self.delay)
        with self._lock:
            self.taken.append(
                Taken(envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.content))
            )
        return "250 Message accepted for delivery"

    def _authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        if isinstance(data, LoginPassword) and self.login is not None:
            pair = (data.login.decode(), data.password.decode())
            if pair == self.login:
                self.logins.append(pair[0])
                return AuthResult(success=True)
        return AuthResult(success=False, handled=False)

    # ---- running ----

    def start(self) -> None:
        options: dict[str, Any] = {}
        if self.login is not None:
            options = {"authenticator": self._authenticate, "auth_require_tls": False}
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, **options)
        self._controller.start()

    def stop(self) -> None:
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop()

    def messages(self) -> list[EmailMessage]:
        with self._lock:
            return [taken.message for taken in self.taken]

    async def wait_for(self, count: int, seconds: float = 30) -> list[EmailMessage]:
        """Until `count` messages were taken (fails after `seconds`)."""
        deadline = time.monotonic() + seconds
        while len(self.taken) < count:
            assert time.monotonic() < deadline, f"{len(self.taken)} of {count} messages came"
            await asyncio.sleep(0.05)
        return self.messages()


@contextmanager
def mail_receiver(**options: Any) -> Iterator[MailReceiver]:
    receiver = MailReceiver(**options)
    receiver.start()
    try:
        yield receiver
    finally:
        receiver.stop()
