"""The venue list's door on the API: the lists' parameters (app/posts/door.py) and a point
with its radius (app/geo/params.py), and what the list's links echo of them."""

from typing import Any

from app.core.errors import Problems
from app.core.geocoding.geocoder import Geocoder
from app.geo.distance import Near
from app.geo.params import PAIRED, RADIUS, PointParams, place_near, read_near
from app.http.context import RequestContext
from app.http.params import parse
from app.posts.commands import PostQuery
from app.posts.door import post_query


async def venue_list(
    ctx: RequestContext, geocoder: Geocoder | None
) -> tuple[PostQuery, Near | None, dict[str, Any]]:
    """(the list's query, the circle asked for if any, the filters as its links echo them);
    a parameter it cannot read is the 400 at once. A place (`near`) is located with the
    gazetteer, and `geocoder` where there is one."""
    query, echoed = post_query(ctx.raw, ctx.user)
    problems = Problems()
    point = parse(PointParams, ctx.raw, problems)
    radius = ctx.settings.geofence_radius
    near = read_near(point, radius, problems)
    if point.near is not None:
        near = await place_near(point, radius, problems, ctx.session, geocoder)
    problems.raise_any()
    for name in (*PAIRED, RADIUS, "near"):
        if getattr(point, name) is not None:
            echoed[name] = getattr(point, name)
    return query, near, echoed
