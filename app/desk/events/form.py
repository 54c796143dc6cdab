"""The event editor's form <-> the event service's typed write (docs/design.md#events).

The form speaks in what a person fills in (a day, a time, "new venue", organizer rows, a
builder instead of RRULE); `EventWrite` (app/events/commands.py) is what `EventService`
takes. This module translates both ways and nothing else: the rules (required fields,
dates in order, limits, roles, sanitising) stay the service's, and its errors, named by the
API's parameters, are shown on the fields named here (`FIELD_OF`).

Pure: no database, no HTTP.
"""

from collections.abc import Iterable
from dataclasses import fields, replace
from datetime import date, datetime, time, tzinfo
from typing import Any

from app.core.errors import Note, note
from app.core.web.refusals import Refusals, Refused
from app.desk.events.recurrence_form import from_fields, from_lines, to_fields, to_lines
from app.events.commands import EventWrite, LinkRef, TermRef
from app.events.records import EventRecord
from app.posts.commands import NO_IMAGE, PostFields, RecordWrite

FormValues = dict[str, Any]

TEXTS = ("title", "description", "excerpt")
FLAGS = ("featured", "sticky", "hide_from_listings")
STATUSES = ("draft", "pending", "publish", "future", "private")
SCOPES = ("this", "following", "all")
VENUE_FIELDS = ("address", "city", "zip", "country")
ORGANIZER_FIELDS = ("email", "phone")
NEW = "new"
EMPTY_ORGANIZER_ROWS = 2  # blank rows a form without scripts offers for more organizers

# API parameter -> the form field its error is shown at.
FIELD_OF = {
    "start_date": "start_day",
    "end_date": "end_day",
    "timezone": "timezone",
    "all_day": "all_day",
    "recurrence": "repeat",
    "organizer": "organizers",
    "date": "publish_day",
    "date_utc": "publish_day",
}


def _text(values: FormValues, name: str) -> str:
    value = values.get(name, "")
    if isinstance(value, list):
        value = value[-1] if value else ""
    return str(value or "")


def _list(values: FormValues, name: str) -> list[str]:
    value = values.get(name, [])
    return [str(item) for item in (value if isinstance(value, list) else [value])]


def _checked(values: FormValues, name: str) -> bool:
    return _text(values, name) not in ("", "0", "false")


# ---- a record -> the form ---------------------------------------------------------------


def blank_form(timezone: str, today: datetime) -> FormValues:
    """A new event's form: today 19:00 to 21:00 in the site's zone, a draft."""
    day = today.date().isoformat()
    values: FormValues = {
        "title": "",
        "description": "",
        "excerpt": "",
        "start_day": day,
        "start_time": "19:00",
        "end_day": day,
        "end_time": "21:00",
        "all_day": "",
        "timezone": timezone,
        "status": "draft",
        "venue": "",
        "organizers": [""] * EMPTY_ORGANIZER_ROWS,
        "organizer_name": [""] * EMPTY_ORGANIZER_ROWS,
        "organizer_email": [""] * EMPTY_ORGANIZER_ROWS,
        "organizer_phone": [""] * EMPTY_ORGANIZER_ROWS,
        "categories": [],
        "tags": "",
        "version": "",
    }
    values.update(to_fields(from_lines(None, today.replace(hour=19, minute=0), timezone)))
    return values


