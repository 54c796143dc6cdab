"""The RSVP form of an event page: what it posts, how it keeps bots out, and what a refusal
says at which field. No database here (app/pages/rsvp.py runs the answer).

Bots are kept out without a third-party service (docs/design.md, Public pages):

- **a honeypot**: a field (`homepage`) a person neither sees nor reaches (visually hidden,
  out of the tab order, hidden from screen readers, labelled "Leave empty"); a post that
  fills it is refused;
- **a time trap**: the form carries a signed stamp of the moment it was made (`stamp`); a post
  sooner than `MIN_SECONDS` after it is refused with a message saying so, as is a stamp that
  is not ours or older than `MAX_AGE_SECONDS`; the form is shown again with a new stamp,
  the visitor's values kept;
- **the throttle**: RsvpService counts the RSVPs of a client address in the sign-in
  throttle's store, the API's and the pages' alike.

A stamp frozen in a stored page would be as old as the page: an event page that shows a
ticket answers `Cache-Control: no-store`, which the response cache does not store
(app/core/caching/cache.py `storable`), so every visitor gets a form made for them (and the
places left as they are now)."""

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.core.errors import ApiError, InvalidParams, MissingParams, note
from app.core.web.refusals import Refusals
from app.i18n import N_, PAGE_TEXTS
from app.tickets.commands import Rsvp

MIN_SECONDS = 3.0
MAX_AGE_SECONDS = 24 * 3600.0
TICKET_FIELD = "ticket"  # the form's ticket: an RSVP, not the password form
HONEYPOT = "homepage"
# What a page with an RSVP form (or an attendee's page) answers: no cache keeps it.
NO_STORE = {"Cache-Control": "no-store"}

TOO_FAST = N_(
    "That was quicker than a person fills in a form. Wait a few seconds, then send it again."
)
EXPIRED = N_("This form has expired. Check your answer and send it again.")
TRAPPED = N_("The form could not be sent. Please send it again.")
# A refusal's words on the page, by the API's code (the API's own message otherwise: a sale
# not open yet says when it opens).
CODE_ALERTS = {
    "ticket-sold-out": N_("Sorry, this ticket is sold out."),
    "rest_too_many_requests": N_("Too many answers from your address. Try again later."),
}
FIELD_ERRORS = {
    "name": N_("Enter your name (at most 200 characters)."),
    "email": N_("Enter your email address, like name@example.org."),
    "quantity": N_("Choose from 1 to %(max)s places (your earlier answers count too)."),
}


def _key(secret: str) -> bytes:
    return hashlib.sha256(b"almanac rsvp form\x00" + secret.encode()).digest()


def _mac(secret: str, ticket_id: int, issued: int) -> str:
    message = f"{ticket_id}\x00{issued}".encode()
    return hmac.new(_key(secret), message, hashlib.sha256).hexdigest()[:32]


def make_stamp(secret: str, ticket_id: int, now: float) -> str:
    """The form's stamp: when it was made (milliseconds), signed for `ticket_id`."""
    issued = int(now * 1000)
    return f"{issued}.{_mac(secret, ticket_id, issued)}"


def stamp_problem(secret: str, ticket_id: int, stamp: str, now: float) -> str | None:
    """Why the stamp refuses the post (a text of the pages' catalog), None if it may go on."""
    issued_text, _, mac = stamp.partition(".")
    if not issued_text.isdigit() or not hmac.compare_digest(
        _mac(secret, ticket_id, int(issued_text)), mac
    ):
        return EXPIRED
    age = now - int(issued_text) / 1000
    if age < MIN_SECONDS:
        return TOO_FAST
    return EXPIRED if age > MAX_AGE_SECONDS else None


def read_quantity(text: str) -> tuple[int | None, Refusals]:
    """A posted number of places; what is no whole number is refused by the service in its
    turn (with its other checks), as the API's door keeps it."""
    text = text.strip()
    if text.isdigit() and len(text) < 10:
        return int(text), Refusals({})
    return None, Refusals({"quantity": note("not_of_type", name="quantity", type="integer")})


