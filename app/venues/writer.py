"""The venue writer: the shared writer of venues and organizers (app/posts/writer.py) with
the venue's place (app/venues/placing.py)."""

from typing import Any

from app.core.errors import Problems
from app.geo import gazetteer
from app.posts.writer import PostWriter
from app.venues.placing import GEOCODING_WANTED, place_columns, wants_geocoding
from app.venues.repository import VenueRecord


class VenueWriter(PostWriter[VenueRecord]):
    async def _derived(
        self, own: dict[str, Any], current: VenueRecord | None, problems: Problems
    ) -> dict[str, Any]:
        await gazetteer.ready()
        columns = place_columns(own, current, problems)
        if wants_geocoding(columns):
            # The after-commit hook wakes the geocoding (app/venues/geocoding.py).
            self.repo.session.info[GEOCODING_WANTED] = True
        return columns
