"""The typed inputs of the media service: a list's query, an upload's or an update's
texts. Values are parsed; `None` is a field not sent. The API's door (app/media/door.py)
builds them from a request's parameters, the desk directly."""

from dataclasses import dataclass

from app.core.web.refusals import NOTHING_REFUSED, Refusals


@dataclass(frozen=True)
class MediaQuery:
    """Which images of the library a list shows (a contributor: their own only)."""

    search: str | None = None
    author: int | None = None
    post: int | None = None  # uploaded for this event, venue or organizer
    mime_types: list[str] | None = None
    refused: Refusals = NOTHING_REFUSED


@dataclass(frozen=True)
class MediaWrite:
    """An upload's or an update's texts (in the request's language), and the record an
    upload is for (`post`: what lets a contributor upload for a draft of their own)."""

    title: str | None = None
    alt_text: str | None = None
    caption: str | None = None
    post: int | None = None
    refused: Refusals = NOTHING_REFUSED

    def texts(self) -> dict[str, str]:
        """The texts sent, by parameter."""
        sent = {"title": self.title, "alt_text": self.alt_text, "caption": self.caption}
        return {name: text for name, text in sent.items() if text is not None}