@dataclass
class RsvpForm:
    """One ticket's form as the page shows it: the values in its fields, the errors at them,
    a message for the whole form (`alert`) and a fresh stamp."""

    ticket_id: int
    stamp: str = ""
    name: str = ""
    email: str = ""
    quantity: str = "1"
    going: bool = True
    errors: dict[str, str] = field(default_factory=dict)
    alert: str | None = None


@dataclass
class Posted:
    """An RSVP form as it was posted (its values as text)."""

    ticket_id: int
    name: str
    email: str
    quantity: str
    going: bool
    stamp: str
    honeypot: str

    def answer(self, password: str | None) -> Rsvp:
        """The service's input; a quantity that is no whole number is kept as a refusal,
        raised by the service in its turn."""
        quantity, refused = read_quantity(self.quantity)
        return Rsvp(
            name=self.name.strip(),
            email=self.email.strip(),
            quantity=1 if quantity is None else quantity,
            going=self.going,
            password=password,
            refused=refused,
        )

    def form(self) -> RsvpForm:
        """The form again with what was posted (the honeypot empty, a stamp to be made)."""
        return RsvpForm(self.ticket_id, "", self.name, self.email, self.quantity, self.going)


def read_posted(form: Mapping[str, object]) -> Posted | None:
    """The RSVP in a posted form, None when the form is none (the password form)."""
    ticket = str(form.get(TICKET_FIELD, "")).strip()
    if not ticket.isdigit() or len(ticket) > 18:
        return None

    def text(name: str, limit: int = 1000) -> str:
        return str(form.get(name, ""))[:limit]

    return Posted(
        ticket_id=int(ticket),
        name=text("name"),
        email=text("email"),
        quantity=text("quantity", 20),
        going=text("going", 10) != "no",
        stamp=text("stamp", 100),
        honeypot=text(HONEYPOT),
    )


@dataclass
class Refusal:
    """A posted form refused: shown again at its ticket with why, answered with `status`."""

    form: RsvpForm
    status: int
    headers: dict[str, str] = field(default_factory=dict)


def trapped(posted: Posted, secret: str, now: float, language: str) -> Refusal | None:
    """The honeypot's and the time trap's refusal, None when the post may go on."""
    if posted.honeypot.strip():
        problem: str | None = TRAPPED
    else:
        problem = stamp_problem(secret, posted.ticket_id, posted.stamp, now)
    if problem is None:
        return None
    form = posted.form()
    form.alert = PAGE_TEXTS.gettext(language, problem)
    return Refusal(form, 400)


def refused(posted: Posted, error: ApiError, language: str, max_per_person: int) -> Refusal:
    """The service's refusal of a posted form, at its fields (`refusal_texts`)."""
    form = posted.form()
    form.errors, form.alert = refusal_texts(error, language, max_per_person)
    return Refusal(form, error.status, retry_after(error))


def retry_after(error: ApiError) -> dict[str, str]:
    """A throttled client's wait, for the page's answer as for the API's."""
    return {k: v for k, v in error.headers.items() if k.lower() == "retry-after"}


def refusal_texts(
    error: ApiError, language: str, max_per_person: int
) -> tuple[dict[str, str], str | None]:
    """A service's refusal as a form shows it: (the error at each field it names, in the
    page's words; a message for the whole form: the API's for a value the form does not
    show, else the page's words for a code it knows, else the API's message)."""
    errors: dict[str, str] = {}
    alert = None
    for name, api_text in _named(error, language).items():
        if name in FIELD_ERRORS:
            errors[name] = PAGE_TEXTS.gettext(language, FIELD_ERRORS[name], max=max_per_person)
        elif alert is None:
            alert = api_text
    if not errors and alert is None:
        known = CODE_ALERTS.get(error.code)
        alert = (
            PAGE_TEXTS.gettext(language, known)
            if known is not None
            else str(error.body(language)["message"])
        )
    return errors, alert


def _named(error: ApiError, language: str) -> dict[str, str]:
    """The values a 400 names, each with the API's message about it."""
    if isinstance(error, InvalidParams):
        return {k: str(v) for k, v in error.body(language)["data"]["params"].items()}
    if isinstance(error, MissingParams):
        return dict.fromkeys(error.names, str(error.body(language)["message"]))
    return {}
