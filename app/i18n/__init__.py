"""Languages, in one place: which one a request reads and writes (negotiation.py), every text
of the site in gettext catalogs (catalogs.py, locale/), and Babel's dates (dates.py).

It sits below core/ (docs/architecture.md): every package may use it, it uses none of them.
"""

from app.i18n.catalogs import (
    API_MESSAGES,
    CATALOGS,
    DESK_TEXTS,
    FEED_TEXTS,
    MAIL_TEXTS,
    N_,
    PAGE_TEXTS,
    Catalog,
)
from app.i18n.languages import LANGUAGES
from app.i18n.negotiation import (
    UnknownLanguage,
    accepted_language,
    header_language,
    header_was_read,
    language_of,
    negotiate,
    path_language,
    prefix_language,
    requested_language,
    scope_accepted_language,
    scope_language,
    set_language,
)

__all__ = [
    "API_MESSAGES",
    "CATALOGS",
    "DESK_TEXTS",
    "FEED_TEXTS",
    "MAIL_TEXTS",
    "LANGUAGES",
    "N_",
    "PAGE_TEXTS",
    "Catalog",
    "UnknownLanguage",
    "accepted_language",
    "header_language",
    "header_was_read",
    "language_of",
    "negotiate",
    "path_language",
    "prefix_language",
    "requested_language",
    "scope_accepted_language",
    "scope_language",
    "set_language",
]
