"""`GET /events` parameters and their translation into one filter object (reference §5,
DESIGN §8): the default window, day widening, strict dates and status visibility."""

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Annotated, Any, Literal

from dateutil.relativedelta import relativedelta
from pydantic import BeforeValidator, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.dates import DATETIME_FORMAT, parse_when
from app.core.errors import InvalidParams, invalid
from app.core.permissions import STATUSES, User, can_create_posts, can_see_all_statuses, may
from app.core.settings import Settings
from app.events.repository import EventListFilters, event_ownership
from app.http.pagination import PageParams
from app.http.params import (
    IdOrSlugList,
    NonEmptyStr,
    PositiveInt,
    PositiveIntList,
    StatusNames,
    WPBool,
    check,
    lowercase,
)
from app.models import CATEGORY, TAG, Organizer, Term, Venue

END_OF_DAY = time(23, 59, 59)
DATE_PARAMS = (
    "start_date",
    "end_date",
    "starts_before",
    "starts_after",
    "ends_before",
    "ends_after",
)
RELATIVE_PARAMS = DATE_PARAMS[2:]
TRUTHY = frozenset({"1", "true", "yes", "on"})


def _float(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError("not a number")
    return float(value)


class EventListParams(PageParams):
    start_date: Any = Field(
        None, description="Events that start on or after this date (default: 00:00 yesterday)"
    )
    end_date: Any = Field(
        None,
        description="Events that end on or before this date (default: 23:59:59 two years ahead)",
    )
    starts_before: Any = Field(None, description="Events that start before this date")
    starts_after: Any = Field(None, description="Events that start after this date")
    ends_before: Any = Field(None, description="Events that end before this date")
    ends_after: Any = Field(None, description="Events that end after this date")
    strict_dates: NonEmptyStr | None = Field(
        None, description="true: use the given times exactly instead of whole days"
    )
    search: NonEmptyStr | None = Field(
        None, description="Every word occurs in the title, description or excerpt"
    )
    categories: IdOrSlugList | None = Field(
        None, description="Category IDs or slugs (any of them; children included)"
    )
    tags: IdOrSlugList | None = Field(None, description="Tag IDs or slugs (any of them)")
    venue: PositiveIntList | None = Field(None, description="Venue IDs (any of them)")
    organizer: PositiveIntList | None = Field(None, description="Organizer IDs (any of them)")
    featured: WPBool | None = Field(
        None, description="Only featured (true) or only other (false) events"
    )
    status: StatusNames | None = Field(None, description="Post statuses")
    geoloc: WPBool | None = Field(
        None, description="Needs a geolocation extension: accepted and ignored"
    )
    geoloc_lat: Annotated[float, BeforeValidator(_float)] | None = Field(
        None, description="Ignored (extension)"
    )
    geoloc_lng: Annotated[float, BeforeValidator(_float)] | None = Field(
        None, description="Ignored (extension)"
    )
    include: PositiveIntList | None = Field(
        None, description="Only these event IDs; date filters are ignored"
    )
    post_parent: PositiveInt | None = Field(None, description="Children of this event")
    ticketed: WPBool | None = Field(
        None, description="true is refused (no ticketing); false: no filter"
    )
    orderby: (
        Annotated[
            Literal["start_date", "end_date", "title", "date", "modified", "id"],
            BeforeValidator(lowercase),
        ]
        | None
    ) = Field(None, description="Sort key (extension)")
    order: Annotated[Literal["asc", "desc"], BeforeValidator(lowercase)] | None = Field(
        None, description="Sort direction (extension)"
    )
    password: str | None = Field(
        None, description="Password of protected events, to see them unredacted"
    )


@dataclass(slots=True)
class ListRequest:
    filters: EventListFilters
    echo: dict[str, Any]  # the effective parameters, for rest_url and the paging links


def _bound(name: str, value: Any, zone: tzinfo, strict: bool, now: datetime) -> datetime:
    """A date parameter as naive site wall time: whole days unless strict (reference §5.2)."""
    try:
        moment = parse_when(value, UTC if strict else zone, now)
    except ValueError:
        raise invalid(name) from None
    local = moment.astimezone(zone).replace(tzinfo=None)
    if strict:
        return local
    day = local.date()
    return datetime.combine(day, time.min if name == "start_date" else END_OF_DAY)


def default_window(
    settings: Settings, now: datetime, strict: bool = False
) -> tuple[datetime, datetime]:
    """00:00 yesterday to 23:59:59 of the day two years ahead, in the site time zone."""
    zone = settings.site_zone
    local_now = now.astimezone(zone).replace(tzinfo=None)
    yesterday = local_now.date() - timedelta(days=1)
    start = datetime.combine(yesterday, time(23, 59) if strict else time.min)
    end_moment = local_now + relativedelta(months=24)
    end = (
        end_moment.replace(microsecond=0)
        if strict
        else datetime.combine(end_moment.date(), END_OF_DAY)
    )
    return start, end


async def build_list_request(
    session: AsyncSession,
    params: EventListParams,
    user: User,
    settings: Settings,
    now: datetime | None = None,
) -> ListRequest:
    now = now or datetime.now(UTC)
    zone = settings.site_zone
    strict = (params.strict_dates or "").strip().lower() in TRUTHY
    filters = EventListFilters()
    echo: dict[str, Any] = {}

    bounds = {
        name: getattr(params, name) for name in DATE_PARAMS if getattr(params, name) is not None
    }
    values = {name: _bound(name, value, zone, strict, now) for name, value in bounds.items()}
    if params.include is None:
        relative = any(name in values for name in RELATIVE_PARAMS)
        default_start, default_end = default_window(settings, now, strict)
        if "start_date" not in values and not relative:
            values["start_date"] = default_start
        if "end_date" not in values and not relative:
            values["end_date"] = default_end
        filters.start_min = values.get("start_date")
        filters.end_max = values.get("end_date")
        filters.starts_before = values.get("starts_before")
        filters.starts_after = values.get("starts_after")
        filters.ends_before = values.get("ends_before")
        filters.ends_after = values.get("ends_after")
    else:
        values = {}  # `include` ignores every date filter (the reference's documented intent)
        filters.include = params.include
    for name in ("start_date", "end_date"):
        if name in values:
            echo[name] = values[name].strftime(DATETIME_FORMAT)

    if params.search:
        filters.words = params.search.split()[:32]
        echo["search"] = params.search
    _statuses(filters, params, user)
    echo["status"] = ",".join(params.status) if params.status else None
    if params.post_parent is not None:
        owner = await event_ownership(session, params.post_parent)
        check("post_parent", owner is not None and may(user, "read", owner.author_id, owner.status))
        filters.parent_id = params.post_parent
        echo["post_parent"] = params.post_parent
    if params.include is not None:
        echo["include"] = params.include
    for name in RELATIVE_PARAMS:
        if name in values:
            echo[name] = values[name].strftime(DATETIME_FORMAT)
    if params.ticketed:
        raise InvalidParams({"ticketed": ("ticketed_unavailable", {})})
    if params.venue is not None:
        await _existing("venue", Venue, params.venue, session)
        filters.venue_ids = params.venue
        echo["venue"] = params.venue
    if params.organizer is not None:
        await _existing("organizer", Organizer, params.organizer, session)
        filters.organizer_ids = params.organizer
        echo["organizer"] = params.organizer
    if params.featured is not None:
        filters.featured = params.featured
        echo["featured"] = params.featured
    for name, taxonomy in (("categories", CATEGORY), ("tags", TAG)):
        refs = getattr(params, name)
        if refs is not None:
            filters.term_ids.append(await _term_ids(session, name, taxonomy, refs))
            echo[name] = refs
    if strict:
        echo["strict_dates"] = "true"
    if params.orderby:
        filters.orderby = params.orderby
        echo["orderby"] = params.orderby
    if params.order:
        filters.descending = params.order == "desc"
        echo["order"] = params.order
    return ListRequest(filters=filters, echo={k: v for k, v in echo.items() if v is not None})


def _statuses(filters: EventListFilters, params: EventListParams, user: User) -> None:
    """Status visibility (reference §5.5, DESIGN §11)."""
    asked = [status.lower() for status in params.status] if params.status else None
    if asked is not None:
        check("status", all(status in STATUSES for status in asked))
        if not can_create_posts(user):
            check("status", asked == ["publish"])
    if can_see_all_statuses(user):
        filters.statuses = tuple(asked or (s for s in STATUSES if s != "trash"))
        filters.include_hidden = True
        return
    if user is not None and can_create_posts(user):
        filters.statuses = tuple(asked or (s for s in STATUSES if s != "trash"))
        filters.others_statuses = tuple(s for s in filters.statuses if s == "publish")
        filters.viewer_id = user.id
        return
    filters.statuses = ("publish",)


async def _existing(
    name: str, model: type[Venue] | type[Organizer], ids: list[int], session: AsyncSession
) -> None:
    found = set(await session.scalars(select(model.id).where(model.id.in_(ids))))
    check(name, all(record_id in found for record_id in ids))


async def _term_ids(
    session: AsyncSession, name: str, taxonomy: str, refs: list[int | str]
) -> list[int]:
    """The terms named (IDs or slugs) plus all their descendants; unknown ones are a 400."""
    ids = [ref for ref in refs if isinstance(ref, int)]
    slugs = [ref for ref in refs if isinstance(ref, str)]
    rows = await session.execute(
        select(Term.id, Term.slug).where(
            Term.taxonomy == taxonomy, (Term.id.in_(ids)) | (Term.slug.in_(slugs))
        )
    )
    found_ids, found_slugs = set(), set()
    for term_id, slug in rows:
        found_ids.add(term_id)
        found_slugs.add(slug)
    check(name, all(i in found_ids for i in ids) and all(s in found_slugs for s in slugs))
    tree = select(Term.id).where(Term.id.in_(found_ids)).cte("tree", recursive=True)
    tree = tree.union(select(Term.id).join(tree, Term.parent_id == tree.c.id))
    return list(await session.scalars(select(tree.c.id)))
