"""Paging parameters and the one builder of list bodies, headers and links."""

import math
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import Depends, Request
from pydantic import BeforeValidator, Field, ValidationError, WithJsonSchema, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from starlette.responses import Response

from app.core.errors import InvalidParams, PageNotFound
from app.core.rules.constants import MAX_ID
from app.core.rules.paging import MAX_LIST_DEPTH, Page
from app.core.web.responses import json_response
from app.core.web.urls import Urls
from app.http.coercion import ID_SCHEMA, lenient_int
from app.http.params import Params, parse
from app.http.raw_params import raw_params


def _page_number(value: Any) -> Any:
    number = lenient_int(value)
    if number < 1:
        raise PydanticCustomError("at_least", "too small", {"min": 1})
    if number > MAX_ID:  # a huge page is a mistake too
        raise PydanticCustomError("between", "out of range", {"min": 1, "max": MAX_ID})
    return number


# ---- paging --------------------------------------------------------------------------

DEFAULT_PER_PAGE = 9
MAX_PER_PAGE = 100


def _per_page(value: Any) -> Any:
    number = lenient_int(value)
    if not 0 < number <= MAX_PER_PAGE:
        raise PydanticCustomError("per_page_too_large", "too large", {"max": MAX_PER_PAGE})
    return number


PerPage = Annotated[
    int,
    BeforeValidator(_per_page),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE}),
]


PageNumber = Annotated[int, BeforeValidator(_page_number), WithJsonSchema(ID_SCHEMA)]


class PageParams(Params):
    page: PageNumber = Field(
        1, description=f"Page of the list to return; page × per_page at most {MAX_LIST_DEPTH}"
    )
    per_page: PerPage = Field(DEFAULT_PER_PAGE, description=f"Items per page, 1 to {MAX_PER_PAGE}")

    @model_validator(mode="after")
    def _not_too_deep(self) -> "PageParams":
        """A page beyond MAX_LIST_DEPTH rows is a 400 naming `page` (with the other invalid
        parameters of the request), before any row is read."""
        if self.page * self.per_page > MAX_LIST_DEPTH:
            error = PydanticCustomError("list_too_deep", "too deep", {"max": MAX_LIST_DEPTH})
            detail = InitErrorDetails(type=error, loc=("page",), input=self.page)
            raise ValidationError.from_exception_data(type(self).__name__, [detail])
        return self


async def get_page(request: Request) -> Page:
    """The page asked for. An invalid `page` or `per_page` is not refused here: every list's
    own parameter model includes them (PageParams), and reports them together with the
    other invalid parameters of the request."""
    try:
        params = parse(PageParams, await raw_params(request))
    except InvalidParams:
        return Page(number=1, size=DEFAULT_PER_PAGE)
    return Page(number=params.page, size=params.per_page)


PageDep = Annotated[Page, Depends(get_page)]

# Body key order differs between post lists and term lists in the reference (docs/design.md#lists-and-paging).
Layout = Literal["posts", "terms"]


def list_response(
    *,
    urls: Urls,
    path: str,
    key: str,
    kind: str,
    items: Sequence[Any],
    total: int,
    page: Page,
    filters: dict[str, Any],
    layout: Layout = "posts",
    alternates: Sequence[str] = (),
    extra: dict[str, Any] | None = None,
) -> Response:
    """The list body with `rest_url`, next/previous links and totals, plus paging headers.
    `alternates` are more `Link` values (other representations of the list); `extra`, more
    fields of the body, after the list's own (the attendees' totals).

    `filters` are the request's effective filters; every one of them is kept in the links.
    A page past the end (page > 1 without rows) is a 404 `<kind>-archive-page-not-found`.
    """
    total_pages = math.ceil(total / page.size) if total else 0
    if not items and page.number > 1:
        raise PageNotFound(kind, total=total, pages=total_pages, per_page=page.size)
    base = f"{path}/"

    def link(number: int) -> str:
        query = {**filters, "per_page": page.size}
        if number > 1:
            query["page"] = number
        return urls.rest(base, query)

    rest_url = urls.rest(base, {"page": page.number, "per_page": page.size, **filters})
    has_next = page.number < total_pages
    has_previous = page.number > 1 and total > 0
    links: dict[str, str] = {}
    if has_next:
        links["next_rest_url"] = link(page.number + 1)
    if has_previous:
        links["previous_rest_url"] = link(page.number - 1)

    if layout == "posts":
        body = {key: items, "rest_url": rest_url, **links, "total": total}
        body["total_pages"] = total_pages
    else:
        body = {"rest_url": rest_url, "total": total, "total_pages": total_pages, key: items}
        body.update(links)
    body.update(extra or {})

    rels = []
    if total_pages:
        rels.append(f'<{link(1)}>; rel="first"')
        if has_previous:
            rels.append(f'<{links["previous_rest_url"]}>; rel="prev"')
        if has_next:
            rels.append(f'<{links["next_rest_url"]}>; rel="next"')
        rels.append(f'<{link(total_pages)}>; rel="last"')
    rels.extend(alternates)
    headers = {
        "X-TEC-Total": str(total),
        "X-TEC-TotalPages": str(total_pages),
        "X-WP-Total": str(total),
        "X-WP-TotalPages": str(total_pages),
    }
    if rels:
        headers["Link"] = ", ".join(rels)
    return json_response(body, headers=headers)
