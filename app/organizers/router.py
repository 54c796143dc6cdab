"""Organizers: `/organizers`, `/organizers/{id}`, `/organizers/by-slug/{slug}` (the shared post routes)."""

from app.organizers.kind import ORGANIZERS
from app.posts.router import PostRoutes

router = PostRoutes(ORGANIZERS).register()
