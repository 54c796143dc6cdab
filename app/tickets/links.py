"""The attendee's signed links, without an account: the page to change or cancel an RSVP
(`manage`) and the check-in a ticket's QR code opens on the desk (`check_in`). Each is an
HMAC of the attendee's ID and random secret under a key derived from the server's secret
(APP_PASSWORD_PEPPER), with its purpose in the message, so that one link never opens the
other, and forgetting the attendee (deleting the row with its secret) voids both."""

import base64
import hashlib
import hmac
from typing import Literal

from app.core.settings import Settings
from app.core.web.urls import Urls
from app.tickets.records import AttendeeRecord

Purpose = Literal["manage", "check_in"]
SECRET_BYTES = 24  # an attendee's random secret (`secrets.token_urlsafe`), 32 characters


def link_key(server_secret: str) -> bytes:
    return hashlib.sha256(b"almanac attendee links\x00" + server_secret.encode()).digest()


def sign(key: bytes, purpose: Purpose, attendee_id: int, secret: str) -> str:
    message = f"{purpose}\x00{attendee_id}\x00{secret}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def verify(key: bytes, purpose: Purpose, attendee_id: int, secret: str, token: str) -> bool:
    """Constant-time: a wrong token tells nothing of the right one."""
    return hmac.compare_digest(sign(key, purpose, attendee_id, secret), token)


def manage_url(urls: Urls, settings: Settings, attendee: AttendeeRecord) -> str:
    """The attendee's page to change or cancel their answer, in their language."""
    prefix = "" if attendee.language == settings.default_language else f"/{attendee.language}"
    token = sign(link_key(settings.app_password_pepper), "manage", attendee.id, attendee.secret)
    return urls.attendee_page(prefix, attendee.id, token)


def check_in_url(urls: Urls, settings: Settings, attendee: AttendeeRecord) -> str:
    """What the ticket's QR code opens: the attendee's check-in on the desk."""
    code = sign(link_key(settings.app_password_pepper), "check_in", attendee.id, attendee.secret)
    return urls.check_in(attendee.id, code)
