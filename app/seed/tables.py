"""The tables the seed fills and the columns of its rows, in COPY order."""

EVENT_COLUMNS = (
    "id", "status", "slug", "published_at", "modified_at", "password", "title", "description",
    "excerpt", "image_id", "start_at", "end_at", "start_local", "end_local", "timezone",
    "timezone_abbr", "all_day", "cost", "cost_details", "website", "show_map", "show_map_link",
    "hide_from_listings", "sticky", "featured", "venue_id", "recurrence", "dates_until",
)  # fmt: skip

VENUE_COLUMNS = (
    "id", "status", "slug", "published_at", "modified_at", "name", "description", "excerpt",
    "address", "city", "country", "province", "state", "zip", "phone", "stateprovince",
    "website", "show_map", "show_map_link", "geo_lat", "geo_lng", "geo_precision",
)  # fmt: skip

ORGANIZER_COLUMNS = (
    "id", "status", "slug", "published_at", "modified_at", "name", "description", "excerpt",
    "phone", "website", "email",
)  # fmt: skip

TERM_COLUMNS = ("id", "taxonomy", "name", "slug", "description", "parent_id")

POST_TRANSLATION_COLUMNS = ("language", "name", "description", "excerpt")

EVENT_TRANSLATION_COLUMNS = ("event_id", "language", "title", "description", "excerpt")

TERM_TRANSLATION_COLUMNS = ("term_id", "language", "name", "description")

IMAGE_COLUMNS = ("id", "url", "extension", "width", "height", "created_at")

SEEDED_TABLES = (
    "images", "terms", "term_translations", "venues", "venue_translations", "organizers",
    "organizer_translations", "events", "event_translations", "event_terms",
    "event_organizers", "occurrences",
)  # fmt: skip

HIDDEN_COLUMN = EVENT_COLUMNS.index("hide_from_listings")

OCCURRENCE_COLUMNS = (
    "id", "series_id", "content_id", "original_start", "start_at", "end_at", "start_local",
    "end_local", "listed", "published_at", "status", "author_id", "hide_from_listings",
)  # fmt: skip
