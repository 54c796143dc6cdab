"""A service's refusal as the event editor shows it: each message at the form field it is
about, in the person's language, naming the field by the label the person sees ("End date
is before the start date.", not "end_date (...) is before start_date").

The API's notes (app/core/errors.py, `InvalidParams.notes`) carry a message key and
its values; the desk renders the key again with the field's label as `{name}`, or with a
text of its own where the API's names other parameters in its words.
"""

from typing import Any

from app.core.errors import ApiError, InvalidParams, MissingParams
from app.desk.events.form import form_field
from app.i18n import API_MESSAGES, DESK_TEXTS, N_

# Form field -> the label the editor shows for it (the same texts as the template's).
LABELS = {
    "title": N_("Title"),
    "description": N_("Description"),
    "excerpt": N_("Excerpt"),
    "start_day": N_("Start date"),
    "start_time": N_("Start time"),
    "end_day": N_("End date"),
    "end_time": N_("End time"),
    "all_day": N_("All day"),
    "timezone": N_("Time zone"),
    "repeat": N_("Repeats"),
    "repeat_lines": N_("Custom rules: RFC 5545 lines, one a line (kept as they are)"),
    "repeat_interval": N_("Every (1 = every day, week, month or year; 2 = every other ...)"),
    "repeat_count": N_("Number of dates"),
    "repeat_until": N_("Last day"),
    "repeat_month_day": N_("Day of the month"),
    "repeat_rdate": N_("Extra dates"),
    "repeat_exdate": N_("Excluded dates"),
    "venue": N_("Venue"),
    "venue_name": N_("Venue name"),
    "organizers": N_("Organizers, in order"),
    "categories": N_("Categories"),
    "tags": N_("Tags"),
    "cost": N_("Cost"),
    "website": N_("Website"),
    "image": N_("Image"),
    "image_file": N_("or upload a new image"),
    "status": N_("Status"),
    "publish_day": N_("Publish on (for a scheduled event)"),
    "password": N_("Password"),
    "scope": N_("This event repeats. Save the changes for"),
}

# API message keys whose text names other parameters: the desk's own words instead.
OWN_TEXTS = {
    "end_before_start": N_("End date is before the start date."),
}


def label(field: str, language: str) -> str:
    return DESK_TEXTS.gettext(language, LABELS[field]) if field in LABELS else field


def field_of(param: str, values: dict[str, Any]) -> str:
    """The form field an error about `param` is shown at: a recurrence error at the custom
    rules when the person wrote them, else at "Repeats"."""
    field = form_field(param)
    if field == "repeat" and values.get("repeat") == "custom":
        return "repeat_lines"
    return field


def field_messages(
    error: ApiError, language: str, values: dict[str, Any], max_upload_bytes: int
) -> dict[str, str]:
    """Form field -> the message shown at it, for a refusal about fields ({} for others)."""
    fields: dict[str, str] = {}
    if isinstance(error, InvalidParams):
        for param, (key, note_values) in error.notes.items():
            field = field_of(param, values)
            if key in OWN_TEXTS:
                fields[field] = DESK_TEXTS.gettext(language, OWN_TEXTS[key])
            else:
                named = {**note_values, "name": label(field, language)}
                fields[field] = API_MESSAGES.text(key, language, **named)
    elif isinstance(error, MissingParams):
        for param in error.names:
            fields[field_of(param, values)] = DESK_TEXTS.gettext(language, "Fill this in.")
    elif error.code == "rest_upload_file_too_big":
        fields["image_file"] = too_big(language, max_upload_bytes)
    return fields


def megabytes(size: int) -> str:
    return f"{size / 1_048_576:.3g} MB"


def too_big(language: str, max_upload_bytes: int) -> str:
    return DESK_TEXTS.gettext(
        language,
        N_("This image is larger than %(max)s, the largest file the site takes."),
        max=megabytes(max_upload_bytes),
    )
