"""The API's door of the post services: a request's parameters (the wire's lenient forms,
app/http/coercion.py) into their typed inputs (app/posts/commands.py). What cannot be read
is kept as the input's refusals, which the service raises after its checks of the caller and
the record (app/core/web/refusals.py)."""

from datetime import UTC, datetime, tzinfo
from typing import Any

from app.core.errors import note
from app.core.rules.constants import MAX_ID
from app.core.rules.dates import parse_when
from app.core.rules.permissions import User
from app.core.web.refusals import Refused
from app.http.coercion import decimal
from app.http.params import parse, parse_later
from app.http.raw_params import RawParams
from app.posts.commands import (
    NO_IMAGE,
    ImageRef,
    PostFields,
    PostQuery,
    ReadRequest,
    RecordWrite,
    Removal,
)
from app.posts.images import BAD_IMAGE, CLEARING_VALUES, is_http_url
from app.posts.listing import status_echo
from app.posts.params import (
    DeleteParams,
    PostListParams,
    PostWriteParams,
    ReadParams,
    asked_statuses,
)
from app.posts.params import PostFields as PostFieldParams

TEXTS = ("description", "excerpt")


def post_query(raw: RawParams, user: User) -> tuple[PostQuery, dict[str, Any]]:
    """(a list's query, the filters as its links echo them); a parameter it cannot read is
    the 400 at once (a list checks nothing before)."""
    params = parse(PostListParams, raw)
    statuses = asked_statuses(params.status)
    query = PostQuery(
        search=params.search,
        event=params.event,
        has_events=params.has_events,
        only_with_upcoming=params.only_with_upcoming,
        statuses=statuses,
        password=params.password,
    )
    echoed = params.model_dump(
        exclude_none=True,
        exclude_defaults=True,
        exclude={"i18n_language", "password", "page", "per_page", "status"},
    )
    if "has_events" in echoed:
        echoed["has_events"] = _as_written(raw.get("has_events"), params.has_events)
    echoed["status"] = status_echo(statuses, user)
    return query, echoed


def _as_written(raw: Any, value: Any) -> Any:
    """A boolean parameter in a link as the caller wrote it (`true` stays `true`), as the
    reference echoes it; the parsed value when it came in another shape (a JSON body)."""
    return raw.strip() if isinstance(raw, str) else value


def read_request(raw: RawParams) -> ReadRequest:
    params, refused = parse_later(ReadParams, raw)
    return ReadRequest(params.password, refused)


def removal(raw: RawParams) -> Removal:
    params, refused = parse_later(DeleteParams, raw)
    return Removal(params.force, refused)


def post_fields(params: PostFieldParams, zone: tzinfo) -> PostFields:
    """The fields every kind shares, of a write's parsed parameters; dates without an
    offset are read in `zone`."""
    sent = params.model_fields_set
    return PostFields(
        status=params.status,
        author=params.author,
        published=_published(params, zone),
        image=image_ref(params.image) if "image" in sent else None,
        slug=params.slug,
        password=params.password if "password" in sent else None,
    )


def _published(params: PostFieldParams, zone: tzinfo) -> datetime | Refused | None:
    """`date_utc` (read as UTC) wins over `date` (wall time in `zone` unless it has an offset)."""
    for name, value, read_in in (("date_utc", params.date_utc, UTC), ("date", params.date, zone)):
        if value is not None:
            try:
                return parse_when(value, read_in)
            except ValueError:
                return Refused(note("bad_date", name=name))
    return None


def image_ref(value: Any) -> ImageRef:
    """The image a write's `image` names: an ID, an http(s) URL, or NO_IMAGE (clear). An
    image object as responses show it (`{"id": ..., "url": ...}`) names its image, and
    `false` (what responses show for none) clears, so that a record read can be written back."""
    if isinstance(value, dict):
        value = value.get("id") or value.get("url")
        if value in CLEARING_VALUES:
            return Refused(BAD_IMAGE)
    if value is True or isinstance(value, float):
        return Refused(BAD_IMAGE)
    if value in CLEARING_VALUES:
        return NO_IMAGE
    if isinstance(value, str) and decimal(value) is not None:
        value = decimal(value)
    if isinstance(value, int):
        return value if 0 < value <= MAX_ID else Refused(BAD_IMAGE)
    if isinstance(value, str) and is_http_url(value.strip()):
        return value.strip()
    return Refused(BAD_IMAGE)


def record_write(
    model: type[PostWriteParams], name: str, raw: RawParams, zone: tzinfo
) -> RecordWrite:
    """A venue's or an organizer's write (`name`: the kind's name field)."""
    params, refused = parse_later(model, raw)
    sent = params.model_fields_set
    common = {*PostFieldParams.model_fields, *TEXTS, name}
    details = {
        field: getattr(params, field)
        for field in model.model_fields
        if field in sent and field not in common
    }
    return RecordWrite(
        name=getattr(params, name) if name in sent else None,
        description=params.description if "description" in sent else None,
        excerpt=params.excerpt if "excerpt" in sent else None,
        post=post_fields(params, zone),
        details=details,
        refused=refused,
    )