def record_form(record: EventRecord) -> FormValues:
    """The form showing `record` (one event, or one date of a series) as stored."""
    count = len(record.organizers) + EMPTY_ORGANIZER_ROWS
    organizers = [str(o.id) for o in record.organizers]
    values: FormValues = {
        "title": record.title,
        "description": record.description,
        "excerpt": record.excerpt,
        "start_day": record.start_local.date().isoformat(),
        "start_time": record.start_local.strftime("%H:%M"),
        "end_day": record.end_local.date().isoformat(),
        "end_time": record.end_local.strftime("%H:%M"),
        "all_day": "1" if record.all_day else "",
        "timezone": record.timezone,
        "status": record.status,
        "publish_day": record.published_at.date().isoformat(),
        "publish_time": record.published_at.strftime("%H:%M"),
        "password": record.password or "",
        "cost": record.cost,
        "website": record.website or "",
        "venue": str(record.venue_id or ""),
        "organizers": organizers + [""] * EMPTY_ORGANIZER_ROWS,
        "organizer_name": [""] * count,
        "organizer_email": [""] * count,
        "organizer_phone": [""] * count,
        "categories": [str(term.id) for term in record.categories],
        "tags": ", ".join(term.name for term in record.tags),
        "image": str(record.image_id or ""),
    }
    values.update({flag: "1" if getattr(record, flag) else "" for flag in FLAGS})
    series_start = record.start_local
    values.update(to_fields(from_lines(record.recurrence, series_start, record.timezone)))
    return values


def translation_form(record: EventRecord, language: str, source: EventRecord) -> FormValues:
    """The texts of `record` read in `language`; a text equal to the source's is no
    translation (reads fall back to the default language's text)."""
    return {
        f"{name}_{language}": getattr(record, name)
        if getattr(record, name) != getattr(source, name)
        else ""
        for name in TEXTS
    }


# ---- the form -> the event service's write ------------------------------------------------


def event_write(values: FormValues, site_zone: tzinfo) -> tuple[EventWrite, dict[str, str]]:
    """(the write of every field of the form, errors of fields the form could not even
    read). An update sends only those that changed (`changed`): on one date of a series,
    the service refuses a field a date cannot have of its own, and names it. A day or a
    time that is no date is refused as the service refuses a date (`bad_date`), at its
    field."""
    errors: dict[str, str] = {}
    refused: dict[str, Note] = {}
    all_day = _checked(values, "all_day")
    start, end = _schedule(values, all_day, refused)
    image = _text(values, "image")
    write = EventWrite(
        title=_text(values, "title"),
        description=_text(values, "description"),
        excerpt=_text(values, "excerpt"),
        start=start,
        end=end,
        timezone=_text(values, "timezone").strip() or None,  # none: the site's zone
        all_day=all_day,
        cost=_text(values, "cost").strip(),
        website=_text(values, "website").strip(),
        featured=_checked(values, "featured"),
        sticky=_checked(values, "sticky"),
        hide_from_listings=_checked(values, "hide_from_listings"),
        categories=[int(ref) for ref in _list(values, "categories") if ref.isdigit()],
        tags=_tags(_text(values, "tags")),
        venue=_venue(values, errors),
        organizers=_organizers(values),
        recurrence=to_lines(from_fields(values, errors)),
        post=PostFields(
            status=_status(values),
            published=_published(values, site_zone),
            image=NO_IMAGE if _checked(values, "image_remove") else _image(image),
            password=_text(values, "password"),
        ),
        refused=Refusals(refused),
    )
    return write, errors


def _schedule(
    values: FormValues, all_day: bool, refused: dict[str, Note]
) -> tuple[datetime | None, datetime | None]:
    """The start and end as wall times (an all-day event's: its days)."""
    start_day = _text(values, "start_day").strip()
    end_day = _text(values, "end_day").strip() or start_day
    start_time = _text(values, "start_time")
    end_time = _text(values, "end_time") or start_time
    moments: list[datetime | None] = []
    for name, day, clock in (
        ("start_date", start_day, start_time),
        ("end_date", end_day, end_time),
    ):
        moment = _moment(day, "" if all_day else clock) if day else None
        if isinstance(moment, Refused):
            refused[name] = note("bad_date", name=name)
            moment = None
        moments.append(moment)
    return moments[0], moments[1]


def _moment(day: str, clock: str) -> datetime | Refused:
    """A day and a time of the form (HH:MM, or none: the day's start) as a wall time."""
    try:
        on = date.fromisoformat(day)
        at = time.fromisoformat(clock.strip()) if clock.strip() else time.min
    except ValueError:
        return Refused(note("bad_date"))
    return datetime.combine(on, at)


