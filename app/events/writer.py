"""Creating and updating events: one transaction, every link or none."""

from collections.abc import Sequence
from typing import Any

from app.core.errors import InvalidParams, MissingParams, Problems, invalid, note, unknown_ids
from app.core.rules.html import Markup
from app.core.rules.permissions import (
    Principal,
    TermAction,
    can_manage_terms,
    can_post_unfiltered_html,
)
from app.core.web.refusals import Refused
from app.events.commands import CostValue, EventWrite, TermRef
from app.events.cost import Currency, cost_columns
from app.events.linked import LinkedPosts
from app.events.occurrences import series_store
from app.events.params import REQUIRED_ON_CREATE, EventWriteParams
from app.events.records import EventRecord, Schedule
from app.events.recurrence import parse_recurrence
from app.events.repository.events import EventRepository
from app.events.repository.links import LinkRows
from app.events.schedule import schedule, valid_website
from app.http.context import RequestContext
from app.http.params import check, refused_values
from app.models import CATEGORY, TAG
from app.posts.writer import common_columns
from app.terms.repository import DuplicateName, Resolved, TermRepository

FLAGS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured")
TEXTS = ("title", "description", "excerpt")
MAX_TERM_NAME = 200
SCHEDULE_FIELDS = ("start_date", "end_date", "timezone", "all_day")
TERM_KINDS = {CATEGORY: "category", TAG: "tag"}
# What a create must send, by the command's fields.
REQUIRED = {"title": "title", "start_date": "start", "end_date": "end"}


