"""Parameters of the feed of a list: the list's filters, and a `limit` instead of pages."""

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.events.params import EventFilterParams
from app.http.coercion import as_positive_int

DEFAULT_LIMIT = 500
MAX_LIMIT = 5000


def _limit(value: Any) -> Any:
    number = as_positive_int(value)
    if number > MAX_LIMIT:
        raise PydanticCustomError("between", "too large", {"min": 1, "max": MAX_LIMIT})
    return number


Limit = Annotated[
    int,
    BeforeValidator(_limit),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}),
]


class FeedParams(EventFilterParams):
    limit: Limit = Field(
        DEFAULT_LIMIT,
        description=f"At most this many events (the first ones in the list's order), "
        f"1 to {MAX_LIMIT}; a feed has no pages",
    )
