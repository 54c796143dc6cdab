"""The source site over HTTP: discovery, signing in, retries and paging.

A source is a WordPress site's URL (its REST index, found through the `Link` header every
WordPress page sends or at `/wp-json/`, must list the `tribe/events/v1` namespace) or the
namespace's own base URL. Timeouts, connection errors, 429 and 5xx answers are retried with
exponential backoff; anything else is the answer. The transport can be injected, so tests
serve a fake source in the same process (`httpx.ASGITransport`).

Redirects are followed here, hop by hop, so that each hop goes through the guard
(app/importer/guard.py): the credentials go to the source's own origin only, anything else
must be on a public address. Signed in, a request that would leave the source's origin
stops the run (CredentialsDropped) instead of going on anonymously while the run believes
it sees what an editor sees; so does the source answering as to an anonymous visitor.
"""

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from app.importer.arguments import DEFAULT_ATTEMPTS
from app.importer.guard import NotPublic, origin_of, route

NAMESPACE = "tribe/events/v1"
PER_PAGE = 50  # the reference's maximum
WP_PER_PAGE = 100  # WordPress's own maximum
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_REDIRECTS = 10
_API_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="https://api\.w\.org/"')


class SourceError(Exception):
    """The source could not be reached, or did not answer as a The Events Calendar site."""


class CredentialsDropped(Exception):
    """Signed in, the run would read the source anonymously from here on: it must stop (what
    it lists would lack drafts and private records, and --prune would trash them)."""


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
        self.origin = origin_of(self.source)  # the only origin trusted with the credentials
        self.retry = retry or RetryPolicy()
        self.signed_in = login is not None
        # Given per request (never to the client, which would send it everywhere).
        self.auth = httpx.BasicAuth(login, password or "") if login is not None else None
        self.http = httpx.AsyncClient(
            transport=transport,
            timeout=self.retry.timeout,
            follow_redirects=False,  # followed in _send, each hop checked
            trust_env=False,  # no proxy from the environment between the check and the host
            headers={"Accept": "application/json", "User-Agent": "almanac-import"},
        )
        self.base = ""  # …/wp-json/tribe/events/v1
        self.wp_base = ""  # …/wp-json/wp/v2
        self.requests = 0
        # Signed in: WordPress confirmed the account (`users/me`), and listed every status
        # to it. Only then may --prune trash records that are not published.
        self.confirmed = False
        self.edit_refused = False

    async def __aenter__(self) -> "SourceClient":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.http.aclose()

    @property
    def sees_every_status(self) -> bool:
        return self.signed_in and self.confirmed and not self.edit_refused

    # ---- requests -------------------------------------------------------------------

    async def _send(
        self,
        url: str,
        params: dict[str, Any] | None = None,
        *,
        credentials: bool,
        headers: dict[str, str] | None = None,
        stream: bool = False,
    ) -> httpx.Response:
        """One GET, its redirects followed hop by hop through the guard (NotPublic)."""
        assert self.origin is not None  # discover() refuses a source without one
        target = httpx.URL(url).copy_merge_params(params or {})
        signed = credentials and self.auth is not None
        for _ in range(MAX_REDIRECTS + 1):
            if signed and origin_of(target) != self.origin:
                how = "" if str(target) == url else f" (redirected from {url})"
                raise CredentialsDropped(
                    f"{target}{how} is not on the source's origin, {self.origin}: the "
                    "credentials are sent there only, and the run stops rather than go on "
                    "anonymously. If the site has moved, name its new address as the source."
                )
            hop = await route(target, self.origin)
            request = self.http.build_request(
                "GET", hop.url, headers={**(headers or {}), **hop.headers}
            )
            request.extensions.update(hop.extensions)
            response = await self.http.send(
                request, auth=self.auth if signed else None, stream=stream
            )
            if not response.has_redirect_location:
                return response
            await response.aclose()
            target = target.join(response.headers["location"])
        raise httpx.TooManyRedirects(f"more than {MAX_REDIRECTS} redirects", request=request)

    @asynccontextmanager
    async def open(self, url: str, headers: dict[str, str]) -> AsyncIterator[httpx.Response]:
        """A streamed GET without the credentials (images: they may live anywhere), not
        retried."""
        self.requests += 1
        response = await self._send(url, credentials=False, headers=headers, stream=True)
        try:
            yield response
        finally:
            await response.aclose()

    async def get(
        self, url: str, params: dict[str, Any] | None = None, *, credentials: bool = True
    ) -> Answer:
        """One GET, retried on timeouts, connection errors, 429 and 5xx."""
        delay = self.retry.backoff
        for attempt in range(1, self.retry.attempts + 1):
            failure: str
            try:
                self.requests += 1
                response = await self._send(url, params, credentials=credentials)
            except NotPublic as exc:
                raise SourceError(f"{url}: {exc}") from None
            except httpx.TooManyRedirects as exc:
                raise SourceError(f"{url}: {exc}") from None
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
        """Find the namespace base (and WordPress's own `wp/v2`) from the source URL, and,
        signed in, make sure the source takes the credentials."""
        if self.origin is None:
            raise SourceError(f"{self.source}: not an http(s) URL")
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
        if self.signed_in:
            await self._check_signed_in()

    async def _check_signed_in(self) -> None:
        """WordPress's `users/me` answers the account, or `rest_not_logged_in` when the
        credentials did not reach it (a proxy in front of WordPress may drop the
        Authorization header): then the run would be an anonymous one, and it stops. A site
        without `wp/v2` cannot confirm: the run goes on, and is pruned as anonymous."""
        answer = await self.get(f"{self.wp_base}/users/me", {"_fields": "id"})
        if answer.status == 401:
            raise CredentialsDropped(
                f"{self.wp_base}/users/me answered 401{_error_code(answer.body)}: the source "
                "does not take the credentials (a proxy in front of it may drop the "
                "Authorization header), and the run stops rather than go on anonymously."
            )
        self.confirmed = answer.status == 200

    async def _api_root(self, site: str) -> str:
        """`…/wp-json/` from the `Link: <…>; rel="https://api.w.org/"` header WordPress sends
        with its pages, else the conventional place."""
        try:  # a web page: no credentials needed
            answer = await self.get(site + "/", credentials=False)
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
            self.edit_refused = True  # not every status: --prune must not act on what it lacks
        return await self._wp_pages(post_type, fields)

    async def _wp_pages(
        self, post_type: str, params: dict[str, Any]
    ) -> list[dict[str, Any]] | None:
        found: list[dict[str, Any]] = []
        page, total_pages = 1, 1
        while page <= total_pages:
            answer = await self.get(f"{self.wp_base}/{post_type}", {**params, "page": page})
            if answer.status == 401 and params.get("context") == "edit":
                # WordPress answers 401 (not 403) to a visitor it does not know.
                raise CredentialsDropped(
                    f"{self.wp_base}/{post_type} answered 401{_error_code(answer.body)}: the "
                    "source no longer takes the credentials, and the run stops rather than "
                    "go on anonymously."
                )
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
