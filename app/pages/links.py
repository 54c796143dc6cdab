"""The pages' URLs, in one place: the language prefix (none for the default language, `/de`
or `/sk` for the others), page paths, and the API's public `url` fields moved into the page's
language."""

from dataclasses import dataclass
from datetime import date
from typing import Any

from app.core.web.urls import Urls, encode_query
from app.i18n import LANGUAGES

SITE_VIEWS = "/events"  # the base of the site-wide views (a term's: /events/category/<slug>)


@dataclass(frozen=True, slots=True)
class PageLinks:
    urls: Urls
    language: str
    default_language: str

    @staticmethod
    def prefix_of(language: str, default_language: str) -> str:
        return "" if language == default_language else f"/{language}"

    @property
    def prefix(self) -> str:
        return self.prefix_of(self.language, self.default_language)

    def page(self, path: str, query: dict[str, Any] | None = None) -> str:
        """The absolute URL of a page, in this page's language."""
        url = f"{self.urls.site}{self.prefix}{path}"
        return f"{url}?{encode_query(query)}" if query else url

    def day(self, base: str, day: date, query: dict[str, Any] | None = None) -> str:
        """A day view: the site's (`/events/YYYY-MM-DD/`) or, under a category's or tag's
        `base`, theirs (`<base>/day/YYYY-MM-DD/`, the reference's path); with `query` (the
        filter bar's values, app/pages/filter_bar.py)."""
        if base == SITE_VIEWS:
            return self.page(f"{base}/{day.isoformat()}/", query)
        return self.page(f"{base}/day/{day.isoformat()}/", query)

    def in_language(self, language: str, path: str) -> str:
        """The same page in another language (hreflang alternates, the language menu)."""
        return f"{self.urls.site}{self.prefix_of(language, self.default_language)}{path}"

    def alternates(self, path: str) -> list[tuple[str, str]]:
        return [(language, self.in_language(language, path)) for language in LANGUAGES]

    def localize(self, url: str) -> str:
        """An API body's public `url` (in the default language) as this page's language."""
        site = self.urls.site
        if self.prefix and url.startswith(f"{site}/"):
            return f"{site}{self.prefix}{url[len(site) :]}"
        return url

    def asset(self, name: str) -> str:
        """Assets are the same in every language (one cached copy)."""
        return f"{self.urls.site}/assets/{name}"

    def api(self, path: str, query: dict[str, Any] | None = None) -> str:
        return self.urls.rest(path, query)
