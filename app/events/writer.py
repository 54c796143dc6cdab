"""Creating, updating and deleting events: one transaction, every link or none."""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.dates import parse_zone
from app.core.errors import InvalidParams, invalid
from app.core.permissions import (
    Principal,
    Role,
    TermAction,
    can_manage_terms,
    can_publish,
    scale_status,
)
from app.core.settings import Settings
from app.core.slugs import candidates, make_slug
from app.core.sql import (
    MAX_SLUG_ATTEMPTS,
    in_savepoint,
    insert_with_unique_slug,
    taken_slugs,
    upsert_translation,
    violated_constraint,
)
from app.events.input import (
    EventWriteParams,
    Schedule,
    cost_columns,
    publication_date,
    schedule,
    valid_website,
)
from app.events.linked import MAX_LINKED, LinkedPosts
from app.events.repository import EventRecord
from app.http.params import decimal
from app.models import (
    CATEGORY,
    TAG,
    Event,
    EventTranslation,
    Term,
    User,
    event_organizers,
    event_terms,
)
from app.posts.images import resolve_image
from app.terms.repository import DuplicateName, TermRepository

SLUG_CONSTRAINT = "events_slug_key"
FLAGS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured")
TEXTS = ("title", "description", "excerpt")


@dataclass
class EventWriter:
    session: AsyncSession
    user: Principal
    language: str
    settings: Settings

    @property
    def translated(self) -> bool:
        return self.language != self.settings.default_language

    async def create(self, params: EventWriteParams) -> int:
        new_schedule = schedule(params, self.settings)
        assert new_schedule is not None
        columns = await self._columns(params, new_schedule, current=None)
        columns.setdefault("published_at", datetime.now(UTC))
        columns["status"] = self._status(params.status, None, columns["published_at"])
        columns.setdefault("author_id", self.user.id)
        texts = {name: getattr(params, name) or "" for name in TEXTS}
        base = make_slug(params.slug or texts["title"])
        taken = await taken_slugs(self.session, Event.slug, base)

        def build(slug: str) -> Event:
            return Event(slug=slug, **texts, **columns)

        event = await insert_with_unique_slug(self.session, build, base, taken, SLUG_CONSTRAINT)
        if self.translated:
            await self._save_translation(event.id, texts)
        await self._links(event.id, params, replace=False)
        return event.id

    async def update(self, current: EventRecord, params: EventWriteParams) -> None:
        current_schedule = Schedule(
            start_at=current.start_at,
            end_at=current.end_at,
            start_local=current.start_local,
            end_local=current.end_local,
            timezone=current.timezone,
            timezone_abbr=current.timezone_abbr,
            all_day=current.all_day,
        )
        new_schedule = schedule(params, self.settings, current_schedule)
        columns = await self._columns(params, new_schedule or current_schedule, current=current)
        if params.status is not None or "published_at" in columns:
            published = columns.get("published_at", current.published_at)
            requested = params.status if params.status is not None else current.status
            columns["status"] = self._status(requested, current.status, published)
        texts = {name: getattr(params, name) for name in TEXTS if getattr(params, name) is not None}
        if texts and not self.translated:
            columns.update(texts)
        columns["modified_at"] = datetime.now(UTC)
        await self.session.execute(update(Event).where(Event.id == current.id).values(**columns))
        if params.slug is not None:
            await self._rename(current.id, make_slug(params.slug))
        if texts and self.translated:
            await self._save_translation(current.id, texts)
        await self._links(current.id, params, replace=True)

    async def trash(self, event_id: int) -> None:
        await self.session.execute(
            update(Event)
            .where(Event.id == event_id)
            .values(status="trash", modified_at=datetime.now(UTC))
        )

    async def delete(self, event_id: int) -> None:
        await self.session.execute(delete(Event).where(Event.id == event_id))

    # ---- pieces --------------------------------------------------------------------

    def _status(self, requested: str | None, current: str | None, published: datetime) -> str:
        status = scale_status(self.user, requested)
        if current == status:
            return status
        now = datetime.now(UTC)
        # WordPress: publishing with a future date schedules; a past date publishes.
        if status == "publish" and published > now:
            return "future"
        if status == "future" and published <= now:
            return "publish" if can_publish(self.user) else "pending"
        return status

    async def _columns(
        self, params: EventWriteParams, new_schedule: Schedule, current: EventRecord | None
    ) -> dict[str, Any]:
        columns: dict[str, Any] = dict(new_schedule.columns())
        published = publication_date(params, self.settings, parse_zone(new_schedule.timezone))
        if published is not None:
            columns["published_at"] = published
        if params.author is not None:
            columns["author_id"] = await self._author(params.author)
        for flag in FLAGS:
            value = getattr(params, flag)
            if value is not None:
                columns[flag] = value
        sent = params.model_fields_set  # a field sent as null clears it
        if "website" in sent:
            website = params.website or ""
            if not valid_website(website):
                raise invalid("website")
            columns["website"] = website.strip() or None
        if "cost" in sent or current is None:
            columns.update(cost_columns(params.cost))
        if "image" in sent:
            columns["image_id"] = await resolve_image(self.session, params.image)
        if params.password is not None:
            columns["password"] = params.password or None
        if "venue" in sent:
            columns["venue_id"] = await LinkedPosts(self.session, self.user, self.language).venue(
                params.venue
            )
        return columns

    async def _author(self, author: int) -> int:
        exists = await self.session.scalar(select(User.id).where(User.id == author))
        if exists is None:
            raise invalid("author")
        if author != self.user.id and not self.user.at_least(Role.EDITOR):
            raise invalid("author")
        return author

    async def _rename(self, event_id: int, base: str) -> None:
        """The first free slug of `base`, `base-2`...; one taken meanwhile by a concurrent
        writer is reported by the unique constraint, and the next candidate is tried."""
        taken = await taken_slugs(self.session, Event.slug, base, Event.id != event_id)
        for attempt, slug in enumerate(candidates(base, taken)):
            if attempt >= MAX_SLUG_ATTEMPTS:
                break
            rename = update(Event).where(Event.id == event_id).values(slug=slug)
            try:
                await in_savepoint(self.session, lambda rename=rename: self.session.execute(rename))  # type: ignore[misc]
            except IntegrityError as exc:
                if violated_constraint(exc) == SLUG_CONSTRAINT:
                    continue
                raise
            return
        raise RuntimeError(f"no free slug for {base!r}")

    async def _save_translation(self, event_id: int, texts: dict[str, Any]) -> None:
        key = {"event_id": event_id, "language": self.language}
        await upsert_translation(self.session, EventTranslation, key, texts)

    async def _links(self, event_id: int, params: EventWriteParams, *, replace: bool) -> None:
        for name, taxonomy in (("categories", CATEGORY), ("tags", TAG)):
            if name not in params.model_fields_set:
                continue
            raw = getattr(params, name)
            term_ids = await self._term_ids(name, taxonomy, raw)
            if replace:
                await self._unlink_terms(event_id, taxonomy)
            if term_ids:
                await self.session.execute(
                    insert(event_terms),
                    [{"event_id": event_id, "term_id": term_id} for term_id in term_ids],
                )
        if "organizer" in params.model_fields_set:
            organizer_ids = await LinkedPosts(self.session, self.user, self.language).organizers(
                params.organizer
            )
            if replace:
                await self.session.execute(
                    delete(event_organizers).where(event_organizers.c.event_id == event_id)
                )
            if organizer_ids:
                await self.session.execute(
                    insert(event_organizers),
                    [
                        {"event_id": event_id, "organizer_id": oid, "position": position}
                        for position, oid in enumerate(organizer_ids)
                    ],
                )

    async def _unlink_terms(self, event_id: int, taxonomy: str) -> None:
        await self.session.execute(
            delete(event_terms).where(
                event_terms.c.event_id == event_id,
                event_terms.c.term_id.in_(select(Term.id).where(Term.taxonomy == taxonomy)),
            )
        )

    async def _term_ids(self, name: str, taxonomy: str, raw: Any) -> list[int]:
        """IDs, slugs or names (a list or a comma-separated string); "" or [] clear."""
        if raw in (None, "", []):
            return []
        items = raw if isinstance(raw, list) else [raw]
        refs: list[int | str] = []
        for item in items:
            if isinstance(item, bool) or not isinstance(item, int | str):
                raise invalid(name)
            if isinstance(item, int):
                if not 0 < item < 2**62:
                    raise invalid(name)
                refs.append(item)
            else:
                for part in item.split(","):
                    part = part.strip()
                    if part.isascii() and part.isdigit():
                        number = decimal(part)
                        if number is None or not 0 < number < 2**62:
                            raise invalid(name)
                        refs.append(number)
                    elif part:
                        refs.append(part)
        if len(refs) > MAX_LINKED:
            raise InvalidParams({name: ("too_many_items", {"name": name, "max": MAX_LINKED})})
        repo = TermRepository(self.session, taxonomy, self.language, self.settings.default_language)
        found, unknown_ids, unknown_names = await repo.resolve(refs)
        if unknown_ids:
            raise invalid(name)
        action: TermAction = "manage_categories" if taxonomy == CATEGORY else "manage_tags"
        if unknown_names and not can_manage_terms(self.user, action):
            raise invalid(name)
        for new_name in unknown_names:
            if len(new_name) > 200:
                raise InvalidParams({name: ("too_long", {"name": name, "max": 200})})
            try:
                term_id = await repo.create(
                    name=new_name, description="", slug=None, parent_id=None
                )
            except DuplicateName as exc:  # created meanwhile by a concurrent request
                if exc.term_id is None:
                    raise
                term_id = exc.term_id
            found.append(term_id)
        return list(dict.fromkeys(found))
