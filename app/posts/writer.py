"""Writing records: the columns every post kind takes the same way (status, author,
publication date, image, password), and the writer of venues and organizers (which reuses
an identical existing record instead of creating a duplicate)."""

from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from app.core.database.engine import Session
from app.core.errors import MissingParams, Note, Problems, note
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
from app.core.web.refusals import Refused
from app.http.params import check, refused_values
from app.posts.commands import PostFields, RecordWrite
from app.posts.images import resolve_image
from app.posts.params import PostWriteParams
from app.posts.records import PostRecord, Protectable
from app.posts.repository import ImageRepository, PostRepository
from app.users.repository import UserRepository

R = TypeVar("R", bound=PostRecord)
TEXTS = ("description", "excerpt")


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
    fields: PostFields,
    *,
    current: Protectable | None,
    current_published: datetime | None = None,
    problems: Problems | None = None,
) -> dict[str, Any]:
    """The columns every kind shares, from what was sent (`current` is None on create).
    Invalid values go to `problems` when given (else they are raised together)."""
    found = problems or Problems()
    columns: dict[str, Any] = {}
    published = None
    if isinstance(fields.published, Refused):
        found.add(*_named(fields.published, "date"))
    else:
        published = fields.published
    if published is not None:
        columns["published_at"] = published
    if current is None or fields.status is not None or published is not None:
        requested = fields.status if fields.status is not None else getattr(current, "status", None)
        when = published or current_published or datetime.now(UTC)
        columns["status"] = post_status(user, requested, getattr(current, "status", None), when)
    if fields.author is not None:
        with found.gather():
            known = await UserRepository(session).exists(fields.author)
            check("author", known, note("unknown_user", name="author", id=fields.author))
        # Giving a record to somebody else is editing others' records: editors and up.
        require(user, fields.author == user.id or can_see_all_statuses(user), GIVE_RECORDS)
        columns["author_id"] = fields.author
    elif current is None:
        columns["author_id"] = user.id
    if fields.image is not None:
        with found.gather():
            columns["image_id"] = await resolve_image(ImageRepository(session), fields.image)
    if fields.password is not None:
        columns["password"] = fields.password or None
    if problems is None:
        found.raise_any()
    return columns


def _named(refused: Refused, default: str) -> tuple[str, Note]:
    """The parameter a refused publication date names (`date` or `date_utc`), and its note."""
    name = refused.note[1].get("name", default)
    return str(name), refused.note


class PostWriter(Generic[R]):
    """Creates and updates venues or organizers (`name`: the kind's name field)."""

    def __init__(
        self, name: str, params: type[PostWriteParams], repo: PostRepository[R], user: Principal
    ) -> None:
        self.name = name
        self.params = params  # the limits of the kind's values
        self.repo = repo
        self.user = user

    def _refusals(self, command: RecordWrite) -> Problems:
        """What the door refused, then what the kind's limits refuse of the values a door
        did not read (the desk's)."""
        problems = Problems()
        command.refused.into(problems)
        for name, why in refused_values(self.params, command.values(self.name)).items():
            problems.add(name, why)
        return problems

    def _sent(
        self, command: RecordWrite, problems: Problems
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """(the kind's own columns, the texts) among what was sent, markup sanitised for
        callers without unfiltered HTML."""
        markup = Markup(can_post_unfiltered_html(self.user))
        sent = {"description": command.description, "excerpt": command.excerpt}
        texts = {text: markup.html(value) for text, value in sent.items() if value is not None}
        if command.name is not None:
            texts["name"] = markup.inline(command.name).strip()
            if texts["name"] == "":  # nothing left but markup
                problems.add(self.name, note("only_markup", name=self.name))
        own = command.details.items()
        return {k: markup.plain(v) if isinstance(v, str) else v for k, v in own}, texts

    async def _derived(
        self, own: dict[str, Any], current: R | None, problems: Problems
    ) -> dict[str, Any]:
        """The kind's columns of what was sent (`own`) and the record (`current`, None on
        create): a kind that derives columns (a venue's coordinates) overrides it; its
        refusals go to `problems`."""
        return own

    async def create(self, command: RecordWrite) -> int:
        problems = self._refusals(command)
        if command.name is None and self.name not in problems:
            raise MissingParams([self.name])
        session = self.repo.session
        columns = await common_columns(
            session, self.user, command.post, current=None, problems=problems
        )
        own, texts = self._sent(command, problems)
        own = await self._derived(own, None, problems)
        problems.raise_any()
        # Duplicate avoidance (docs/design.md#linked-venues-organizers-and-terms): sending what a record already holds gives
        # that record, in a create of its own as in an event's inline venue or organizer.
        existing = await self.repo.find_identical({**own, **texts}, self.user)
        if existing is not None:
            return existing
        slug = command.post.slug or texts["name"]
        return await self.repo.create({**columns, **own}, texts, slug=slug)

    async def update(self, record: R, command: RecordWrite) -> None:
        problems = self._refusals(command)
        columns = await common_columns(
            self.repo.session,
            self.user,
            command.post,
            current=record,
            current_published=record.published_at,
            problems=problems,
        )
        own, texts = self._sent(command, problems)
        own = await self._derived(own, record, problems)
        problems.raise_any()
        await self.repo.update(record.id, {**columns, **own}, texts, slug=command.post.slug)
