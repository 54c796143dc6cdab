"""The desk's venues: a list and an editor (app/desk/screens/post_screens.py) with every
field of the API's venue."""

from app.desk.screens.post_screens import N_, Field, RecordScreens
from app.venues.kind import VENUES

ADDRESS = (
    Field("address", N_("Street address")),
    Field("city", N_("City")),
    Field("zip", N_("Postal code")),
    Field("province", N_("Province")),
    Field("state", N_("State")),
    Field("stateprovince", N_("State or province")),
    Field("country", N_("Country")),
)

SCREENS = RecordScreens(
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
