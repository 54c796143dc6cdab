"""The typed inputs of the term service (categories and tags): a list's query and a
create or update. Values are parsed; `None` is a field not sent. The API's door
(app/terms/door.py) builds them from a request's parameters, the desk and the pages
directly."""

from dataclasses import dataclass
from typing import Literal

from app.core.errors import note
from app.core.rules.constants import MAX_ID
from app.core.web.refusals import NOTHING_REFUSED, Refusals, Refused

OrderBy = Literal["name", "id", "slug", "count", "description", "term_group", "include"]
# What a parent that is no term's number is refused with.
NOT_A_PARENT = note("between", name="parent", min=0, max=MAX_ID)


@dataclass(frozen=True)
class TermQuery:
    """Which terms a list shows (docs/design.md#records)."""

    search: str | None = None
    include: list[int] | None = None
    exclude: list[int] | None = None
    slugs: list[str] | None = None
    parent: int | None = None  # categories: children of this one
    event: int | None = None  # terms of this event
    event_parameter: str = "event"  # the parameter that named it (`post` is its alias)
    hide_empty: bool = True  # terms of no published event are left out
    orderby: OrderBy = "name"
    descending: bool = False


@dataclass(frozen=True)
class TermWrite:
    """A create or update of a term. `parent`: a category's (0: none); a tag has none, so
    any parent sent for one is refused."""

    name: str | None = None
    description: str | None = None
    slug: str | None = None
    parent: int | Refused | None = None
    refused: Refusals = NOTHING_REFUSED

    def values(self) -> dict[str, object]:
        """The values a write's limits apply to, by parameter."""
        return {"name": self.name, "description": self.description, "slug": self.slug}
