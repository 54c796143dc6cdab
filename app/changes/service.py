"""The changes feed for one caller: the log's changed records, each as the caller sees it
now. A record the caller may read is an `upsert` with the body its GET returns; one that
is gone or that the caller may no longer read (trashed, deleted, unpublished, made
private) is a `delete`. The feed reports current states, not history: a record changed
three times since the token appears once, as it is now.

A hidden post is a `delete` only if the caller may have seen it: one that was never public
and that the caller could never read (a new draft, for anonymous callers and the webhooks)
is left out, so that the feed does not tell them that it exists, nor its ID. What tells it
is `ever_published` (migration 5e1a2b3c4d6f), not the log: the log keeps no statuses and its
older rows are pruned while a token is still valid. A signed-in writer below editor could
read their own drafts, so those stay `delete`s; a post that is gone altogether is one for
them too, as nothing tells whose a deleted draft was (the ID of another's deleted draft
is what a writer may so learn; anonymous callers never).

An attendee (kind `attendee`) is told with IDs, status, places and check-in alone, never a
name or an address, to the callers who may read its event (webhooks: a public event); its
action says what its latest change was, read from its row (`attendee_action`). One that is
gone (forgotten, or its ticket deleted) is a `delete` for everybody: its event is gone with
it, and its ID tells nothing else."""

from datetime import UTC, tzinfo
from typing import Any

from app.changes.repository import AttendeeState, ChangeRepository, Logged, Token, token_key
from app.core.errors import invalid, note, sync_token_expired
from app.core.rules.dates import format_datetime
from app.core.rules.permissions import can_create_posts, may
from app.events.kind import EVENTS
from app.http.context import RequestContext
from app.organizers.kind import ORGANIZERS
from app.posts.kind import PostKind
from app.posts.service import PostService
from app.terms.service import CATEGORIES, TAGS, TermKind, TermService
from app.venues.kind import VENUES

Body = dict[str, Any]
ATTENDEE = "attendee"
POST_KINDS: dict[str, PostKind[Any]] = {"event": EVENTS, "venue": VENUES, "organizer": ORGANIZERS}
TERM_KINDS: dict[str, TermKind] = {"category": CATEGORIES, "tag": TAGS}


