"""The event editor's form <-> the event service's write (`app.desk.events.form`).

Pure: no database, no HTTP. What the service does with the write is tested through HTTP
(tests/api/test_desk_editor.py).
"""

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.core.web.refusals import Refused
from app.desk.events.form import (
    blank_form,
    changed,
    event_write,
    form_field,
    record_form,
    translation_form,
    translation_params,
)
from app.events.commands import EventWrite
from app.events.records import EventRecord
from app.organizers.repository import OrganizerRecord
from app.posts.commands import NO_IMAGE, RecordWrite
from app.terms.repository import TermRecord

NOW = datetime(2027, 3, 1, 10, 0, tzinfo=UTC)
SITE = ZoneInfo("Europe/Bratislava")


def form_write(values: dict[str, Any]) -> tuple[EventWrite, dict[str, str]]:
    """The form's write, the site in Bratislava."""
    return event_write(values, SITE)


def _form(**values: Any) -> dict[str, Any]:
    form = blank_form("Europe/Bratislava", datetime(2027, 3, 9, 8, 0))
    form.update(title="Jazz night", **values)
    return form


def _organizer(organizer_id: int, name: str) -> OrganizerRecord:
    return OrganizerRecord(
        id=organizer_id,
        author_id=1,
        status="publish",
        slug=name.lower(),
        published_at=NOW,
        modified_at=NOW,
        password=None,
        name=name,
        description="",
        excerpt="",
        phone="",
        website="",
        email="",
        image=None,
    )


def _term(term_id: int, taxonomy: str, name: str) -> TermRecord:
    return TermRecord(
        id=term_id,
        taxonomy=taxonomy,
        name=name,
        slug=name.lower(),
        description="",
        parent_id=None,
        count=0,
    )


def _record(**changes: Any) -> EventRecord:
    values: dict[str, Any] = {
        "id": 7,
        "author_id": 3,
        "status": "publish",
        "slug": "jazz-night",
        "published_at": NOW,
        "modified_at": NOW,
        "password": None,
        "start_at": NOW,
        "end_at": NOW,
        "start_local": datetime(2027, 3, 9, 19, 0),
        "end_local": datetime(2027, 3, 9, 21, 30),
        "timezone": "Europe/Bratislava",
        "timezone_abbr": "CET",
        "all_day": False,
        "title": "Jazz night",
        "description": "<p>Live</p>",
        "excerpt": "",
        "cost": "$10",
        "cost_details": {},
        "website": None,
        "show_map": False,
        "show_map_link": False,
        "hide_from_listings": False,
        "sticky": False,
        "featured": True,
        "image_id": None,
        "venue_id": 4,
        "parent_id": None,
        "series_id": 7,
        "content_id": 7,
        "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4"],
        "organizers": [_organizer(11, "Club"), _organizer(12, "City")],
        "tags": [_term(5, "post_tag", "jazz"), _term(6, "post_tag", "live")],
        "categories": [_term(2, "tribe_events_cat", "Music")],
    }
    values.update(changes)
    return EventRecord(**values)


def test_a_new_event_maps_to_the_services_write() -> None:
    write, errors = form_write(
        _form(
            description="<p>Live <strong>music</strong></p>",
            end_time="22:30",
            categories=["2", "9"],
            tags="jazz, live, jazz",
            cost="10",
            featured="1",
            repeat="weekly",
            repeat_weekdays=["TU"],
            repeat_ends="after",
            repeat_count="4",
        )
    )
    assert errors == {}
    assert write.title == "Jazz night"
    assert write.start == datetime(2027, 3, 9, 19, 0)  # a wall time in the event's zone
    assert write.end == datetime(2027, 3, 9, 22, 30)
    assert write.timezone == "Europe/Bratislava"
    assert write.categories == [2, 9]
    assert write.tags == ["jazz", "live"]
    assert (write.featured, write.sticky) == (True, False)
    assert write.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4"]
    assert write.post.status == "draft"
    assert write.organizers == []
    assert write.venue == []  # none: unlinked


def test_all_day_sends_days_only() -> None:
    write, _ = form_write(_form(all_day="1", end_day="2027-03-10"))
    assert (write.start, write.end) == (datetime(2027, 3, 9), datetime(2027, 3, 10))
    assert write.all_day is True


