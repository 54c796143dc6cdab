"""The event editor's form <-> the API's event write parameters (docs/design.md#events).

The form speaks in what a person fills in (a day, a time, "new venue", organizer rows, a
builder instead of RRULE); the API's parameters are what `EventService` reads from a
request. This module translates both ways and nothing else: the rules (required fields,
dates in order, roles, sanitising) stay the service's, and its errors are shown on the
fields named here (`FIELD_OF`).

Pure: no database, no HTTP.
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from app.desk.recurrence_form import from_fields, from_lines, to_fields, to_lines
from app.events.records import EventRecord

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


# ---- the form -> the API's parameters ------------------------------------------------------


def event_params(values: FormValues) -> tuple[dict[str, Any], dict[str, str]]:
    """(the API's write parameters, errors of fields the form could not even read). An
    update sends only those that changed (`changed_params`): on one date of a series, the
    service refuses a field a date cannot have of its own, and names it."""
    errors: dict[str, str] = {}
    params: dict[str, Any] = {name: _text(values, name) for name in TEXTS}
    params.update(_schedule(values))
    params["venue"] = _venue(values, errors)
    params["organizer"] = _organizers(values)
    params["cost"] = _text(values, "cost").strip()
    params["website"] = _text(values, "website").strip()
    params.update({flag: _checked(values, flag) for flag in FLAGS})
    params["categories"] = [int(ref) for ref in _list(values, "categories") if ref.isdigit()]
    params["tags"] = _tags(_text(values, "tags"))
    params["password"] = _text(values, "password")
    params.update(_status(values))
    image = _text(values, "image")
    if _checked(values, "image_remove"):
        params["image"] = ""
    elif image.isdigit():
        params["image"] = int(image)
    params["recurrence"] = to_lines(from_fields(values, errors))
    return params, errors


def _schedule(values: FormValues) -> dict[str, Any]:
    all_day = _checked(values, "all_day")
    start_day = _text(values, "start_day").strip()
    end_day = _text(values, "end_day").strip() or start_day
    params: dict[str, Any] = {"all_day": all_day, "timezone": _text(values, "timezone").strip()}
    if not params["timezone"]:
        del params["timezone"]  # the site's zone
    if start_day:
        params["start_date"] = _moment(start_day, "" if all_day else _text(values, "start_time"))
    if end_day:
        end_time = _text(values, "end_time") or _text(values, "start_time")
        params["end_date"] = _moment(end_day, "" if all_day else end_time)
    return params


def _moment(day: str, clock: str) -> str:
    clock = clock.strip()
    if not clock:
        return day
    return f"{day} {clock}:00" if len(clock) == 5 else f"{day} {clock}"


def _venue(values: FormValues, errors: dict[str, str]) -> Any:
    choice = _text(values, "venue").strip()
    name = _text(values, "venue_name").strip()
    if choice in ("", NEW) and name:
        inline = {"venue": name}
        inline.update({f: _text(values, f"venue_{f}").strip() for f in VENUE_FIELDS})
        return {key: value for key, value in inline.items() if value}
    if choice == NEW:
        errors["venue_name"] = "required"
        return None
    return int(choice) if choice.isdigit() else 0


def _organizers(values: FormValues) -> list[Any]:
    """The rows in their order: a chosen organizer, or a new one where a name is filled in."""
    chosen = _list(values, "organizers")
    names = _list(values, "organizer_name")
    linked: list[Any] = []
    for row in range(max(len(chosen), len(names))):
        name = names[row].strip() if row < len(names) else ""
        if name:
            inline = {"organizer": name}
            for field in ORGANIZER_FIELDS:
                column = _list(values, f"organizer_{field}")
                text = column[row].strip() if row < len(column) else ""
                if text:
                    inline[field] = text
            linked.append(inline)
        elif row < len(chosen) and chosen[row].isdigit():
            linked.append(int(chosen[row]))
    return list(_unique(linked))


def _unique(items: Iterable[Any]) -> Iterable[Any]:
    seen: set[int] = set()
    for item in items:
        if isinstance(item, int):
            if item in seen:
                continue
            seen.add(item)
        yield item


def _tags(text: str) -> list[str]:
    """Tag names as typed, comma-separated; new names become new tags (the API's rule)."""
    return list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def _status(values: FormValues) -> dict[str, Any]:
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
    params: dict[str, Any] = {"status": status if status in STATUSES else "draft"}
    day = _text(values, "publish_day").strip()
    if params["status"] == "future" and day:
        params["date"] = _moment(day, _text(values, "publish_time") or "00:00")
    return params


def changed_params(sent: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """What an update sends: the parameters that differ from the record's own (`shown`, the
    parameters of its form as stored). A date of a series then overrides only what was
    changed on it, and a cost shown as "Free – $30" is not written back as a new text."""
    return {name: value for name, value in sent.items() if shown.get(name, _UNSET) != value}


_UNSET = object()


def translation_params(values: FormValues, language: str) -> dict[str, str]:
    """The texts of `language` filled in (an empty one is left as it is)."""
    texts = {name: _text(values, f"{name}_{language}").strip() for name in TEXTS}
    return {name: text for name, text in texts.items() if text}


def form_field(param: str) -> str:
    """The form field an API error about `param` is shown at."""
    return FIELD_OF.get(param, param)
