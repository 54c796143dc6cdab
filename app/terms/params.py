"""Parameters of category and tag routes."""

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.core.rules.constants import MAX_ID
from app.http.coercion import (
    NonEmptyStr,
    PositiveInt,
    PositiveIntList,
    StringList,
    WPBool,
    decimal,
    lowercase,
)
from app.http.pagination import PageParams
from app.http.params import Params
from app.terms.commands import OrderBy


def _parent_id(value: Any) -> Any:
    """A parent reference: a non-negative integer (0 = none)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID:
        return value
    number = decimal(value) if isinstance(value, str) else None
    if number is not None and 0 <= number <= MAX_ID:
        return number
    raise PydanticCustomError("between", "not a term ID", {"min": 0, "max": MAX_ID})


ParentId = Annotated[
    int,
    BeforeValidator(_parent_id),
    WithJsonSchema({"type": "integer", "minimum": 0, "maximum": MAX_ID}),
]
Name = Annotated[NonEmptyStr, Field(max_length=200)]
Slug = Annotated[NonEmptyStr, Field(max_length=200)]


class TermListParams(PageParams):
    search: NonEmptyStr | None = Field(
        None, description="Limit to terms whose name or slug contains this text"
    )
    exclude: PositiveIntList | None = Field(None, description="Term IDs to leave out")
    include: PositiveIntList | None = Field(None, description="Limit to these term IDs")
    order: Annotated[Literal["asc", "desc"], BeforeValidator(lowercase)] | None = Field(
        None, description="Sort direction"
    )
    orderby: Annotated[OrderBy, BeforeValidator(lowercase)] | None = Field(
        None, description="Sort by this term attribute"
    )
    hide_empty: WPBool = Field(True, description="Hide terms assigned to no published event")
    post: PositiveInt | None = Field(None, description="Limit to terms of this event")
    event: PositiveInt | None = Field(None, description="Alias of post (wins over it)")
    slug: StringList | None = Field(None, description="Limit to terms with these slugs")


class CategoryListParams(TermListParams):
    parent: ParentId | None = Field(None, description="Limit to children of this category")


class TermWriteParams(Params):
    name: Name | None = Field(None, description="Term name")
    description: NonEmptyStr | None = Field(None, description="Term description")
    slug: Slug | None = Field(None, description="Term slug (made unique)")


class CategoryWriteParams(TermWriteParams):
    parent: ParentId | None = Field(None, description="Parent category ID (0 for none)")


class TagWriteParams(TermWriteParams):
    parent: Any = Field(None, description="Not allowed: tags are not hierarchical")