def _image(value: str) -> int | None:
    """A chosen image's ID; none chosen: the image stays."""
    return int(value) if value.isdigit() else None


def _venue(values: FormValues, errors: dict[str, str]) -> list[LinkRef] | None:
    choice = _text(values, "venue").strip()
    name = _text(values, "venue_name").strip()
    if choice in ("", NEW) and name:
        details = {f: _text(values, f"venue_{f}").strip() for f in VENUE_FIELDS}
        return [RecordWrite(name=name, details={k: v for k, v in details.items() if v})]
    if choice == NEW:
        errors["venue_name"] = "required"
        return None
    return [int(choice)] if choice.isdigit() and int(choice) else []


def _organizers(values: FormValues) -> list[LinkRef]:
    """The rows in their order: a chosen organizer, or a new one where a name is filled in."""
    chosen = _list(values, "organizers")
    names = _list(values, "organizer_name")
    linked: list[LinkRef] = []
    for row in range(max(len(chosen), len(names))):
        name = names[row].strip() if row < len(names) else ""
        if name:
            details = {}
            for field in ORGANIZER_FIELDS:
                column = _list(values, f"organizer_{field}")
                text = column[row].strip() if row < len(column) else ""
                if text:
                    details[field] = text
            linked.append(RecordWrite(name=name, details=details))
        elif row < len(chosen) and chosen[row].isdigit():
            linked.append(int(chosen[row]))
    return list(_unique(linked))


def _unique(items: Iterable[LinkRef]) -> Iterable[LinkRef]:
    seen: set[int] = set()
    for item in items:
        if isinstance(item, int):
            if item in seen:
                continue
            seen.add(item)
        yield item


def _tags(text: str) -> list[TermRef]:
    """Tag names as typed, comma-separated; new names become new tags (the service's rule)."""
    return list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def _status(values: FormValues) -> str:
    """The status the pressed button asks for: a contributor's "Submit for review" is
    `pending`; "Publish" is `future` when a later publication date was chosen. What a role
    may not set, the service scales (a contributor's `publish` is `pending`)."""
    action = _text(values, "action")
    status = _text(values, "status") or "draft"
    if action == "draft":
        status = "draft"
    elif action == "review":
        status = "pending"
    elif action == "publish":
        status = "future" if status == "future" else "publish"
    return status if status in STATUSES else "draft"


def _published(values: FormValues, site_zone: tzinfo) -> datetime | Refused | None:
    """A scheduled event's publication date (the site's wall time)."""
    day = _text(values, "publish_day").strip()
    if _status(values) != "future" or not day:
        return None
    moment = _moment(day, _text(values, "publish_time") or "00:00")
    if isinstance(moment, Refused):
        return Refused(note("bad_date", name="date"))
    return moment.replace(tzinfo=site_zone)


def changed(sent: EventWrite, shown: EventWrite) -> EventWrite:
    """What an update sends: the fields that differ from the record's own (`shown`, the
    write of its form as stored). A date of a series then overrides only what was changed
    on it, and a cost shown as "Free – $30" is not written back as a new text."""
    own: dict[str, Any] = {
        name: None if getattr(sent, name) == getattr(shown, name) else getattr(sent, name)
        for name in EVENT_FIELDS
    }
    post: dict[str, Any] = {
        name: None
        if getattr(sent.post, name) == getattr(shown.post, name)
        else getattr(sent.post, name)
        for name in POST_FIELDS
    }
    return replace(sent, **own, post=replace(sent.post, **post))


EVENT_FIELDS = tuple(
    f.name for f in fields(EventWrite) if f.name not in ("post", "scope", "names", "refused")
)
POST_FIELDS = tuple(f.name for f in fields(PostFields))


def translation_params(values: FormValues, language: str) -> dict[str, str]:
    """The texts of `language` filled in (an empty one is left as it is)."""
    texts = {name: _text(values, f"{name}_{language}").strip() for name in TEXTS}
    return {name: text for name, text in texts.items() if text}


def form_field(param: str) -> str:
    """The form field an API error about `param` is shown at."""
    return FIELD_OF.get(param, param)
