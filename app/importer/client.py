"""The source site over HTTP: discovery, signing in, retries and paging.

A source is a WordPress site's URL (its REST index, found through the `Link` header every
WordPress page sends or at `/wp-json/`, must list the `tribe/events/v1` namespace) or the
namespace's own base URL. Timeouts, connection errors, 429 and 5xx answers are retried with
exponential backoff; anything else is the answer. The transport can be injected, so tests
serve a fake source in the same process (`httpx.ASGITransport`).
"""

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from app.importer.arguments import DEFAULT_ATTEMPTS

NAMESPACE = "tribe/events/v1"
PER_PAGE = 50  # the reference's maximum
WP_PER_PAGE = 100  # WordPress's own maximum
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
_API_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="https://api\.w\.org/"')


class SourceError(Exception):
    """The source could not be reached, or did not answer as a The Events Calendar site."""


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = DEFAULT_ATTEMPTS
    backoff: float = 0.5  # seconds before the first retry, doubled for each next one
    timeout: float = 30.0


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: Any
    headers: httpx.Headers


def site_key(base: str) -> str:
    """The source's name in the mapping: host and path of the namespace base, without the
    scheme (a site moving to https stays the same source)."""
    parts = urlsplit(base)
    return f"{(parts.hostname or '').lower()}{f':{parts.port}' if parts.port else ''}{parts.path}"


class SourceClient:
    def __init__(
        self,
        source: str,
        *,
        login: str | None = None,
        password: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.source = source.strip()
        self.retry = retry or RetryPolicy()
        self.signed_in = login is not None
        auth = httpx.BasicAuth(login, password or "") if login is not None else None
        self.http = httpx.AsyncClient(
            transport=transport,
            auth=auth,
            timeout=self.retry.timeout,
            follow_redirects=True,
            headers={"Accept": "application/json", "User-Agent": "almanac-import"},
        )
        self.base = ""  # …/wp-json/tribe/events/v1
        self.wp_base = ""  # …/wp-json/wp/v2
        self.requests = 0

    async def __aenter__(self) -> "SourceClient":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.http.aclose()

    # ---- requests -------------------------------------------------------------------

    async def get(self, url: str, params: dict[str, Any] | None = None) -> Answer:
        """One GET, retried on timeouts, connection errors, 429 and 5xx."""
        delay = self.retry.backoff
        for attempt in range(1, self.retry.attempts + 1):
            failure: str
            try:
                self.requests += 1
                response = await self.http.get(url, params=params)
            except httpx.TimeoutException:
                failure = "timed out"
            except httpx.TransportError as exc:
                failure = f"could not connect ({exc.__class__.__name__})"
            else:
                if response.status_code not in RETRIED_STATUSES:
                    return Answer(response.status_code, _json(response), response.headers)
                failure = f"answered {response.status_code}"
            if attempt == self.retry.attempts:
                raise SourceError(f"{url}: {failure} ({attempt} attempts)")
            await asyncio.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")

    async def get_ok(self, url: str, params: dict[str, Any] | None = None) -> Answer:
        answer = await self.get(url, params)
        if answer.status != 200:
            raise SourceError(f"{url}: answered {answer.status}{_error_code(answer.body)}")
        return answer

    # ---- discovery ------------------------------------------------------------------

    async def discover(self) -> None:
        """Find the namespace base (and WordPress's own `wp/v2`) from the source URL."""
        url = self.source.rstrip("/")
        if f"/{NAMESPACE}" in url:
            self.base = url[: url.index(f"/{NAMESPACE}") + len(NAMESPACE) + 1]
            root = self.base[: -len(NAMESPACE)]
        else:
            root = await self._api_root(url)
            index = (await self.get_ok(root)).body
            namespaces = index.get("namespaces", []) if isinstance(index, dict) else []
            if NAMESPACE not in namespaces:
                raise SourceError(f"{root}: no {NAMESPACE} namespace (is The Events Calendar on?)")
            self.base = root + NAMESPACE
        self.wp_base = root + "wp/v2"
        # The namespace answers its own description: proof that the base is right.
        await self.get_ok(self.base)

    async def _api_root(self, site: str) -> str:
        """`…/wp-json/` from the `Link: <…>; rel="https://api.w.org/"` header WordPress sends
        with its pages, else the conventional place."""
        try:
            answer = await self.get(site + "/")
        except SourceError:
            answer = None
        if answer is not None:
            match = _API_LINK.search(answer.headers.get("link", ""))
            if match:
                return match.group(1).rstrip("/") + "/"
        parts = urlsplit(site)
        return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/wp-json/"))

    # ---- lists ----------------------------------------------------------------------

    async def pages(
        self, route: str, key: str, params: dict[str, Any] | None = None
    ) -> AsyncIterator[list[dict[str, Any]]]:
        """Every page of a namespace list (`key`: the list's field), `per_page` 50, up to
        the `total_pages` the first page announced."""
        page, total_pages = 1, 1
        while page <= total_pages:
            query = {**(params or {}), "per_page": PER_PAGE, "page": page}
            answer = await self.get(f"{self.base}/{route}", query)
            if answer.status == 404 and page > 1:
                return  # the list shrank while it was read
            if answer.status != 200:
                raise SourceError(f"{route}: answered {answer.status}{_error_code(answer.body)}")
            body = answer.body if isinstance(answer.body, dict) else {}
            items = body.get(key)
            if not isinstance(items, list):
                raise SourceError(f"{route}: the answer has no `{key}` list")
            total_pages = int(body.get("total_pages") or 0)
            yield [item for item in items if isinstance(item, dict)]
            if not items:
                return
            page += 1

    async def wp_listing(self, post_type: str) -> list[dict[str, Any]] | None:
        """WordPress's own listing of a post type (`/wp/v2/<type>`): IDs, statuses,
        modification times and, for editors, passwords. None when the site does not
        expose it. Signed in, every status the account may edit is asked for."""
        fields = {"_fields": "id,status,modified_gmt,password", "per_page": WP_PER_PAGE}
        if self.signed_in:
            listed = await self._wp_pages(post_type, {**fields, "context": "edit", "status": "any"})
            if listed is not None:
                return listed
        return await self._wp_pages(post_type, fields)

    async def _wp_pages(
        self, post_type: str, params: dict[str, Any]
    ) -> list[dict[str, Any]] | None:
        found: list[dict[str, Any]] = []
        page, total_pages = 1, 1
        while page <= total_pages:
            answer = await self.get(f"{self.wp_base}/{post_type}", {**params, "page": page})
            if answer.status != 200 or not isinstance(answer.body, list):
                return None if page == 1 else found
            total_pages = int(answer.headers.get("x-wp-totalpages") or 1)
            found.extend(item for item in answer.body if isinstance(item, dict))
            page += 1
        return found

    async def single(
        self, route: str, params: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """One record (`events/12`): its status code and body."""
        answer = await self.get(f"{self.base}/{route}", params)
        return answer.status, answer.body if isinstance(answer.body, dict) else {}


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _error_code(body: Any) -> str:
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        return f" ({body['code']})"
    return ""