class EventWriter:
    def __init__(self, ctx: RequestContext, user: Principal) -> None:
        self.ctx = ctx
        self.user = user
        self.repo = EventRepository(ctx.session, ctx.language, ctx.settings.default_language)
        self.markup = Markup(can_post_unfiltered_html(user))
        self.series = series_store(ctx)
        self.linked = LinkedPosts(ctx, user)

    async def create(self, command: EventWrite) -> int:
        problems = _refusals(command)
        missing = [
            name
            for name in REQUIRED_ON_CREATE
            if getattr(command, REQUIRED[name]) is None and name not in problems
        ]
        if missing:
            raise MissingParams(missing)
        await self.linked.look_up(venue=command.venue, organizers=command.organizers)
        columns = await self._columns(command, problems, current=None)
        texts = self._texts(command, problems, creating=True)
        links = await self._resolve_links(command, problems)
        problems.raise_any()  # every invalid parameter in one 400, before anything is written
        slug = command.post.slug or texts["title"]
        event_id = await self.repo.insert(columns, texts, slug=slug, links=_event_links(links))
        if columns.get("recurrence"):
            await self.series.materialise(event_id)
        return event_id

    async def update(self, current: EventRecord, command: EventWrite) -> None:
        problems = _refusals(command)
        await self.linked.look_up(venue=command.venue, organizers=command.organizers)
        columns = await self._columns(command, problems, current=current)
        texts = self._texts(command, problems, creating=False)
        links = await self._resolve_links(command, problems)
        problems.raise_any()
        target = current.content_id or current.id
        await self.repo.update(target, columns, texts, slug=command.post.slug)
        await self._link(target, links, replace=True)
        if target != current.series_id:  # an override: what it changed is its own now
            await self.series.mark_overridden(target, command.sent())
            return
        recurring = columns.get("recurrence", current.recurrence)
        if recurring or current.recurrence:
            # A series (or one that was): its dates, then its overrides follow it.
            await self.series.materialise(target)
            await self.series.follow(target)

    # ---- pieces --------------------------------------------------------------------

    def _texts(self, command: EventWrite, problems: Problems, *, creating: bool) -> dict[str, str]:
        """The texts sent (all of them on create), markup sanitised for callers without
        unfiltered HTML; the slug comes from the sanitised title."""
        texts = {name: getattr(command, name) for name in TEXTS}
        if creating:
            texts = {name: text or "" for name, text in texts.items()}
        cleaned = {
            name: self.markup.inline(text).strip() if name == "title" else self.markup.html(text)
            for name, text in texts.items()
            if text is not None
        }
        if cleaned.get("title") == "" and "title" not in problems:  # nothing left but markup
            problems.add("title", note("only_markup", name="title"))
        return cleaned

    async def _columns(
        self, command: EventWrite, problems: Problems, current: EventRecord | None
    ) -> dict[str, Any]:
        """The event's columns from what was sent; what is invalid goes to `problems`."""
        columns: dict[str, Any] = {}
        site_timezone = self.ctx.settings.site_timezone
        if command.recurrence is not None:
            columns["recurrence"] = list(command.recurrence) or None
        if not any(name in problems for name in SCHEDULE_FIELDS):
            with problems.gather():
                was = Schedule.of(current) if current else None
                when = schedule(command, site_timezone, was) or was
                assert when is not None  # the dates are required on create
                columns.update(when.columns())
                lines = columns.get("recurrence", current.recurrence if current else None)
                if lines and (command.recurrence is not None or when is not was):
                    parse_recurrence(lines, when.start_local, when.timezone)  # 400 if bad
        with problems.gather():
            columns.update(
                await common_columns(
                    self.ctx.session,
                    self.user,
                    command.post,
                    current=current,
                    current_published=current.published_at if current else None,
                    problems=problems,
                )
            )
        flags = {flag: getattr(command, flag) for flag in FLAGS}
        columns.update({flag: value for flag, value in flags.items() if value is not None})
        if command.website is not None:
            website = command.website
            if not valid_website(website):
                problems.add("website", note("bad_url", name="website"))
            columns["website"] = website.strip() or None
        with problems.gather():
            if command.cost is not None or current is None:
                currency = Currency.of(self.ctx.settings)
                columns.update(cost_columns(self._cost(command.cost), currency))
        with problems.gather():
            if command.venue is not None:
                columns["venue_id"] = await self.linked.venue(command.venue)
        return columns

    def _cost(self, cost: CostValue | Refused | None) -> CostValue | None:
        """The cost's texts without markup (they are shown as the display cost)."""
        if isinstance(cost, Refused):
            raise invalid("cost", cost.note)
        if isinstance(cost, str):
            return self.markup.plain(cost)
        if isinstance(cost, list):
            return [self.markup.plain(item) if isinstance(item, str) else item for item in cost]
        return cost

    async def _resolve_links(self, command: EventWrite, problems: Problems) -> dict[str, list[int]]:
        """Term and organizer IDs to link, by field (those sent); new terms are created.
        The terms of both taxonomies are looked up in one statement."""
        refs: dict[str, list[TermRef]] = {}
        for name, taxonomy in (("categories", CATEGORY), ("tags", TAG)):
            sent: Sequence[TermRef] | Refused | None = getattr(command, name)
            if isinstance(sent, Refused):
                problems.add(name, sent.note)
            elif sent is not None:
                refs[taxonomy] = list(sent)
        links: dict[str, list[int]] = {}
        repo = TermRepository(
            self.ctx.session, None, self.ctx.language, self.ctx.settings.default_language
        )
        resolved = await repo.resolve_each(refs) if refs else {}
        for name, taxonomy in (("categories", CATEGORY), ("tags", TAG)):
            if taxonomy in resolved:
                with problems.gather():
                    links[name] = await self._term_ids(name, taxonomy, resolved[taxonomy])
        if command.organizers is not None:
            with problems.gather():
                links["organizer"] = await self.linked.organizers(command.organizers)
        return links

    async def _link(self, event_id: int, links: dict[str, list[int]], *, replace: bool) -> None:
        await self.repo.link(event_id, _event_links(links), replace=replace)

    async def _term_ids(self, name: str, taxonomy: str, resolved: Resolved) -> list[int]:
        """The IDs of the terms named (IDs, slugs or names, resolved), in order. Unknown
        names become new terms when the caller may manage that taxonomy."""
        found, unknown, unknown_names = resolved
        if unknown:
            raise invalid(name, unknown_ids(name, TERM_KINDS[taxonomy], unknown))
        action: TermAction = "manage_categories" if taxonomy == CATEGORY else "manage_tags"
        if unknown_names and not can_manage_terms(self.user, action):
            refs_text = ", ".join(unknown_names)
            raise invalid(name, note("cannot_create_terms", name=name, refs=refs_text))
        repo = TermRepository(
            self.ctx.session, taxonomy, self.ctx.language, self.ctx.settings.default_language
        )
        for new_name in unknown_names:
            if len(new_name) > MAX_TERM_NAME:
                raise InvalidParams({name: ("too_long", {"name": name, "max": MAX_TERM_NAME})})
            clean_name = self.markup.inline(new_name).strip()
            check(name, clean_name != "", note("only_markup", name=name))
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


def _refusals(command: EventWrite) -> Problems:
    """What the door refused, then what the write's limits refuse of the values a door did
    not read (the desk's)."""
    problems = Problems()
    command.refused.into(problems)
    for name, why in refused_values(EventWriteParams, command.values()).items():
        problems.add(name, why)
    return problems


def _event_links(links: dict[str, list[int]]) -> LinkRows:
    """The links a write sends, by what the repository replaces: the terms of the taxonomies
    sent, and the organizers when sent."""
    taxonomies = [
        taxonomy for name, taxonomy in (("categories", CATEGORY), ("tags", TAG)) if name in links
    ]
    terms = [term_id for name in ("categories", "tags") for term_id in links.get(name, [])]
    return LinkRows(
        taxonomies=taxonomies,
        term_ids=list(dict.fromkeys(terms)),
        organizer_ids=links.get("organizer"),
    )
