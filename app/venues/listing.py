"""The venue list near a point: the lists' rules (app/posts/listing.py), the venues within the
circle, each body with its distance as its last key (docs/design.md#events-near-a-place)."""

from typing import Any

from app.core.errors import Problems
from app.core.rules.paging import Page
from app.geo.distance import Near, shown_km
from app.geo.params import check_radius
from app.http.context import RequestContext
from app.posts.commands import PostQuery
from app.posts.listing import check_list, list_view
from app.venues.kind import VENUES
from app.venues.repository import VenueRepository


async def venues_near(
    ctx: RequestContext, query: PostQuery, near: Near, page: Page
) -> tuple[list[dict[str, Any]], int]:
    """(bodies of the page, total) of the venues within `near` that `query` lists, newest
    first as every venue list."""
    problems = Problems()
    check_radius(near, ctx.settings.geofence_max_radius, problems)
    problems.raise_any()
    await check_list(ctx, query)
    repo = VenueRepository(ctx.session, ctx.language, ctx.settings.default_language)
    found, total = await repo.find_near(query, near, ctx.user, page)
    bodies = VENUES.render([record for record, _ in found], list_view(ctx, query), False)
    for body, (_, distance) in zip(bodies, found, strict=True):
        body["distance"] = shown_km(distance)
    return bodies, total
