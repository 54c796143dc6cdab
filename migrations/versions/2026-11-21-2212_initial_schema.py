"""initial schema

Revision ID: 1c29b4aab53d
Revises:
Create Date: 2026-11-21 22:12:13.973961
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "1c29b4aab53d"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Events, venues and organizers draw their IDs from one sequence (see app/models/base.py).
    op.execute(sa.schema.CreateSequence(sa.Sequence("post_id_seq")))
    op.create_table(
        "images",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("extension", sa.String(length=20), nullable=False),
        sa.Column("width", sa.Integer(), nullable=True),
        sa.Column("height", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("images_pkey")),
        sa.UniqueConstraint("url", name=op.f("images_url_key")),
    )
    op.create_table(
        "terms",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("taxonomy", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("slug", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint(
            "taxonomy IN ('tribe_events_cat', 'post_tag')", name=op.f("terms_taxonomy_check")
        ),
        sa.ForeignKeyConstraint(
            ["parent_id"], ["terms.id"], name=op.f("terms_parent_id_fkey"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("terms_pkey")),
        sa.UniqueConstraint("taxonomy", "slug", name="terms_taxonomy_slug_key"),
    )
    op.create_index(op.f("terms_parent_id_idx"), "terms", ["parent_id"], unique=False)
    op.create_index(op.f("terms_taxonomy_idx"), "terms", ["taxonomy"], unique=False)
    op.create_index(
        "terms_unique_name_idx",
        "terms",
        ["taxonomy", sa.literal_column("coalesce(parent_id, 0)"), sa.literal_column("lower(name)")],
        unique=True,
    )
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("login", sa.String(length=60), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("users_pkey")),
    )
    op.create_index(
        "users_login_lower_key", "users", [sa.literal_column("lower(login)")], unique=True
    )
    op.create_table(
        "app_passwords",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("app_passwords_user_id_fkey"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("app_passwords_pkey")),
        sa.UniqueConstraint("token_hash", name=op.f("app_passwords_token_hash_key")),
    )
    op.create_index(op.f("app_passwords_user_id_idx"), "app_passwords", ["user_id"], unique=False)
    op.create_table(
        "organizers",
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("phone", sa.String(length=100), nullable=False),
        sa.Column("website", sa.Text(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column(
            "id", sa.BigInteger(), server_default=sa.text("nextval('post_id_seq')"), nullable=False
        ),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("slug", sa.String(length=200), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password", sa.String(length=255), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=True),
        sa.Column("image_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("organizers_author_id_fkey"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["image_id"], ["images.id"], name=op.f("organizers_image_id_fkey"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("organizers_pkey")),
        sa.UniqueConstraint("slug", name=op.f("organizers_slug_key")),
    )
    op.create_index(op.f("organizers_author_id_idx"), "organizers", ["author_id"], unique=False)
    op.create_table(
        "term_translations",
        sa.Column("term_id", sa.BigInteger(), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["term_id"],
            ["terms.id"],
            name=op.f("term_translations_term_id_fkey"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("term_id", "language", name=op.f("term_translations_pkey")),
    )
    op.create_table(
        "venues",
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("address", sa.Text(), nullable=False),
        sa.Column("city", sa.String(length=200), nullable=False),
        sa.Column("country", sa.String(length=200), nullable=False),
        sa.Column("province", sa.String(length=200), nullable=False),
        sa.Column("state", sa.String(length=200), nullable=False),
        sa.Column("zip", sa.String(length=50), nullable=False),
        sa.Column("phone", sa.String(length=100), nullable=False),
        sa.Column("stateprovince", sa.String(length=200), nullable=False),
        sa.Column("website", sa.Text(), nullable=False),
        sa.Column("show_map", sa.Boolean(), nullable=False),
        sa.Column("show_map_link", sa.Boolean(), nullable=False),
        sa.Column("geo_lat", sa.Float(), nullable=True),
        sa.Column("geo_lng", sa.Float(), nullable=True),
        sa.Column(
            "id", sa.BigInteger(), server_default=sa.text("nextval('post_id_seq')"), nullable=False
        ),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("slug", sa.String(length=200), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password", sa.String(length=255), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=True),
        sa.Column("image_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("venues_author_id_fkey"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["image_id"], ["images.id"], name=op.f("venues_image_id_fkey"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("venues_pkey")),
        sa.UniqueConstraint("slug", name=op.f("venues_slug_key")),
    )
    op.create_index(op.f("venues_author_id_idx"), "venues", ["author_id"], unique=False)
    op.create_table(
        "events",
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("end_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("start_local", sa.DateTime(), nullable=False),
        sa.Column("end_local", sa.DateTime(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("timezone_abbr", sa.String(length=64), nullable=False),
        sa.Column("all_day", sa.Boolean(), nullable=False),
        sa.Column("cost", sa.Text(), nullable=False),
        sa.Column("cost_details", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("website", sa.Text(), nullable=True),
        sa.Column("show_map", sa.Boolean(), nullable=False),
        sa.Column("show_map_link", sa.Boolean(), nullable=False),
        sa.Column("hide_from_listings", sa.Boolean(), nullable=False),
        sa.Column("sticky", sa.Boolean(), nullable=False),
        sa.Column("featured", sa.Boolean(), nullable=False),
        sa.Column("venue_id", sa.BigInteger(), nullable=True),
        sa.Column("parent_id", sa.BigInteger(), nullable=True),
        sa.Column(
            "id", sa.BigInteger(), server_default=sa.text("nextval('post_id_seq')"), nullable=False
        ),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("slug", sa.String(length=200), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password", sa.String(length=255), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=True),
        sa.Column("image_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("events_author_id_fkey"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["image_id"], ["images.id"], name=op.f("events_image_id_fkey"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["parent_id"], ["events.id"], name=op.f("events_parent_id_fkey"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["venue_id"], ["venues.id"], name=op.f("events_venue_id_fkey"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("events_pkey")),
        sa.UniqueConstraint("slug", name=op.f("events_slug_key")),
    )
    op.create_index(op.f("events_author_id_idx"), "events", ["author_id"], unique=False)
    op.create_index(op.f("events_parent_id_idx"), "events", ["parent_id"], unique=False)
    op.create_index(op.f("events_venue_id_idx"), "events", ["venue_id"], unique=False)
    op.create_table(
        "organizer_translations",
        sa.Column("organizer_id", sa.BigInteger(), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("name", sa.String(length=500), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["organizer_id"],
            ["organizers.id"],
            name=op.f("organizer_translations_organizer_id_fkey"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "organizer_id", "language", name=op.f("organizer_translations_pkey")
        ),
    )
    op.create_table(
        "venue_translations",
        sa.Column("venue_id", sa.BigInteger(), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("name", sa.String(length=500), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["venue_id"],
            ["venues.id"],
            name=op.f("venue_translations_venue_id_fkey"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("venue_id", "language", name=op.f("venue_translations_pkey")),
    )
    op.create_table(
        "event_organizers",
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("organizer_id", sa.BigInteger(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("event_organizers_event_id_fkey"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["organizer_id"],
            ["organizers.id"],
            name=op.f("event_organizers_organizer_id_fkey"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", "organizer_id", name=op.f("event_organizers_pkey")),
    )
    op.create_index(
        op.f("event_organizers_organizer_id_idx"),
        "event_organizers",
        ["organizer_id"],
        unique=False,
    )
    op.create_table(
        "event_terms",
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("term_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("event_terms_event_id_fkey"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["term_id"], ["terms.id"], name=op.f("event_terms_term_id_fkey"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("event_id", "term_id", name=op.f("event_terms_pkey")),
    )
    op.create_index(op.f("event_terms_term_id_idx"), "event_terms", ["term_id"], unique=False)
    op.create_table(
        "event_translations",
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("event_translations_event_id_fkey"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", "language", name=op.f("event_translations_pkey")),
    )


def downgrade() -> None:
    op.drop_table("event_translations")
    op.drop_index(op.f("event_terms_term_id_idx"), table_name="event_terms")
    op.drop_table("event_terms")
    op.drop_index(op.f("event_organizers_organizer_id_idx"), table_name="event_organizers")
    op.drop_table("event_organizers")
    op.drop_table("venue_translations")
    op.drop_table("organizer_translations")
    op.drop_index(op.f("events_venue_id_idx"), table_name="events")
    op.drop_index(op.f("events_parent_id_idx"), table_name="events")
    op.drop_index(op.f("events_author_id_idx"), table_name="events")
    op.drop_table("events")
    op.drop_index(op.f("venues_author_id_idx"), table_name="venues")
    op.drop_table("venues")
    op.drop_table("term_translations")
    op.drop_index(op.f("organizers_author_id_idx"), table_name="organizers")
    op.drop_table("organizers")
    op.drop_index(op.f("app_passwords_user_id_idx"), table_name="app_passwords")
    op.drop_table("app_passwords")
    op.drop_index("users_login_lower_key", table_name="users")
    op.drop_table("users")
    op.drop_index("terms_unique_name_idx", table_name="terms")
    op.drop_index(op.f("terms_taxonomy_idx"), table_name="terms")
    op.drop_index(op.f("terms_parent_id_idx"), table_name="terms")
    op.drop_table("terms")
    op.drop_table("images")
    op.execute(sa.schema.DropSequence(sa.Sequence("post_id_seq")))