def test_a_day_that_is_no_date_is_refused_as_the_service_refuses_a_date() -> None:
    write, errors = form_write(_form(start_day="2027-02-30"))
    assert errors == {}
    assert write.start is None
    assert write.refused.notes == {"start_date": ("bad_date", {"name": "start_date"})}


def test_a_new_venue_is_sent_inline() -> None:
    write, errors = form_write(
        _form(venue="new", venue_name="Old Market Hall", venue_city="Bratislava", venue_zip="")
    )
    assert errors == {}
    assert write.venue == [RecordWrite(name="Old Market Hall", details={"city": "Bratislava"})]


def test_new_venue_without_a_name_is_named() -> None:
    _, errors = form_write(_form(venue="new"))
    assert errors == {"venue_name": "required"}


def test_organizer_rows_keep_their_order_new_ones_inline() -> None:
    write, _ = form_write(
        _form(
            organizers=["12", "", "11", "12", ""],
            organizer_name=["", "New Friends", "", "", ""],
            organizer_email=["", "hi@example.org", "", "", ""],
            organizer_phone=["", "", "", "", ""],
        )
    )
    new = RecordWrite(name="New Friends", details={"email": "hi@example.org"})
    assert write.organizers == [12, new, 11]


@pytest.mark.parametrize(
    ("action", "status", "expected"),
    [
        pytest.param("draft", "publish", "draft", id="save-draft"),
        pytest.param("review", "draft", "pending", id="submit-for-review"),
        pytest.param("publish", "draft", "publish", id="publish"),
        pytest.param("publish", "future", "future", id="schedule"),
        pytest.param("save", "private", "private", id="save-as-chosen"),
        pytest.param("save", "trash", "draft", id="no-trash-from-the-editor"),
    ],
)
def test_the_pressed_button_sets_the_status(action: str, status: str, expected: str) -> None:
    write, _ = form_write(_form(action=action, status=status, publish_day="2027-04-01"))
    assert write.post.status == expected
    assert (write.post.published is not None) is (expected == "future")


def test_a_scheduled_event_sends_its_publication_date() -> None:
    write, _ = form_write(
        _form(action="publish", status="future", publish_day="2027-04-01", publish_time="08:30")
    )
    assert write.post.published == datetime(2027, 4, 1, 8, 30, tzinfo=SITE)
    refused, _ = form_write(_form(action="publish", status="future", publish_day="soon"))
    assert refused.post.published == Refused(("bad_date", {"name": "date"}))


def test_image_choice_upload_and_removal() -> None:
    assert form_write(_form(image="31"))[0].post.image == 31
    assert form_write(_form(image=""))[0].post.image is None  # unchanged
    assert form_write(_form(image="31", image_remove="1"))[0].post.image == NO_IMAGE


def test_record_shows_in_the_form_and_maps_back_unchanged() -> None:
    record = _record()
    values = record_form(record)
    assert values["start_day"] == "2027-03-09"
    assert (values["start_time"], values["end_time"]) == ("19:00", "21:30")
    assert values["organizers"][:2] == ["11", "12"]
    assert values["tags"] == "jazz, live"
    assert values["repeat"] == "weekly"
    assert values["repeat_count"] == "4"
    sent, errors = form_write(values)
    assert errors == {}
    assert changed(sent, sent).sent() == ()
    assert sent.recurrence == record.recurrence
    assert sent.organizers == [11, 12]
    assert sent.venue == [4]


def test_only_what_changed_is_sent() -> None:
    shown, _ = form_write(record_form(_record()))
    values = record_form(_record())
    values.update(title="Jazz night (moved)", start_time="20:00")
    sent, _ = form_write(values)
    write = changed(sent, shown)
    assert write.sent() == ("title", "start_date")
    assert (write.title, write.start) == ("Jazz night (moved)", datetime(2027, 3, 9, 20, 0))


def test_translations_side_by_side() -> None:
    source = _record()
    german = _record(title="Jazzabend", description=source.description)
    values = translation_form(german, "de", source)
    assert values == {"title_de": "Jazzabend", "description_de": "", "excerpt_de": ""}
    assert translation_params({"title_de": " Jazzabend ", "excerpt_de": ""}, "de") == {
        "title": "Jazzabend"
    }


def test_api_errors_are_shown_at_the_form_fields() -> None:
    assert form_field("start_date") == "start_day"
    assert form_field("recurrence") == "repeat"
    assert form_field("title") == "title"
