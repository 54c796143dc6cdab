"""Parameters events, venues and organizers share: reading, listing, deleting, and the fields
of a write that every post kind accepts."""

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.core.rules.constants import STATUSES
from app.http.coercion import (
    WEBSITE_PATTERN,
    DateInput,
    ImageInput,
    NonEmptyStr,
    PositiveInt,
    StrOrEmpty,
    WPBool,
    list_schema,
    string_list,
)
from app.http.pagination import PageParams
from app.http.params import Params
from app.posts.images import is_http_url

# Post statuses, in any letter case. A list may also ask for `any`: every status the caller
# may see (the default of the list, docs/design.md#event-list), as the reference's links do.
ANY_STATUS = "any"


def _status(value: Any, choices: tuple[str, ...] = STATUSES) -> Any:
    """One of the post statuses, in any letter case (`Publish` is `publish`)."""
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    raise PydanticCustomError("not_one_of", "not a status", {"choices": ", ".join(choices)})


def _statuses(value: Any) -> Any:
    return [_status(item, LISTED_STATUSES) for item in string_list(value)]


def asked_statuses(statuses: list[str] | None) -> list[str] | None:
    """The statuses a list asks for; None (the caller's default) when it asks for `any`."""
    return None if statuses is None or ANY_STATUS in statuses else statuses


LISTED_STATUSES = (*STATUSES, ANY_STATUS)
STATUS_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(STATUSES)}
Status = Annotated[str, BeforeValidator(_status), WithJsonSchema(STATUS_SCHEMA)]
StatusList = Annotated[
    list[str],
    BeforeValidator(_statuses),
    WithJsonSchema(
        list_schema(
            {"type": "string", "enum": list(LISTED_STATUSES)}, f"({'|'.join(LISTED_STATUSES)})"
        )
    ),
]


def _url_or_empty(value: Any) -> Any:
    if isinstance(value, str) and (not value.strip() or is_http_url(value.strip())):
        return value.strip()
    if value is None:
        return ""
    raise PydanticCustomError("bad_url", "not an http(s) URL")


def _none_is_false(value: Any) -> Any:
    return False if value is None else value


Name = Annotated[NonEmptyStr, Field(max_length=500)]
Slug = Annotated[NonEmptyStr, Field(max_length=200)]
Website = Annotated[
    str,
    BeforeValidator(_url_or_empty),
    Field(max_length=2048, json_schema_extra={"pattern": WEBSITE_PATTERN}),
]
Flag = Annotated[WPBool, BeforeValidator(_none_is_false)]
Phone = Annotated[StrOrEmpty, Field(max_length=100)]
Region = Annotated[StrOrEmpty, Field(max_length=200)]  # city, country, province, state
Address = Annotated[StrOrEmpty, Field(max_length=1000)]
Zip = Annotated[StrOrEmpty, Field(max_length=50)]
Email = Annotated[StrOrEmpty, Field(max_length=320)]
Password = Annotated[StrOrEmpty, Field(max_length=255)]


class ReadParams(Params):
    password: str | None = Field(
        None, description="Password of a protected record: shows it unredacted"
    )


class DeleteParams(Params):
    force: WPBool = Field(False, description="Delete permanently instead of trashing")


class PostListParams(ReadParams, PageParams):
    search: Annotated[NonEmptyStr, Field(max_length=500)] | None = Field(
        None, description="Every word in one of the name, description, excerpt or details"
    )
    event: PositiveInt | None = Field(None, description="Only those linked to this event ID")
    has_events: WPBool | None = Field(
        None, description="true: linked to a non-draft event; false: linked to none"
    )
    only_with_upcoming: WPBool = Field(
        False, description="Only those linked to an upcoming event the caller may see"
    )
    status: StatusList | None = Field(None, description="Statuses to list")


class PostFields(Params):
    """What a write of every post kind accepts (a field not sent stays unchanged)."""

    status: Status | None = Field(
        None, description="publish, future, draft, pending, private or trash (any case)"
    )
    author: PositiveInt | None = Field(None, description="Author user ID (editors: anybody)")
    date: DateInput = Field(
        None, description="Publication date (site time zone unless an offset is given)"
    )
    date_utc: DateInput = Field(None, description="Publication date in UTC (wins over date)")
    image: ImageInput = Field(None, description="Image ID or http(s) URL; empty clears")
    slug: Slug | None = Field(None, description="Slug; a taken one gets the next free -N")
    password: Password = Field("", description="Password protecting the record; empty clears")


class PostWriteParams(PostFields):
    """A venue or organizer write; a kind adds its name field and its details."""

    description: StrOrEmpty = Field("", description="Description (HTML)")
    excerpt: StrOrEmpty = Field("", description="Excerpt (HTML)")
