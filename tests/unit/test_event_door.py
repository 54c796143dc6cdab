"""The API's door of the event service (`app.events.door`): a request's parameters into
the typed write, what it cannot read kept for the service to refuse; and the typed write's
own arithmetic (`EventWrite.shifted`). Pure: no database, no HTTP."""

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from app.core.errors import InvalidParams
from app.core.web.refusals import Refused
from app.events.commands import EventWrite
from app.events.door import event_removal, event_write
from app.posts.commands import NO_IMAGE, RecordWrite

SITE = ZoneInfo("Europe/Bratislava")


def test_dates_are_wall_times_unless_they_name_an_instant() -> None:
    write = event_write(
        {"start_date": "2027-03-09 19:00", "end_date": "2027-03-09T21:00+02:00"}, SITE
    )
    assert write.start == datetime(2027, 3, 9, 19, 0)  # read later in the event's zone
    assert write.end == datetime(2027, 3, 9, 21, 0, tzinfo=timezone(timedelta(hours=2)))
    assert event_write({"start_date": 0}, SITE).start == datetime(1970, 1, 1, tzinfo=UTC)


def test_what_the_door_cannot_read_is_kept_not_raised() -> None:
    write = event_write({"title": "", "all_day": "perhaps", "cost": {"a": 1}}, SITE)
    assert write.title is None
    assert write.all_day is None
    assert list(write.refused.notes) == ["title", "all_day"]
    assert write.cost == Refused(("bad_cost", {}))
    with pytest.raises(InvalidParams) as raised:
        write.refused.raise_any()
    assert list(raised.value.notes) == ["title", "all_day"]


def test_a_scope_it_cannot_read_is_refused_at_the_scope() -> None:
    assert isinstance(event_write({"scope": "some"}, SITE).scope, Refused)
    assert event_write({"scope": "THIS"}, SITE).scope == "this"
    assert isinstance(event_removal({"scope": "none"}).scope, Refused)
    assert event_removal({"force": "yes"}).force is True


def test_linked_records_ids_objects_and_inline_records() -> None:
    write = event_write(
        {"venue": {"venue": "Old Market Hall", "City": "Bratislava"}, "organizer": "12, x,{"},
        SITE,
    )
    assert write.venue == [RecordWrite(name="Old Market Hall", details={"city": "Bratislava"})]
    assert write.organizers is not None
    assert not isinstance(write.organizers, Refused)
    assert write.organizers[0] == 12
    assert all(isinstance(item, Refused) for item in write.organizers[1:])
    assert event_write({"venue": 0}, SITE).venue == []  # unlinks
    assert isinstance(event_write({"venue": [1, 2]}, SITE).venue, Refused)
    assert event_write({"organizer": [{"id": "7"}]}, SITE).organizers == [7]


def test_terms_and_images() -> None:
    write = event_write({"categories": "2, music", "tags": [], "image": False}, SITE)
    assert write.categories == [2, "music"]
    assert write.tags == []  # unlinks them all
    assert write.post.image == NO_IMAGE
    assert isinstance(event_write({"categories": [True]}, SITE).categories, Refused)
    assert isinstance(event_write({"image": "not an image"}, SITE).post.image, Refused)


def test_not_sent_is_none_and_the_names_sent_are_kept_in_order() -> None:
    write = event_write({"excerpt": "x", "foo": "1", "title": "A"}, SITE)
    assert (write.description, write.venue, write.recurrence) == (None, None, None)
    assert write.sent() == ("excerpt", "foo", "title")
    assert EventWrite(title="A", start=datetime(2027, 1, 1)).sent() == ("title", "start_date")


def test_a_shift_moves_wall_times_and_reads_an_instant_in_the_zone_first() -> None:
    write = EventWrite(
        start=datetime(2027, 3, 16, 20, 0), end=datetime(2027, 3, 16, 22, 0, tzinfo=UTC)
    )
    moved = write.shifted(timedelta(days=-7), SITE)
    assert moved.start == datetime(2027, 3, 9, 20, 0)
    assert moved.end == datetime(2027, 3, 9, 23, 0)  # 22:00 UTC is 23:00 in Bratislava
    assert EventWrite(title="x").shifted(timedelta(days=1), SITE).start is None
