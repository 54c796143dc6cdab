"""Reading the change log (app/models/changes.py) in the order of a token.

A token is a position in the log and the snapshot it was read under: (cursor, snapshot).
Its meaning: every log row with `seq <= cursor` that the snapshot could see has been handed
out. Sequence numbers are drawn at the write, not at the commit, so a row below the cursor
can still commit later: it belongs to a transaction the snapshot saw in flight. The next
read therefore takes the rows after the cursor *and* the rows at or below it that the old
snapshot could not see (`pg_visible_in_snapshot`), which are exactly the late commits: no
row is skipped, and none handed out twice. Both parts, the new snapshot and the sequence's
last value are read in one statement, so they agree with each other.
"""

import base64
import binascii
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

# `cursor:xmin:xmax:xip,xip,...` (PostgreSQL's pg_snapshot text after the cursor).
TOKEN_TEXT = re.compile(r"(\d{1,19}):(\d{1,20}:\d{1,20}:(?:\d{1,20}(?:,\d{1,20})*)?)")
MAX_TOKEN_LENGTH = 16_384

STATE = """
    SELECT pg_current_snapshot()::text AS snapshot,
           (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_seq) AS last_seq,
           (SELECT pruned_through FROM change_log_horizon WHERE id = 1) AS pruned
"""
START_SQL = text(STATE)
SCAN_SQL = text(
    f"""
    WITH state AS ({STATE}),
    forward AS (
        SELECT seq, kind, record_id, changed_at, true AS forward FROM change_log
        WHERE seq > :cursor ORDER BY seq LIMIT :limit
    ),
    -- (the text cast first: asyncpg would otherwise want the snapshot as a tuple)
    since AS (SELECT CAST(CAST(:snapshot AS text) AS pg_snapshot) AS snapshot),
    late AS (
        SELECT seq, kind, record_id, changed_at, false AS forward FROM change_log, since
        WHERE seq <= :cursor AND xid >= pg_snapshot_xmin(since.snapshot)
          AND NOT pg_visible_in_snapshot(xid, since.snapshot)
    )
    SELECT state.*, logged.* FROM state
    LEFT JOIN (SELECT * FROM forward UNION ALL SELECT * FROM late) AS logged ON true
    ORDER BY logged.seq
    """
)


# A prefix of the log by seq: a row can only go with every row before it, so that
# "everything after the horizon is kept" holds even when clocks and seqs disagree.
PRUNE_SQL = text(
    """
    WITH edge AS (SELECT max(seq) AS seq FROM change_log WHERE changed_at < :cutoff),
    gone AS (DELETE FROM change_log WHERE seq <= (SELECT seq FROM edge))
    UPDATE change_log_horizon SET pruned_through = edge.seq FROM edge
    WHERE id = 1 AND edge.seq > pruned_through
    """
)


# Of logged event IDs: which are occurrences (what the list and the feed show) and which are
# existing overrides (internal rows: their occurrences are logged with them).
EVENT_IDS_SQL = text(
    """
    SELECT logged.id,
           EXISTS (SELECT 1 FROM occurrences AS o WHERE o.id = logged.id) AS occurrence,
           EXISTS (SELECT 1 FROM events AS e WHERE e.id = logged.id AND e.series_id IS NOT NULL)
               AS override
    FROM unnest(CAST(:ids AS bigint[])) AS logged (id)
    """
)

# Of hidden posts' IDs: those the caller may have seen. Every caller may have seen a post
# that was ever published; a signed-in writer also their own unpublished posts, and any post
# that is gone altogether (nothing tells whose a deleted draft was: see the module of the
# feed's service).
SEEN_SQL = text(
    """
    SELECT logged.id FROM unnest(CAST(:ids AS bigint[])) AS logged (id)
    WHERE EXISTS (SELECT 1 FROM ever_published AS p WHERE p.id = logged.id)
       OR (CAST(:user_id AS bigint) IS NOT NULL AND (
           EXISTS (SELECT 1 FROM events AS r WHERE r.id = logged.id AND r.author_id = :user_id)
           OR EXISTS (SELECT 1 FROM occurrences AS r
                      WHERE r.id = logged.id AND r.author_id = :user_id)
           OR EXISTS (SELECT 1 FROM venues AS r WHERE r.id = logged.id AND r.author_id = :user_id)
           OR EXISTS (SELECT 1 FROM organizers AS r
                      WHERE r.id = logged.id AND r.author_id = :user_id)
           OR NOT (EXISTS (SELECT 1 FROM events AS r WHERE r.id = logged.id)
                   OR EXISTS (SELECT 1 FROM occurrences AS r WHERE r.id = logged.id)
                   OR EXISTS (SELECT 1 FROM venues AS r WHERE r.id = logged.id)
                   OR EXISTS (SELECT 1 FROM organizers AS r WHERE r.id = logged.id))))
    """
)

# Of logged attendee IDs: what the feed tells of each that still exists (never a name or
# an address: the feed and webhooks carry no personal data).
ATTENDEES_SQL = text(
    """
    SELECT id, event_id, ticket_id, status, quantity, checked_in_at, created_at, modified_at
    FROM attendees WHERE id = ANY(CAST(:ids AS bigint[]))
    """
)

MAC_BYTES = 12


def token_key(secret: str) -> bytes:
    """The key tokens are signed with, derived from a server secret."""
    return hashlib.sha256(b"almanac changes token\x00" + secret.encode()).digest()


