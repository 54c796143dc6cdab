"""Venues and organizers referenced from an event payload: IDs, `{id}` objects or inline
records (reusing an identical existing one, reference §9.2)."""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.errors import InvalidParams, MissingParams, invalid
from app.core.permissions import Principal
from app.core.settings import get_settings
from app.core.sql import escape_like
from app.http.params import decimal
from app.models import Organizer, Venue
from app.organizers.router import ORGANIZERS
from app.posts.router import insert_record
from app.venues.router import VENUES

MAX_LINKED = 100
MATCHED_FIELDS = {
    "venue": frozenset(
        {
            "venue",
            "description",
            "excerpt",
            "address",
            "city",
            "province",
            "state",
            "stateprovince",
            "zip",
            "phone",
        }
    ),
    "organizer": frozenset({"organizer", "description", "excerpt", "phone", "email", "website"}),
}


def _as_id(value: Any) -> int | None:
    """A positive integer ID from an int or a digit string, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value < 2**62 else None
    number = decimal(value) if isinstance(value, str) else None
    return number if number is not None and 0 < number < 2**62 else None


def _is_empty(value: Any) -> bool:
    if value in (None, "", 0, "0", [], {}):
        return True
    return isinstance(value, dict) and all(v in (None, "", []) for v in value.values())


@dataclass
class LinkedPosts:
    session: AsyncSession
    user: Principal
    language: str

    async def venue(self, raw: Any) -> int | None:
        """The venue to link, or None to unlink (`null`, `0`, `""`, `[]`)."""
        if isinstance(raw, list) and len(raw) == 1:
            raw = raw[0]
        if _is_empty(raw):
            return None
        venue_id = await self._reference("venue", Venue, raw)
        if venue_id is None:
            raise invalid("venue")
        return venue_id

    async def organizers(self, raw: Any) -> list[int]:
        """Organizers to link, in order; `[]`, `""` or `0` unlink them all."""
        if _is_empty(raw):
            return []
        if isinstance(raw, str) and "," in raw:
            items: list[Any] = [part for part in raw.split(",") if part.strip()]
        elif isinstance(raw, list):
            items = raw
        else:
            items = [raw]
        if len(items) > MAX_LINKED:
            raise invalid("organizer")
        ids: list[int] = []
        for item in items:
            organizer_id = await self._reference("organizer", Organizer, item)
            if organizer_id is None:
                raise invalid("organizer")
            ids.append(organizer_id)
        return list(dict.fromkeys(ids))

    async def _reference(
        self, name: str, model: type[Venue] | type[Organizer], item: Any
    ) -> int | None:
        if isinstance(item, dict):
            if "id" in item and _as_id(item["id"]) is not None:
                return await self._existing(model, _as_id(item["id"]))
            if name in item:
                return await self._inline(name, item)
            return None
        return await self._existing(model, _as_id(item))

    async def _existing(
        self, model: type[Venue] | type[Organizer], record_id: int | None
    ) -> int | None:
        if record_id is None:
            return None
        found: int | None = await self.session.scalar(select(model.id).where(model.id == record_id))
        return found

    async def _inline(self, name: str, data: dict[str, Any]) -> int | None:
        """An identical existing record (every field sent matches), else a new one."""
        model = Venue if name == "venue" else Organizer
        fields = {key.lower(): value for key, value in data.items()}
        existing = await self._identical(model, name, fields)
        if existing is not None:
            return existing
        default = get_settings().default_language
        try:
            if name == "venue":
                venues = VENUES.repository(self.session, self.language, default)
                return await insert_record(VENUES, venues, self.user, fields)
            organizers = ORGANIZERS.repository(self.session, self.language, default)
            return await insert_record(ORGANIZERS, organizers, self.user, fields)
        except (InvalidParams, MissingParams):
            raise invalid(name) from None

    async def _identical(
        self, model: type[Venue] | type[Organizer], name: str, fields: dict[str, Any]
    ) -> int | None:
        """Reference §9.10 duplicate avoidance: texts and details equal (case-insensitive),
        the address contained; only the fields sent, non-empty, count."""
        matchable = MATCHED_FIELDS[name]
        conditions: list[Any] = [model.status != "trash"]
        for key, value in fields.items():
            if key not in matchable or not isinstance(value, str) or not value.strip():
                continue
            column = model.name if key == name else getattr(model, key)
            if key == "address":
                conditions.append(column.ilike(f"%{escape_like(value.strip())}%"))
            else:
                conditions.append(func.lower(column) == value.strip().lower())
        if len(conditions) == 1 or name not in fields:
            return None
        found: int | None = await self.session.scalar(
            select(model.id).where(*conditions).order_by(model.id).limit(1)
        )
        return found