class ChangeFeed:
    def __init__(self, ctx: RequestContext) -> None:
        self.ctx = ctx
        self.repo = ChangeRepository(ctx.session)
        self.key = token_key(ctx.settings.app_password_pepper)

    async def read(self, since_token: str | None, per_page: int) -> Body:
        """The changes after `since_token` (None: none, and a token to start from), at most
        `per_page` of them."""
        if since_token is None:
            token = await self.repo.start()
            return {"changes": [], "next_since": token.encode(self.key), "has_more": False}
        since = Token.decode(since_token, self.key)
        if since is None:
            raise invalid("since", note("bad_sync_token"))
        scan = await self.repo.scan(since, per_page)
        if scan is None:
            raise sync_token_expired()
        changes = await self.describe(scan.changes)
        next_since = scan.next.encode(self.key)
        return {"changes": changes, "next_since": next_since, "has_more": scan.has_more}

    async def describe(self, logged: list[Logged]) -> list[Body]:
        """The feed's entries of logged changes, for this caller (also what webhooks send,
        as an anonymous caller: app/webhooks/fanout.py)."""
        shown, occurrences = await self._shown(logged)
        posts = [change for change in shown if change.kind != ATTENDEE]
        bodies = await self._visible(posts, occurrences)
        unseen = await self._never_seen(posts, bodies)
        attendees = await self._attendees([c.record_id for c in shown if c.kind == ATTENDEE])
        entries = []
        for change in shown:
            if change.kind == ATTENDEE:
                if change.record_id in attendees:
                    entries.append(self._attendee_change(change, attendees[change.record_id]))
            elif (change.kind, change.record_id) not in unseen:
                entries.append(self._change(change, bodies))
        return entries

    async def _attendees(self, attendee_ids: list[int]) -> dict[int, AttendeeState | None]:
        """The changed attendees this caller hears of: those of an event it may read (as
        its GET answers), and those that are gone (None)."""
        if not attendee_ids:
            return {}
        states = await self.repo.attendees(attendee_ids)
        event_ids = sorted({state.event_id for state in states.values()})
        readable = {
            event.id for event in await PostService(EVENTS, self.ctx).readable_many(event_ids)
        }
        return {
            attendee_id: state
            for attendee_id in attendee_ids
            if (state := states.get(attendee_id)) is None or state.event_id in readable
        }

    def _attendee_change(self, logged: Logged, state: AttendeeState | None) -> Body:
        record = None if state is None else attendee_record(state, self.ctx.settings.site_zone)
        return _entry(logged, attendee_action(state), record)

    async def _never_seen(
        self, changes: list[Logged], bodies: dict[tuple[str, int], Body]
    ) -> set[tuple[str, int]]:
        """The hidden posts this caller could never have seen (the module's rule)."""
        user = self.ctx.user
        if may(user, "read", None, "draft"):  # editors read every post: nothing unseen
            return set()
        hidden = {
            (c.kind, c.record_id)
            for c in changes
            if c.kind in POST_KINDS and (c.kind, c.record_id) not in bodies
        }
        # Only writers (contributor and up) could read unpublished posts of their own.
        writer = user.id if user is not None and can_create_posts(user) else None
        seen = await self.repo.seen([record_id for _, record_id in hidden], writer)
        return {key for key in hidden if key[1] not in seen}

    @staticmethod
    def _change(logged: Logged, bodies: dict[tuple[str, int], Body]) -> Body:
        record = bodies.get((logged.kind, logged.record_id))
        return _entry(logged, "delete" if record is None else "upsert", record)

    async def _shown(self, changes: list[Logged]) -> tuple[list[Logged], set[int]]:
        """The changes a client hears of. An event ID in the feed is an occurrence's, as in
        the list: an override's row (an internal copy of a series under its own ID) is left
        out, its occurrences being logged with it; and an event row that is no occurrence
        (a series without a date at its own start, after a split) is a `delete`, for the
        feed's records to be the list's. Also: which changed event IDs are occurrences."""
        event_ids = [logged.record_id for logged in changes if logged.kind == "event"]
        occurrences, overrides = await self.repo.event_ids(event_ids)
        shown = [c for c in changes if c.kind != "event" or c.record_id not in overrides]
        return shown, occurrences

    async def _visible(
        self, changes: list[Logged], occurrences: set[int]
    ) -> dict[tuple[str, int], Body]:
        """The body of each changed record's GET for this caller, if that GET answers 200
        (and, for an event, it is an occurrence): one query per kind."""
        ids: dict[str, list[int]] = {}
        for logged in changes:
            if logged.kind != "event" or logged.record_id in occurrences:
                ids.setdefault(logged.kind, []).append(logged.record_id)
        bodies: dict[tuple[str, int], Body] = {}
        for kind, record_ids in ids.items():
            if kind in TERM_KINDS:
                found = await TermService(TERM_KINDS[kind], self.ctx).visible_bodies(record_ids)
            else:
                found = await PostService(POST_KINDS[kind], self.ctx).visible_bodies(record_ids)
            bodies.update(((kind, record_id), body) for record_id, body in found.items())
        return bodies


def _entry(logged: Logged, action: str, record: Body | None) -> Body:
    """An entry of the feed (and a webhook message's `data`)."""
    return {
        "kind": logged.kind,
        "id": logged.record_id,
        "action": action,
        "modified_utc": format_datetime(logged.changed_at, UTC),
        "record": record,
    }


def attendee_record(state: AttendeeState, zone: tzinfo) -> Body:
    """What the feed tells of an attendee: IDs, status, places and check-in (in the site's
    `zone`, as the attendee's body writes it); never a name or an address."""
    checked_in = state.checked_in_at
    return {
        "id": state.id,
        "event": state.event_id,
        "ticket": state.ticket_id,
        "status": state.status,
        "quantity": state.quantity,
        "checked_in_at": None if checked_in is None else format_datetime(checked_in, zone),
    }


def attendee_action(state: AttendeeState | None) -> str:
    """What an attendee's latest change was, from its row as it is now (the feed reports
    states): `delete` (gone), `cancelled`, `checked_in` (its check-in is its latest change:
    the writers set `modified_at` with every change), `created` (never changed since), or
    `updated` (another change of status or places: promoted from the waitlist, going to
    not going, a new quantity)."""
    if state is None:
        return "delete"
    if state.status == "cancelled":
        return "cancelled"
    if state.checked_in_at is not None and state.checked_in_at >= state.modified_at:
        return "checked_in"
    if state.modified_at == state.created_at:
        return "created"
    return "updated"
