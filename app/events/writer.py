"""Creating and updating events: one transaction, every link or none."""

from typing import Any

from app.core.constants import MAX_ID
from app.core.errors import InvalidParams, MissingParams, invalid
from app.core.html import Markup
from app.core.permissions import (
    Principal,
    TermAction,
    can_manage_terms,
    can_post_unfiltered_html,
)
from app.events.cost import Currency, cost_columns
from app.events.linked import LinkedPosts
from app.events.params import MAX_LINKED, REQUIRED_ON_CREATE, EventWriteParams
from app.events.repository import EventRecord, EventRepository
from app.events.schedule import Schedule, schedule, valid_website
from app.http.context import RequestContext
from app.http.params import RawParams, check, decimal, parse
from app.models import CATEGORY, TAG
from app.posts.writer import common_columns
from app.terms.repository import DuplicateName, TermRepository

FLAGS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured")
TEXTS = ("title", "description", "excerpt")
MAX_TERM_NAME = 200


class EventWriter:
    def __init__(self, ctx: RequestContext, user: Principal) -> None:
        self.ctx = ctx
        self.user = user
        self.repo = EventRepository(ctx.session, ctx.language, ctx.settings.default_language)
        self.markup = Markup(can_post_unfiltered_html(user))

    async def create(self, raw: RawParams) -> int:
        params = parse(EventWriteParams, raw)
        missing = [name for name in REQUIRED_ON_CREATE if getattr(params, name) is None]
        if missing:
            raise MissingParams(missing)
        when = schedule(params, self.ctx.settings.site_timezone)
        assert when is not None  # the dates are required
        columns = await self._columns(params, when, current=None)
        texts = self._texts(params, creating=True)
        event_id = await self.repo.insert(columns, texts, slug=params.slug or texts["title"])
        await self._links(event_id, params, replace=False)
        return event_id

    async def update(self, current: EventRecord, raw: RawParams) -> None:
        params = parse(EventWriteParams, raw)
        when = schedule(params, self.ctx.settings.site_timezone, Schedule.of(current))
        columns = await self._columns(params, when or Schedule.of(current), current=current)
        texts = self._texts(params, creating=False)
        await self.repo.update(current.id, columns, texts, slug=params.slug)
        await self._links(current.id, params, replace=True)

    # ---- pieces --------------------------------------------------------------------

    def _texts(self, params: EventWriteParams, *, creating: bool) -> dict[str, str]:
        """The texts sent (all of them on create), markup sanitised for callers without
        unfiltered HTML; the slug comes from the sanitised title."""
        texts = {name: getattr(params, name) for name in TEXTS}
        if creating:
            texts = {name: text or "" for name, text in texts.items()}
        cleaned = {
            name: self.markup.inline(text).strip() if name == "title" else self.markup.html(text)
            for name, text in texts.items()
            if text is not None
        }
        if "title" in cleaned:
            check("title", cleaned["title"] != "")  # nothing left but markup
        return cleaned

    async def _columns(
        self, params: EventWriteParams, when: Schedule, current: EventRecord | None
    ) -> dict[str, Any]:
        columns: dict[str, Any] = dict(when.columns())
        columns.update(
            await common_columns(
                self.ctx.session,
                self.user,
                params,
                zone=self.ctx.settings.site_zone,
                current=current,
                current_published=current.published_at if current else None,
            )
        )
        flags = {flag: getattr(params, flag) for flag in FLAGS}
        columns.update({flag: value for flag, value in flags.items() if value is not None})
        sent = params.model_fields_set  # a field sent as null clears it
        if "website" in sent:
            website = params.website or ""
            if not valid_website(website):
                raise invalid("website")
            columns["website"] = website.strip() or None
        if "cost" in sent or current is None:
            currency = Currency.of(self.ctx.settings)
            columns.update(cost_columns(self._cost(params.cost), currency))
        if "venue" in sent:
            columns["venue_id"] = await LinkedPosts(self.ctx, self.user).venue(params.venue)
        return columns

    def _cost(self, raw: Any) -> Any:
        """The cost's texts without markup (they are shown as the display cost)."""
        if isinstance(raw, str):
            return self.markup.plain(raw)
        if isinstance(raw, list):
            return [self.markup.plain(item) if isinstance(item, str) else item for item in raw]
        return raw

    async def _links(self, event_id: int, params: EventWriteParams, *, replace: bool) -> None:
        sent = params.model_fields_set
        for name, taxonomy in (("categories", CATEGORY), ("tags", TAG)):
            if name in sent:
                term_ids = await self._term_ids(name, taxonomy, getattr(params, name))
                await self.repo.link_terms(event_id, taxonomy, term_ids, replace=replace)
        if "organizer" in sent:
            organizer_ids = await LinkedPosts(self.ctx, self.user).organizers(params.organizer)
            await self.repo.link_organizers(event_id, organizer_ids, replace=replace)

    async def _term_ids(self, name: str, taxonomy: str, raw: Any) -> list[int]:
        """IDs, slugs or names (a list or a comma-separated string); "" or [] clear. Unknown
        names become new terms when the caller may manage that taxonomy."""
        refs = _term_refs(name, raw)
        repo = TermRepository(
            self.ctx.session, taxonomy, self.ctx.language, self.ctx.settings.default_language
        )
        found, unknown_ids, unknown_names = await repo.resolve(refs)
        if unknown_ids:
            raise invalid(name)
        action: TermAction = "manage_categories" if taxonomy == CATEGORY else "manage_tags"
        if unknown_names and not can_manage_terms(self.user, action):
            raise invalid(name)
        for new_name in unknown_names:
            if len(new_name) > MAX_TERM_NAME:
                raise InvalidParams({name: ("too_long", {"name": name, "max": MAX_TERM_NAME})})
            clean_name = self.markup.inline(new_name).strip()
            check(name, clean_name != "")  # nothing left but markup
            try:
                term_id = await repo.create(
                    name=clean_name, description="", slug=None, parent_id=None
                )
            except DuplicateName as exc:  # created meanwhile by a concurrent request
                if exc.term_id is None:
                    raise
                term_id = exc.term_id
            found.append(term_id)
        return list(dict.fromkeys(found))


def _term_refs(name: str, raw: Any) -> list[int | str]:
    """Term references of a write's `categories`/`tags`: IDs or texts, 400 naming `name`."""
    if raw in (None, "", []):
        return []
    refs: list[int | str] = []
    for item in raw if isinstance(raw, list) else [raw]:
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise invalid(name)
        parts = [item] if isinstance(item, int) else [p.strip() for p in item.split(",")]
        for part in parts:
            if isinstance(part, str) and part.isascii() and part.isdigit():
                part = decimal(part) or 0  # too long to be an ID: refused below, as 0 is
            if isinstance(part, int) and not 0 < part <= MAX_ID:
                raise invalid(name)
            if part != "":
                refs.append(part)
    if len(refs) > MAX_LINKED:
        raise InvalidParams({name: ("too_many_items", {"name": name, "max": MAX_LINKED})})
    return refs
