"""Writing one source record as a local one, through the resource repositories (the same
inserts, slug rules, link tables and translations the API's writers use).

Imported content is treated as written by the owner: markup is kept or sanitised by the
owner's role (app/core/rules/html.py), as for the API's writes. What the API would decide for
itself comes from the source instead: the slug as it is, the status, the publication and
modification dates, the cost as the source displays it. Each function here runs inside the
caller's transaction; the caller commits the record together with its mapping row.
"""

from dataclasses import dataclass
from typing import Any

from app.core.database.engine import Session
from app.core.errors import note
from app.core.rules.dates import parse_zone
from app.core.rules.html import Markup
from app.core.rules.permissions import Principal, can_post_unfiltered_html
from app.core.rules.slugs import make_slug
from app.events.door import event_write
from app.events.repository.events import EventRepository
from app.events.repository.links import LinkRows
from app.events.schedule import schedule
from app.geo import gazetteer
from app.http.params import check
from app.importer.repository import ImportRepository
from app.importer.source import (
    SourceEvent,
    SourceImage,
    SourceOrganizer,
    SourcePost,
    SourceTerm,
    SourceVenue,
)
from app.models import CATEGORY, TAG
from app.organizers.repository import OrganizerRepository
from app.posts.images import url_extension
from app.posts.repository import ImageRepository, PostRepository
from app.terms.repository import DuplicateName, DuplicateSlug, TermRepository
from app.venues.placing import imported_place
from app.venues.repository import VenueRepository

TAXONOMIES = {"category": CATEGORY, "tag": TAG}
VENUE_TEXTS = (
    "address", "city", "country", "province", "state", "zip", "phone", "stateprovince",
)  # fmt: skip
EVENT_FLAGS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured")


@dataclass(frozen=True, slots=True)
class EventLinks:
    """The local IDs an event links to."""

    venue: int | None
    organizers: list[int]
    categories: list[int]
    tags: list[int]


