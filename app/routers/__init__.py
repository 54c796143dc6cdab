"""The namespace router: every resource router under /calendar/events/v1."""

from fastapi import APIRouter, Depends

from app.deps import get_language
from app.routers import discovery, events, organizers, venues
from app.routers.terms import categories_router, tags_router

# Every route resolves the language, so an unknown one is refused everywhere.
api_router = APIRouter(dependencies=[Depends(get_language)])
api_router.include_router(discovery.router)
api_router.include_router(events.router)
api_router.include_router(categories_router)
api_router.include_router(tags_router)
api_router.include_router(venues.router)
api_router.include_router(organizers.router)
