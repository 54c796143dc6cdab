"""One delivery attempt over HTTP, per the Standard Webhooks specification: the message's
bytes, `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` HMAC-SHA256 by the
`standardwebhooks` library; during a secret rotation, one signature per secret).

Outbound requests are kept safe (app/webhooks/addresses.py for where they may go):
redirects are not followed (a 3xx is a failure like any other non-2xx), the whole attempt
has a deadline, and no more than RESPONSE_LIMIT bytes of the answer are read (uncompressed:
a small compressed answer cannot grow into a large one)."""

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from standardwebhooks import Webhook
from yarl import URL

from app.webhooks.addresses import Refused, Target, parse_url, resolve

RESPONSE_LIMIT = 1024  # bytes of an answer kept in the delivery log
CONNECT_TIMEOUT = 5.0
USER_AGENT = "almanac-webhooks/1"

if TYPE_CHECKING:
    import aiohttp


@dataclass(frozen=True, slots=True)
class Attempt:
    attempted_at: datetime
    status: int | None  # the receiver's HTTP status; None when there was no answer
    error: str | None
    response: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


@dataclass(frozen=True, slots=True)
class Outgoing:
    url: str
    msg_id: str
    body: str
    secrets: list[str]


@dataclass(slots=True)
class Lookups:
    """The hosts of one batch, each resolved and checked once (a batch goes to a handful of
    receivers, mostly one: a lookup per delivery would put every message through the
    resolver's thread pool). Still at delivery time, after resolution, as the check
    requires; a batch is sent within WEBHOOKS_TIMEOUT."""

    found: dict[tuple[str, int], "asyncio.Future[str]"] = field(default_factory=dict)

    async def address(self, target: Target, allow_private: bool) -> str:
        key = (target.host, target.port)
        if key not in self.found:
            self.found[key] = asyncio.ensure_future(resolve(target, allow_private))
        return await self.found[key]


def message_id(number: int) -> str:
    return f"msg_{number}"


def signatures(secrets: list[str], msg_id: str, moment: datetime, body: str) -> str:
    return " ".join(Webhook(secret).sign(msg_id, moment, body) for secret in secrets)


class Sender:
    """aiohttp rather than httpx: a delivery is one small POST, and aiohttp's client costs
    about a tenth of httpx's CPU per request (measured for `make bench`), which decides how
    many deliveries a worker sends per second. Imported at the first delivery: a process
    that sends none (a command, a server nobody subscribed to) does not pay for it at start."""

    def __init__(self, timeout: float, allow_private: bool, connections: int = 64) -> None:
        self.timeout = timeout
        self.allow_private = allow_private
        self.connections = connections
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> "aiohttp.ClientSession":
        if self._session is None:  # made in the running loop, at the first delivery
            import aiohttp

            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self.connections),
                timeout=aiohttp.ClientTimeout(
                    total=self.timeout, connect=min(self.timeout, CONNECT_TIMEOUT)
                ),
                auto_decompress=False,  # what is read is what came: no decompression bomb
                trust_env=False,  # no proxy from the environment between us and the check
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def send_all(self, batch: Sequence[Outgoing]) -> list[Attempt]:
        """Send `batch` concurrently; the attempts in its order."""
        lookups = Lookups()
        return list(
            await asyncio.gather(
                *(self.send(o.url, o.msg_id, o.body, o.secrets, lookups) for o in batch)
            )
        )

    async def send(
        self,
        url: str,
        msg_id: str,
        body: str,
        secrets: list[str],
        lookups: Lookups | None = None,
    ) -> Attempt:
        attempted_at = datetime.now(UTC)
        started = time.monotonic()
        status: int | None = None
        response: str | None = None
        error: str | None = None
        import aiohttp

        try:
            status, response = await self._post(
                url, msg_id, body, secrets, attempted_at, lookups or Lookups()
            )
        except Refused as exc:
            error = f"refused: {exc}"
        except TimeoutError:
            error = f"timeout: no answer within {self.timeout:g} s"
        except aiohttp.ClientError as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
        if error is None and status is not None and not 200 <= status < 300:
            error = f"HTTP {status}"
        duration = int((time.monotonic() - started) * 1000)
        return Attempt(attempted_at, status, error, response, duration)

    async def _post(
        self,
        url: str,
        msg_id: str,
        body: str,
        secrets: list[str],
        moment: datetime,
        lookups: Lookups,
    ) -> tuple[int, str]:
        target = parse_url(url)
        address = await lookups.address(target, self.allow_private)
        headers = {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "accept-encoding": "identity",
            "webhook-id": msg_id,
            "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": signatures(secrets, msg_id, moment, body),
            # Connect to the checked address; the name stays in Host and in TLS (SNI and
            # the certificate's check).
            "host": _host_header(target.host, target.port, target.scheme),
        }
        pinned = URL(url).with_host(address)
        server_name = target.host if target.scheme == "https" else None
        async with self._client().post(
            pinned,
            data=body.encode(),
            headers=headers,
            allow_redirects=False,
            server_hostname=server_name,
        ) as answer:
            kept = await answer.content.read(RESPONSE_LIMIT)
            return answer.status, kept.decode("utf-8", "replace")


def _host_header(host: str, port: int, scheme: str) -> str:
    default = 443 if scheme == "https" else 80
    name = f"[{host}]" if ":" in host else host
    return name if port == default else f"{name}:{port}"
