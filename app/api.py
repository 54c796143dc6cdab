"""The namespace router: every resource router under /calendar/events/v1."""

from fastapi import APIRouter, Depends

from app.attendees.router import router as attendees_router
from app.changes.router import router as changes_router
from app.discovery.router import add_route_descriptions
from app.discovery.router import router as discovery_router
from app.events.router import router as events_router
from app.feeds.router import router as feeds_router
from app.http.context import get_language
from app.media.router import router as media_router
from app.organizers.router import router as organizers_router
from app.terms.router import categories_router, tags_router
from app.tickets.router import router as tickets_router
from app.venues.router import router as venues_router
from app.webhooks.router import router as webhooks_router

# Every route resolves the language, so an unknown one is refused everywhere.
api_router = APIRouter(dependencies=[Depends(get_language)])
api_router.include_router(discovery_router)
# Before the event routes: `/events/by-slug/{slug}` would take `<slug>.ics` for a slug.
api_router.include_router(feeds_router)
api_router.include_router(events_router)
api_router.include_router(categories_router)
api_router.include_router(tags_router)
api_router.include_router(venues_router)
api_router.include_router(organizers_router)
api_router.include_router(changes_router)
api_router.include_router(media_router)
api_router.include_router(webhooks_router)
api_router.include_router(attendees_router)
api_router.include_router(tickets_router)
# OPTIONS on each of them answers its description, as WordPress does.
add_route_descriptions(api_router)
