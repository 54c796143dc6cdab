"""The desk's venues: a list and an editor (app/desk/screens/post_screens.py) with every
field of the API's venue, and its position: latitude and longitude (sent only when a
person changed them: typed, they are `exact`; both emptied, the venue is placed again from
its address), how the position was found, and the gazetteer's suggestion for a venue
without one (docs/pages-and-desk.md)."""

import dataclasses
from typing import Any

from app.desk.context import DeskContext
from app.desk.screens.api_calls import Form
from app.desk.screens.post_screens import N_, Field, RecordScreens
from app.pages.leaflet import maps_of
from app.posts.commands import RecordWrite
from app.venues.kind import VENUES
from app.venues.placing import COORDINATES, suggested_fix

ADDRESS = (
    Field("address", N_("Street address")),
    Field("city", N_("City")),
    Field("zip", N_("Postal code")),
    Field("province", N_("Province")),
    Field("state", N_("State")),
    Field("stateprovince", N_("State or province")),
    Field("country", N_("Country")),
)
POSITION = (
    Field(
        "geo_lat",
        N_("Latitude"),
        "text",
        N_("Degrees north of the equator, -90 to 90, e.g. 48.1486."),
    ),  # fmt: skip
    Field(
        "geo_lng",
        N_("Longitude"),
        "text",
        N_("Degrees east of Greenwich, -180 to 180, e.g. 17.1077."),
    ),  # fmt: skip
)
PRECISION_LABELS = {
    "exact": N_("Typed by a person."),
    "address": N_("Found from the address."),
    "city": N_("Found from the city."),
}
# The form's button that takes the suggested position ("<lat>,<lng>").
SUGGESTION = "suggested"


class VenueScreens(RecordScreens):
    def form_of(self, body: dict[str, Any], password: str | None) -> Form:
        form = super().form_of(body, password)
        for name in COORDINATES:
            value = body.get(name)
            form[name] = form[f"was-{name}"] = "" if value is None else repr(float(value))
        return form

    def labels(self) -> dict[str, str]:
        return {**super().labels(), **{field.name: field.label for field in POSITION}}

    def _write(self, desk: DeskContext, form: Form, *, creating: bool) -> RecordWrite:
        """The shared write, with the coordinates when the person changed them or took the
        suggestion (both, so that a half is refused by name): untouched, a position found
        from the address stays what it is, and may still be refined."""
        command = super()._write(desk, form, creating=creating)
        details = dict(command.details)
        typed = {name: form.get(name, "").strip() for name in COORDINATES}
        suggested = form.get(SUGGESTION, "")
        if suggested.count(",") == 1:
            typed = dict(zip(COORDINATES, suggested.split(","), strict=True))
        elif all(typed[name] == form.get(f"was-{name}", "") for name in COORDINATES):
            return command
        if creating and not any(typed.values()):
            return command
        details.update(typed)
        return dataclasses.replace(command, details=details)

    async def shown(self, desk: DeskContext, record: Any | None) -> dict[str, Any]:
        suggestion = None if record is None else await suggested_fix(record)
        precision = None if record is None else record.geo_precision
        root = str(desk.request.scope.get("root_path", "")).rstrip("/")
        return {
            "position": POSITION,
            "precision": PRECISION_LABELS.get(precision or ""),
            "suggestion": suggestion and (suggestion.point.lat, suggestion.point.lng),
            # A map to place the marker on, with a script and tiles only (the pages' Leaflet).
            "maps": maps_of(desk.settings),
            "leaflet": f"{root}/assets/leaflet",
        }


SCREENS = VenueScreens(
    kind=VENUES,
    title=N_("Venues"),
    new_title=N_("New venue"),
    edit_title=N_("Edit venue"),
    fields=(
        *ADDRESS,
        Field("phone", N_("Phone"), "tel"),
        Field("website", N_("Website"), "url", N_("An address starting with https://")),
        Field("show_map", N_("Show a map on its events"), "checkbox"),
        Field("show_map_link", N_("Show a link to a map on its events"), "checkbox"),
    ),
    columns=(Field("city", N_("City")), Field("country", N_("Country"))),
)

router = SCREENS.router()