@dataclass(frozen=True, slots=True)
class Token:
    cursor: int
    snapshot: str

    def encode(self, key: bytes) -> str:
        """Opaque and signed: a client cannot make up a snapshot that would have the next
        read rescan the whole log."""
        raw = f"{self.cursor}:{self.snapshot}".encode()
        mac = hmac.new(key, raw, hashlib.sha256).digest()[:MAC_BYTES]
        return base64.urlsafe_b64encode(mac + raw).rstrip(b"=").decode()

    @staticmethod
    def decode(value: str, key: bytes) -> "Token | None":
        """The token a client sent back, None if it is not one of ours."""
        if len(value) > MAX_TOKEN_LENGTH:
            return None
        try:
            data = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError):
            return None
        mac, raw = data[:MAC_BYTES], data[MAC_BYTES:]
        expected = hmac.new(key, raw, hashlib.sha256).digest()[:MAC_BYTES]
        if not hmac.compare_digest(mac, expected):
            return None
        match = TOKEN_TEXT.fullmatch(raw.decode("ascii", "replace"))
        if match is None or int(match[1]) >= 2**63 or not _valid_snapshot(match[2]):
            return None
        return Token(int(match[1]), match[2])


def _valid_snapshot(text: str) -> bool:
    """What PostgreSQL accepts as a pg_snapshot: xmin <= xmax, in-flight IDs in order within
    [xmin, xmax), all within 64 bits."""
    xmin, xmax, listed = text.split(":")
    xips = [int(xid) for xid in listed.split(",")] if listed else []
    bounds = [int(xmin), int(xmax), *xips]
    if any(value >= 2**63 for value in bounds) or int(xmin) < 1 or int(xmin) > int(xmax):
        return False
    return all(int(xmin) <= xid < int(xmax) for xid in xips) and xips == sorted(xips)


@dataclass(frozen=True, slots=True)
class Logged:
    """A record that changed: its latest log row among those read."""

    kind: str
    record_id: int
    seq: int
    changed_at: datetime


@dataclass(frozen=True, slots=True)
class AttendeeState:
    """An attendee as the changes feed tells of it: IDs, status, places, check-in, and the
    times that tell what its latest change was (app/changes/service.py)."""

    id: int
    event_id: int
    ticket_id: int
    status: str
    quantity: int
    checked_in_at: datetime | None
    created_at: datetime
    modified_at: datetime


@dataclass(frozen=True, slots=True)
class Scan:
    changes: list[Logged]  # one per record, in the order of their latest change
    next: Token
    has_more: bool


class ChangeRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def start(self) -> Token:
        """The token of now: everything visible has been handed out (by a full download)."""
        row = (await self.session.execute(START_SQL)).one()
        return Token(row.last_seq, row.snapshot)

    async def scan(self, since: Token, limit: int) -> Scan | None:
        """Changes after `since`, at most `limit` log rows after its cursor (plus the late
        commits below it); None when `since` points into the pruned past (or is not from
        this database: ahead of its sequence)."""
        values = {"cursor": since.cursor, "snapshot": since.snapshot, "limit": limit + 1}
        rows = (await self.session.execute(SCAN_SQL, values)).all()
        state = rows[0]
        if since.cursor < state.pruned or since.cursor > state.last_seq:
            return None
        logged = [row for row in rows if row.seq is not None]
        forward = [row for row in logged if row.forward]
        has_more = len(forward) > limit
        if has_more:
            cut = forward[limit - 1].seq
            logged = [row for row in logged if not row.forward or row.seq <= cut]
        cursor = cut if has_more else max(since.cursor, state.last_seq)
        return Scan(_latest(logged), Token(cursor, state.snapshot), has_more)

    async def prune(self, cutoff: datetime) -> None:
        """Delete the rows logged before `cutoff` (a prefix of the log by seq)."""
        await self.session.execute(PRUNE_SQL, {"cutoff": cutoff})

    async def event_ids(self, event_ids: list[int]) -> tuple[set[int], set[int]]:
        """(those of `event_ids` that are occurrences, those that are overrides)."""
        if not event_ids:
            return set(), set()
        rows = (await self.session.execute(EVENT_IDS_SQL, {"ids": event_ids})).all()
        return {r.id for r in rows if r.occurrence}, {r.id for r in rows if r.override}

    async def attendees(self, attendee_ids: list[int]) -> dict[int, AttendeeState]:
        """The attendees of `attendee_ids` that exist, by ID."""
        if not attendee_ids:
            return {}
        rows = await self.session.execute(ATTENDEES_SQL, {"ids": attendee_ids})
        return {row.id: AttendeeState(**row._mapping) for row in rows}

    async def seen(self, post_ids: list[int], user_id: int | None) -> set[int]:
        """Those of `post_ids` (posts the caller may not read now) that the caller may have
        seen: ever published, or, for a signed-in `user_id`, their own or gone (SEEN_SQL)."""
        if not post_ids:
            return set()
        values = {"ids": post_ids, "user_id": user_id}
        return set((await self.session.execute(SEEN_SQL, values)).scalars())


def _latest(rows: list[Any]) -> list[Logged]:
    """One entry per record (its latest row), oldest first."""
    latest: dict[tuple[str, int], Any] = {}
    for row in rows:  # in seq order
        latest.pop((row.kind, row.record_id), None)
        latest[row.kind, row.record_id] = row
    return [Logged(r.kind, r.record_id, r.seq, r.changed_at) for r in latest.values()]
