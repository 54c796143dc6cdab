"""Venues: `/venues`, `/venues/{id}`, `/venues/by-slug/{slug}` (the shared post routes; the
list also near a point)."""

from starlette.requests import Request
from starlette.responses import Response

from app.core.app_services import services_of
from app.http.context import ContextDep
from app.http.pagination import PageDep
from app.posts.router import PostRoutes
from app.venues.door import venue_list
from app.venues.kind import VENUES
from app.venues.listing import venues_near
from app.venues.params import VenueListParams
from app.venues.repository import VenueRecord


class VenueRoutes(PostRoutes[VenueRecord]):
    list_params = VenueListParams

    async def list_records(self, page: PageDep, ctx: ContextDep, request: Request) -> Response:
        query, near, echoed = await venue_list(ctx, services_of(request).geocoder)
        if near is None:
            return await super().list_records(page, ctx, request)
        items, total = await venues_near(ctx, query, near, page)
        return self.list_answer(ctx, page, items, total, echoed)


router = VenueRoutes(VENUES).register()
