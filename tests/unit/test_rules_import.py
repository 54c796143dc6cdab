"""The importer's pure rules: reading source records, fingerprints, order, naming."""

from typing import Any

import pytest
from pydantic import ValidationError

from app.importer.client import site_key
from app.importer.service import malformed, parents_first
from app.importer.source import Redacted, SourceEvent, SourceTerm, SourceVenue, is_redacted
from tests.tec_source import FakeTEC, fixture


def event_body() -> dict[str, Any]:
    tec = FakeTEC()
    venue = tec.add_venue("Hall")
    music = tec.add_category("Music")
    event = tec.add_event("A &amp; B", FakeTEC().now.replace(tzinfo=None), venue=venue)
    tec.events[event]["links"]["categories"] = [music]
    return tec.render_event(tec.events[event])


def test_titles_are_decoded_descriptions_kept() -> None:
    body = event_body()
    body["description"] = "<p>&amp;</p>"
    event = SourceEvent.model_validate(body)
    assert event.title == "A & B"
    assert event.description == "<p>&amp;</p>"
    assert (
        SourceTerm.model_validate({**fixture("tag"), "name": "R&#8217;n&#8217;B"}).name == "R’n’B"
    )


def test_digest_ignores_what_linked_records_carry() -> None:
    body = event_body()
    before = SourceEvent.model_validate(body).digest()
    body["categories"][0]["count"] += 5
    body["venue"]["city"] = "Elsewhere"
    assert SourceEvent.model_validate(body).digest() == before
    body["categories"] = []
    assert SourceEvent.model_validate(body).digest() != before


def test_the_permalink_is_no_website() -> None:
    body = event_body()
    body["website"] = body["url"]
    assert SourceEvent.model_validate(body).own_website is None
    body["website"] = "https://band.example"
    assert SourceEvent.model_validate(body).own_website == "https://band.example"


def test_empty_venue_and_zero_dates() -> None:
    body = {**event_body(), "venue": [], "date_utc": "0000-00-00 00:00:00"}
    event = SourceEvent.model_validate(body)
    assert event.venue is None
    assert event.date_utc is None
    assert event.modified == event.modified_utc


def test_redacted_records_are_recognised() -> None:
    venue = fixture("venue")
    assert not is_redacted("venue", venue)
    assert is_redacted("venue", {**venue, "venue": [], "show_map": None})
    assert is_redacted("organizer", {**fixture("organizer"), "organizer": []})
    assert is_redacted("event", {**event_body(), "show_map": None, "featured": None})
    # Embedded in an event, a redacted venue is known by its ID only.
    event = SourceEvent.model_validate({**event_body(), "venue": {**venue, "venue": []}})
    assert isinstance(event.venue, Redacted)
    assert isinstance(SourceEvent.model_validate(event_body()).venue, SourceVenue)


def test_malformed_names_the_field() -> None:
    with pytest.raises(ValidationError) as caught:
        SourceEvent.model_validate({**event_body(), "status": "trash", "title": ""})
    message = malformed(caught.value)
    assert message.startswith("malformed: ")
    assert "status" in message
    assert "title" in message


def test_parents_come_first() -> None:
    records = {3: {"id": 3, "parent": 2}, 2: {"id": 2, "parent": 1}, 1: {"id": 1, "parent": 0}}
    assert [r["id"] for r in parents_first(records)] == [1, 2, 3]
    looped = {1: {"id": 1, "parent": 2}, 2: {"id": 2, "parent": 1}}
    assert sorted(r["id"] for r in parents_first(looped)) == [1, 2]


@pytest.mark.parametrize(
    ("base", "key"),
    [
        ("https://Events.Example.org/wp-json/tribe/events/v1", "events.example.org/wp-json/tribe/events/v1"),
        ("http://events.example.org/wp-json/tribe/events/v1", "events.example.org/wp-json/tribe/events/v1"),
        ("http://127.0.0.1:8080/blog/wp-json/tribe/events/v1", "127.0.0.1:8080/blog/wp-json/tribe/events/v1"),
    ],
)  # fmt: skip
def test_a_site_is_named_without_its_scheme(base: str, key: str) -> None:
    assert site_key(base) == key
