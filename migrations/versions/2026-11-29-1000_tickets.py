"""Tickets, attendees and the mail outbox

`tickets`: what a visitor may RSVP to, per event or per date of a series (`occurrence_id`,
an event ID as the list shows it), with a capacity (null: unlimited) and `taken`, the places
held by going attendees: a ticket's row is the one thing an RSVP locks and the check keeps
it within the capacity whatever the writer. `attendees`: who answered (going, not going,
waitlisted, cancelled), with their own language and a random `secret` from which their
signed links are made. `mail_outbox`: every message, written in the transaction that caused
it and sent by a worker (docs/design.md#tickets-and-rsvp).

The change log: a ticket logs its event (the body's `ticketed`); an attendee logs itself as
kind `attendee` when it is made, deleted, or its status, places, ticket or check-in change
(never for a name or an address: the feed and webhooks carry no personal data).

Revision ID: a1f2e3d4c5b6
Revises: 9c5e6f7a8b0d
Create Date: 2026-11-29 10:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "a1f2e3d4c5b6"
down_revision: str | None = "9c5e6f7a8b0d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TICKET_EVENT = "SELECT 'event', coalesce(occurrence_id, event_id) FROM {rows}"
ATTENDEE_COLUMNS = ("status", "quantity", "ticket_id", "checked_in_at")
ATTENDEE_CHANGED = (
    "SELECT 'attendee', n.id FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id WHERE "
    + " OR ".join(f"o.{c} IS DISTINCT FROM n.{c}" for c in ATTENDEE_COLUMNS)
)
TICKET_MOVED = (
    "SELECT 'event', coalesce(n.occurrence_id, n.event_id) FROM new_rows AS n "
    "JOIN old_rows AS o ON o.id = n.id WHERE o.event_id IS DISTINCT FROM n.event_id "
    "OR o.occurrence_id IS DISTINCT FROM n.occurrence_id "
    "UNION ALL SELECT 'event', coalesce(o.occurrence_id, o.event_id) FROM new_rows AS n "
    "JOIN old_rows AS o ON o.id = n.id WHERE o.event_id IS DISTINCT FROM n.event_id "
    "OR o.occurrence_id IS DISTINCT FROM n.occurrence_id"
)

# (table, operation) -> the (kind, record_id) rows to log.
LOGGED: dict[tuple[str, str], str] = {
    ("tickets", "INSERT"): TICKET_EVENT.format(rows="new_rows"),
    ("tickets", "UPDATE"): TICKET_MOVED,
    ("tickets", "DELETE"): TICKET_EVENT.format(rows="old_rows"),
    ("attendees", "INSERT"): "SELECT 'attendee', id FROM new_rows",
    ("attendees", "UPDATE"): ATTENDEE_CHANGED,
    ("attendees", "DELETE"): "SELECT 'attendee', id FROM old_rows",
}


def _name(table: str, op_name: str) -> str:
    return f"change_log_{table}_{op_name.lower()}"


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE tickets (
            id bigserial PRIMARY KEY,
            event_id bigint NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            occurrence_id bigint REFERENCES occurrences (id) ON DELETE CASCADE,
            name varchar(200) NOT NULL,
            description text NOT NULL DEFAULT '',
            capacity integer CHECK (capacity >= 0),
            taken integer NOT NULL DEFAULT 0,
            max_per_person integer NOT NULL DEFAULT 10 CHECK (max_per_person >= 1),
            sale_starts timestamptz,
            sale_ends timestamptz,
            waitlist boolean NOT NULL DEFAULT false,
            price numeric(12, 2) NOT NULL DEFAULT 0 CHECK (price >= 0),
            currency varchar(3) NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            modified_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT tickets_within_capacity
                CHECK (taken >= 0 AND (capacity IS NULL OR taken <= capacity)),
            CONSTRAINT tickets_sale_window
                CHECK (sale_starts IS NULL OR sale_ends IS NULL OR sale_starts < sale_ends)
        )
        """
    )
    op.execute("CREATE INDEX tickets_event_idx ON tickets (event_id)")
    op.execute(
        "CREATE INDEX tickets_occurrence_idx ON tickets (occurrence_id) "
        "WHERE occurrence_id IS NOT NULL"
    )
    op.execute(
        """
        CREATE TABLE attendees (
            id bigserial PRIMARY KEY,
            ticket_id bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
            -- The event as clients name it: the ticket's date, else its event (no key:
            -- a series' later dates are no events rows; the ticket's key cascades).
            event_id bigint NOT NULL,
            name varchar(200) NOT NULL,
            email varchar(254) NOT NULL,
            quantity integer NOT NULL CHECK (quantity >= 1),
            status varchar(12) NOT NULL
                CHECK (status IN ('going', 'not_going', 'waitlisted', 'cancelled')),
            language varchar(5) NOT NULL,
            secret varchar(64) NOT NULL,
            checked_in_at timestamptz,
            checked_in_by bigint REFERENCES users (id) ON DELETE SET NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            modified_at timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    # The waitlist is a ticket's waiting attendees in the order they came (by ID).
    op.execute("CREATE INDEX attendees_ticket_idx ON attendees (ticket_id, status, id)")
    op.execute("CREATE INDEX attendees_event_idx ON attendees (event_id, id)")
    op.execute("CREATE INDEX attendees_email_idx ON attendees (lower(email))")
    # A removed user's check-ins are set to null through this index, not a scan.
    op.execute(
        "CREATE INDEX attendees_checked_in_by_idx ON attendees (checked_in_by) "
        "WHERE checked_in_by IS NOT NULL"
    )
    op.execute(
        """
        CREATE TABLE mail_outbox (
            id bigserial PRIMARY KEY,
            kind varchar(32) NOT NULL,
            recipient varchar(254) NOT NULL,
            language varchar(5) NOT NULL,
            subject text NOT NULL,
            message bytea NOT NULL,
            attendee_id bigint REFERENCES attendees (id) ON DELETE CASCADE,
            event_id bigint,
            created_at timestamptz NOT NULL DEFAULT now(),
            attempts integer NOT NULL DEFAULT 0,
            next_attempt_at timestamptz NOT NULL DEFAULT now(),
            sent_at timestamptz,
            failed_at timestamptz,
            last_error text
        )
        """
    )
    op.execute(
        "CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) "
        "WHERE sent_at IS NULL AND failed_at IS NULL"
    )
    op.execute("CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (lower(recipient))")
    op.execute("CREATE INDEX mail_outbox_attendee_idx ON mail_outbox (attendee_id)")
    for (table, op_name), logged in LOGGED.items():
        name = _name(table, op_name)
        rows = "OLD TABLE AS old_rows" if op_name == "DELETE" else "NEW TABLE AS new_rows"
        if op_name == "UPDATE":
            rows = "OLD TABLE AS old_rows NEW TABLE AS new_rows"
        op.execute(
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"INSERT INTO change_log (kind, record_id) "
            f"SELECT DISTINCT kind, id FROM ({logged}) AS logged (kind, id); "
            "RETURN NULL; END $$"
        )
        op.execute(
            f"CREATE TRIGGER {name} AFTER {op_name} ON {table} REFERENCING {rows} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
        )


def downgrade() -> None:
    for table, op_name in LOGGED:
        name = _name(table, op_name)
        op.execute(f"DROP TRIGGER {name} ON {table}")
        op.execute(f"DROP FUNCTION {name}()")
    op.execute("DROP TABLE mail_outbox")
    op.execute("DROP TABLE attendees")
    op.execute("DROP TABLE tickets")
