"""What of a record's markup a page prints: the allowed rich text (app/core/rules/html.py
`post_html`), whoever wrote it.

The API keeps an editor's or an administrator's markup as written (WordPress's
`unfiltered_html`), and imports are written as an administrator, but the pages share the
desk's origin: a script in a description opened by a signed-in administrator would act as
them. So every body a page reads (app/pages/content.py) is a `PageBody`, whose descriptions
and excerpts, its own and those of the venue, organizers and terms inside it, are sanitised
when a template reads them: records stored before this rule and every template (a theme's
too, `| safe` or not) get the same. On reading, not on loading: a day view holds up to
1,000 bodies, each with its venue's and organizers' descriptions, and prints one excerpt of
each.
"""

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from app.core.rules.html import post_html

if TYPE_CHECKING:  # what dict's own `items()` and `values()` are declared to return
    from _collections_abc import dict_items, dict_values

# The fields that hold markup, at any depth (a term's `description` too).
MARKUP_FIELDS = frozenset({"description", "excerpt"})
# schema.org data: texts already HTML-escaped by the serialiser, printed through `tojson`.
DATA_FIELDS = frozenset({"json_ld"})


class PageBody(dict[str, Any]):
    """A body whose markup fields read sanitised (once each), and whose nested bodies read
    as `PageBody` too. Copies (`dict(body)`, `{**body}`) go through the same reads: the class
    defines `__iter__`, which takes them off dict's raw fast path."""

    __slots__ = ("_read",)

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(body)
        self._read: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key in self._read:
            return self._read[key]
        value = printable(key, super().__getitem__(key))
        self._read[key] = value
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self._read.pop(key, None)
        super().__setitem__(key, value)

    def __iter__(self) -> Iterator[str]:
        return super().__iter__()

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def items(self) -> "dict_items[str, Any]":
        return {key: self[key] for key in self}.items()

    def values(self) -> "dict_values[str, Any]":
        return {key: self[key] for key in self}.values()


def printable(key: str, value: Any) -> Any:
    """`value` of field `key` as a page may print it."""
    if key in DATA_FIELDS:
        return value
    if key in MARKUP_FIELDS and isinstance(value, str):
        return post_html(value)
    if isinstance(value, dict) and not isinstance(value, PageBody):
        return PageBody(value)
    if isinstance(value, list):
        return [PageBody(item) if type(item) is dict else item for item in value]
    return value
