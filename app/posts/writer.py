"""Writing records: the columns every post kind takes the same way (status, author,
publication date, image, password), and the writer of venues and organizers (which reuses
an identical existing record instead of creating a duplicate)."""

from datetime import UTC, datetime, tzinfo
from typing import Any, Generic, TypeVar

from app.core.edge.errors import MissingParams, Problems, invalid, note
from app.core.infra.database import Session
from app.core.rules.dates import parse_when
from app.core.rules.html import Markup
from app.core.rules.permissions import (
    GIVE_RECORDS,
    Principal,
    can_post_unfiltered_html,
    can_publish,
    can_see_all_statuses,
    require,
    scale_status,
)
from app.http.params import check, parse
from app.http.raw_params import RawParams
from app.posts.images import resolve_image
from app.posts.params import PostFields, PostWriteParams
from app.posts.records import PostRecord, Protectable
from app.posts.repository import ImageRepository, PostRepository
from app.users.repository import UserRepository

R = TypeVar("R", bound=PostRecord)
TEXTS = ("description", "excerpt")


def publication_date(params: PostFields, zone: tzinfo) -> datetime | None:
    """`date_utc` (read as UTC) wins over `date` (wall time in `zone` unless it has an offset)."""
    for name, value, read_in in (("date_utc", params.date_utc, UTC), ("date", params.date, zone)):
        if value is not None:
            try:
                return parse_when(value, read_in)
            except ValueError:
                raise invalid(name, note("bad_date", name=name)) from None
    return None


def post_status(
    user: Principal, requested: str | None, current: str | None, published: datetime
) -> str:
    """The status a write really gets: contributors cannot publish (docs/design.md#statuses), and, as
    in WordPress, publishing with a future date schedules while a past date publishes."""
    status = scale_status(user, requested)
    if current == status:
        return status
    if status == "publish" and published > datetime.now(UTC):
        return "future"
    if status == "future" and published <= datetime.now(UTC):
        return "publish" if can_publish(user) else "pending"
    return status


async def common_columns(
    session: Session,
    user: Principal,
    params: PostFields,
    *,
    zone: tzinfo,
    current: Protectable | None,
    current_published: datetime | None = None,
    problems: Problems | None = None,
) -> dict[str, Any]:
    """The columns every kind shares, from what was sent (`current` is None on create).
    Dates without an offset are read in `zone`. Invalid parameters go to `problems` when
    given (else they are raised together)."""
    found = problems or Problems()
    sent = params.model_fields_set
    columns: dict[str, Any] = {}
    published = None
    with found.gather():
        published = publication_date(params, zone)
    if published is not None:
        columns["published_at"] = published
    if current is None or params.status is not None or published is not None:
        requested = params.status if params.status is not None else getattr(current, "status", None)
        when = published or current_published or datetime.now(UTC)
        columns["status"] = post_status(user, requested, getattr(current, "status", None), when)
    if params.author is not None:
        with found.gather():
            known = await UserRepository(session).exists(params.author)
            check("author", known, note("unknown_user", name="author", id=params.author))
        # Giving a record to somebody else is editing others' records: editors and up.
        require(user, params.author == user.id or can_see_all_statuses(user), GIVE_RECORDS)
        columns["author_id"] = params.author
    elif current is None:
        columns["author_id"] = user.id
    if "image" in sent:
        with found.gather():
            columns["image_id"] = await resolve_image(ImageRepository(session), params.image)
    if "password" in sent:
        columns["password"] = params.password or None
    if problems is None:
        found.raise_any()
    return columns


class PostWriter(Generic[R]):
    """Creates and updates venues or organizers (`name`: the kind's name field)."""

    def __init__(
        self,
        name: str,
        params: type[PostWriteParams],
        repo: PostRepository[R],
        user: Principal,
        zone: tzinfo,
    ) -> None:
        self.name = name
        self.params = params
        self.repo = repo
        self.user = user
        self.zone = zone

    def _sent(
        self, params: PostWriteParams, problems: Problems
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """(the kind's own columns, the texts) among what was sent, markup sanitised for
        callers without unfiltered HTML."""
        markup = Markup(can_post_unfiltered_html(self.user))
        sent = params.model_dump(exclude_unset=True)
        texts = {text: markup.html(sent[text]) for text in TEXTS if text in sent}
        if self.name in sent:
            texts["name"] = markup.inline(sent[self.name]).strip()
            if texts["name"] == "":  # nothing left but markup
                problems.add(self.name, note("only_markup", name=self.name))
        common = PostFields.model_fields.keys() | {*TEXTS, "password", self.name}
        own = {k: v for k, v in sent.items() if k not in common}
        return {k: markup.plain(v) if isinstance(v, str) else v for k, v in own.items()}, texts

    async def create(self, raw: RawParams) -> int:
        problems = Problems()
        params = parse(self.params, raw, problems)
        if self.name not in params.model_fields_set and self.name not in problems:
            raise MissingParams([self.name])
        session = self.repo.session
        columns = await common_columns(
            session, self.user, params, zone=self.zone, current=None, problems=problems
        )
        own, texts = self._sent(params, problems)
        problems.raise_any()
        # Duplicate avoidance (docs/design.md#linked-venues-organizers-and-terms): sending what a record already holds gives
        # that record, in a create of its own as in an event's inline venue or organizer.
        existing = await self.repo.find_identical({**own, **texts}, self.user)
        if existing is not None:
            return existing
        return await self.repo.create({**columns, **own}, texts, slug=params.slug or texts["name"])

    async def update(self, record: R, raw: RawParams) -> None:
        problems = Problems()
        params = parse(self.params, raw, problems)
        columns = await common_columns(
            self.repo.session,
            self.user,
            params,
            zone=self.zone,
            current=record,
            current_published=record.published_at,
            problems=problems,
        )
        own, texts = self._sent(params, problems)
        problems.raise_any()
        await self.repo.update(record.id, {**columns, **own}, texts, slug=params.slug)
