"""The media library: uploaded images and their sizes

`images` rows so far were external images known by URL. An upload has no URL of its own
(it is built from `file`, the name in the media storage), so `url` becomes optional. The
change log's trigger on `images` (migration e17a0b1c2d3e) also watches the new columns an
embedded image shows (`sizes`, `filesize`, `alt`, ...): a changed image is a change of the
events, venues and organizers that show it.

Revision ID: f29a0b1c2d3e
Revises: 32a0b1c2d3e4
Create Date: 2026-11-24 20:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "f29a0b1c2d3e"
down_revision: str | None = "32a0b1c2d3e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_COLUMNS = ("url", "extension", "width", "height")
NEW_COLUMNS = (*OLD_COLUMNS, "file", "mime_type", "filesize", "sizes", "alt")


def _trigger(columns: tuple[str, ...]) -> str:
    """The images' UPDATE trigger function: every post showing a changed image, and the
    events embedding such a venue or organizer."""
    differ = " OR ".join(f"o.{c} IS DISTINCT FROM n.{c}" for c in columns)
    ids = f"SELECT n.id FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id WHERE {differ}"
    users = " UNION ALL ".join(
        [
            f"SELECT 'event', id FROM events WHERE image_id IN ({ids})",
            f"SELECT 'venue', id FROM venues WHERE image_id IN ({ids})",
            f"SELECT 'organizer', id FROM organizers WHERE image_id IN ({ids})",
            "SELECT 'event', e.id FROM events AS e WHERE e.venue_id IN "
            f"(SELECT id FROM venues WHERE image_id IN ({ids}))",
            "SELECT 'event', l.event_id FROM event_organizers AS l WHERE l.organizer_id IN "
            f"(SELECT id FROM organizers WHERE image_id IN ({ids}))",
        ]
    )
    return (
        "CREATE OR REPLACE FUNCTION change_log_images_update() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ BEGIN INSERT INTO change_log (kind, record_id) "
        f"SELECT DISTINCT kind, id FROM ({users}) AS logged (kind, id); RETURN NULL; END $$"
    )


def upgrade() -> None:
    op.alter_column("images", "url", nullable=True)
    op.add_column("images", sa.Column("file", sa.String(200), nullable=True))
    op.add_column("images", sa.Column("mime_type", sa.String(50), nullable=True))
    op.add_column("images", sa.Column("filesize", sa.BigInteger(), nullable=True))
    for name in ("sizes", "title", "alt", "caption"):
        op.add_column(
            "images", sa.Column(name, JSONB(), nullable=False, server_default=sa.text("'{}'"))
        )
    op.add_column(
        "images",
        sa.Column(
            "author_id",
            sa.BigInteger(),
            sa.ForeignKey("users.id", ondelete="SET NULL", name="images_author_id_fkey"),
            nullable=True,
        ),
    )
    op.create_index("images_author_id_idx", "images", ["author_id"])
    op.create_index("images_file_idx", "images", ["file"])
    op.add_column("images", sa.Column("post_id", sa.BigInteger(), nullable=True))
    op.add_column("images", sa.Column("source_url", sa.Text(), nullable=True))
    op.create_unique_constraint("images_source_url_key", "images", ["source_url"])
    op.add_column(
        "images",
        sa.Column(
            "modified_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
    )
    # "Is this image used?" (a delete's 409) and the change log's trigger look posts up by
    # image through the indexes of migration 32a0b1c2d3e4 (`<table>_image_idx`).
    op.execute(_trigger(NEW_COLUMNS))


def downgrade() -> None:
    op.execute(_trigger(OLD_COLUMNS))
    # Uploads have no URL: they cannot stay once `url` is required again.
    op.execute("DELETE FROM images WHERE url IS NULL")
    op.drop_column("images", "modified_at")
    op.drop_constraint("images_source_url_key", "images", type_="unique")
    op.drop_index("images_file_idx", table_name="images")
    for name in ("source_url", "post_id"):
        op.drop_column("images", name)
    op.drop_index("images_author_id_idx", table_name="images")
    op.drop_column("images", "author_id")
    for name in ("caption", "alt", "title", "sizes", "filesize", "mime_type", "file"):
        op.drop_column("images", name)
    op.alter_column("images", "url", nullable=False)
