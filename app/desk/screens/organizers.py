"""The desk's organizers: a list and an editor (app/desk/screens/post_screens.py) with every
field of the API's organizer."""

from app.desk.screens.post_screens import N_, Field, RecordScreens
from app.organizers.kind import ORGANIZERS

SCREENS = RecordScreens(
    kind=ORGANIZERS,
    title=N_("Organizers"),
    new_title=N_("New organizer"),
    edit_title=N_("Edit organizer"),
    fields=(
        Field("phone", N_("Phone"), "tel"),
        Field("email", N_("E-mail"), "email"),
        Field("website", N_("Website"), "url", N_("An address starting with https://")),
    ),
    columns=(Field("phone", N_("Phone")), Field("email", N_("E-mail"))),
)

router = SCREENS.router()
