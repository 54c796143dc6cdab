"""The API's door of the term service: a request's parameters into its typed inputs
(app/terms/commands.py), and the filters a list echoes in its links."""

from typing import Any

from app.core.errors import note
from app.core.web.refusals import Refused
from app.http.params import parse, parse_later
from app.http.raw_params import RawParams
from app.models import TAG
from app.terms.commands import TermQuery, TermWrite
from app.terms.service import TermKind


def term_query(kind: TermKind, raw: RawParams) -> tuple[TermQuery, dict[str, Any]]:
    """(the query, the filters as the list's links echo them); a parameter it cannot read
    is the 400 at once (a list checks nothing before)."""
    params = parse(kind.list_params, raw)
    query = TermQuery(
        search=params.search,
        include=params.include,
        exclude=params.exclude,
        slugs=params.slug,
        parent=getattr(params, "parent", None),
        event=params.event or params.post,
        event_parameter="event" if params.event else "post",
        hide_empty=params.hide_empty,
        orderby=params.orderby or "name",
        descending=params.order == "desc",
    )
    echoed = params.model_dump(
        exclude_none=True, exclude={"i18n_language", "page", "per_page"}, exclude_defaults=True
    )
    return query, echoed


def term_write(kind: TermKind, raw: RawParams) -> TermWrite:
    params, refused = parse_later(kind.write_params, raw)
    parent = getattr(params, "parent", None)
    if kind.taxonomy == TAG and parent is not None:
        parent = Refused(note("not_hierarchical"))  # any value: a tag has no parent
    return TermWrite(
        name=params.name,
        description=params.description,
        slug=params.slug,
        parent=parent,
        refused=refused,
    )