class RecordWriter:
    """Writes records of one source into one transaction's session."""

    def __init__(
        self, session: Session, source: str, owner: Principal, language: str, zone: str
    ) -> None:
        self.session = session
        self.owner = owner
        self.language = language
        self.site_timezone = zone
        self.markup = Markup(can_post_unfiltered_html(owner))
        self.imports = ImportRepository(session, source)

    # ---- terms ----------------------------------------------------------------------

    async def term(
        self, kind: str, term: SourceTerm, local_id: int | None, parent_id: int | None
    ) -> int:
        """Create or update a category or tag. A new term named like an existing local one
        under the same parent becomes that term (merging into a site in use)."""
        repo = TermRepository(self.session, TAXONOMIES[kind], self.language, self.language)
        name = self.markup.inline(term.name).strip()
        check("name", name != "", note("not_empty", name="name"))
        description = self.markup.html(term.description)
        if local_id is None:
            try:
                return await repo.create(
                    name=name, description=description, slug=term.slug, parent_id=parent_id
                )
            except DuplicateName as exc:
                if exc.term_id is None:
                    raise
                local_id = exc.term_id
        changes = {"name": name, "description": description, "parent_id": parent_id}
        try:
            await repo.update(local_id, {**changes, "slug": term.slug})
        except DuplicateSlug:  # another local term has the slug: this one keeps its own
            await repo.update(local_id, changes)
        return local_id

    # ---- venues and organizers ------------------------------------------------------

    async def venue(self, venue: SourceVenue, local_id: int | None) -> int:
        own: dict[str, Any] = {
            name: self.markup.plain(getattr(venue, name)) for name in VENUE_TEXTS
        }
        own.update(
            website=venue.website.strip(),
            show_map=venue.show_map,
            show_map_link=venue.show_map_link,
        )
        repo = VenueRepository(self.session, self.language, self.language)
        current = None if local_id is None else await repo.get(local_id)
        await gazetteer.ready()
        own = imported_place(own, venue.geo_lat, venue.geo_lng, current)
        return await self._post("venue", repo, venue, venue.venue, own, local_id)

    async def organizer(self, organizer: SourceOrganizer, local_id: int | None) -> int:
        own = {
            "phone": self.markup.plain(organizer.phone),
            "website": organizer.website.strip(),
            "email": self.markup.plain(organizer.email),
        }
        repo = OrganizerRepository(self.session, self.language, self.language)
        return await self._post("organizer", repo, organizer, organizer.organizer, own, local_id)

    async def _post(
        self,
        kind: str,
        repo: PostRepository[Any],
        record: SourcePost,
        name: str,
        own: dict[str, Any],
        local_id: int | None,
    ) -> int:
        texts = self._texts(record, name_field="name", name=name)
        columns = {**await self._common(record), **own}
        if local_id is None:
            created = await repo.create(columns, texts, slug=record.slug or texts["name"])
            await self._keep_source_fields(kind, created, record, created=True)
            return created
        await repo.update(local_id, columns, texts)
        await self._keep_source_fields(kind, local_id, record, created=False)
        return local_id

    # ---- events ---------------------------------------------------------------------

    async def event(self, event: SourceEvent, links: EventLinks, local_id: int | None) -> int:
        columns = {**event_schedule(event, self.site_timezone), **await self._common(event)}
        columns.update({flag: getattr(event, flag) for flag in EVENT_FLAGS})
        columns.update(
            cost=self.markup.plain(event.cost),
            cost_details=cost_details(event.cost_details),
            website=event.own_website,
            venue_id=links.venue,
        )
        texts = self._texts(event, name_field="title", name=event.title)
        repo = EventRepository(self.session, self.language, self.language)
        replace = local_id is not None
        linked = LinkRows(
            taxonomies=[CATEGORY, TAG],
            term_ids=[*links.categories, *links.tags],
            organizer_ids=links.organizers,
        )
        if local_id is None:
            slug = event.slug or texts["title"]
            local_id = await repo.insert(columns, texts, slug=slug, links=linked)
        else:
            await repo.update(local_id, columns, texts, slug=None)
            await repo.link(local_id, linked, replace=True)
        await self._keep_source_fields("event", local_id, event, created=not replace)
        return local_id

    # ---- pieces ---------------------------------------------------------------------

    def _texts(self, record: SourcePost, *, name_field: str, name: str) -> dict[str, str]:
        """Names and titles are text (entities already decoded); descriptions keep HTML."""
        clean_name = self.markup.inline(name).strip()
        check(name_field, clean_name != "", note("not_empty", name=name_field))
        return {
            name_field: clean_name,
            "description": self.markup.html(record.description),
            "excerpt": self.markup.html(record.excerpt),
        }

    async def _common(self, record: SourcePost) -> dict[str, Any]:
        columns: dict[str, Any] = {
            "status": record.status,
            "author_id": self.owner.id,
            "password": record.password or None,
            "image_id": await self._image(record.image),
        }
        if record.date_utc is not None:
            columns["published_at"] = record.date_utc
        if record.modified is not None:
            columns["modified_at"] = record.modified  # a create keeps it; an update sets it later
        return columns

    async def _image(self, image: SourceImage | None) -> int | None:
        """The image by URL (never fetched), with the dimensions the source gave."""
        if image is None:
            return None
        url = image.url.strip()
        image_id = await ImageRepository(self.session).record_url(
            url, (image.extension or url_extension(url))[:20]
        )
        await self.imports.image_size(image_id, image.width, image.height)
        return image_id

    async def _keep_source_fields(
        self, kind: str, local_id: int, record: SourcePost, *, created: bool
    ) -> None:
        """After an update (which moves `modified_at`), or a create whose slug the
        repository's slug rule may have changed: the source's slug and dates again."""
        if created and (not record.slug or make_slug(record.slug) == record.slug):
            return  # inserted with the source's dates, under its slug or the next free -N
        await self.imports.keep_source_fields(
            kind,
            local_id,
            slug=record.slug,
            published=record.date_utc,
            modified=record.modified,
        )


def event_schedule(event: SourceEvent, site_timezone: str) -> dict[str, Any]:
    """The schedule columns, read the way the API reads a write's dates (400-style errors
    name the bad field)."""
    command = event_write(
        {
            "start_date": event.start_date,
            "end_date": event.end_date,
            "timezone": event.timezone or None,
            "all_day": event.all_day,
        },
        parse_zone(site_timezone),
    )
    command.refused.raise_any()
    when = schedule(command, site_timezone)
    assert when is not None  # the dates are given
    return when.columns()


def cost_details(details: dict[str, Any]) -> dict[str, Any]:
    """The source's cost details in the reference's shape (values as strings)."""
    values = details.get("values") or []
    return {
        "currency_symbol": str(details.get("currency_symbol") or ""),
        "currency_code": str(details.get("currency_code") or ""),
        "currency_position": str(details.get("currency_position") or ""),
        "values": [str(value) for value in values] if isinstance(values, list) else [],
    }
