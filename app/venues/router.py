"""Venues: `/venues`, `/venues/{id}`, `/venues/by-slug/{slug}` (the shared post routes)."""

from app.posts.router import PostRoutes
from app.venues.kind import VENUES

router = PostRoutes(VENUES).register()
