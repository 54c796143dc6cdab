"""Settings: the only place that reads the environment."""

import json
import re
from datetime import UTC, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.i18n import LANGUAGES

# IANA names of UTC itself (zones that never leave offset 0; London's GMT is not one of them).
UTC_NAMES = frozenset(
    f"{prefix}{name}"
    for prefix in ("", "Etc/")
    for name in ("UTC", "UCT", "Universal", "Zulu", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich")
)

HEX_COLOUR = re.compile(r"[0-9a-f]{3}|[0-9a-f]{6}")
SITE_TEXT_MAX_LENGTH = 2000


def _split_csv(value: object) -> object:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class Settings(BaseSettings):
    # The environment alone, no `.env`: that file is Compose's (its passwords and pepper for
    # the containers: docs/operations.md, "Deploy with docker compose"), and read here it made a
    # local server and a command run elsewhere disagree (another pepper: every password a 401).
    model_config = SettingsConfigDict(extra="ignore")

    database_url: str | None = Field(
        default=None, description="PostgreSQL URL; unset means the embedded server"
    )
    database_read_url: str | None = Field(default=None, description="Optional read replica URL")
    almanac_data_dir: Path = Field(default=Path(".almanac"), description="Embedded data directory")
    site_timezone: str = Field(default="UTC", description="Site time zone (IANA name)")
    timezone_mode: Literal["event", "site"] = Field(
        default="event",
        description="Event list dates: event-local wall times (event) or UTC instants (site)",
    )
    currency_symbol: str = Field(
        default="$", max_length=16, description="Shown with costs written without a symbol"
    )
    currency_position: Literal["prefix", "suffix"] = Field(
        default="prefix", description="Side of the amount the default currency symbol goes on"
    )
    default_language: str = Field(default="en", description="Language of the base texts")
    public_site_url: str | None = Field(default=None, description="Base of public page URLs")
    # The site's face (docs/configuration.md, "The site's face"; app/pages/face.py).
    site_name: str | None = Field(
        default=None,
        max_length=200,
        description="Name of the site (pages' header and titles, Open Graph, calendar feeds, "
        "mail); unset: the public site's host",
    )
    site_logo: int | None = Field(
        default=None,
        ge=1,
        description="A media library image's ID: the logo in the pages' header and their "
        "Open Graph image",
    )
    site_accent: str | None = Field(
        default=None,
        description="The pages' accent colour (#rgb or #rrggbb): links, buttons, focus; "
        "darkened or lightened as far as legible text needs",
    )
    site_header_text: Annotated[dict[str, str], NoDecode] = Field(
        default_factory=dict,
        description="Text under the pages' header: plain text for every language, or a JSON "
        'object by language ({"en": "...", "de": "..."}); a few inline tags kept',
    )
    site_footer_text: Annotated[dict[str, str], NoDecode] = Field(
        default_factory=dict,
        description="Text in the pages' footer, as SITE_HEADER_TEXT",
    )
    root_path: str = Field(default="", description="Path prefix the app is served under")
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["127.0.0.1"]
    )
    db_pool_size: int = Field(default=10, ge=1)
    db_max_overflow: int = Field(default=10, ge=0)
    db_reserved_connections: int | None = Field(
        default=None,
        ge=0,
        description="Connections anonymous reads may not use (kept for signed-in callers and "
        "writes); unset: a quarter of DB_POOL_SIZE + DB_MAX_OVERFLOW",
    )
    db_connect_timeout: float = Field(default=5.0, gt=0)
    db_statement_timeout_ms: int = Field(default=15000, ge=0)
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    # `almanac serve`'s connections (app/core/web/header_deadline.py, app/cli/serve.py).
    http_header_timeout: float = Field(
        default=10.0,
        gt=0,
        description="Seconds a connection has to send a request's headers, from connecting "
        "or from the request's first byte; then it is closed",
    )
    http_keepalive_timeout: int = Field(
        default=5, ge=1, description="Seconds an idle connection is kept open between requests"
    )
    login_failures_limit: int = Field(default=10, ge=1)
    login_failures_window: float = Field(default=60.0, gt=0)
    app_password_pepper: str = Field(default="almanac-app-passwords")
    desk_session_idle_minutes: int = Field(
        default=120,
        ge=1,
        le=525_600,
        description="A desk session ends after this many minutes without a request",
    )
    desk_session_lifetime_hours: int = Field(
        default=24,
        ge=1,
        le=8784,
        description="A desk session ends this many hours after sign-in, however busy",
    )
    log_level: str = Field(default="info")
    log_format: Literal["text", "json"] = Field(
        default="text", description="Log lines as readable text or one JSON object per line"
    )
    metrics_enabled: bool = Field(default=True, description="Serve Prometheus metrics at /metrics")
    db_prepared_statements: bool = Field(
        default=True,
        description="Cache prepared statements per connection; off behind PgBouncer's "
        "transaction pooling",
    )
    replica_max_lag: float = Field(
        default=10.0,
        gt=0,
        description="Seconds the read replica may lag before reads go to the primary",
    )
    replica_check_interval: float = Field(
        default=0.5, gt=0, le=60, description="Seconds between two samples of the replica's lag"
    )
    read_your_writes: bool = Field(
        default=True,
        description="Reads that bring a write's position (header or cookie) see that write",
    )
    read_your_writes_wait: float = Field(
        default=0.2,
        ge=0,
        le=30,
        description="Seconds such a read waits for the replica before it goes to the primary",
    )
    recurrence_horizon_days: int = Field(
        default=730, ge=1, le=36600, description="How far ahead a series' dates are stored (days)"
    )
    recurrence_max_occurrences: int = Field(
        default=1000, ge=1, le=100_000, description="Most dates stored per series"
    )
    default_view: Literal["list", "month", "week", "photo", "summary", "map"] = Field(
        default="list", description="What the public calendar shows at /events/"
    )
    week_start: int | None = Field(
        default=None,
        ge=0,
        le=6,
        description="First day of the month grid's weeks (0 Monday ... 6 Sunday); unset: "
        "the language's own",
    )
    templates_dir: Path | None = Field(
        default=None,
        description="Templates here take precedence over the public pages' built-in ones",
    )
    changes_retention_days: float = Field(
        default=30.0, ge=0, description="How long the changes feed keeps deletions (days)"
    )
    webhooks_enabled: bool = Field(
        default=True, description="Deliver webhooks from this process (a background task)"
    )
    webhooks_retry_schedule: Annotated[list[float], NoDecode] = Field(
        # About three days, growing roughly exponentially (each wait gets +-20% jitter).
        default_factory=lambda: [5.0, 60.0, 300.0, 1800.0, 7200.0, 18e3, 36e3, 50.4e3, 72e3, 72e3],
        min_length=1,
        max_length=50,
        description="Seconds to wait before each retry of a failed delivery (comma-separated)",
    )
    webhooks_timeout: float = Field(
        default=10.0, gt=0, le=60, description="Seconds a receiver has to answer a delivery"
    )
    webhooks_poll_interval: float = Field(
        default=0.5, gt=0, le=60, description="Seconds between two looks for new changes"
    )
    webhooks_max_deferral: float = Field(
        default=4.0,
        ge=0,
        le=60,
        description="Deliveries yield to requests: while its worker serves requests, one "
        "delivery batch per this many seconds goes anyway (0: deliveries never wait)",
    )
    webhooks_allow_private: bool = Field(
        default=False,
        description="Allow receivers on loopback, private and link-local addresses",
    )
    max_upload_bytes: int = Field(
        default=10_485_760, ge=1024, description="Largest image file POST /media accepts (bytes)"
    )
    max_image_pixels: int = Field(
        default=40_000_000,
        ge=1,
        description="Largest image POST /media decodes (width × height): a decompression-bomb "
        "guard below Pillow's own",
    )
    media_dir: Path | None = Field(
        default=None, description="Where uploaded images are stored; unset: $ALMANAC_DATA_DIR/media"
    )
    media_url: str | None = Field(
        default=None,
        description="Public base URL of the stored images (a CDN, or nginx); unset: "
        "almanac's own /media",
    )
    # Places (docs/configuration.md, "Maps and places"): the offline default is the embedded
    # gazetteer (city-level coordinates) and no map tiles; a site chooses any third party.
    geocoder_url: str | None = Field(
        default=None,
        description="A Nominatim-compatible geocoding service for venues' full addresses; "
        "unset: the embedded gazetteer alone (no network)",
    )
    geocoder_user_agent: str = Field(
        default="almanac", max_length=200, description="User-Agent sent to the geocoding service"
    )
    geocoder_retry_minutes: float = Field(
        default=60.0, gt=0, description="Wait before asking the geocoder again for a venue"
    )
    geofence_radius: float = Field(
        default=25.0, gt=0, description="Radius of a search near a place, in km"
    )
    geofence_max_radius: float = Field(
        default=500.0, gt=0, description="Largest `geoloc_radius` a request may ask for, in km"
    )
    map_tiles_url: str = Field(
        default="",
        max_length=500,
        description="Map tiles URL template ({z}/{x}/{y}); empty: no tiles, the list by distance",
    )
    map_tiles_attribution: str = Field(
        default="", max_length=500, description="Attribution shown on maps (the tiles' licence)"
    )

    # Tickets and RSVP (docs/configuration.md, "Tickets and mail"): every message waits in the
    # outbox (PostgreSQL) until a worker sends it; without SMTP_URL they stay there, shown
    # on the desk, and are sent once mail is set up.
    smtp_url: str | None = Field(
        default=None,
        description="Where mail is sent: smtp://[user:password@]host[:port] (STARTTLS when "
        "offered), smtps:// for TLS from the start; unset: messages wait in the outbox",
    )
    mail_from: str = Field(
        default="almanac <calendar@localhost>",
        max_length=300,
        description="The From of every message (a name and an address)",
    )
    mail_retry_schedule: Annotated[list[float], NoDecode] = Field(
        default_factory=lambda: [30.0, 120.0, 600.0, 1800.0, 3600.0, 7200.0, 14400.0, 28800.0],
        min_length=1,
        max_length=50,
        description="Seconds to wait before each retry of a message the mail server refused "
        "or could not take (comma-separated); then the message is left failed, on the desk",
    )
    mail_poll_interval: float = Field(
        default=2.0, gt=0, le=60, description="Seconds between two looks into the outbox"
    )
    mail_timeout: float = Field(
        default=20.0, gt=0, le=120, description="Seconds the mail server has for one message"
    )
    ticket_currency: str = Field(
        default="EUR",
        pattern=r"^[A-Z]{3}$",
        description="ISO 4217 code of tickets' prices (every ticket is free today: price 0)",
    )
    # RSVPs a client address may send per LOGIN_FAILURES_WINDOW, counted in the sign-in
    # throttle's store under a key of their own (app/tickets/rsvp.py).
    rsvp_limit: int = Field(
        default=10, ge=1, description="RSVPs one client address may send per window"
    )

    @field_validator(
        "cors_origins",
        "forwarded_allow_ips",
        "webhooks_retry_schedule",
        "mail_retry_schedule",
        mode="before",
    )
    @classmethod
    def _csv(cls, value: object) -> object:
        return _split_csv(value)

    @field_validator("webhooks_retry_schedule", "mail_retry_schedule")
    @classmethod
    def _positive_waits(cls, value: list[float]) -> list[float]:
        if any(wait <= 0 for wait in value):
            raise ValueError("retry waits must be positive")
        return value

    @field_validator(
        "timezone_mode", "currency_position", "log_format", "default_view", mode="before"
    )
    @classmethod
    def _choice(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("smtp_url")
    @classmethod
    def _smtp_url(cls, value: str | None) -> str | None:
        """Refused at start-up, not at the first message (app/mail/smtp.py reads it)."""
        if value is None or not value.strip():
            return None  # `SMTP_URL=` is unset: messages wait in the outbox
        parts = urlsplit(value.strip())
        try:
            parts.port  # noqa: B018 (a port out of range or not a number raises)
        except ValueError as exc:
            raise ValueError(f"SMTP_URL has a wrong port: {exc}") from exc
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("SMTP_URL must be smtp://[user:password@]host[:port] or smtps://...")
        return value.strip()

    @field_validator("site_accent")
    @classmethod
    def _hex_colour(cls, value: str | None) -> str | None:
        """`#rgb` or `#rrggbb`, kept as `#rrggbb` in lower case; empty is unset."""
        if value is None or not value.strip():
            return None
        digits = value.strip().lstrip("#").lower()
        if not HEX_COLOUR.fullmatch(digits):
            raise ValueError("site_accent must be a colour as #rgb or #rrggbb")
        if len(digits) == 3:
            digits = "".join(digit * 2 for digit in digits)
        return f"#{digits}"

    @field_validator("site_header_text", "site_footer_text", mode="before")
    @classmethod
    def _texts_by_language(cls, value: object) -> object:
        """A JSON object by language, or one text for every language (the default
        language's, which the others fall back to)."""
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text:
            return {}
        if text.startswith("{"):
            try:
                value = json.loads(text)
            except ValueError as exc:
                raise ValueError(f"not a JSON object: {exc}") from exc
            return value
        return {"*": text}

    @field_validator("site_header_text", "site_footer_text")
    @classmethod
    def _known_languages(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - {*LANGUAGES, "*"})
        if unknown:
            raise ValueError(f"unknown languages {', '.join(unknown)}: use {', '.join(LANGUAGES)}")
        if any(len(text) > SITE_TEXT_MAX_LENGTH for text in value.values()):
            raise ValueError(f"a text longer than {SITE_TEXT_MAX_LENGTH} characters")
        return {language: text.strip() for language, text in value.items() if text.strip()}

    @field_validator("site_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    @field_validator("default_language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"default_language must be one of {', '.join(LANGUAGES)}")
        return value

    @field_validator("geocoder_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        """An http(s) URL (the operator's choice: no check of where it leads), or unset."""
        if value is None or not value.strip():
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("geocoder_url must be an http(s)://host[:port][/path] URL")
        return value.strip()

    @field_validator("root_path")
    @classmethod
    def _normalise_root(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        return f"/{value.lstrip('/')}" if value else ""

    def site_text(self, texts: dict[str, str], language: str) -> str:
        """A text of the site's face in `language`: its own, else the default language's,
        else the one text set for every language, else empty."""
        return texts.get(language) or texts.get(self.default_language) or texts.get("*", "")

    @property
    def media_root(self) -> Path:
        return self.media_dir or self.almanac_data_dir / "media"

    @property
    def site_zone(self) -> tzinfo:
        # The same object the driver puts on UTC timestamps: formatting skips a conversion.
        return UTC if self.site_timezone == "UTC" else ZoneInfo(self.site_timezone)

    @property
    def list_dates_in_utc(self) -> bool:
        """Whether event list dates compare UTC instants (the reference's rule: a UTC site,
        or the "site" time-zone mode) rather than event-local wall times."""
        return self.site_timezone in UTC_NAMES or self.timezone_mode == "site"


@lru_cache
def get_settings() -> Settings:
    return Settings()
