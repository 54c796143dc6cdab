"""Indexes for slug prefix lookups (`slug LIKE 'base-%'`)

Choosing a free slug looks for `base` and `base-N`. Under a non-C collation the unique
btree on slug cannot serve a LIKE prefix, so at a million events every create scanned the
table; text_pattern_ops indexes serve it.

Revision ID: b7c8d9e0f1a2
Revises: a1b2c3d4e5f6
Create Date: 2026-11-22 00:40:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "b7c8d9e0f1a2"
down_revision: str | None = "a1b2c3d4e5f6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {
    "events_slug_pattern_idx": "events (slug text_pattern_ops)",
    "venues_slug_pattern_idx": "venues (slug text_pattern_ops)",
    "organizers_slug_pattern_idx": "organizers (slug text_pattern_ops)",
    "terms_slug_pattern_idx": "terms (taxonomy, slug text_pattern_ops)",
}


def upgrade() -> None:
    for name, target in INDEXES.items():
        op.execute(f"CREATE INDEX {name} ON {target}")


def downgrade() -> None:
    for name in INDEXES:
        op.execute(f"DROP INDEX {name}")
