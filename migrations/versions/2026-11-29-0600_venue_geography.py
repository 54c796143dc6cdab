"""Venues' geography: how their coordinates were found, and the geocoder's cache

A venue's coordinates are typed by a person (`exact`), found for its full address by a
geocoding service (`address`) or for its city by the embedded gazetteer (`city`); venues
imported with coordinates keep them as typed. `geocoded_at` is when the geocoding service
was last asked for a venue's address, so that a venue the service could not answer is
asked again later, not on every pass. The index serves the bounding box of a search near a
point (app/geo/, docs/design.md#places). The cache keeps the service's answers, found or
not, per normalised query: one request per place, at most one per second.

Revision ID: 8b4d5e6f7a9c
Revises: 7a3c4d5e6f8b
Create Date: 2026-11-29 06:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "8b4d5e6f7a9c"
down_revision: str | None = "7a3c4d5e6f8b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE venues ADD COLUMN geo_precision varchar(10),"
        " ADD COLUMN geocoded_at timestamptz,"
        " ADD CONSTRAINT venues_geo_precision CHECK"
        " (geo_precision IN ('exact', 'address', 'city')),"
        " ADD CONSTRAINT venues_geo_pair CHECK ((geo_lat IS NULL) = (geo_lng IS NULL))"
    )
    op.execute(
        "UPDATE venues SET geo_precision = 'exact' WHERE geo_lat IS NOT NULL AND geo_lng IS NOT NULL"
    )
    op.execute("UPDATE venues SET geo_lat = NULL, geo_lng = NULL WHERE geo_precision IS NULL")
    op.execute("CREATE INDEX venues_geo ON venues (geo_lat, geo_lng) WHERE geo_lat IS NOT NULL")
    op.execute(
        "CREATE TABLE geocode_cache ("
        " query text PRIMARY KEY,"
        " lat double precision,"
        " lng double precision,"
        " fetched_at timestamptz NOT NULL DEFAULT clock_timestamp())"
    )


def downgrade() -> None:
    op.execute("DROP TABLE geocode_cache")
    op.execute("DROP INDEX venues_geo")
    op.execute(
        "ALTER TABLE venues DROP CONSTRAINT venues_geo_pair,"
        " DROP CONSTRAINT venues_geo_precision,"
        " DROP COLUMN geocoded_at, DROP COLUMN geo_precision"
    )
