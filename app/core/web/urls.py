"""Every absolute URL the service emits is built here, from the public origin of the request
(scheme and host as the trusted proxy forwarded them, plus the root path)."""

import functools
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import Depends, Request
from starlette.datastructures import Headers
from starlette.types import Scope

from app.core.app_services import SettingsDep
from app.core.rules.constants import NAMESPACE
from app.core.settings import Settings
from app.i18n import LANGUAGES


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"  # as WordPress writes booleans in its links
    if isinstance(value, list | tuple):
        return ",".join(_query_value(item) for item in value)
    return str(value)


def encode_query(params: dict[str, Any]) -> str:
    return urlencode({key: _query_value(value) for key, value in params.items()})


@dataclass(frozen=True, slots=True)
class Urls:
    origin: str  # scheme://host[:port]
    root_path: str  # where the app is mounted, e.g. /api
    language_prefix: str  # "/de" when the request came through a language segment
    site: str  # public site base for `url` fields
    media_base: str = ""  # where stored images are served (MEDIA_URL, or almanac's /media)

    @property
    def index(self) -> str:
        """The API index (`GET {base}/`)."""
        return f"{self.origin}{self.root_path}{self.language_prefix}/"

    @property
    def namespace(self) -> str:
        return f"{self.origin}{self.root_path}{self.language_prefix}/{NAMESPACE}"

    def rest(self, path: str = "", query: dict[str, Any] | None = None) -> str:
        url = f"{self.namespace}{path}"
        return f"{url}?{encode_query(query)}" if query else url

    def public(self, path: str) -> str:
        return f"{self.site}{path}"

    def media(self, name: str) -> str:
        """The public URL of a file of the media library."""
        return f"{self.media_base}/{name}"

    def attendee_page(self, language_prefix: str, attendee_id: int, token: str) -> str:
        """The page where an attendee changes or cancels their RSVP, in their language
        (`language_prefix`: "" for the default language, else "/de", "/sk"); its DELETE
        cancels through the API (app/tickets/links.py signs `token`)."""
        return f"{self.site}{language_prefix}/rsvp/{attendee_id}/{token}/"

    def check_in(self, attendee_id: int, code: str) -> str:
        """What a ticket's QR code opens: the check-in on the desk (signed in)."""
        return f"{self.site}/desk/check-in/{attendee_id}/{code}/"

    def global_id(self, record_id: int) -> str:
        return f"{_global_id_base(self.site)}?id={record_id}"


@functools.lru_cache(maxsize=64)
def _global_id_base(site: str) -> str:
    """The reference's global IDs are `<host><path>?id=<id>`, host without port; parsed once
    per site (every record of a page, and each of its venues and organizers, has one)."""
    parts = urlsplit(site)
    return f"{parts.hostname or ''}{parts.path.rstrip('/')}"


def _origin(scope: Scope) -> str:
    """scheme://host[:port] as the client (or the trusted proxy) named it."""
    host = Headers(scope=scope).get("host") or "localhost"
    return f"{scope.get('scheme', 'http')}://{host}"


def _root_path(scope: Scope) -> str:
    return str(scope.get("root_path", "")).rstrip("/")


def discovery_link(scope: Scope) -> str:
    """The `Link` WordPress puts on every response, naming the API index: how its clients
    (node-wpapi's `discover()`) find the API from any URL of it."""
    return f'<{_origin(scope)}{_root_path(scope)}/>; rel="https://api.w.org/"'


def urls_of(request: Request, settings: Settings) -> Urls:
    """The public URLs of this request."""
    origin = _origin(request.scope)
    root_path = _root_path(request.scope)
    lang = request.path_params.get("lang")
    prefix = f"/{lang}" if lang in LANGUAGES else ""
    site = (settings.public_site_url or f"{origin}{root_path}").rstrip("/")
    media = (settings.media_url or f"{origin}{root_path}/media").rstrip("/")
    return Urls(
        origin=origin, root_path=root_path, language_prefix=prefix, site=site, media_base=media
    )


async def urls_for(request: Request, settings: SettingsDep) -> Urls:
    return urls_of(request, settings)


UrlsDep = Annotated[Urls, Depends(urls_for)]
