"""The venue list's door on the API: the lists' parameters (app/posts/door.py) and a point
with its radius (app/geo/params.py), and what the list's links echo of them."""

from typing import Any

from app.core.errors import Problems
from app.geo.distance import Near
from app.geo.params import PAIRED, RADIUS, PointParams, read_near
from app.http.context import RequestContext
from app.http.params import parse
from app.posts.commands import PostQuery
from app.posts.door import post_query


def venue_list(ctx: RequestContext) -> tuple[PostQuery, Near | None, dict[str, Any]]:
    """(the list's query, the circle asked for if any, the filters as its links echo them);
    a parameter it cannot read is the 400 at once."""
    query, echoed = post_query(ctx.raw, ctx.user)
    problems = Problems()
    point = parse(PointParams, ctx.raw, problems)
    near = read_near(point, ctx.settings.geofence_radius, problems)
    problems.raise_any()
    for name in (*PAIRED, RADIUS):
        if getattr(point, name) is not None:
            echoed[name] = getattr(point, name)
    return query, near, echoed
