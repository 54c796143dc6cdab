"""The word free in lower case in stored cost details

`cost_details.values` keep the components of a cost as written, but the word `free` in
lower case, as the reference records it (app/events/cost.py): rows written before keep
`Free` or `FREE` until rewritten here. Downgrading keeps the lower case, which the older
code reads as well (it compared the word case-insensitively).

Revision ID: 24a0b1c2d3e4
Revises: e18a0b1c2d3e
Create Date: 2026-11-24 20:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "24a0b1c2d3e4"
down_revision: str | None = "e18a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        UPDATE events SET cost_details = jsonb_set(
            cost_details,
            '{values}',
            (SELECT jsonb_agg(
                        CASE WHEN lower(value #>> '{}') = 'free' THEN '"free"'::jsonb
                             ELSE value END
                        ORDER BY position)
               FROM jsonb_array_elements(cost_details -> 'values')
                    WITH ORDINALITY AS item(value, position))
        )
        WHERE jsonb_typeof(cost_details -> 'values') = 'array'
          AND EXISTS (
              SELECT 1 FROM jsonb_array_elements_text(cost_details -> 'values') AS item(word)
              WHERE lower(word) = 'free' AND word <> 'free'
          )
        """
    )


def downgrade() -> None:
    # Nothing to undo: the values stay correct for the older code (see the docstring).
    pass
