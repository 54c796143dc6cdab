"""A post kind's response bodies for one caller (the reference's field order, links,
redaction of protected records): what the API's doors answer. The services render with it
only what the reference derives from a body: a write's answer and the ETag a GET of the
record would carry (If-Match, app/core/caching/etags.py), and whether an update changed what
the record shows."""

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Generic

from app.http.context import RequestContext
from app.posts.kind import PostKind, R
from app.posts.serializer import View

Body = dict[str, Any]


class Bodies(Generic[R]):
    def __init__(self, kind: PostKind[R], ctx: RequestContext) -> None:
        self.kind = kind
        self.view = View(ctx.urls, ctx.settings.site_zone, ctx.user)

    def one(self, record: R, *, json_ld: bool = False, password: str | None = None) -> Body:
        """`record`'s body; `json_ld` on a single read, `password` the one the caller sent."""
        view = replace(self.view, password=password) if password else self.view
        return self.kind.render([record], view, json_ld)[0]

    def many(self, records: Sequence[R], *, json_ld: bool = False) -> list[Body]:
        return self.kind.render(records, self.view, json_ld)
