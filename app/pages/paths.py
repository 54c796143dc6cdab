"""Which paths are pages, and their language: the first path segment when it names one of
ours (`/de/events/`), else the default language."""

import re

from fastapi import Request

from app.i18n import LANGUAGES, prefix_language

# Pages answer HEAD as GET (link checkers and crawlers ask it); the server sends no body.
READS = ["GET", "HEAD"]
# Where the pages live (after the language prefix); the response cache stores these too,
# but for an attendee's own page (app/pages/rsvp.py): personal, and never stored.
PAGE_PREFIXES = ("/events", "/event/", "/venue/", "/organizer/", "/rsvp/")
UNCACHED_PAGE_PREFIXES = ("/rsvp/",)
LANGUAGE_PREFIXES = tuple(f"/{language}" for language in LANGUAGES)


def _relative(request: Request) -> str:
    return request.url.path[len(request.scope.get("root_path", "")) :] or "/"


def without_language(path: str) -> str:
    language = prefix_language(path)
    return path[len(language) + 1 :] or "/" if language is not None else path


def page_path(request: Request) -> str:
    """The page's path without its language prefix, ending in a slash (canonical form)."""
    path = without_language(_relative(request))
    return path if path.endswith("/") else f"{path}/"


def is_page_path(path: str) -> bool:
    """A path (after the root path) the pages answer, in any language."""
    path = without_language(path)
    return path == "/events" or path.startswith(PAGE_PREFIXES)


# A first segment that reads as a language tag (`fr`, `pt-br`): `/fr/events/list/` is a page
# in a language the site does not have, answered with the HTML 404 page, not the API's JSON.
LANGUAGE_TAG = re.compile(r"/([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)(/.*)")


def under_unknown_language(path: str) -> bool:
    """A page path under a language segment that is not one of ours."""
    found = LANGUAGE_TAG.fullmatch(path)
    return found is not None and found.group(1) not in LANGUAGES and is_page_path(found.group(2))


DISCOVERY_PATHS = ("/sitemap.xml", "/robots.txt")


def is_cached_path(path: str) -> bool:
    """Pages (an attendee's own excepted) and the sitemap: stored by the response cache
    under the data version. A page may still refuse to be stored (`Cache-Control: no-store`,
    an event page with tickets: app/pages/rsvp_form.py)."""
    if is_page_path(path):
        return not without_language(path).startswith(UNCACHED_PAGE_PREFIXES)
    return path in DISCOVERY_PATHS or path.startswith("/sitemap-")
